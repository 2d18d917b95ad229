import { href, Link } from 'react-router'
import type { Route } from './+types/booking.view'
import { BookingActions } from '~/components/booking-actions'
import { CreditNoteLinks } from '~/components/credit-note-links'
import { AuthCard } from '~/components/form-controls'
import { ReportPanel } from '~/components/report-panel'
import { DetailRow } from '~/components/payment-status-card'
import { bookingFromGuestLink } from '~/web/booking/booking-access.server'
import type { BookingStatus } from '~/db/schema'
import { formatRupees } from '~/lib/money'
import { formatLabDate, formatLastDayBefore } from '~/lib/lab-time'
import { bookingDayLines, venueDetails } from '~/modules/booking/texts'
import { CREDIT_NOTE_LINK, INVALID_LINK, privateLinks, RECEIPT_LINK, REPORT_FILE_LINK } from '~/lib/private-links.server'
import { notFoundUnless } from '~/web/refusals.server'
import { pageMeta } from '~/lib/seo'
import { changeOptions } from '~/modules/booking/changes.server'
import { guestLinkEnd } from '~/modules/booking/guest-links.server'
import { reportsOf } from '~/modules/reports/reports.server'
import { publishedAnalysisOf } from '~/modules/analyses/publishing.server'
import { reportView } from '~/web/reports/report-view.server'
import { creditNotesOfBookings } from '~/modules/receipts/credit-notes.server'
import { analysisLink, cancelLink, rescheduleLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Your booking', description: 'Your analysis session booking.', path: href('/booking/view') }),
  { name: 'robots', content: 'noindex' },
]

const STATUS_TEXT: Record<BookingStatus, string> = {
  confirmed: 'Confirmed',
  pending: 'Awaiting payment',
  expired: 'Not booked (the payment was not completed in time)',
  payment_failed: 'Not booked (the payment did not go through)',
  cancelled: 'Cancelled',
  refund_pending: 'Refund in progress',
  refunded: 'Refunded',
}

/** A booking made without an account, opened from the private link in its confirmation e-mail. */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const reference = params.get('ref') ?? ''
  const booking = await bookingFromGuestLink(reference, params.get('key'))
  notFoundUnless(booking, INVALID_LINK)
  const key = params.get('key')!
  const links = await privateLinks()
  return {
    report: reportView((await reportsOf([booking.id])).get(booking.id), (fileId) => links.path(REPORT_FILE_LINK, fileId)),
    analysisUrl: await publishedAnalysisOf(booking.id).then((id) => (id ? analysisLink(id) : null)),
    linkQuery: `?${new URLSearchParams({ key })}`,
    change: changeOptions(booking.status, booking.days[0], new Date()),
    movable: !booking.days[0]?.analysisDayId,
    receiptUrl: booking.paidOrderId ? links.path(RECEIPT_LINK, booking.paidOrderId) : null,
    creditNotes: ((await creditNotesOfBookings([booking.id])).get(booking.id) ?? []).map((note) => ({ number: note.number, date: formatLabDate(note.issuedAt), amount: formatRupees(note.amountPaise), url: links.path(CREDIT_NOTE_LINK, note.refundId) })),
    reference: booking.reference,
    title: booking.productName,
    status: STATUS_TEXT[booking.status],
    swimmer: booking.swimmerName,
    name: booking.customerName,
    email: booking.customerEmail,
    days: bookingDayLines(booking.days),
    venue: venueDetails(booking.venue),
    amount: formatRupees(booking.amountPaise),
    bookedOn: formatLabDate(booking.createdAt),
    linkEnds: formatLastDayBefore(guestLinkEnd(booking)),
  }
}

export default function GuestBooking({ loaderData: booking }: Route.ComponentProps) {
  return (
    <AuthCard title={booking.title} lead={<p>Booking ID {booking.reference}</p>} wide>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <DetailRow term="Status" value={booking.status} />
        <DetailRow term="Swimmer" value={booking.swimmer} />
        <DetailRow term="Name" value={booking.name} />
        <DetailRow term="Email" value={booking.email} />
        {booking.days.map((day) => (
          <DetailRow key={day.label} term={day.label} value={day.value} />
        ))}
        {booking.venue.map((row) => (
          <DetailRow key={row.term} {...row} />
        ))}
        <DetailRow term="Amount" value={booking.amount} />
        <DetailRow term="Booked on" value={booking.bookedOn} />
      </dl>
      {(booking.report || booking.analysisUrl) && <ReportPanel report={booking.report} analysisUrl={booking.analysisUrl} signInAs={booking.email} />}
      <BookingActions reschedulePath={booking.movable ? rescheduleLink(booking.reference) : null} cancelPath={cancelLink(booking.reference)} linkQuery={booking.linkQuery} change={booking.change} receiptUrl={booking.receiptUrl} />
      <CreditNoteLinks notes={booking.creditNotes} className="mt-3" />
      <p className="mt-6 text-sm text-muted">Keep this link private: anyone who has it can see this booking. It works until {booking.linkEnds}; register an account with the same e-mail address to see the booking in My Bookings at any time.</p>
      <Link to="/" className="btn-secondary mt-6">
        Return to Home
      </Link>
    </AuthCard>
  )
}
