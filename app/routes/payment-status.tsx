import { data, Link } from 'react-router'
import type { Route } from './+types/payment-status'
import { TryAgainWith } from '~/components/camp-answers'
import { DetailRow, RefreshStatus, type StatusCard, StatusCardView, SupportDetails } from '~/components/payment-status-card'
import { formatRupees, formatWholeRupees } from '~/lib/money'
import { formatDateRange, formatLabDateThenTime, formatTimeRange, secondsBetween } from '~/lib/lab-time'
import { CAMP_STATUS_LINK, isLinkKey, privateLinkPath, RECEIPT_LINK } from '~/lib/private-links.server'
import { pageMeta } from '~/lib/seo'
import { POLL_SECONDS, usePaymentPolling } from '~/lib/use-payment-polling'
import { campOrderIdFor, campPaymentView, type CampStatusView } from '~/modules/camps/status.server'
import { checkPaymentForPage } from '~/modules/payments/payments.server'
import { getSiteSettings } from '~/modules/site/site.server'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Payment Status', description: 'The status of your camp registration payment.', path: '/payment-status' }),
  { name: 'robots', content: 'noindex' },
]

/**
 * The camp payment's result, for anyone holding the link the site made (the gateway's way back,
 * e-mails): the order id with its key. The callback's own status and amount are never trusted.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  // Links of the lab's first site name the order as its transaction id; a parent may give the gateway's.
  const transactionId = params.get('transactionId')
  const orderId = params.get('orderId') ?? (transactionId && ((await campOrderIdFor(transactionId)) ?? transactionId))
  const key = params.get('key')
  const settings = await getSiteSettings()
  const support = { email: settings.supportEmail, phone: settings.phone, hours: settings.phoneHours }
  const now = Date.now()
  const since = Number(params.get('since'))
  const startedAt = Number.isSafeInteger(since) && since > 0 && since <= now ? since : now
  const base = { support, startedAt, key, elapsed: Math.floor(secondsBetween(startedAt, now)), recheck: params.get('recheck') === '1' }

  if (!orderId) return data({ ...base, error: 'No transaction ID found in URL', payment: null }, { status: 400 })
  let view = (await isLinkKey(CAMP_STATUS_LINK, orderId, key)) ? await campPaymentView(orderId) : null
  if (view && (view.paymentState === 'initiated' || view.paymentState === 'pending')) {
    await checkPaymentForPage(orderId)
    view = await campPaymentView(orderId)
  }
  if (!view) return data({ ...base, error: 'Payment record not found', payment: null }, { status: 404 })
  const receiptUrl = view.paymentState === 'completed' ? await privateLinkPath(RECEIPT_LINK, orderId) : null
  return { ...base, error: null, payment: { ...present(view), receiptUrl } }
}

function present(view: CampStatusView) {
  return {
    orderId: view.orderId,
    state: view.paymentState === 'initiated' ? 'pending' : view.paymentState,
    registrationStatus: view.registrationStatus,
    refunding: view.refunding,
    name: view.swimmerName,
    email: view.email,
    phone: view.phone,
    camp: `${view.campName}: ${formatDateRange(view.campStartsOn, view.campEndsOn)}`,
    batch: `${view.batchName}: ${view.timeRanges.map((range) => formatTimeRange(range.start, range.end)).join(' and ')}`,
    amount: formatRupees(view.amountPaise),
    amountWhole: formatWholeRupees(view.amountPaise),
    transactionId: view.transactionId,
    reference: view.reference,
    // Swimmers registered together and paid for at once: each with their registration.
    swimmers: view.group.map((member) => ({ name: member.swimmerName, reference: member.reference, amount: formatRupees(member.amountPaise) })),
    applicant: { name: view.swimmerName, email: view.email, phone_number: view.phone, camp: view.campCode, batch: view.batchCode },
    completedAt: view.completedAt ? formatLabDateThenTime(view.completedAt) : null,
  } as const
}

type Payment = ReturnType<typeof present> & { receiptUrl: string | null }

function cardFor(payment: Payment | null, error: string | null, timedOut: boolean, elapsed: number): StatusCard {
  if (error || !payment) return { tone: 'error', title: 'Verification Error', message: error ?? 'Unable to verify payment status. Please contact support.' }
  if (payment.state === 'completed') {
    if (payment.registrationStatus === 'confirmed') return { tone: 'success', title: 'Registration Complete!', message: `${payment.amountWhole} payment completed successfully. You're registered for the camp!` }
    if (payment.refunding || payment.registrationStatus === 'refund_pending' || payment.registrationStatus === 'refunded') {
      return { tone: 'error', title: 'Payment Refunded', message: 'Your payment reached us after the hold on your seat had expired, and the batch filled up meanwhile. The full amount is being refunded; we have e-mailed you the details.' }
    }
    return { tone: 'success', title: 'Payment Successful!', message: 'Your payment was received.' }
  }
  if (payment.state === 'failed') return { tone: 'error', title: 'Payment Failed', message: 'Your payment could not be processed. Your seat has been released. Please try again.' }
  if (timedOut) {
    return { tone: 'error', title: 'Verification Error', message: 'Payment verification timeout. Please contact support.', detail: 'We keep checking with the payment gateway and will e-mail you as soon as the payment is confirmed.' }
  }
  return { tone: 'pending', title: 'Verifying Payment', message: 'We are waiting for the payment gateway to confirm your payment.', elapsed }
}

export default function PaymentStatus({ loaderData }: Route.ComponentProps) {
  const { payment, error, support, startedAt, recheck, key } = loaderData
  const pending = payment?.state === 'pending'
  const linkParams = (extra: Record<string, string>) => new URLSearchParams({ orderId: payment?.orderId ?? '', key: key ?? '', ...extra })
  const checkUrl = payment ? `/payment-status/check?${linkParams({})}` : null
  const { elapsed, timedOut, checking, refresh } = usePaymentPolling({ pending, checkUrl, initialElapsed: loaderData.elapsed, recheck })
  const card = cardFor(payment, error, Boolean(timedOut), elapsed)
  const autoRefresh = pending && !timedOut && payment ? `/payment-status?${linkParams({ since: String(startedAt) })}` : null
  const complete = payment?.state === 'completed' && payment.registrationStatus === 'confirmed'

  return (
    <section className="container-page max-w-3xl py-10 sm:py-14">
      {autoRefresh && <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="${POLL_SECONDS};url=${autoRefresh.replace(/&/g, '&amp;')}">` }} />}
      <h1 className="sr-only">Camp payment status</h1>
      <StatusCardView card={card} autoRefreshing={Boolean(autoRefresh)} pollSeconds={POLL_SECONDS} />

      {payment && (
        <section aria-labelledby="registration-details" className="card mt-6 p-6 shadow-sm">
          <h2 id="registration-details" className="text-lg font-bold text-ink">
            Registration details
          </h2>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            {payment.swimmers.length === 0 && <DetailRow term="Name" value={payment.name} />}
            {payment.swimmers.map((swimmer) => (
              <DetailRow key={swimmer.reference} term="Swimmer" value={`${swimmer.name} (Registration ID ${swimmer.reference}, ${swimmer.amount})`} />
            ))}
            <DetailRow term="Email" value={payment.email} />
            <DetailRow term="Camp" value={payment.camp} />
            <DetailRow term="Batch" value={payment.batch} />
            <DetailRow term="Amount" value={payment.amount} />
            <DetailRow term="Status" value={payment.state.charAt(0).toUpperCase() + payment.state.slice(1)} />
            {payment.swimmers.length === 0 && <DetailRow term="Registration ID" value={payment.reference} />}
            <DetailRow term="Order ID" value={payment.orderId} />
            {payment.transactionId && <DetailRow term="Transaction ID" value={payment.transactionId} />}
            {payment.completedAt && <DetailRow term="Completed" value={payment.completedAt} />}
          </dl>
        </section>
      )}

      <div className="mt-6 flex flex-wrap gap-3">
        {complete && (
          <Link to={`/onboarding?${new URLSearchParams({ email: payment.email, phone: payment.phone })}`} className="btn-primary">
            Register Another Person
          </Link>
        )}
        {payment?.receiptUrl && (
          <a href={payment.receiptUrl} className="btn-secondary" download>
            Download Receipt
          </a>
        )}
        {payment?.state === 'failed' &&
          (payment.swimmers.length ? (
            <Link to="/onboarding" className="btn-primary">
              Try Again
            </Link>
          ) : (
            <TryAgainWith applicant={payment.applicant} />
          ))}
        {(card.tone === 'error' || timedOut) && payment && <RefreshStatus href={`/payment-status?${linkParams({ recheck: '1' })}`} onRefresh={refresh} busy={checking} />}
        {card.tone === 'error' && (
          <a href="#support" className="btn-secondary">
            Contact Support
          </a>
        )}
        <Link to="/" className="btn-secondary">
          Return Home
        </Link>
      </div>
      {card.tone === 'error' && <SupportDetails support={support} />}
    </section>
  )
}
