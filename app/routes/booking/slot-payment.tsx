import { data, Form, href, Link, redirect, redirectDocument, useNavigation } from 'react-router'
import type { Route } from './+types/slot-payment'
import { FormAlert, HoneypotField } from '~/components/form-controls'
import { APPLY_PROMO, ENTER_PROMO_CODE, PROMO_FIELD, PromoCodeForm, REMOVE_PROMO, typedPromoCode } from '~/components/promo-code'
import { TooLateToChange } from '~/components/payment-status-card'
import { config } from '~/config.server'
import { callerOf, requireUser } from '~/web/auth.server'
import { formatRupees } from '~/lib/money'
import { formatLabTime, formatTimeRange, formatWeekdayDate } from '~/lib/lab-time'
import { rejectBots } from '~/web/honeypot'
import { logger } from '~/lib/logger.server'
import { pageMeta } from '~/lib/seo'
import { redirectWithToast } from '~/web/toast.server'
import { optionLabel, SWIMMING_EXPERIENCE } from '~/modules/forms/choices'
import { tooLateToChangeNotice } from '~/modules/booking/changes.server'
import { payableBooking } from '~/modules/booking/bookings.server'
import { HoldExpiredError } from '~/modules/payments/payments.server'
import { applyCodeToOrder, checkout, promoCodeOfOrder, removeCodeFromOrder } from '~/modules/payments/checkout.server'
import { formIntent } from '~/web/intent'
import { promoDiscountRow } from '~/modules/promotions/texts'
import { getSiteSettings } from '~/modules/site/site.server'
import { readForm } from '~/web/form-data.server'
import { refusalOf } from '~/web/refusals.server'
import { rowId } from '~/lib/row-id'
import { clientNetwork } from '~/modules/rate-limit/client-network'
import { slotPaymentLink, slotPaymentStatusLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Complete Your Payment', description: 'Pay for your analysis session.', path: href('/slot-payment') }),
  { name: 'robots', content: 'noindex' },
]

function bookingIdFrom(request: Request) {
  return rowId(new URL(request.url).searchParams.get('booking'))
}

const NO_BOOKING = { type: 'error', title: 'No booking details found', description: 'Please start the booking process again.' } as const

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const bookingId = bookingIdFrom(request)
  const booking = bookingId ? await payableBooking(bookingId, user.id) : null
  if (!booking) throw await redirectWithToast(href('/book-slot'), NO_BOOKING)
  const settings = await getSiteSettings()
  return {
    booking: {
      id: booking.id,
      product: booking.productName,
      duration: booking.productDuration,
      swimmer: booking.swimmerName,
      name: booking.customerName,
      email: booking.customerEmail,
      phone: booking.customerPhone,
      experience: optionLabel(SWIMMING_EXPERIENCE, booking.swimmingExperience) ?? 'N/A',
      timeSlot: formatTimeRange(booking.startTime, booking.endTime),
      days: booking.days.map((day) => ({ dayNumber: day.dayNumber, date: formatWeekdayDate(day.date), time: formatTimeRange(day.start, day.end) })),
      amountPaise: booking.amountPaise,
      pricePaise: booking.amountPaise + booking.promoDiscountPaise,
      heldUntil: formatLabTime(booking.holdExpiresAt!),
    },
    promo: await promoCodeOfOrder({ kind: 'booking', id: booking.id }),
    refundPolicy: settings.refundPolicy,
    tooLateToChange: booking.days[0] ? tooLateToChangeNotice(booking.days[0].date, booking.days[0].start) : null,
    testPayments: config().PAYMENT_GATEWAY === 'sandbox',
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request)
  const formData = await readForm(request)
  rejectBots(formData)
  const bookingId = bookingIdFrom(request)
  const booking = bookingId ? await payableBooking(bookingId, user.id) : null
  if (!booking) return redirectWithToast(href('/book-slot'), NO_BOOKING)
  const payable = { kind: 'booking', id: booking.id } as const
  const intent = formIntent(formData, [APPLY_PROMO, REMOVE_PROMO])
  if (intent) {
    try {
      const code = typedPromoCode(formData)
      if (intent === REMOVE_PROMO) await removeCodeFromOrder({ payable })
      else if (!code) return data({ error: null, promoError: ENTER_PROMO_CODE, typed: null }, { status: 400 })
      else await applyCodeToOrder({ payable, code, network: clientNetwork(callerOf(request, context).ip) })
      return redirect(slotPaymentLink(booking.id))
    } catch (error) {
      const refusal = refusalOf(error)
      if (refusal.error instanceof HoldExpiredError) return redirectWithToast(href('/book-slot'), { type: 'error', title: 'Booking Failed', description: refusal.message })
      return data({ error: null, promoError: refusal.message, typed: String(formData.get(PROMO_FIELD) ?? '').slice(0, 64) }, { status: refusal.status })
    }
  }
  const result = await checkout({
    payable,
    attempts: { network: clientNetwork(callerOf(request, context).ip), email: user.email },
    pay: { description: `Slot booking - ${booking.swimmerName}`, statusUrl: (orderId) => `${config().SITE_URL}${slotPaymentStatusLink(orderId)}` },
  })
  // The gateway's page is not part of this app: the browser loads it as a new document.
  if ('paying' in result) return redirectDocument(result.paying.redirectUrl)
  const refusal = refusalOf(result.refused)
  // The hold ran out: the time slot is chosen again.
  if (refusal.error instanceof HoldExpiredError) return redirectWithToast(href('/book-slot'), { type: 'error', title: 'Booking Failed', description: refusal.message })
  if (refusal.error.kind === 'unavailable') logger().error({ err: refusal.error.cause, bookingId: booking.id }, 'payment creation failed')
  return data({ error: refusal.message, promoError: null, typed: null }, { status: refusal.status })
}

export default function SlotPayment({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, promo, refundPolicy, tooLateToChange, testPayments } = loaderData
  const navigation = useNavigation()
  // The promo code's form posts here too (with an intent): only the payment's own post is paying.
  const paying = navigation.formMethod === 'POST' && navigation.formAction?.startsWith(href('/slot-payment')) && !navigation.formData?.has('intent')
  const redirecting = navigation.state === 'loading' && paying
  const total = formatRupees(booking.amountPaise)

  return (
    <section className="container-page py-10 sm:py-14">
      <Link to={href('/book-slot')} className="inline-flex min-h-11 items-center gap-2 font-semibold text-brand-700 underline-offset-4 hover:underline">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M15 6l-6 6 6 6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        Back to slot booking
      </Link>
      <h1 className="mt-4 text-3xl font-extrabold text-brand-900 sm:text-4xl">Complete Your Payment</h1>
      <p className="mt-2 text-muted">Your seats are held until {booking.heldUntil}. Pay before then to confirm your booking.</p>
      {tooLateToChange && <TooLateToChange notice={tooLateToChange} />}

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="booking-summary" className="card p-6 shadow-sm">
          <h2 id="booking-summary" className="text-lg font-bold text-ink">
            Booking Summary
          </h2>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <SummaryRow term="Swimmer" value={booking.swimmer} />
            <SummaryRow term="Booked by" value={booking.name} />
            <SummaryRow term="Email" value={booking.email} />
            <SummaryRow term="Phone" value={booking.phone ?? 'N/A'} />
            <SummaryRow term="Experience" value={booking.experience} />
            <SummaryRow term="Time Slot" value={booking.timeSlot} />
            <SummaryRow term="Duration" value={booking.duration} />
          </dl>
          <h3 className="mt-6 text-sm font-semibold text-muted">Session dates</h3>
          {/* One line a day (the time is the Time Slot's), so a phone reaches the Pay button within two screens. */}
          <ol className="mt-2 space-y-1 rounded-lg bg-brand-50 px-3 py-2 text-sm">
            {booking.days.map((day) => (
              <li key={day.dayNumber}>
                <span className="font-semibold text-ink">
                  Day {day.dayNumber}: {day.date}
                </span>
                {day.time !== booking.timeSlot && <span className="text-muted">, {day.time}</span>}
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="payment-details" className="card p-6 shadow-sm">
          <h2 id="payment-details" className="text-lg font-bold text-ink">
            Payment Details
          </h2>
          <dl className="mt-4 space-y-2 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-muted">{booking.product}</dt>
              <dd className="font-semibold text-ink">{formatRupees(booking.pricePaise)}</dd>
            </div>
            {promo && (
              <div className="flex justify-between gap-4">
                <dt className="text-muted">{promoDiscountRow(promo).term}</dt>
                <dd className="font-semibold text-ink">{promoDiscountRow(promo).value}</dd>
              </div>
            )}
            <div className="flex justify-between gap-4">
              <dt className="text-muted">Platform Fee</dt>
              <dd className="font-semibold text-ink">{formatRupees(0)}</dd>
            </div>
            <div className="flex justify-between gap-4 border-t border-slate-200 pt-2 text-base">
              <dt className="font-bold text-ink">Total</dt>
              <dd className="font-bold text-ink">{total}</dd>
            </div>
          </dl>
          <PromoCodeForm applied={promo && { code: promo.code, discount: formatRupees(promo.discountPaise) }} error={actionData?.promoError ?? null} typed={actionData?.typed} />
          <Form method="post" className="mt-6">
            <HoneypotField />
            <FormAlert id="payment-error" errors={actionData?.error ? [`Payment Error: ${actionData.error}`] : undefined} />
            <button type="submit" className="btn-primary mt-4 w-full" disabled={paying}>
              {redirecting ? 'Redirecting to payment...' : paying ? 'Processing Payment...' : booking.amountPaise === 0 ? 'Confirm Booking' : `Pay ${total}`}
            </button>
          </Form>
          <div className="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm">
            <p className="font-semibold text-ink">{testPayments ? 'Test payment gateway (sandbox)' : 'Secure payment by PhonePe'}</p>
            <p className="mt-1 text-muted">
              {testPayments
                ? 'This installation takes test payments only: you choose the outcome on the gateway page and no money moves.'
                : 'Pay with UPI, cards or net banking on PhonePe’s secure page. Your card details never reach our site.'}
            </p>
          </div>
        </section>
      </div>

      <section aria-labelledby="payment-notes" className="card mt-6 p-6 shadow-sm">
        <h2 id="payment-notes" className="text-lg font-bold text-ink">
          Please note
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-muted">
          <li>You will receive a confirmation by e-mail once your payment is complete.</li>
          <li>You can reschedule up to 24 hours before your session.</li>
          <li>Refunds are made {refundPolicy}.</li>
          <li>Please arrive 15 minutes before your session.</li>
        </ul>
      </section>
    </section>
  )
}

function SummaryRow({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt className="text-muted">{term}</dt>
      <dd className="[overflow-wrap:anywhere] font-medium text-ink">{value}</dd>
    </>
  )
}
