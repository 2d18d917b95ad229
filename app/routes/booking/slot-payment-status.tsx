import { data, href, Link } from 'react-router'
import type { Route } from './+types/slot-payment-status'
import { CheckoutStatus, ReceiptButton } from '~/components/checkout-status'
import type { StatusCard } from '~/components/payment-status-card'
import { requireUser } from '~/web/auth.server'
import { formatRupees } from '~/lib/money'
import { formatLabDateThenTime, formatTimeRange, formatWeekdayDate, formatWeekdayDayMonth } from '~/lib/lab-time'
import { followOrder, shownState, statusPageBasics } from '~/web/payments/order-status.server'
import { pageMeta } from '~/lib/seo'
import { paymentStatusView, type StatusView } from '~/modules/booking/bookings.server'
import { venueDetails } from '~/modules/booking/texts'
import { promoCodeOfPayment } from '~/modules/payments/checkout.server'
import { promoDiscountRow } from '~/modules/promotions/texts'
import { refuseNul } from '~/web/nul.server'
import { receiptLink, slotPaymentCheckLink, slotPaymentStatusLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Payment Status', description: 'The status of your payment for a swimming analysis session.', path: href('/slot-payment-status') }),
  { name: 'robots', content: 'noindex' },
]

/** The 3-day session's payment result, for the account that booked it. The callback's own status and amount are never trusted. */
export async function loader({ request }: Route.LoaderArgs) {
  refuseNul(request)
  const user = await requireUser(request)
  const url = new URL(request.url)
  const orderId = url.searchParams.get('orderId')
  const transactionId = url.searchParams.get('transactionId')
  const base = await statusPageBasics(url)
  if (!orderId && !transactionId) return data({ ...base, error: 'No transaction ID found in URL', payment: null }, { status: 400 })
  // A transaction id (the gateway's, or the order id as links of the lab's first site give it) finds the order first.
  const found = orderId ?? (await paymentStatusView({ transactionId, access: { userId: user.id } }))?.orderId
  const view = found ? await followOrder((id) => paymentStatusView({ orderId: id, access: { userId: user.id } }), found) : null
  if (!view) return data({ ...base, error: 'Slot booking payment record not found', payment: null }, { status: 404 })
  return { ...base, error: null, payment: present(view, await promoCodeOfPayment(view.orderId)) }
}

function present(view: StatusView, promo: { code: string; discountPaise: number } | null) {
  const firstDay = view.booking.days[0]
  return {
    orderId: view.orderId,
    state: shownState(view.paymentState),
    bookingStatus: view.bookingStatus,
    refundPending: view.refundPending,
    confirmedText: firstDay ? `Your analysis session has been booked for ${formatWeekdayDayMonth(firstDay.date)} at ${formatTimeRange(firstDay.start, firstDay.end)}` : '',
    rows: [
      { term: 'Swimmer', value: view.booking.swimmerName },
      { term: 'Booked by', value: view.booking.customerName },
      { term: 'Email', value: view.booking.customerEmail },
      { term: 'Phone', value: view.booking.customerPhone ?? 'N/A' },
      { term: 'Time slot', value: formatTimeRange(view.booking.startTime, view.booking.endTime) },
      ...(promo ? [promoDiscountRow(promo)] : []),
      { term: 'Amount', value: formatRupees(view.amountPaise) },
      { term: 'Status', value: statusWord(shownState(view.paymentState)) },
      ...view.booking.days.map((day) => ({ term: `Day ${day.dayNumber}`, value: formatWeekdayDate(day.date) })),
      ...venueDetails(view.booking.venue),
      { term: 'Order ID', value: view.orderId },
      ...(view.transactionId ? [{ term: 'Transaction ID', value: view.transactionId }] : []),
      ...(view.completedAt ? [{ term: 'Completed', value: formatLabDateThenTime(view.completedAt) }] : []),
    ],
  }
}

const statusWord = (state: string) => state.charAt(0).toUpperCase() + state.slice(1)

type Payment = ReturnType<typeof present>

function cardFor(payment: Payment | null, error: string | null, timedOut: boolean, elapsed: number): StatusCard {
  if (error || !payment) return { tone: 'error', title: 'Verification Error', message: error ?? 'Unable to verify payment status. Please contact support.' }
  if (payment.state === 'completed') {
    if (payment.bookingStatus === 'confirmed') return { tone: 'success', title: 'Payment Successful!', message: `Booking Confirmed! ${payment.confirmedText}.` }
    if (payment.refundPending || payment.bookingStatus === 'refund_pending' || payment.bookingStatus === 'refunded') {
      return {
        tone: 'error',
        title: 'Payment Refunded',
        message: 'Your payment reached us after the hold on your time slot had expired, and the slot was taken meanwhile. The full amount is being refunded; we have e-mailed you the details.',
      }
    }
    return { tone: 'success', title: 'Payment Successful!', message: 'Your payment was received.' }
  }
  if (payment.state === 'failed') return { tone: 'error', title: 'Payment Failed', message: 'Your payment could not be processed. No booking was made. Please try again.' }
  if (timedOut) {
    return { tone: 'error', title: 'Verification Error', message: 'Payment verification timeout. Please contact support.', detail: 'We keep checking with the payment gateway and will e-mail you as soon as the payment is confirmed.' }
  }
  return { tone: 'pending', title: 'Verifying Payment', message: 'We are waiting for the payment gateway to confirm your payment.', elapsed }
}

export default function SlotPaymentStatus({ loaderData }: Route.ComponentProps) {
  const { payment, error, support } = loaderData
  const pageUrl = payment ? (extra: Record<string, string>) => slotPaymentStatusLink(payment.orderId, extra) : null
  return (
    <section className="container-page max-w-3xl py-10 sm:py-14">
      <h1 className="sr-only">Payment status</h1>
      <CheckoutStatus
        state={payment?.state ?? null}
        pageUrl={pageUrl}
        checkUrl={payment ? slotPaymentCheckLink(payment.orderId) : null}
        timing={loaderData}
        card={({ timedOut, elapsed }) => cardFor(payment, error, timedOut, elapsed)}
        details={payment && { id: 'booking-details', title: 'Booking details', rows: payment.rows }}
        support={support}
        actions={
          <>
            {payment?.state === 'completed' && payment.bookingStatus === 'confirmed' && (
              <Link to={href('/my-bookings')} className="btn-primary">
                View My Bookings
              </Link>
            )}
            <ReceiptButton href={payment?.state === 'completed' ? receiptLink(payment.orderId) : null} />
            {payment?.state === 'failed' && (
              <Link to={href('/book-slot')} className="btn-primary">
                Try Again
              </Link>
            )}
          </>
        }
      />
    </section>
  )
}
