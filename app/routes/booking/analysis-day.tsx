import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod/v4'
import type { ReactNode } from 'react'
import { data, Form, href, isRouteErrorResponse, Link, redirect, redirectDocument, type ShouldRevalidateFunction } from 'react-router'
import type { Route } from './+types/analysis-day'
import { AnalysisDayWaitlistForm } from '~/components/analysis-day-waitlist-form'
import { BookingDetailsFields } from '~/components/booking-details-fields'
import { ErrorPage } from '~/components/error-page'
import { FieldError, FormAlert, HoneypotField, PendingButton, radioProps, TextAreaField, useLazyValidatedForm } from '~/components/form-controls'
import { PromoCodeInput } from '~/components/promo-code'
import { StructuredData } from '~/components/structured-data'
import { config } from '~/config.server'
import { analysisDayLink } from '~/lib/links'
import { formatClockTime, formatLabDateTime, formatTimeRange, formatWeekdayDate, labIsoDateTime } from '~/lib/lab-time'
import { logger } from '~/lib/logger.server'
import { paiseToDecimalRupees } from '~/lib/money'
import { ANALYSIS_DAY_LINE_LINK, INVALID_LINK, PRIVATE_FORM_PAGE_HEADERS, privateLinkPath } from '~/lib/private-links.server'
import { rowId } from '~/lib/row-id'
import { PRODUCT_NAME, pageMeta } from '~/lib/seo'
import { hostLinkOpens, InvalidHostLinkError } from '~/modules/booking/analysis-day-booking.server'
import { joinDayLine, SLOT_TAKEN, settledOutsideARush, type DayLinePlace } from '~/modules/booking/analysis-day-line.server'
import { AnalysisDayBookingSchema } from '~/modules/booking/analysis-day-schemas'
import { DayWaitlistSchema } from '~/modules/booking/analysis-day-waitlist-schemas'
import { bookable, describeDates, hostSeatsOf, NotYetReleasedError, publicAnalysisDay, type PublicAnalysisDay } from '~/modules/booking/analysis-days.server'
import { AlreadyBookedError } from '~/modules/booking/holds.server'
import { MISSING_INFORMATION } from '~/modules/booking/fields'
import { seatsLeftText } from '~/modules/booking/texts'
import { arriving, inARush } from '~/modules/holders/arrivals.server'
import { getUser } from '~/web/auth.server'
import { bookingDetailsForm } from '~/web/booking/booking-details.server'
import { payForPlace, readDayBooking } from '~/web/booking/day-line.server'
import { holderOf } from '~/web/holders/holder.server'
import { notFoundUnless, refusalOf, type Refusal } from '~/web/refusals.server'

// An analysis day's public page: the product at a venue away from the lab on its dates, and the form
// that books one of its slots and sends the family to pay. Before the public release only the host
// club's private link (?host=KEY) shows the form, for the seats kept for the club.

/** Nothing left to book on the day. */
const SOLD_OUT = 'Every slot of this day is taken.'
/** Booking is the form's only purpose; a press of Enter in a field sends it too. */
const BOOK = 'book'

/** What the browser checks before sending the form: the same for every visitor, worked out once. */
const CONSTRAINT = getZodConstraint(AnalysisDayBookingSchema)

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  // Not found: the error page gives the title.
  if (!loaderData) return [{ name: 'robots', content: 'noindex' }]
  const { day } = loaderData
  return [
    ...pageMeta(matches, {
      title: `${day.productName} at ${day.venueName}, ${day.city}`,
      description: `${day.productName} in ${day.city}: ${day.dates}, ${day.hours} at ${day.venueName}, ${day.price} a swimmer. Choose a time slot and book online.`,
      path: analysisDayLink(day.id),
    }),
    // The host's link is the club's own: not for search engines, whose copy is the public page.
    ...(loaderData.host ? [{ name: 'robots', content: 'noindex' }] : []),
  ]
}

/** The day's id from the address; anything else is not found. */
function dayIdOf(params: Route.LoaderArgs['params']) {
  const id = rowId(params.dayId)
  notFoundUnless(id)
  return id
}

/** Whether the address carries the host's key of the day (none: false); a key that does not check out is not found, saying so. */
async function hostLinkOf(dayId: number, request: Request) {
  try {
    return await hostLinkOpens(dayId, new URL(request.url).searchParams.get('host'))
  } catch (error) {
    if (error instanceof InvalidHostLinkError) throw data({ message: INVALID_LINK }, { status: 404 })
    throw error
  }
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const dayId = dayIdOf(params)
  const host = await hostLinkOf(dayId, request)
  const now = new Date()
  const day = await publicAnalysisDay(dayId, now)
  notFoundUnless(day)
  const [details, hostSeats] = await Promise.all([bookingDetailsForm(await getUser(request)), host && day.opensLater ? hostSeatsOf(dayId, now) : null])
  const available = bookable(day)
  const siteUrl = config().SITE_URL
  return data(
    {
      day: {
        id: day.id,
        productName: day.productName,
        productDescription: day.productDescription,
        venueName: day.venueName,
        address: day.address,
        city: day.city,
        mapUrl: day.mapUrl,
        dates: describeDates(day),
        hours: formatTimeRange(day.startTime, day.endTime),
        price: day.price,
        whatToBring: day.whatToBring.trim() || null,
        seatsLeft: seatsLeftText(day.seatsLeft),
      },
      host,
      // What the booking part of the page shows: the form, or why there is none.
      booking: bookingState(day, host, available),
      waitlist: waitlistOf(day, available),
      hostNotice: hostSeats && hostNoticeOf(hostSeats, day.releaseAt),
      // Families ready at the release have the form filled in already: it books from that moment.
      releaseNotice: day.opensLater && !host ? `${new NotYetReleasedError(day.releaseAt).message} Choose a slot and fill in your details now: from then on, the button books.` : null,
      slots: day.dates.map((date) => ({ date: date.date, label: formatWeekdayDate(date.date), slots: date.slots.map(({ start, end, state }) => ({ value: `${date.date}|${start}`, start: formatClockTime(start), end: formatClockTime(end), state })) })),
      constraint: CONSTRAINT,
      whatsappOptIn: details.whatsappOptIn,
      whoSwims: details.whoSwims,
      prefill: details.prefill,
      structuredData: eventData(day, siteUrl),
    },
    { headers: host ? PRIVATE_FORM_PAGE_HEADERS : {} },
  )
}

/** The form while a slot can be booked through this address; otherwise what is said instead. */
function bookingState(day: PublicAnalysisDay, host: boolean, available: boolean): { open: true } | { open: false; message: string } {
  if (!available) return { open: false, message: day.dates.some((date) => date.slots.some((slot) => slot.state === 'full')) ? SOLD_OUT : 'Booking for this day has closed: its last slot has begun.' }
  return { open: true }
}

/** What the browser checks of the waitlist's form, worked out once. */
const WAITLIST_CONSTRAINT = getZodConstraint(DayWaitlistSchema)

/** The waitlist's form on a day sold out to everyone (not one whose last slot has begun, nor before its release). */
function waitlistOf(day: PublicAnalysisDay, available: boolean) {
  const soldOut = !available && !day.opensLater && day.dates.some((date) => date.slots.some((slot) => slot.state === 'full'))
  return soldOut ? { dayId: day.id, constraint: WAITLIST_CONSTRAINT } : null
}

/**
 * What the host's link says before the release: how many of the seats kept for the club are left
 * and, once none is, when the rest open to everyone (the form stays, and says so again if sent).
 */
function hostNoticeOf({ hostName, seats, left }: { hostName: string | null; seats: number; left: number }, releaseAt: Date) {
  const notice = `Booking for ${hostName ?? 'the host club'}: ${left} of ${seats} seats kept for you are left.`
  return left > 0 ? notice : `${notice} The rest open to everyone at ${formatLabDateTime(releaseAt)}.`
}

/** schema.org's Event for search engines: the day at its venue, its price and whether seats are left. */
function eventData(day: PublicAnalysisDay, siteUrl: string) {
  const url = `${siteUrl}${analysisDayLink(day.id)}`
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: `${day.productName} at ${day.venueName}`,
    ...(day.productDescription && { description: day.productDescription }),
    url,
    startDate: labIsoDateTime(day.firstDate, day.startTime),
    endDate: labIsoDateTime(day.lastDate, day.endTime),
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: {
      '@type': 'Place',
      name: day.venueName,
      address: { '@type': 'PostalAddress', streetAddress: day.address, addressLocality: day.city, addressCountry: 'IN' },
      ...(day.mapUrl && { hasMap: day.mapUrl }),
    },
    offers: {
      '@type': 'Offer',
      price: paiseToDecimalRupees(day.pricePaise),
      priceCurrency: 'INR',
      availability: day.seatsLeft > 0 ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
      validFrom: labIsoDateTime(day.releaseAt),
      url,
    },
    organizer: { '@type': 'Organization', name: PRODUCT_NAME, url: `${siteUrl}/` },
  }
}

// A refusal re-reads the day: a slot taken meanwhile shows as Full, a day sold out says so.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => formMethod === 'POST' || defaultShouldRevalidate

type ActionResult = { kind: 'invalid'; result: SubmissionResult<string[]>; promo: { error: string | null; typed: string | null } }

/**
 * Books a slot: the booking joins the day's line (seats go in the order parents sent the form), then
 * the checkout (the WhatsApp box, the promo code, the payment) and on to the gateway. While few
 * parents book at once the outcome is the answer: each refusal comes back next to its field with the
 * form as sent, or instead of the form when nothing can be booked here any more. In a rush the answer
 * is the place in line, whose page shows the outcome when its turn comes.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const dayId = dayIdOf(params)
  const host = await hostLinkOf(dayId, request)
  const day = await publicAnalysisDay(dayId)
  notFoundUnless(day)
  // Nothing left to book through this address, as this instance last read the day (from memory in
  // a release's rush): whatever the form says, the page that says so, as the server itself answers
  // once it knows (server/sold-out-days.ts).
  if ((!day.opensLater || host) && !bookable(day)) return soldOut(request)
  const hostKey = host ? new URL(request.url).searchParams.get('host') : null
  const form = await readDayBooking(request, day, { host, intent: BOOK })
  const { submission } = form
  const promo = { error: null, typed: form.promoCode }
  const headers = new Headers()
  const refused = (status: number, errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, promoError: string | null = null) =>
    data<ActionResult>({ kind: 'invalid', result: submission.reply(errors), promo: { ...promo, error: promoError } }, { status, headers })
  if (!form.details) return refused(form.refusal.status, form.refusal.errors)
  const details = form.details
  const user = await getUser(request)
  const { holder, setCookie } = await holderOf(request, context, { userId: user?.id ?? null, email: details.email })
  if (setCookie) headers.append('Set-Cookie', setCookie)
  try {
    return await arriving(async (alone) => {
      const place = await joinDayLine({ dayId, details, holder, promoCode: promo.typed, hostKey })
      // While few parents book at once, the answer is the outcome itself; in a rush, the place in line.
      const settled = alone ? await settledOutsideARush(place.id, QUIET_WAIT_MS) : undefined
      if (!settled?.outcome || inARush()) return redirect(await privateLinkPath(ANALYSIS_DAY_LINE_LINK, place.id), { status: 303, headers })
      if (settled.outcome === 'full') return soldOut(request)
      if (settled.outcome === 'taken') return refused(409, { fieldErrors: { slot: [SLOT_TAKEN] } })
      if (settled.outcome === 'refused' || settled.bookingId === null) return refused(409, placeErrorsOf(settled))
      const result = await payForPlace({ ...settled, bookingId: settled.bookingId }, { network: holder.network, description: `${day.productName} - ${settled.swimmerName ?? details.name}` })
      if ('paying' in result) return redirectDocument(result.paying.redirectUrl, { headers })
      const refusal = refusalOf(result.refused)
      if (result.step === 'promo') return refused(refusal.status, {}, refusal.message)
      logger().error({ err: refusal.error.cause ?? refusal.error }, 'analysis day payment could not start')
      return refused(refusal.status, { formErrors: ['Payment Error: Failed to create payment. Please try again.'] })
    })
  } catch (error) {
    const refusal = refusalOf(error)
    return refused(refusal.status, detailsErrorsOf(refusal))
  }
}

/** How long a booking sent while few parents book at once waits for its outcome, to answer it directly. */
const QUIET_WAIT_MS = 3_000

/**
 * Nothing left to book: back to the day's page (the host's link with its key), which says so.
 * A 303, not the page: in a release's rush its copy is answered from memory, for every parent refused.
 */
function soldOut(request: Request) {
  const url = new URL(request.url)
  return redirect(`${url.pathname}${url.search}`, 303)
}

/** A place in line refused when its turn came: its message next to the field it is about (as detailsErrorsOf), or above the form. */
function placeErrorsOf({ message, field }: Pick<DayLinePlace, 'message' | 'field'>): { formErrors?: string[]; fieldErrors?: Record<string, string[]> } {
  const named = field === 'swimmerId' ? 'whoSwims' : field
  return named ? { fieldErrors: { [named]: [message ?? ''] } } : { formErrors: [message ?? ''] }
}

/** A refusal next to the field it is about ("Who will swim?" for the swimmer, the slot for a seat of the host's or one already booked), or above the form. */
function detailsErrorsOf({ error, message }: Refusal): { formErrors?: string[]; fieldErrors?: Record<string, string[]> } {
  const field = error.field === 'swimmerId' ? 'whoSwims' : error instanceof AlreadyBookedError ? 'slot' : error.field
  return field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }
}

export default function AnalysisDay({ loaderData, actionData }: Route.ComponentProps) {
  const { day } = loaderData
  const closed = loaderData.booking.open ? null : loaderData.booking.message
  return (
    <section aria-labelledby="page-title" className="bg-gradient-to-b from-brand-50 to-white px-4 py-10 sm:py-14">
      <StructuredData data={loaderData.structuredData} />
      <div className="mx-auto w-full max-w-3xl">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Analysis day in {day.city}</p>
        <h1 id="page-title" className="mt-2 text-3xl font-extrabold text-balance text-brand-900 sm:text-4xl">
          {`${day.productName} at ${day.venueName}`}
        </h1>
        {day.productDescription && <p className="mt-3 text-lg text-muted">{day.productDescription}</p>}

        <dl className="card mt-6 space-y-3 p-4 shadow-sm sm:p-6">
          <DayDetail term="Dates">{day.dates}</DayDetail>
          <DayDetail term="Hours">{day.hours}</DayDetail>
          <DayDetail term="Venue">
            <span className="block">{day.venueName}</span>
            <span className="block">
              {day.address}, {day.city}
            </span>
            {day.mapUrl && (
              <a href={day.mapUrl} target="_blank" rel="noopener noreferrer" className="link">
                Open the map<span className="sr-only"> of {day.venueName} (opens in a new tab)</span>
              </a>
            )}
          </DayDetail>
          {day.whatToBring && <DayDetail term="What to bring">{day.whatToBring}</DayDetail>}
          <DayDetail term="Price">{day.price} a swimmer</DayDetail>
          <DayDetail term="Seats left">{day.seatsLeft}</DayDetail>
        </dl>

        {loaderData.releaseNotice && (
          <p role="status" className="mt-6 rounded-lg border border-brand-300 bg-brand-50 px-4 py-3 font-semibold text-brand-900">
            {loaderData.releaseNotice}
          </p>
        )}
        {loaderData.hostNotice && (
          <p className="mt-6 rounded-lg border border-brand-300 bg-brand-50 px-4 py-3 font-semibold text-brand-900">
            {loaderData.hostNotice}
          </p>
        )}

        <div className="card mt-6 p-4 shadow-sm sm:p-8">
          {closed ? <Closed message={closed} waitlist={loaderData.waitlist} /> : <BookingForm loaderData={loaderData} actionData={actionData} />}
        </div>
      </div>
    </section>
  )
}

/** One detail of the day: its name above it on a phone, beside it from a tablet's width on. */
function DayDetail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="sm:grid sm:grid-cols-[9rem_1fr] sm:gap-x-6">
      <dt className="font-semibold text-ink">{term}</dt>
      <dd className="min-w-0 text-ink [overflow-wrap:anywhere]">{children}</dd>
    </div>
  )
}

/** What the page says instead of the form: nothing left to book. */
function Closed({ message, waitlist }: { message: string; waitlist: Route.ComponentProps['loaderData']['waitlist'] }) {
  return (
    <div>
      <h2 className="text-xl font-bold text-ink">Book a slot</h2>
      <p role="status" className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 font-medium text-amber-950">
        {message}
      </p>
      {waitlist && <AnalysisDayWaitlistForm dayId={waitlist.dayId} constraint={waitlist.constraint} />}
      <p className="mt-4 text-muted">
        See the{' '}
        <Link to={href('/analysis-days')} className="link">
          other analysis days
        </Link>
        , or{' '}
        <Link to={href('/booking')} className="link">
          book a session at the lab in Bangalore
        </Link>
        .
      </p>
    </div>
  )
}

function BookingForm({ loaderData, actionData }: Pick<Route.ComponentProps, 'loaderData' | 'actionData'>) {
  const invalid = actionData?.kind === 'invalid' ? actionData : undefined
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/booking/analysis-day-schemas').then((schemas) => schemas.AnalysisDayBookingSchema), {
    constraint: loaderData.constraint,
    lastResult: invalid?.result,
    defaultValue: loaderData.prefill,
  })
  const missing = (form.errors ?? []).includes(MISSING_INFORMATION)
  const values = loaderData.slots.flatMap((date) => date.slots.map((slot) => slot.value))
  const slotProps = new Map(radioProps(fields.slot, values).map((props) => [props.value, props]))
  return (
    // Sent to the page's own address, query included: the host's key goes with it, and the seats kept for the club are theirs.
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <h2 className="text-xl font-bold text-ink">Book a slot</h2>
      {missing ? <FormAlert id={form.errorId} errors={[MISSING_INFORMATION, ...(form.errors ?? []).filter((error) => error !== MISSING_INFORMATION)]} /> : <FormAlert id={form.errorId} errors={form.errors} />}
      <HoneypotField />

      <fieldset aria-describedby={fields.slot.errors?.length ? fields.slot.errorId : undefined}>
        <legend className="text-sm font-semibold text-ink">Time slot</legend>
        <p className="mt-1 text-sm text-muted">Each slot is for one swimmer.</p>
        {loaderData.slots.map((date) => (
          <fieldset key={date.date} className="mt-4">
            <legend className="font-semibold text-brand-900">{date.label}</legend>
            <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
              {date.slots.map((slot) => {
                const { key, ...props } = slotProps.get(slot.value)!
                const free = slot.state === 'available'
                return (
                  <label key={key} className={`flex min-h-12 items-center gap-2 rounded-lg border-2 px-3 py-2 ${free ? 'border-slate-300 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50' : 'border-slate-200 bg-slate-50 text-slate-600'}`}>
                    <input {...props} disabled={!free} className="h-5 w-5 shrink-0 accent-brand-700" />
                    <span>
                      <span className="block font-semibold whitespace-nowrap">{slot.start}</span>
                      <span className="block text-xs whitespace-nowrap">to {slot.end}</span>
                      {!free && <span className="block text-xs font-semibold">{slot.state === 'full' ? 'Full' : 'Already begun'}</span>}
                    </span>
                  </label>
                )
              })}
            </div>
          </fieldset>
        ))}
        <FieldError field={fields.slot} />
      </fieldset>

      <BookingDetailsFields fields={fields} whatsappOptIn={loaderData.whatsappOptIn} whoSwims={loaderData.whoSwims} />
      <TextAreaField field={fields.notes} label="Notes" note="optional" />
      <PromoCodeInput error={invalid?.promo.error ?? null} typed={invalid?.promo.typed ?? null} />

      <p className="text-sm text-muted">
        You pay {loaderData.day.price} on our payment partner's secure page (UPI, cards, net banking), less what a promo code takes off. Your card details never reach our site.
      </p>
      <PendingButton name="intent" value={BOOK} when={{ fields: { intent: BOOK } }} pendingLabel="Booking..." className="btn-primary w-full">
        Book and pay
      </PendingButton>
    </Form>
  )
}

/** A host's link whose key does not check out says so; anything else is the site's error page. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = isRouteErrorResponse(error) && error.status === 404 && typeof error.data === 'object' && error.data && 'message' in error.data ? String(error.data.message) : null
  if (!message) return <ErrorPage error={error} />
  return (
    <section className="container-page py-24 text-center">
      <title>{message}</title>
      <h1 className="text-3xl font-extrabold text-brand-900 sm:text-4xl">{message}</h1>
      <p className="mx-auto mt-4 max-w-2xl text-lg text-muted">Please ask whoever sent it for the link again, or see the analysis days open to everyone.</p>
      <Link to={href('/analysis-days')} className="btn-primary mt-8">
        Analysis days
      </Link>
    </section>
  )
}
