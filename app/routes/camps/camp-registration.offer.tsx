import { data, Form, href, Link, redirectDocument } from 'react-router'
import type { Route } from './+types/camp-registration.offer'
import { AuthCard, FormAlert, HoneypotField, PendingButton } from '~/components/form-controls'
import { DetailRow } from '~/components/payment-status-card'
import { QuoteTable } from '~/components/quote-table'
import { formatWholeRupees } from '~/lib/money'
import { formatDateRange, formatLabDateTime, formatTimeRange } from '~/lib/lab-time'
import { rejectBots } from '~/web/honeypot'
import { CAMP_STATUS_LINK, INVALID_LINK, isLinkKey, privateLinkUrl, WAITLIST_OFFER_LINK } from '~/lib/private-links.server'
import { pageMeta } from '~/lib/seo'
import { campPaymentDescription } from '~/modules/camps/registrations.server'
import { offeredRegistration } from '~/modules/camps/status.server'
import { HoldExpiredError, PaymentStartError } from '~/modules/payments/payments.server'
import { checkout, storedQuote } from '~/modules/payments/checkout.server'
import { quoteRows } from '~/modules/payments/quote'
import { readForm } from '~/web/form-data.server'
import { callerOf } from '~/web/auth.server'
import { notFoundUnless, refusalOf, type Refusal } from '~/web/refusals.server'
import { clientNetwork } from '~/modules/rate-limit/client-network'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Your camp seat', description: 'Check the price of the camp seat held for you, and pay for it.', path: href('/onboarding/offer') }),
  { name: 'robots', content: 'noindex' },
]

/**
 * The summary of a camp seat held for a parent (registered on the form, or offered from the
 * waitlist), before anything goes to the gateway: each swimmer's fee, the sibling price, the promo
 * code's discount and the total the gateway will ask, which the Pay button names. The parent
 * confirms that total; should the price have changed meanwhile, they see the new one instead.
 */

/** The registration the link names, if the link is one the site made. */
async function offerFrom(request: Request) {
  const params = new URL(request.url).searchParams
  const reference = params.get('registration') ?? ''
  if (!(await isLinkKey(WAITLIST_OFFER_LINK, reference, params.get('key')))) return null
  return offeredRegistration(reference)
}

export async function loader({ request }: Route.LoaderArgs) {
  const offer = await offerFrom(request)
  notFoundUnless(offer, INVALID_LINK)
  const now = new Date()
  const quote = await storedQuote({ kind: 'camp', id: offer.id })
  return {
    state: offer.status === 'confirmed' ? 'registered' : offer.status === 'pending' && offer.holdExpiresAt && offer.holdExpiresAt > now ? 'held' : 'expired',
    fromWaitlist: Boolean(offer.fromWaitlist),
    swimmerNames: quote.lines.map((line) => line.swimmerName),
    camp: `${offer.campName}: ${formatDateRange(offer.campStartsOn, offer.campEndsOn)}`,
    batch: `${offer.batchName}: ${offer.timeRanges.map((range) => formatTimeRange(range.start, range.end)).join(' and ')}`,
    prices: quoteRows(quote),
    totalPaise: quote.totalPaise,
    total: formatWholeRupees(quote.totalPaise),
    heldUntil: offer.holdExpiresAt ? formatLabDateTime(offer.holdExpiresAt) : null,
    reference: offer.reference,
  } as const
}

/** The total the parent was shown, as the form carries it: whole paise, nothing else. */
function quotedTotal(formData: FormData) {
  const value = formData.get('quotedTotal')
  return typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : null
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  rejectBots(formData)
  const offer = await offerFrom(request)
  notFoundUnless(offer, INVALID_LINK)
  const confirmed = await checkout({
    payable: { kind: 'camp', id: offer.id },
    attempts: { network: clientNetwork(callerOf(request, context).ip), email: offer.email },
    pay: { quotedTotalPaise: quotedTotal(formData) ?? -1, description: await campPaymentDescription(offer.id), statusUrl: (orderId) => privateLinkUrl(CAMP_STATUS_LINK, orderId) },
  })
  if ('paying' in confirmed) return redirectDocument(confirmed.paying.redirectUrl)
  if ('refused' in confirmed) {
    const refusal = refusalOf(confirmed.refused)
    return data({ error: offerRefusal(refusal, Boolean(offer.fromWaitlist)) }, { status: refusal.status })
  }
  // The page shows the new price (its loader reads the quote just stored), and why it changed.
  const changed = 'The price has changed since it was shown to you. Please check the new total before you pay.'
  return data({ error: confirmed.refusal ? `${confirmed.refusal.message} ${changed}` : changed }, { status: 409 })
}

/** How this page words a refused payment: the hold of an offer ends when its seat goes on down the waitlist. */
function offerRefusal({ error, message }: Refusal, fromWaitlist: boolean) {
  if (error instanceof HoldExpiredError) return fromWaitlist ? 'This offer has expired: the seat went to the next person on the waitlist.' : 'The hold on this seat has expired. Please register again.'
  if (error instanceof PaymentStartError) return 'Payment Error: Unable to create payment. Please try again.'
  return message
}

function titleOf(offer: { state: 'held' | 'registered' | 'expired'; fromWaitlist: boolean; swimmerNames: string[] }) {
  if (offer.state === 'registered') return 'Already registered'
  if (offer.state === 'expired') return offer.fromWaitlist ? 'This offer has expired' : 'This seat hold has expired'
  return offer.swimmerNames.length > 1 ? 'Camp seats are held for you' : 'A camp seat is held for you'
}

export default function Offer({ loaderData, actionData }: Route.ComponentProps) {
  const offer = loaderData
  return (
    <AuthCard title={titleOf(offer)} wide>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <DetailRow term={offer.swimmerNames.length > 1 ? 'Swimmers' : 'Swimmer'} value={offer.swimmerNames.join(', ')} />
        <DetailRow term="Camp" value={offer.camp} />
        <DetailRow term="Batch" value={offer.batch} />
        <DetailRow term="Registration ID" value={offer.reference} />
      </dl>
      {offer.state === 'held' && (
        <Form method="post" className="mt-6 space-y-4">
          <HoneypotField />
          <FormAlert id="offer-error" errors={actionData?.error ? [actionData.error] : undefined} />
          <QuoteTable title="What you pay" rows={offer.prices} />
          <p className="text-ink">{`The ${offer.swimmerNames.length > 1 ? 'seats are' : 'seat is'} yours if you pay by ${offer.heldUntil}.`}</p>
          <input type="hidden" name="quotedTotal" value={offer.totalPaise} />
          <PendingButton when={{ untilLoaded: true }} pendingLabel="Processing Payment..." className="btn-primary w-full">
            {offer.totalPaise === 0 ? 'Confirm Registration' : `Pay ${offer.total}`}
          </PendingButton>
          <p className="text-sm text-muted">You pay on our payment partner's secure page.</p>
        </Form>
      )}
      {offer.state === 'registered' && <p className="mt-6 text-ink">{`${offer.swimmerNames.join(', ')} ${offer.swimmerNames.length > 1 ? 'are' : 'is'} registered for the camp. The confirmation is in your e-mail.`}</p>}
      {offer.state === 'expired' && (
        <div className="mt-6 space-y-4">
          <p className="text-ink">{offer.fromWaitlist ? 'The time to pay for this seat has passed, and it went to the next person on the waitlist.' : 'The time to pay for this seat has passed, and it was released.'}</p>
          <Link to={href('/onboarding')} className="btn-secondary">
            Go to camp registration
          </Link>
        </div>
      )}
    </AuthCard>
  )
}
