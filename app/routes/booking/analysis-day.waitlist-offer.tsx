import { data, Form, Link, redirect, redirectDocument } from 'react-router'
import type { Route } from './+types/analysis-day.waitlist-offer'
import { AuthCard, FormAlert, HoneypotField, PendingButton } from '~/components/form-controls'
import { DetailRow } from '~/components/payment-status-card'
import { analysisDayLink, analysisDayOfferLink } from '~/lib/links'
import { formatLabDateTime, formatTimeRange, formatWeekdayDate } from '~/lib/lab-time'
import { formatRupees } from '~/lib/money'
import { ANALYSIS_DAY_OFFER_LINK, BOOKING_STATUS_LINK, INVALID_LINK, isLinkKey, PRIVATE_FORM_PAGE_HEADERS, privateLinkUrl } from '~/lib/private-links.server'
import { pageMeta } from '~/lib/seo'
import { dayOffer, declineDayOffer } from '~/modules/booking/analysis-day-waitlist.server'
import { HoldExpiredError, PaymentStartError } from '~/modules/payments/payments.server'
import { checkout } from '~/modules/payments/checkout.server'
import { clientNetwork } from '~/modules/rate-limit/client-network'
import { callerOf } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { formIntent, unknownForm } from '~/web/intent'
import { notFoundUnless, refusalOf, type Refusal } from '~/web/refusals.server'

// A slot of an analysis day offered from its waitlist, opened from the e-mailed link: when and
// where, the price and until when it is held; the parent pays through the one checkout (its result
// is a guest booking's status page), or gives the slot up for the next in line.

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, { title: 'Your analysis day slot', description: 'Pay for the slot of an analysis day held for you.', path: '/analysis-days/waitlist/offer' }), { name: 'robots', content: 'noindex' }]

export const headers: Route.HeadersFunction = () => PRIVATE_FORM_PAGE_HEADERS

const PAY = 'pay'
const DECLINE = 'decline'

/** The offer the link names, if the link is one the site made. */
async function offerFrom(request: Request) {
  const params = new URL(request.url).searchParams
  const reference = params.get('booking') ?? ''
  if (!(await isLinkKey(ANALYSIS_DAY_OFFER_LINK, reference, params.get('key')))) return null
  return dayOffer(reference)
}

export async function loader({ request }: Route.LoaderArgs) {
  const offer = await offerFrom(request)
  notFoundUnless(offer, INVALID_LINK)
  return data(
    {
      state: offer.state,
      dayId: offer.dayId,
      reference: offer.reference,
      swimmerName: offer.swimmerName,
      product: offer.productName,
      when: `${formatWeekdayDate(offer.date)}, ${formatTimeRange(offer.startTime, offer.endTime)}`,
      where: `${offer.venueName}, ${offer.address}, ${offer.city}`,
      price: formatRupees(offer.amountPaise),
      heldUntil: offer.holdExpiresAt ? formatLabDateTime(offer.holdExpiresAt) : null,
    },
    { headers: PRIVATE_FORM_PAGE_HEADERS },
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  rejectBots(formData)
  const intent = formIntent(formData, [PAY, DECLINE])
  if (intent === undefined) unknownForm()
  const offer = await offerFrom(request)
  notFoundUnless(offer, INVALID_LINK)
  const url = new URL(request.url)
  if (intent === DECLINE) {
    await declineDayOffer(offer.reference)
    return redirect(analysisDayOfferLink(offer.reference, url.searchParams.get('key') ?? ''), { headers: PRIVATE_FORM_PAGE_HEADERS })
  }
  const paying = await checkout({
    payable: { kind: 'booking', id: offer.bookingId },
    attempts: { network: clientNetwork(callerOf(request, context).ip), email: offer.email },
    pay: { description: `${offer.productName} - ${offer.swimmerName}`, statusUrl: (orderId) => privateLinkUrl(BOOKING_STATUS_LINK, orderId) },
  })
  if ('paying' in paying) return redirectDocument(paying.paying.redirectUrl)
  const refusal = refusalOf(paying.refused)
  return data({ error: offerRefusal(refusal) }, { status: refusal.status, headers: PRIVATE_FORM_PAGE_HEADERS })
}

/** How this page words a refused payment: the hold of an offer ends when its slot goes on down the waitlist. */
function offerRefusal({ error, message }: Refusal) {
  if (error instanceof HoldExpiredError) return 'This offer has expired: the slot went to the next person on the waitlist.'
  if (error instanceof PaymentStartError) return 'Payment Error: Unable to create payment. Please try again.'
  return message
}

const TITLES = { held: 'A slot is held for you', booked: 'Already booked', ended: 'This offer has ended' } as const

export default function DayOffer({ loaderData, actionData }: Route.ComponentProps) {
  const offer = loaderData
  return (
    <AuthCard title={TITLES[offer.state]} wide>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <DetailRow term="Swimmer" value={offer.swimmerName} />
        <DetailRow term="Analysis" value={offer.product} />
        <DetailRow term="When" value={offer.when} />
        <DetailRow term="Where" value={offer.where} />
        <DetailRow term="Price" value={offer.price} />
        <DetailRow term="Booking ID" value={offer.reference} />
      </dl>
      {offer.state === 'held' && (
        <>
          <Form method="post" className="mt-6 space-y-4">
            <HoneypotField />
            <FormAlert id="offer-error" errors={actionData?.error ? [actionData.error] : undefined} />
            <p className="text-ink">{`The slot is yours if you pay by ${offer.heldUntil}; after that it goes to the next person on the waitlist.`}</p>
            <PendingButton name="intent" value={PAY} when={{ fields: { intent: PAY }, untilLoaded: true }} pendingLabel="Processing Payment..." className="btn-primary w-full">
              {`Pay ${offer.price}`}
            </PendingButton>
            <p className="text-sm text-muted">You pay on our payment partner's secure page.</p>
          </Form>
          <Form method="post" className="mt-6 border-t border-slate-200 pt-4">
            <HoneypotField />
            <p className="text-sm text-muted">No longer need it? Give the slot up and it goes to the next person in line.</p>
            <PendingButton name="intent" value={DECLINE} when={{ fields: { intent: DECLINE }, untilLoaded: true }} pendingLabel="Giving it up..." className="btn-secondary mt-3">
              Give up this slot
            </PendingButton>
          </Form>
        </>
      )}
      {offer.state === 'booked' && <p className="mt-6 text-ink">{`${offer.swimmerName} is booked. The confirmation is in your e-mail.`}</p>}
      {offer.state === 'ended' && (
        <div className="mt-6 space-y-4">
          <p className="text-ink">{actionData?.error ?? 'The time to pay for this slot has passed, or it was given up, and it went to the next person on the waitlist.'}</p>
          <Link to={analysisDayLink(offer.dayId)} className="btn-secondary">
            See the day
          </Link>
        </div>
      )}
    </AuthCard>
  )
}
