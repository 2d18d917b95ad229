import { data, Form, href, Link, redirect, redirectDocument } from 'react-router'
import type { Route } from './+types/analysis-day.line'
import { AuthCard, FormAlert, HoneypotField, PendingButton } from '~/components/form-controls'
import { PlaceInLine } from '~/components/place-in-line'
import { DetailRow } from '~/components/payment-status-card'
import { analysisDayLink } from '~/lib/links'
import { formatClockTime, formatLabDateTime, formatTimeRange, formatWeekdayDate } from '~/lib/lab-time'
import { logger } from '~/lib/logger.server'
import { formatRupees } from '~/lib/money'
import { ANALYSIS_DAY_LINE_LINK, INVALID_LINK, isLinkKey, PRIVATE_FORM_PAGE_HEADERS, privateLinkPath } from '~/lib/private-links.server'
import { pageMeta } from '~/lib/seo'
import { dayLinePlace, joinDayLine, placesAheadOnDay, seatOfPlace, settledDayPlace, type DayLinePlace } from '~/modules/booking/analysis-day-line.server'
import { bookable, publicAnalysisDay } from '~/modules/booking/analysis-days.server'
import { HoldExpiredError } from '~/modules/payments/payments.server'
import { getUser } from '~/web/auth.server'
import { payForPlace } from '~/web/booking/day-line.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { holderOf } from '~/web/holders/holder.server'
import { formIntent, unknownForm } from '~/web/intent'
import { notFoundUnless, refusalOf } from '~/web/refusals.server'

// A booking's place in the line of bookings for analysis days, opened from the private link the
// day's page sent the parent to in a rush: their turn, then a seat held to pay for, their slot taken
// (another one to choose, the details they typed kept with the place), the day full (its page, with
// the waitlist), or why it could not be booked.

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Your place in line', description: 'Your analysis day booking, in the order parents booked.', path: href('/analysis-days/line') }),
  { name: 'robots', content: 'noindex' },
]

export const headers: Route.HeadersFunction = () => PRIVATE_FORM_PAGE_HEADERS

/**
 * How long the page waits for the parent's turn before it shows their place in line: in a rush,
 * a page that shows the outcome once costs the site far less than one shown again and again.
 */
const WAIT_MS = 20_000

const PAY = 'pay'
const BOOK = 'book'
const SLOT = /^\d{4}-\d{2}-\d{2}\|([01]\d|2[0-3]):[0-5]\d$/

/** The place the link names, if the link is one the site made (its id and key, for the page's forms). */
async function linkOf(request: Request) {
  const params = new URL(request.url).searchParams
  const place = params.get('place') ?? ''
  const key = params.get('key') ?? ''
  notFoundUnless(/^\d{1,9}$/.test(place) && (await isLinkKey(ANALYSIS_DAY_LINE_LINK, place, key)), INVALID_LINK)
  return { id: Number(place), place, key }
}

/** The day's page as the place reached it (the host's link with its key). */
function dayPageOf(place: DayLinePlace) {
  return analysisDayLink(place.analysisDayId, place.hostKey ?? undefined)
}

export async function loader({ request }: Route.LoaderArgs) {
  const link = await linkOf(request)
  const place = await settledDayPlace(link.id, WAIT_MS)
  // Settled places are forgotten after a day: the days' list is where to start again.
  if (!place) return redirect(href('/analysis-days'))
  const answer = await answerOf(place, link)
  if ('go' in answer && answer.go !== undefined) return redirect(answer.go, 303)
  return data(answer, { headers: PRIVATE_FORM_PAGE_HEADERS })
}

/** What the page shows for a place as it stands, or where it sends the parent instead. */
async function answerOf(place: DayLinePlace, link: { place: string; key: string }) {
  switch (place.outcome) {
    case null: {
      const day = await publicAnalysisDay(place.analysisDayId)
      return { kind: 'waiting' as const, position: (await placesAheadOnDay(place.id)) + 1, choice: day ? `${day.productName} at ${day.venueName}` : 'the analysis day', link }
    }
    // The day's page says so, and offers its waitlist.
    case 'full':
      return { go: dayPageOf(place) }
    case 'taken': {
      const day = await publicAnalysisDay(place.analysisDayId)
      if (!day || !bookable(day)) return { go: dayPageOf(place) }
      const slots = day.dates.map((date) => ({
        label: formatWeekdayDate(date.date),
        slots: date.slots.map((slot) => ({ value: `${date.date}|${slot.start}`, start: formatClockTime(slot.start), end: formatClockTime(slot.end), free: slot.state === 'available' })),
      }))
      return { kind: 'taken' as const, message: place.message ?? '', choice: `${day.productName} at ${day.venueName}`, swimmer: place.details.swimmerName ?? place.details.name, slots, dayLink: dayPageOf(place) }
    }
    case 'refused':
      return { kind: 'refused' as const, message: place.message ?? '', dayLink: dayPageOf(place) }
    case 'seat': {
      const seat = await seatOfPlace(place.id)
      if (!seat) return { kind: 'refused' as const, message: 'This booking is no longer held.', dayLink: dayPageOf(place) }
      return {
        kind: 'seat' as const,
        state: seat.state,
        swimmerName: seat.swimmerName,
        product: seat.productName,
        when: `${formatWeekdayDate(seat.date)}, ${formatTimeRange(seat.startTime, seat.endTime)}`,
        where: `${seat.venueName}, ${seat.address}, ${seat.city}`,
        price: formatRupees(seat.amountPaise),
        reference: seat.reference,
        heldUntil: seat.holdExpiresAt ? formatLabDateTime(seat.holdExpiresAt) : null,
        promoCode: place.promoCode,
        dayLink: dayPageOf(place),
      }
    }
  }
}

/** A parent's own words for what went wrong here: said above the page's form. */
type ActionResult = { error: string }

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  rejectBots(formData)
  const intent = formIntent(formData, [PAY, BOOK])
  if (intent === undefined) unknownForm()
  const link = await linkOf(request)
  const place = await dayLinePlace(link.id)
  if (!place) return redirect(href('/analysis-days'))
  const user = await getUser(request)
  const { holder, setCookie } = await holderOf(request, context, { userId: user?.id ?? null, email: place.details.email })
  const headers = new Headers(PRIVATE_FORM_PAGE_HEADERS)
  if (setCookie) headers.append('Set-Cookie', setCookie)
  const here = () => redirect(`${href('/analysis-days/line')}?${new URLSearchParams({ place: link.place, key: link.key })}`, { status: 303, headers })

  if (intent === PAY) {
    const seat = place.outcome === 'seat' && place.bookingId !== null ? await seatOfPlace(place.id) : null
    if (!seat || seat.state !== 'held') return here()
    const result = await payForPlace({ ...place, bookingId: seat.bookingId }, { network: holder.network, description: `${seat.productName} - ${seat.swimmerName}` })
    if ('paying' in result) return redirectDocument(result.paying.redirectUrl, { headers })
    const refusal = refusalOf(result.refused)
    if (result.step === 'promo') return data<ActionResult>({ error: `Promo code ${place.promoCode}: ${refusal.message} The slot was given up; please book again from the day's page.` }, { status: refusal.status, headers })
    if (refusal.error instanceof HoldExpiredError) return here()
    logger().error({ err: refusal.error.cause ?? refusal.error }, 'analysis day payment could not start')
    return data<ActionResult>({ error: 'Payment Error: Unable to create payment. Please try again.' }, { status: refusal.status, headers })
  }

  // Another slot, for a place whose slot was taken: a new place in line with the same details.
  if (place.outcome !== 'taken') return here()
  const slot = formData.get('slot')
  if (typeof slot !== 'string' || !SLOT.test(slot)) return data<ActionResult>({ error: 'Please choose a time slot.' }, { status: 400, headers })
  try {
    const next = await joinDayLine({ dayId: place.analysisDayId, details: { ...place.details, slot }, holder, promoCode: place.promoCode, hostKey: place.hostKey })
    return redirect(await privateLinkPath(ANALYSIS_DAY_LINE_LINK, next.id), { status: 303, headers })
  } catch (error) {
    const refusal = refusalOf(error)
    return data<ActionResult>({ error: refusal.message }, { status: refusal.status, headers })
  }
}

export default function DayPlaceInLine({ loaderData, actionData }: Route.ComponentProps) {
  switch (loaderData.kind) {
    case 'waiting':
      return <PlaceInLine {...loaderData} explanation="Many parents are booking right now. Slots are given in the order parents booked, and this page shows your turn as soon as it comes: a slot to pay for, or another slot to choose if yours was taken." />
    case 'taken':
      return <ChooseAgain {...loaderData} error={actionData?.error ?? null} />
    case 'refused':
      return (
        <AuthCard title="This booking could not be made" wide>
          <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 font-medium text-amber-950">
            {loaderData.message}
          </p>
          <Link to={loaderData.dayLink} className="btn-secondary mt-6">
            Back to the day
          </Link>
        </AuthCard>
      )
    case 'seat':
      return <Seat {...loaderData} error={actionData?.error ?? null} />
  }
}


type Taken = Extract<Route.ComponentProps['loaderData'], { kind: 'taken' }>

/** The parent's slot went to someone who came first: the others as they are now, to choose from. */
function ChooseAgain({ message, choice, swimmer, slots, dayLink, error }: Taken & { error: string | null }) {
  return (
    <AuthCard title="Choose another slot" wide>
      <Form method="post" className="space-y-6">
        <HoneypotField />
        <FormAlert id="line-error" errors={error ? [error] : undefined} />
        <p className="text-ink">{`${choice}, for ${swimmer}.`}</p>
        <fieldset aria-describedby="slot-taken">
          <legend className="text-sm font-semibold text-ink">Time slot</legend>
          <p id="slot-taken" role="alert" className="mt-2 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 font-medium text-amber-950">
            {message}
          </p>
          {slots.map((date) => (
            <fieldset key={date.label} className="mt-4">
              <legend className="font-semibold text-brand-900">{date.label}</legend>
              <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
                {date.slots.map((slot) => (
                  <label key={slot.value} className={`flex min-h-12 items-center gap-2 rounded-lg border-2 px-3 py-2 ${slot.free ? 'border-slate-300 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50' : 'border-slate-200 bg-slate-50 text-slate-600'}`}>
                    <input type="radio" name="slot" value={slot.value} required disabled={!slot.free} className="h-5 w-5 shrink-0 accent-brand-700" />
                    <span>
                      <span className="block font-semibold whitespace-nowrap">{slot.start}</span>
                      <span className="block text-xs whitespace-nowrap">to {slot.end}</span>
                      {!slot.free && <span className="block text-xs font-semibold">Full</span>}
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
        </fieldset>
        <p className="text-sm text-muted">Your details stay as you typed them on the day's page.</p>
        <PendingButton name="intent" value={BOOK} when={{ fields: { intent: BOOK }, untilLoaded: true }} pendingLabel="Booking..." className="btn-primary w-full">
          Book this slot
        </PendingButton>
      </Form>
      <p className="mt-4 text-muted">
        Or go back to{' '}
        <Link to={dayLink} className="link">
          the day's page
        </Link>
        .
      </p>
    </AuthCard>
  )
}

type HeldSeat = Extract<Route.ComponentProps['loaderData'], { kind: 'seat' }>

const SEAT_TITLES = { held: 'A slot is held for you', booked: 'Already booked', ended: 'This hold has ended' } as const

/** The seat held for the parent: what, when and where, and the way to pay for it. */
function Seat({ state, swimmerName, product, when, where, price, reference, heldUntil, promoCode, dayLink, error }: HeldSeat & { error: string | null }) {
  return (
    <AuthCard title={SEAT_TITLES[state]} wide>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <DetailRow term="Swimmer" value={swimmerName} />
        <DetailRow term="Analysis" value={product} />
        <DetailRow term="When" value={when} />
        <DetailRow term="Where" value={where} />
        <DetailRow term="Price" value={price} />
        <DetailRow term="Booking ID" value={reference} />
      </dl>
      {state === 'held' && (
        <Form method="post" className="mt-6 space-y-4">
          <HoneypotField />
          <FormAlert id="line-error" errors={error ? [error] : undefined} />
          <p className="text-ink">{`The slot is yours if you pay by ${heldUntil}.`}</p>
          <PendingButton name="intent" value={PAY} when={{ fields: { intent: PAY }, untilLoaded: true }} pendingLabel="Processing Payment..." className="btn-primary w-full">
            {promoCode ? `Pay with promo code ${promoCode}` : `Pay ${price}`}
          </PendingButton>
          <p className="text-sm text-muted">You pay on our payment partner's secure page (UPI, cards, net banking). Your card details never reach our site.</p>
        </Form>
      )}
      {state === 'booked' && <p className="mt-6 text-ink">{`${swimmerName} is booked. The confirmation is in your e-mail.`}</p>}
      {state === 'ended' && (
        <div className="mt-6 space-y-4">
          <p className="text-ink">{error ?? 'The time to pay for this slot has passed, and it went back to the day.'}</p>
          <Link to={dayLink} className="btn-secondary">
            See the day
          </Link>
        </div>
      )}
    </AuthCard>
  )
}
