import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import { data, Form, href, Link, redirect, redirectDocument, useFetcher } from 'react-router'
import type { Route } from './+types/booking'
import { FieldError, FormAlert, HoneypotField, PendingButton, radioProps, TextAreaField, useLazyValidatedForm } from '~/components/form-controls'
import { BookingDetailsFields } from '~/components/booking-details-fields'
import { CheckoutStatus, ReceiptButton } from '~/components/checkout-status'
import { SampleAnalysisLink } from '~/components/sample-analysis-link'
import { APPLY_PROMO, ENTER_PROMO_CODE, PromoCodeForm, REMOVE_PROMO, typedPromoCode } from '~/components/promo-code'
import { DetailRow, TooLateToChange } from '~/components/payment-status-card'
import { callerOf, getUser } from '~/web/auth.server'
import { clearDraftHeader, draftHeader, readDraft, readDraftPromoCode } from '~/web/booking/booking-draft.server'
import { linkExpired } from '~/web/booking/booking-access.server'
import { formatRupees, formatWholeRupees } from '~/lib/money'
import { formatClockTime, formatTimeRange, formatWeekdayDate, formatWeekdayDayMonth } from '~/lib/lab-time'
import { rejectBots } from '~/web/honeypot'
import { logger } from '~/lib/logger.server'
import { BOOKING_STATUS_LINK, isLinkKey, privateLinkPath, privateLinkUrl, RECEIPT_LINK } from '~/lib/private-links.server'
import { pageMeta } from '~/lib/seo'
import { followOrder, statusPageBasics } from '~/web/payments/order-status.server'
import { useHydrated } from '~/web/use-hydrated'
import { guestLinkOpenFor } from '~/modules/booking/guest-links.server'
import { paymentStatusView } from '~/modules/booking/bookings.server'
import { venueDetails } from '~/modules/booking/texts'
import { AlreadyBookedError, SlotUnavailableError } from '~/modules/booking/holds.server'
import { tooLateToChangeNotice } from '~/modules/booking/changes.server'
import { holderOf } from '~/web/holders/holder.server'
import { clientNetwork } from '~/modules/rate-limit/client-network'
import {
  bookingDates,
  bookingTimesOn,
  holdSingleSession,
  NO_TIMES_MESSAGE,
  singleService,
  singleServicePrices,
  swimmerOfBooking,
  type BookingTime,
} from '~/modules/booking/public-booking.server'
import { isBookableDate, MISSING_INFORMATION, REQUIRED_BOOKING_FIELDS, SOMEONE_ELSE } from '~/modules/booking/fields'
import { BookableDateSchema, PublicBookingSchema, type PublicBookingInput } from '~/modules/booking/schemas'
import { checkout, previewCode } from '~/modules/payments/checkout.server'
import { promoDiscountRow } from '~/modules/promotions/texts'
import { getCatalogue, requireItem } from '~/modules/site/site.server'
import { hasPublishedSample } from '~/modules/analyses/samples.server'
import { readForm } from '~/web/form-data.server'
import { formatPhone } from '~/lib/phone'
import { whatsappEnabled } from '~/modules/whatsapp/config.server'
import { bookingDetailsForm } from '~/web/booking/booking-details.server'
import { formIntent } from '~/web/intent'
import { refusalOf, type Refusal } from '~/web/refusals.server'
import { bookingCheckLink, publicBookingLink, bookingTimesLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: 'Book a Session', description: 'Book a race analysis, a biomechanical analysis or both at our Bangalore lab, and pay online.', path: href('/booking') })

const STEP_NOTICES: Record<string, string> = {
  failed: 'Your payment did not go through, and nothing was charged. Your details are kept: you can try again.',
  unavailable: 'Sorry, that time was taken while you were deciding. Please choose another time.',
  error: 'Payment Error: Failed to create payment. Please try again.',
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const step = url.searchParams.get('step')
  const services = await singleServicePrices()
  if (step === '3') return confirmationStep(url, services)

  const draft = await readDraft(request)
  const user = await getUser(request)
  if (step === '2') {
    if (!draft) throw redirect(href('/booking'))
    const [promo, swimmer] = await Promise.all([draftPromo(request, draft, services), draftSwimmer(draft, user?.id ?? null)])
    return {
      step: 2 as const,
      services,
      summary: summaryOf(draft, services, 'discountPaise' in promo ? promo : null, 'name' in swimmer ? swimmer : null),
      promo,
      notice: STEP_NOTICES[url.searchParams.get('payment') ?? ''] ?? ('refused' in swimmer ? swimmer.refused : null),
      tooLateToChange: tooLateToChangeNotice(draft.date, draft.time),
    }
  }
  const [dates, details, sampleAnalysis] = await Promise.all([bookingDates(), bookingDetailsForm(user), hasPublishedSample()])
  // From the pricing page's buttons: the service the visitor chose there.
  const chosenService = services.find((service) => service.value === url.searchParams.get('service'))?.value
  // Back from step 2: the details as kept, the WhatsApp box as the visitor left it.
  const prefill: Partial<Record<keyof PublicBookingInput, string>> = draft
    ? { ...draft, phone: draft.phone && formatPhone(draft.phone), whatsappOptIn: draft.whatsappOptIn ? 'on' : undefined }
    : { ...details.prefill, ...(chosenService ? { service: chosenService } : {}) }
  return {
    step: 1 as const,
    services,
    prefill,
    sampleAnalysis,
    times: prefill.date && dates.open.includes(prefill.date) ? await bookingTimesOn(prefill.date) : null,
    dates,
    constraint: getZodConstraint(PublicBookingSchema),
    whatsappOptIn: details.whatsappOptIn,
    whoSwims: details.whoSwims,
  }
}

/** Who the draft books for, as the hold will check it; or why it cannot be booked as it stands. */
async function draftSwimmer(draft: PublicBookingInput, accountId: number | null): Promise<{ name: string; age: number | null } | { refused: string }> {
  try {
    return await swimmerOfBooking(draft, accountId)
  } catch (error) {
    return { refused: refusalOf(error).message }
  }
}

type Services = Awaited<ReturnType<typeof singleServicePrices>>

/**
 * The promo code kept with the draft, checked again as it stands now (it may have been used up or
 * switched off since it was applied): what it takes off, or why it no longer applies.
 */
async function draftPromo(request: Request, draft: PublicBookingInput, services: Services): Promise<{ code: string; discountPaise: number } | { refused: string } | { none: true }> {
  const code = await readDraftPromoCode(request)
  if (!code) return { none: true }
  const user = await getUser(request)
  try {
    return await previewCode({ code, product: 'single', customer: { accountId: user?.id ?? null, email: draft.email }, pricesPaise: [priceOf(draft, services)], network: null })
  } catch (error) {
    const refusal = refusalOf(error)
    return { refused: `Promo code ${code}: ${refusal.message}` }
  }
}

const priceOf = (details: PublicBookingInput, services: Services) => services.find((candidate) => candidate.value === details.service)!.pricePaise

function summaryOf(details: PublicBookingInput, services: Services, promo: { code: string; discountPaise: number } | null, swimmer: { name: string; age: number | null } | null) {
  const service = services.find((candidate) => candidate.value === details.service)!
  return {
    name: details.name,
    swimmer: swimmer && (swimmer.age === null ? swimmer.name : `${swimmer.name}, ${swimmer.age}`),
    email: details.email,
    phone: details.phone ? formatPhone(details.phone) : null,
    whatsapp: Boolean(details.phone && details.whatsappOptIn && whatsappEnabled()),
    service: service.label,
    when: `${formatWeekdayDate(details.date)} at ${formatClockTime(details.time)}`,
    price: formatRupees(service.pricePaise),
    promo: promo && { code: promo.code, discount: formatRupees(promo.discountPaise), row: promoDiscountRow(promo) },
    total: formatRupees(service.pricePaise - (promo?.discountPaise ?? 0)),
    free: service.pricePaise - (promo?.discountPaise ?? 0) === 0,
    notes: details.notes || null,
  }
}

/** Step 3: the payment's result, for holders of the link the site gave the gateway. */
async function confirmationStep(url: URL, services: Services) {
  const orderId = url.searchParams.get('orderId')
  const key = url.searchParams.get('key')
  const valid = orderId ? await isLinkKey(BOOKING_STATUS_LINK, orderId, key) : false
  if (!orderId || !valid) throw redirect(href('/booking'))
  const view = await followOrder((id) => paymentStatusView({ orderId: id, access: { linkKeyChecked: true } }), orderId)
  if (!view) throw redirect(href('/booking'))
  if (!(await guestLinkOpenFor(view.booking.id))) throw linkExpired()
  // A declined or abandoned payment: back to step 2, details kept.
  if (view.paymentState === 'failed') throw redirect(publicBookingLink({ step: '2', payment: 'failed' }))
  const day = view.booking.days[0]!
  const result = {
    step: 3 as const,
    services,
    orderId,
    // Not `key`: React keeps that prop to itself, and the step would lose the link's key.
    statusKey: key!,
    ...(await statusPageBasics(url)),
    state: view.paymentState === 'completed' ? (view.bookingStatus === 'confirmed' ? 'confirmed' : 'refunding') : 'pending',
    receiptUrl: view.paymentState === 'completed' ? await privateLinkPath(RECEIPT_LINK, orderId) : null,
    booking: {
      reference: view.booking.reference,
      service: view.booking.productName,
      swimmer: view.booking.swimmerName,
      when: `${formatWeekdayDate(day.date)}, ${formatTimeRange(day.start, day.end)}`,
      venue: venueDetails(view.booking.venue),
      email: view.booking.customerEmail,
    },
  } as const
  // Booked: the draft has served its purpose.
  return result.state === 'confirmed' ? data(result, { headers: { 'Set-Cookie': await clearDraftHeader() } }) : result
}

type ActionResult =
  | { kind: 'times'; values: Record<string, string>; times: BookingTime[] | null; dateError: string | null }
  | { kind: 'invalid'; result: SubmissionResult<string[]>; times: BookingTime[] | null }
  | { kind: 'refused'; message: string }
  | { kind: 'promo'; message: string; typed: string | null }

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  rejectBots(formData)
  const intent = formIntent(formData, ['details', 'times', 'pay', APPLY_PROMO, REMOVE_PROMO])

  if (intent === 'pay') return pay(request, context)
  if (intent === APPLY_PROMO || intent === REMOVE_PROMO) return changePromoCode(request, context, intent, formData)

  const date = BookableDateSchema.safeParse(formData.get('date'))
  // A date is taken only when /booking offers it: one with a time that can still be booked.
  const withoutTimes = date.success && !(await bookingDates()).open.includes(date.data)
  const times = date.success && !withoutTimes ? await bookingTimesOn(date.data) : null
  if (intent === 'times') {
    // Without JavaScript, "Show available times" posts the form; it comes back as typed, with the date's times.
    const values = Object.fromEntries([...formData].filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
    return data<ActionResult>({ kind: 'times', values, times, dateError: withoutTimes ? NO_TIMES_MESSAGE : null }, withoutTimes ? { status: 400 } : undefined)
  }

  const submission = parseWithZod(formData, { schema: PublicBookingSchema })
  const dateErrors: Record<string, string[]> = withoutTimes ? { date: [NO_TIMES_MESSAGE] } : {}
  if (submission.status !== 'success') {
    const missing = REQUIRED_BOOKING_FIELDS.some((field) => !String(formData.get(field) ?? '').trim())
    return data<ActionResult>({ kind: 'invalid', result: submission.reply({ formErrors: missing ? [MISSING_INFORMATION] : [], fieldErrors: dateErrors }), times }, { status: 400 })
  }
  if (withoutTimes) return data<ActionResult>({ kind: 'invalid', result: submission.reply({ fieldErrors: dateErrors }), times }, { status: 400 })
  const chosen = times?.find((time) => time.time === submission.value.time)
  const timeErrors: Record<string, string[]> = chosen?.state === 'available' ? {} : { time: ['This time is not available. Please choose another time.'] }
  // Who swims is checked now as the hold will check it, so that its message shows next to the question.
  const user = await getUser(request)
  const swimmer = await swimmerOfBooking(submission.value, user?.id ?? null).then(
    () => null,
    (error: unknown) => refusalOf(error),
  )
  if (swimmer || timeErrors.time) {
    const errors = swimmer ? detailsErrorsOf(swimmer) : {}
    return data<ActionResult>({ kind: 'invalid', result: submission.reply({ formErrors: errors.formErrors, fieldErrors: { ...timeErrors, ...errors.fieldErrors } }), times }, { status: swimmer?.status ?? 409 })
  }
  return redirect(publicBookingLink({ step: '2' }), { headers: { 'Set-Cookie': await draftHeader(draftOf(submission.value)) } })
}

/** A refusal of who swims, next to the field of step 1 it is about: /book-slot's swimmer choice is "Who will swim?" here. */
function detailsErrorsOf({ error, message }: Refusal): { formErrors?: string[]; fieldErrors?: Record<string, string[]> } {
  const field = error.field === 'swimmerId' ? 'whoSwims' : error.field
  return field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }
}

/** The details kept for step 2: a swimmer's name, age and declaration only when someone else swims. */
function draftOf(details: PublicBookingInput): PublicBookingInput {
  return details.whoSwims === SOMEONE_ELSE ? details : { ...details, swimmerName: undefined, swimmerAge: undefined, guardianDeclaration: undefined }
}

/**
 * Step 2's promo code, before any seat is held: checked as it would be applied, then kept with the
 * draft (it is applied for real when the seat is held); removed on request.
 */
async function changePromoCode(request: Request, context: Route.ActionArgs['context'], intent: typeof APPLY_PROMO | typeof REMOVE_PROMO, formData: FormData) {
  const draft = await readDraft(request)
  if (!draft) return redirect(href('/booking'))
  const code = typedPromoCode(formData)
  if (intent === REMOVE_PROMO) return redirect(publicBookingLink({ step: '2' }), { headers: { 'Set-Cookie': await draftHeader(draft) } })
  if (!code) return data<ActionResult>({ kind: 'promo', message: ENTER_PROMO_CODE, typed: null }, { status: 400 })
  const user = await getUser(request)
  try {
    const preview = await previewCode({ code, product: 'single', customer: { accountId: user?.id ?? null, email: draft.email }, pricesPaise: [priceOf(draft, await singleServicePrices())], network: clientNetwork(callerOf(request, context).ip) })
    return redirect(publicBookingLink({ step: '2' }), { headers: { 'Set-Cookie': await draftHeader(draft, preview.code) } })
  } catch (error) {
    const refusal = refusalOf(error)
    return data<ActionResult>({ kind: 'promo', message: refusal.message, typed: code.slice(0, 64) }, { status: refusal.status })
  }
}

/**
 * Step 2's Complete Booking: holds the seat, then sends the customer to the gateway's page. A
 * refusal (an unpaid booking already waiting for this address, too many from the network, too many
 * attempts) is shown on step 2, details kept.
 */
async function pay(request: Request, context: Route.ActionArgs['context']) {
  const draft = await readDraft(request)
  if (!draft) return redirect(href('/booking'))
  const user = await getUser(request)
  const { holder, setCookie } = await holderOf(request, context, { userId: user?.id ?? null, email: draft.email })
  const headers = new Headers()
  if (setCookie) headers.append('Set-Cookie', setCookie)
  let hold: { bookingId: number; swimmerName: string }
  try {
    hold = await holdSingleSession(draft, holder)
  } catch (error) {
    const refusal = refusalOf(error)
    // The seat went meanwhile: step 2 says so, for another to be chosen.
    if (refusal.error instanceof SlotUnavailableError || refusal.error instanceof AlreadyBookedError) return redirect(publicBookingLink({ step: '2', payment: 'unavailable' }), { headers })
    return data<ActionResult>({ kind: 'refused', message: refusal.message }, { status: refusal.status, headers })
  }
  const promoCode = await readDraftPromoCode(request)
  const result = await checkout({
    payable: { kind: 'booking', id: hold.bookingId },
    // The booking is made: the number the visitor asked WhatsApp messages for on step 1 is asked to confirm (its owner may be someone else).
    whatsapp: { phone: draft.phone, ticked: draft.whatsappOptIn, source: 'booking' },
    // The code stopped applying since step 2 showed it (used up, switched off): nothing is held, and the price is shown again without it.
    promo: promoCode ? { code: promoCode, network: holder.network, givesUpWhen: 'anything' } : undefined,
    pay: {
      description: `${requireItem(await getCatalogue(), singleService(draft.service).productCode).name} - ${hold.swimmerName}`,
      statusUrl: (orderId) => privateLinkUrl(BOOKING_STATUS_LINK, orderId),
    },
  })
  if ('paying' in result) return redirectDocument(result.paying.redirectUrl, { headers })
  if (result.step === 'promo') {
    headers.append('Set-Cookie', await draftHeader(draft))
    return data<ActionResult>({ kind: 'promo', message: `Promo code ${promoCode}: ${refusalOf(result.refused).message}`, typed: null }, { status: 409, headers })
  }
  const refusal = refusalOf(result.refused)
  logger().error({ err: refusal.error.cause ?? refusal.error }, 'booking payment could not start')
  return redirect(publicBookingLink({ step: '2', payment: 'error' }), { headers })
}

export default function Booking({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-10 sm:py-14">
      <div className="mx-auto w-full max-w-3xl">
        <h1 className="text-3xl font-extrabold text-brand-900 sm:text-4xl">Book a Session</h1>
        <p className="mt-2 text-muted">A race analysis, a biomechanical analysis, or both, at our Bangalore lab.</p>
        {loaderData.step === 1 && <SampleAnalysisLink shown={loaderData.sampleAnalysis} className="mt-1" />}
        <Progress step={loaderData.step} />
        <div className="card mt-6 p-6 shadow-sm sm:p-8">
          {loaderData.step === 1 && <DetailsStep loaderData={loaderData} actionData={actionData} />}
          {loaderData.step === 2 && (
            <PaymentStep
              {...loaderData}
              notice={actionData?.kind === 'refused' ? actionData.message : loaderData.notice}
              promoError={actionData?.kind === 'promo' ? actionData.message : 'refused' in loaderData.promo ? loaderData.promo.refused : null}
              typed={actionData?.kind === 'promo' ? actionData.typed : null}
            />
          )}
          {loaderData.step === 3 && <ConfirmationStep {...loaderData} />}
        </div>
      </div>
    </section>
  )
}

const STEPS = ['Details', 'Payment', 'Confirmation'] as const

function Progress({ step }: { step: 1 | 2 | 3 }) {
  return (
    <nav aria-label="Booking progress" className="mt-6">
      <ol className="grid grid-cols-3 gap-2">
        {STEPS.map((label, index) => {
          const number = index + 1
          const reached = number <= step
          return (
            <li key={label} aria-current={number === step ? 'step' : undefined} className="text-sm">
              <span aria-hidden="true" className={`block h-2 rounded-full ${reached ? 'bg-brand-700' : 'bg-slate-200'}`} />
              <span className={`mt-2 block font-semibold ${reached ? 'text-brand-800' : 'text-muted'}`}>
                {number}. {label}
                {number < step && <span className="sr-only"> (done)</span>}
              </span>
            </li>
          )
        })}
      </ol>
    </nav>
  )
}

type Step1Data = Extract<Route.ComponentProps['loaderData'], { step: 1 }>

function DetailsStep({ loaderData, actionData }: { loaderData: Step1Data; actionData: ActionResult | undefined }) {
  const values = actionData?.kind === 'times' ? actionData.values : loaderData.prefill
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/booking/schemas').then((schemas) => schemas.PublicBookingSchema), {
    constraint: loaderData.constraint,
    lastResult: actionData?.kind === 'invalid' ? actionData.result : undefined,
    defaultValue: values,
  })
  const hydrated = useHydrated()
  const timesFetcher = useFetcher<{ times: BookingTime[] | null }>()
  const date = fields.date.value
  const dates = loaderData.dates
  const dateErrors = actionData?.kind === 'times' && actionData.dateError ? [actionData.dateError] : fields.date.errors

  // With JavaScript the times follow the date as it is picked.
  useEffect(() => {
    if (hydrated && date && isBookableDate(date) && dates.open.includes(date)) timesFetcher.load(bookingTimesLink(date))
  }, [hydrated, date])
  const times = (hydrated && date ? timesFetcher.data?.times : undefined) ?? (actionData && 'times' in actionData ? actionData.times : loaderData.times)
  const missing = (form.errors ?? []).includes(MISSING_INFORMATION) || REQUIRED_BOOKING_FIELDS.some((field) => fields[field].errors?.length && !fields[field].value)

  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <h2 className="text-xl font-bold text-ink">Your details</h2>
      {missing ? <FormAlert id={form.errorId} errors={[MISSING_INFORMATION]} /> : <FormAlert id={form.errorId} errors={form.errors} />}
      <HoneypotField />
      <BookingDetailsFields fields={fields} whatsappOptIn={loaderData.whatsappOptIn} whoSwims={loaderData.whoSwims} />

      <fieldset aria-describedby={fields.service.errors?.length ? fields.service.errorId : undefined}>
        <legend className="text-sm font-semibold text-ink">Service</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {radioProps(
            fields.service,
            loaderData.services.map((service) => service.value),
          ).map(({ key, ...props }) => {
            const service = loaderData.services.find((candidate) => candidate.value === props.value)!
            return (
              <label key={key} className="flex min-h-12 items-center gap-3 rounded-lg border-2 border-slate-300 px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
                <input {...props} className="h-5 w-5 shrink-0 accent-brand-700" />
                <span>
                  <span className="block font-semibold">{service.label}</span>
                  <span className="block text-sm text-muted">{formatWholeRupees(service.pricePaise)}</span>
                </span>
              </label>
            )
          })}
        </div>
        <FieldError field={fields.service} />
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end">
        <div>
          <label htmlFor={fields.date.id} className="block text-sm font-semibold text-ink">
            Date
          </label>
          {/* Only the dates with times: a list works on any phone, with or without JavaScript. */}
          <select
            id={fields.date.id}
            name={fields.date.name}
            defaultValue={dates.open.includes(fields.date.initialValue ?? '') ? fields.date.initialValue : ''}
            aria-invalid={dateErrors?.length ? true : undefined}
            aria-describedby={[fields.date.descriptionId, dateErrors?.length ? fields.date.errorId : null].filter(Boolean).join(' ')}
            className="input mt-1"
          >
            <option value="">Choose a date</option>
            {dates.open.map((day) => (
              <option key={day} value={day}>
                {formatWeekdayDate(day)}
              </option>
            ))}
          </select>
          <p id={fields.date.descriptionId} className="mt-1 text-sm text-muted">
            {dates.open.length === 0 ? 'No dates have open times at the moment. Please check again soon.' : 'Only dates with open times are listed.'}
            {dates.closed.length > 0 && ` The lab is closed on ${dates.closed.map(formatWeekdayDayMonth).join('; ')}.`}
          </p>
          {dateErrors?.length ? (
            <p id={fields.date.errorId} className="mt-1 text-sm font-medium text-red-700">
              {dateErrors[0]}
            </p>
          ) : null}
        </div>
        {/* With JavaScript the times follow the date. Hidden by the stylesheet until then, so that nothing moves when it goes; gone once the page is hydrated, so that Enter in a field sends the form, not this. */}
        {!hydrated && (
          <button type="submit" name="intent" value="times" formNoValidate className="btn-secondary hidden noscript:inline-flex">
            Show available times
          </button>
        )}
      </div>

      <fieldset aria-describedby={fields.time.errors?.length ? fields.time.errorId : undefined}>
        <legend className="text-sm font-semibold text-ink">Time</legend>
        {!times ? (
          <p className="mt-2 text-sm text-muted">Choose a date to see the times that are free.</p>
        ) : (
          <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3">
            {radioProps(
              fields.time,
              times.map((time) => time.time),
            ).map(({ key, ...props }) => {
              const time = times.find((candidate) => candidate.time === props.value)!
              const free = time.state === 'available'
              return (
                <label key={key} className={`flex min-h-12 items-center gap-2 rounded-lg border-2 px-3 py-2 ${free ? 'border-slate-300 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50' : 'border-slate-200 bg-slate-50 text-slate-600'}`}>
                  <input {...props} disabled={!free} className="h-5 w-5 shrink-0 accent-brand-700" />
                  <span>
                    <span className="block font-semibold">{formatClockTime(time.time)}</span>
                    {!free && <span className="block text-xs">{time.state === 'full' ? 'Full' : 'Not available'}</span>}
                  </span>
                </label>
              )
            })}
          </div>
        )}
        <FieldError field={fields.time} />
      </fieldset>

      <TextAreaField field={fields.notes} label="Notes" note="optional" />

      <PendingButton name="intent" value="details" when={{ fields: { intent: 'details' } }} pendingLabel="Checking..." className="btn-primary w-full">
        Continue to Payment
      </PendingButton>
    </Form>
  )
}

function PaymentStep({ summary, notice, tooLateToChange, promoError, typed }: Extract<Route.ComponentProps['loaderData'], { step: 2 }> & { promoError: string | null; typed: string | null }) {
  return (
    <div className="space-y-6">
      <h2 className="text-xl font-bold text-ink">Payment</h2>
      {notice && (
        <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {notice}
        </div>
      )}
      {tooLateToChange && <TooLateToChange notice={tooLateToChange} />}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <DetailRow term="Name" value={summary.name} />
        {summary.swimmer && <DetailRow term="Swimmer" value={summary.swimmer} />}
        <DetailRow term="Email" value={summary.email} />
        {summary.phone && <DetailRow term="Phone" value={summary.phone} />}
        {summary.whatsapp && <DetailRow term="WhatsApp messages" value="Yes, at this number" />}
        <DetailRow term="Service" value={summary.service} />
        <DetailRow term="Date and time" value={summary.when} />
        {summary.notes && <DetailRow term="Notes" value={summary.notes} />}
      </dl>
      {summary.promo && (
        <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-2 border-t border-slate-200 pt-4 text-sm">
          <DetailRow term={summary.service} value={summary.price} />
          <DetailRow term={summary.promo.row.term} value={summary.promo.row.value} />
        </dl>
      )}
      <p className="flex justify-between border-t border-slate-200 pt-4 text-lg font-bold text-ink">
        <span>Total</span>
        <span>{summary.total}</span>
      </p>
      <PromoCodeForm applied={summary.promo} error={promoError} typed={typed} />
      <p className="text-sm text-muted">
        {summary.free ? 'Nothing to pay: the promo code covers the full price.' : "You pay on our payment partner's secure page (UPI, cards, net banking). Your card details never reach our site."}
      </p>
      <Form method="post" className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <HoneypotField />
        <Link to={href('/booking')} className="btn-secondary">
          Change details
        </Link>
        <PendingButton name="intent" value="pay" when={{ untilLoaded: true }} pendingLabel="Processing...">
          Complete Booking
        </PendingButton>
      </Form>
    </div>
  )
}

function ConfirmationStep({ state, booking, orderId, statusKey: key, receiptUrl, support, ...timing }: Extract<Route.ComponentProps['loaderData'], { step: 3 }>) {
  const confirmed = state === 'confirmed'
  return (
    <CheckoutStatus
      state={state === 'pending' ? 'pending' : 'completed'}
      pageUrl={(extra) => publicBookingLink({ step: '3', orderId, key, ...extra })}
      checkUrl={bookingCheckLink(orderId, key)}
      timing={timing}
      card={({ timedOut, elapsed }) =>
        confirmed
          ? { tone: 'success', title: 'Booking Confirmed!', message: 'Booking Successful! Your session has been booked. Check your email for confirmation.' }
          : state === 'refunding'
            ? { tone: 'error', title: 'Payment Refunded', message: 'Your payment reached us after the hold on your time had expired, and the time was taken meanwhile. The full amount is being refunded; we have e-mailed you the details.' }
            : timedOut
              ? { tone: 'error', title: 'Verification Error', message: 'Payment verification timeout. Please contact support.', detail: 'We keep checking with the payment gateway and will e-mail you as soon as the payment is confirmed.' }
              : { tone: 'pending', title: 'Verifying Payment', message: 'We are waiting for the payment gateway to confirm your payment.', elapsed }
      }
      details={
        confirmed
          ? {
              id: 'booking-details',
              title: 'Booking details',
              rows: [
                { term: 'Service', value: booking.service },
                { term: 'Swimmer', value: booking.swimmer },
                { term: 'Date and time', value: booking.when },
                ...booking.venue,
                { term: 'Booking ID', value: booking.reference },
              ],
            }
          : null
      }
      note={confirmed ? `A confirmation e-mail with a calendar invitation has been sent to ${booking.email}. It also has a private link to this booking.` : null}
      actions={<ReceiptButton href={receiptUrl} />}
      homeLabel="Return to Home"
      support={support}
    />
  )
}
