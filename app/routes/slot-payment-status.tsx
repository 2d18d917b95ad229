import { data, Link } from 'react-router'
import type { Route } from './+types/slot-payment-status'
import { DetailRow, RefreshStatus, type StatusCard, StatusCardView, SupportDetails } from '~/components/payment-status-card'
import { requireUser } from '~/lib/auth.server'
import { formatRupees } from '~/lib/money'
import { formatLabDateThenTime, formatTimeRange, formatWeekdayDate, formatWeekdayDayMonth, secondsBetween } from '~/lib/lab-time'
import { pageMeta } from '~/lib/seo'
import { POLL_SECONDS, usePaymentPolling } from '~/lib/use-payment-polling'
import { paymentStatusView, type StatusView } from '~/modules/booking/bookings.server'
import { checkPaymentForPage } from '~/modules/payments/payments.server'
import { getSiteSettings } from '~/modules/site/site.server'
import { refuseNul } from '~/lib/nul.server'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Payment Status', description: 'The status of your payment for a swimming analysis session.', path: '/slot-payment-status' }),
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request }: Route.LoaderArgs) {
  refuseNul(request)
  const user = await requireUser(request)
  const params = new URL(request.url).searchParams
  const orderId = params.get('orderId')
  const transactionId = params.get('transactionId')
  const settings = await getSiteSettings()
  const support = { email: settings.supportEmail, phone: settings.phone, hours: settings.phoneHours }
  const now = Date.now()
  const since = Number(params.get('since'))
  const startedAt = Number.isSafeInteger(since) && since > 0 && since <= now ? since : now
  const base = { support, startedAt, elapsed: Math.floor(secondsBetween(startedAt, now)), recheck: params.get('recheck') === '1' }

  if (!orderId && !transactionId) return data({ ...base, error: 'No transaction ID found in URL', payment: null }, { status: 400 })
  let view = await paymentStatusView({ orderId, transactionId, access: { userId: user.id } })
  if (view && (view.paymentState === 'initiated' || view.paymentState === 'pending')) {
    await checkPaymentForPage(view.orderId)
    view = await paymentStatusView({ orderId: view.orderId, access: { userId: user.id } })
  }
  if (!view) return data({ ...base, error: 'Slot booking payment record not found', payment: null }, { status: 404 })
  return { ...base, error: null, payment: present(view) }
}

function present(view: StatusView) {
  const firstDay = view.booking.days[0]
  return {
    orderId: view.orderId,
    state: view.paymentState === 'initiated' ? 'pending' : view.paymentState,
    bookingStatus: view.bookingStatus,
    refundPending: view.refundPending,
    swimmer: view.booking.swimmerName,
    name: view.booking.customerName,
    email: view.booking.customerEmail,
    phone: view.booking.customerPhone,
    timeSlot: formatTimeRange(view.booking.startTime, view.booking.endTime),
    amount: formatRupees(view.amountPaise),
    days: view.booking.days.map((day) => ({ dayNumber: day.dayNumber, date: formatWeekdayDate(day.date) })),
    transactionId: view.transactionId,
    completedAt: view.completedAt ? formatLabDateThenTime(view.completedAt) : null,
    confirmedText: firstDay ? `Your analysis session has been booked for ${formatWeekdayDayMonth(firstDay.date)} at ${formatTimeRange(firstDay.start, firstDay.end)}` : '',
  } as const
}

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
  const { payment, error, support, startedAt, recheck } = loaderData
  const pending = payment?.state === 'pending'
  const checkUrl = payment ? `/slot-payment-status/check?${new URLSearchParams({ orderId: payment.orderId })}` : null
  const { elapsed, timedOut, checking, refresh } = usePaymentPolling({ pending, checkUrl, initialElapsed: loaderData.elapsed, recheck })

  const card = cardFor(payment, error, Boolean(timedOut), elapsed)
  const refreshHref = payment ? `/slot-payment-status?${new URLSearchParams({ orderId: payment.orderId, recheck: '1' })}` : null
  const autoRefresh = pending && !timedOut && payment ? `/slot-payment-status?${new URLSearchParams({ orderId: payment.orderId, since: String(startedAt) })}` : null

  return (
    <section className="container-page max-w-3xl py-10 sm:py-14">
      {autoRefresh && (
        // Without JavaScript the page reloads itself every few seconds; with it, it polls instead.
        <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="${POLL_SECONDS};url=${autoRefresh.replace(/&/g, '&amp;')}">` }} />
      )}
      <h1 className="sr-only">Payment status</h1>
      <StatusCardView card={card} autoRefreshing={Boolean(autoRefresh)} pollSeconds={POLL_SECONDS} />

      {payment && (
        <section aria-labelledby="booking-details" className="card mt-6 p-6 shadow-sm">
          <h2 id="booking-details" className="text-lg font-bold text-ink">
            Booking details
          </h2>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <DetailRow term="Swimmer" value={payment.swimmer} />
            <DetailRow term="Booked by" value={payment.name} />
            <DetailRow term="Email" value={payment.email} />
            <DetailRow term="Phone" value={payment.phone ?? 'N/A'} />
            <DetailRow term="Time slot" value={payment.timeSlot} />
            <DetailRow term="Amount" value={payment.amount} />
            <DetailRow term="Status" value={payment.state.charAt(0).toUpperCase() + payment.state.slice(1)} />
            {payment.days.map((day) => (
              <DetailRow key={day.dayNumber} term={`Day ${day.dayNumber}`} value={day.date} />
            ))}
            <DetailRow term="Order ID" value={payment.orderId} />
            {payment.transactionId && <DetailRow term="Transaction ID" value={payment.transactionId} />}
            {payment.completedAt && <DetailRow term="Completed" value={payment.completedAt} />}
          </dl>
        </section>
      )}

      <div className="mt-6 flex flex-wrap gap-3">
        {payment?.state === 'completed' && payment.bookingStatus === 'confirmed' && (
          <Link to="/my-bookings" className="btn-primary">
            View My Bookings
          </Link>
        )}
        {payment?.state === 'completed' && (
          <a href={`/receipts/${encodeURIComponent(payment.orderId)}`} className="btn-secondary" download>
            Download Receipt
          </a>
        )}
        {payment?.state === 'failed' && (
          <Link to="/book-slot" className="btn-primary">
            Try Again
          </Link>
        )}
        {(card.tone === 'error' || timedOut) && refreshHref && (
          <RefreshStatus href={refreshHref} onRefresh={refresh} busy={checking} />
        )}
        {(payment?.state === 'failed' || card.tone === 'error') && (
          <a href="#support" className="btn-secondary">
            Contact Support
          </a>
        )}
        <Link to="/" className="btn-secondary">
          Return Home
        </Link>
      </div>

      {(payment?.state === 'failed' || card.tone === 'error') && <SupportDetails support={support} />}
    </section>
  )
}
