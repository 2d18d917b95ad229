import { data, href, Link } from 'react-router'
import type { Route } from './+types/payment-status'
import { TryAgainWith } from '~/components/camp-answers'
import { CheckoutStatus, ReceiptButton } from '~/components/checkout-status'
import type { StatusCard } from '~/components/payment-status-card'
import { formatRupees } from '~/lib/money'
import { campPaidSentence } from '~/modules/camps/texts'
import { formatDateRange, formatLabDateThenTime, formatTimeRange } from '~/lib/lab-time'
import { followOrder, shownState, statusPageBasics } from '~/web/payments/order-status.server'
import { CAMP_STATUS_LINK, isLinkKey, privateLinkPath, RECEIPT_LINK } from '~/lib/private-links.server'
import { pageMeta } from '~/lib/seo'
import { campOrderIdFor, campPaymentView, type CampStatusView } from '~/modules/camps/status.server'
import { quoteOfPayment } from '~/modules/payments/checkout.server'
import { quoteRows } from '~/modules/payments/quote'
import { campPaymentCheckLink, campPaymentStatusLink, campRegistrationLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Payment Status', description: 'The status of your camp registration payment.', path: href('/payment-status') }),
  { name: 'robots', content: 'noindex' },
]

/**
 * The camp payment's result, for anyone holding the link the site made (the gateway's way back,
 * e-mails): the order id with its key. The callback's own status and amount are never trusted.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const params = url.searchParams
  // Links of the lab's first site name the order as its transaction id; a parent may give the gateway's.
  const transactionId = params.get('transactionId')
  const orderId = params.get('orderId') ?? (transactionId && ((await campOrderIdFor(transactionId)) ?? transactionId))
  const key = params.get('key')
  const base = { ...(await statusPageBasics(url)), key }

  if (!orderId) return data({ ...base, error: 'No transaction ID found in URL', payment: null }, { status: 400 })
  const view = (await isLinkKey(CAMP_STATUS_LINK, orderId, key)) ? await followOrder(campPaymentView, orderId) : null
  if (!view) return data({ ...base, error: 'Payment record not found', payment: null }, { status: 404 })
  const receiptUrl = view.paymentState === 'completed' ? await privateLinkPath(RECEIPT_LINK, orderId) : null
  // What was charged, line by line as the parent confirmed it: the rows add up to the amount.
  const quote = await quoteOfPayment(orderId)
  return { ...base, error: null, payment: { ...present(view), receiptUrl, prices: quote ? quoteRows(quote, 'Amount') : [{ term: 'Amount', value: formatRupees(view.amountPaise) }] } }
}

function present(view: CampStatusView) {
  return {
    orderId: view.orderId,
    state: shownState(view.paymentState),
    registrationStatus: view.registrationStatus,
    refunding: view.refundPending,
    name: view.swimmerName,
    email: view.email,
    phone: view.phone,
    camp: `${view.campName}: ${formatDateRange(view.campStartsOn, view.campEndsOn)}`,
    batch: `${view.batchName}: ${view.timeRanges.map((range) => formatTimeRange(range.start, range.end)).join(' and ')}`,
    paidSentence: campPaidSentence(view.amountPaise),
    transactionId: view.transactionId,
    reference: view.reference,
    // Swimmers registered together and paid for at once: each with their registration.
    swimmers: view.group.map((member) => ({ name: member.swimmerName, reference: member.reference })),
    applicant: { name: view.swimmerName, email: view.email, phone_number: view.phone, camp: view.campCode, batch: view.batchCode },
    completedAt: view.completedAt ? formatLabDateThenTime(view.completedAt) : null,
  } as const
}

type Payment = ReturnType<typeof present> & { receiptUrl: string | null; prices: Array<{ term: string; value: string }> }

function cardFor(payment: Payment | null, error: string | null, timedOut: boolean, elapsed: number): StatusCard {
  if (error || !payment) return { tone: 'error', title: 'Verification Error', message: error ?? 'Unable to verify payment status. Please contact support.' }
  if (payment.state === 'completed') {
    if (payment.registrationStatus === 'confirmed') return { tone: 'success', title: 'Registration Complete!', message: `${payment.paidSentence} You're registered for the camp!` }
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
  const { payment, error, support, key } = loaderData
  const pageUrl = payment ? (extra: Record<string, string>) => campPaymentStatusLink(payment.orderId, key ?? '', extra) : null
  const complete = payment?.state === 'completed' && payment.registrationStatus === 'confirmed'
  const rows = payment && [
    ...(payment.swimmers.length === 0 ? [{ term: 'Name', value: payment.name }] : []),
    // Swimmers registered together and paid for at once: each with their registration.
    ...payment.swimmers.map((swimmer) => ({ term: 'Swimmer', value: `${swimmer.name} (Registration ID ${swimmer.reference})` })),
    { term: 'Email', value: payment.email },
    { term: 'Camp', value: payment.camp },
    { term: 'Batch', value: payment.batch },
    ...payment.prices,
    { term: 'Status', value: payment.state.charAt(0).toUpperCase() + payment.state.slice(1) },
    ...(payment.swimmers.length === 0 ? [{ term: 'Registration ID', value: payment.reference }] : []),
    { term: 'Order ID', value: payment.orderId },
    ...(payment.transactionId ? [{ term: 'Transaction ID', value: payment.transactionId }] : []),
    ...(payment.completedAt ? [{ term: 'Completed', value: payment.completedAt }] : []),
  ]

  return (
    <section className="container-page max-w-3xl py-10 sm:py-14">
      <h1 className="sr-only">Camp payment status</h1>
      <CheckoutStatus
        state={payment?.state ?? null}
        pageUrl={pageUrl}
        checkUrl={payment ? campPaymentCheckLink(payment.orderId, key ?? '') : null}
        timing={loaderData}
        card={({ timedOut, elapsed }) => cardFor(payment, error, timedOut, elapsed)}
        details={rows && { id: 'registration-details', title: 'Registration details', rows }}
        support={support}
        actions={
          <>
            {complete && (
              <Link to={campRegistrationLink(payment)} className="btn-primary">
                Register Another Person
              </Link>
            )}
            <ReceiptButton href={payment?.receiptUrl ?? null} />
            {payment?.state === 'failed' &&
              (payment.swimmers.length ? (
                <Link to={href('/onboarding')} className="btn-primary">
                  Try Again
                </Link>
              ) : (
                <TryAgainWith applicant={payment.applicant} />
              ))}
          </>
        }
      />
    </section>
  )
}
