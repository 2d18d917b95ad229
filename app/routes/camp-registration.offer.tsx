import { data, Form, Link, redirectDocument } from 'react-router'
import type { Route } from './+types/camp-registration.offer'
import { AuthCard, FormAlert, HoneypotField, PendingButton } from '~/components/form-controls'
import { DetailRow } from '~/components/payment-status-card'
import { formatRupees } from '~/lib/money'
import { formatDateRange, formatLabDateTime, formatTimeRange } from '~/lib/lab-time'
import { rejectBots } from '~/lib/honeypot'
import { CAMP_STATUS_LINK, INVALID_LINK, isLinkKey, privateLinkUrl, WAITLIST_OFFER_LINK } from '~/lib/private-links.server'
import { pageMeta } from '~/lib/seo'
import { campPaymentDescription } from '~/modules/camps/registrations.server'
import { offeredRegistration } from '~/modules/camps/status.server'
import { HoldExpiredError, PaymentStartError, startPayment } from '~/modules/payments/payments.server'
import { readForm } from '~/lib/form-data.server'
import { callerOf } from '~/lib/auth.server'
import { notFoundUnless, refusalOf, type Refusal } from '~/lib/refusals.server'
import { limitHoldAttempts } from '~/modules/holders/holders.server'
import { clientNetwork } from '~/modules/rate-limit/client-network'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Your camp seat', description: 'Pay for the camp seat held for you from the waitlist.', path: '/onboarding/offer' }),
  { name: 'robots', content: 'noindex' },
]

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
  return {
    state: offer.status === 'confirmed' ? 'registered' : offer.status === 'pending' && offer.holdExpiresAt && offer.holdExpiresAt > now ? 'held' : 'expired',
    swimmerName: offer.swimmerName,
    camp: `${offer.campName}: ${formatDateRange(offer.campStartsOn, offer.campEndsOn)}`,
    batch: `${offer.batchName}: ${offer.timeRanges.map((range) => formatTimeRange(range.start, range.end)).join(' and ')}`,
    amount: formatRupees(offer.amountPaise),
    heldUntil: offer.holdExpiresAt ? formatLabDateTime(offer.holdExpiresAt) : null,
    reference: offer.reference,
  } as const
}

export async function action({ request, context }: Route.ActionArgs) {
  rejectBots(await readForm(request))
  const offer = await offerFrom(request)
  notFoundUnless(offer, INVALID_LINK)
  try {
    // Each attempt may create an order at the gateway.
    await limitHoldAttempts({ network: clientNetwork(callerOf(request, context).ip), email: offer.email })
    const payment = await startPayment({
      payable: { kind: 'camp', id: offer.id },
      description: await campPaymentDescription(offer.id),
      statusUrl: (orderId) => privateLinkUrl(CAMP_STATUS_LINK, orderId),
    })
    return redirectDocument(payment.redirectUrl)
  } catch (error) {
    const refusal = refusalOf(error)
    return data({ error: offerRefusal(refusal) }, { status: refusal.status })
  }
}

/** How this page words a refused payment: the hold of an offer ends when its seat goes on down the waitlist. */
function offerRefusal({ error, message }: Refusal) {
  if (error instanceof HoldExpiredError) return 'This offer has expired: the seat went to the next person on the waitlist.'
  if (error instanceof PaymentStartError) return 'Payment Error: Unable to create payment. Please try again.'
  return message
}

export default function Offer({ loaderData, actionData }: Route.ComponentProps) {
  const offer = loaderData
  const title = offer.state === 'held' ? 'A camp seat is held for you' : offer.state === 'registered' ? 'Already registered' : 'This offer has expired'
  return (
    <AuthCard title={title} wide>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <DetailRow term="Swimmer" value={offer.swimmerName} />
        <DetailRow term="Camp" value={offer.camp} />
        <DetailRow term="Batch" value={offer.batch} />
        <DetailRow term="Fee" value={offer.amount} />
        <DetailRow term="Registration ID" value={offer.reference} />
      </dl>
      {offer.state === 'held' && (
        <Form method="post" className="mt-6 space-y-4">
          <HoneypotField />
          <p className="text-ink">The seat is yours if you pay by {offer.heldUntil}.</p>
          <FormAlert id="offer-error" errors={actionData?.error ? [actionData.error] : undefined} />
          <PendingButton when={{ untilLoaded: true }} pendingLabel="Processing Payment..." className="btn-primary w-full">
            {`Pay ${offer.amount}`}
          </PendingButton>
        </Form>
      )}
      {offer.state === 'registered' && <p className="mt-6 text-ink">{offer.swimmerName} is registered for the camp. The confirmation is in your e-mail.</p>}
      {offer.state === 'expired' && (
        <div className="mt-6 space-y-4">
          <p className="text-ink">The time to pay for this seat has passed, and it went to the next person on the waitlist.</p>
          <Link to="/onboarding" className="btn-secondary">
            Go to camp registration
          </Link>
        </div>
      )}
    </AuthCard>
  )
}
