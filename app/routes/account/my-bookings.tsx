import { href, Link } from 'react-router'
import { BookingActions } from '~/components/booking-actions'
import { CreditNoteLinks } from '~/components/credit-note-links'
import { ReportPanel } from '~/components/report-panel'
import { DetailValue } from '~/components/payment-status-card'
import type { Route } from './+types/my-bookings'
import { requireUser } from '~/web/auth.server'
import { formatRupees } from '~/lib/money'
import { formatDateRange, formatLabDate, formatLabTime, formatTimeRange, formatWeekdayDate } from '~/lib/lab-time'
import { pageMeta } from '~/lib/seo'
import { swimmersOf } from '~/modules/swimmers/swimmers.server'
import { currentLocationOf } from '~/modules/accounts/users.server'
import { rowId } from '~/lib/row-id'
import { customerBookings } from '~/modules/booking/bookings.server'
import { changeOptions } from '~/modules/booking/changes.server'
import { venueDetails } from '~/modules/booking/texts'
import { reportsOf } from '~/modules/reports/reports.server'
import { analysesOfBookings } from '~/modules/analyses/publishing.server'
import { accountCampRegistrations } from '~/modules/camps/account-registrations.server'
import { campCancelOptions } from '~/modules/camps/cancellation.server'
import { creditNotesOfBookings, creditNotesOfRegistrations, type CreditNoteSummary } from '~/modules/receipts/credit-notes.server'
import { reportView } from '~/web/reports/report-view.server'
import type { BookingStatus } from '~/db/schema'
import { formatPhone } from '~/lib/phone'
import { accountWhatsApp } from '~/modules/whatsapp/account.server'
import { analysisLink, campCancelLink, cancelLink, creditNoteLink, myBookingsLink, receiptLink, reportFileLink, rescheduleLink, slotPaymentLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'My Bookings', description: 'Your swimming analysis bookings and account details.', path: href('/my-bookings') }),
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const now = new Date()
  const [swimmers, location, whatsapp] = await Promise.all([swimmersOf(user.id), currentLocationOf(user.id), accountWhatsApp(user.id)])
  // Narrowed to one of the account's swimmers; any other id shows every booking of the account.
  const asked = rowId(new URL(request.url).searchParams.get('swimmer'))
  const shown = swimmers.find((swimmer) => swimmer.id === asked) ?? null
  const [bookings, camps] = await Promise.all([customerBookings(user.id, user.email, { swimmerId: shown?.id }), accountCampRegistrations(user.id, user.email)])
  const [reports, analyses, bookingCredits, campCredits] = await Promise.all([
    reportsOf(bookings.map((booking) => booking.id)),
    analysesOfBookings(bookings.map((booking) => booking.id)),
    creditNotesOfBookings(bookings.map((booking) => booking.id)),
    creditNotesOfRegistrations(camps.map((registration) => registration.id)),
  ])
  const analysisUrl = (bookingId: number) => {
    const analysis = analyses.get(bookingId)
    return analysis?.publishedAt ? analysisLink(analysis.id) : null
  }
  return {
    account: {
      name: user.name,
      email: user.email,
      phone: user.phone ? formatPhone(user.phone) : null,
      location,
      // Null while the site sends no WhatsApp messages; turned on and off on /account/data.
      whatsapp: whatsapp && whatsapp.phone ? whatsapp.state : null,
      swimmers: swimmers.map((swimmer) => ({ id: swimmer.id, name: swimmer.name })),
    },
    shownSwimmer: shown ? { id: shown.id, name: shown.name } : null,
    bookings: bookings.map((booking) => ({
      id: booking.id,
      reference: booking.reference,
      title: booking.productName,
      swimmer: booking.swimmerName,
      status: booking.status,
      days: booking.days.map((day) => ({ dayNumber: day.dayNumber, date: formatWeekdayDate(day.date), time: formatTimeRange(day.start, day.end) })),
      timeRange: formatTimeRange(booking.startTime, booking.endTime),
      venue: venueDetails(booking.venue),
      amount: formatRupees(booking.amountPaise),
      bookedOn: formatLabDate(booking.createdAt),
      payUntil: booking.status === 'pending' && booking.holdExpiresAt && booking.holdExpiresAt > now ? formatLabTime(booking.holdExpiresAt) : null,
      reschedulePath: booking.days[0]?.analysisDayId ? null : rescheduleLink(booking.reference),
      cancelPath: cancelLink(booking.reference),
      change: changeOptions(booking.status, booking.days[0], now),
      receiptUrl: receiptPath(booking.paidOrderId),
      creditNotes: creditNoteLinks(bookingCredits.get(booking.id)),
      report: reportView(reports.get(booking.id), (fileId) => reportFileLink(fileId)),
      analysisUrl: analysisUrl(booking.id),
    })),
    // Shown only if the account has any; narrowed to the swimmer like the sessions.
    hasCampRegistrations: camps.length > 0,
    campRegistrations: camps
      .filter((registration) => !shown || registration.swimmerId === shown.id)
      .map((registration) => ({
        id: registration.id,
        reference: registration.reference,
        camp: registration.campName,
        swimmer: registration.swimmerName,
        dates: formatDateRange(registration.startsOn, registration.endsOn),
        batch: registration.batchName,
        status: registration.status,
        amount: formatRupees(registration.amountPaise),
        cancelPath: campCancelLink(registration.reference),
        change: campCancelOptions(registration, user.id, now),
        receiptUrl: receiptPath(registration.paidOrderId),
        creditNotes: creditNoteLinks(campCredits.get(registration.id)),
      })),
  }
}

function receiptPath(paidOrderId: string | null) {
  return paidOrderId ? receiptLink(paidOrderId) : null
}

function creditNoteLinks(notes: CreditNoteSummary[] = []) {
  return notes.map((note) => ({ number: note.number, date: formatLabDate(note.issuedAt), amount: formatRupees(note.amountPaise), url: creditNoteLink(note.refundId) }))
}

const STATUS: Record<BookingStatus, { label: string; style: string; icon: string }> = {
  confirmed: { label: 'Confirmed', style: 'bg-emerald-100 text-emerald-900', icon: 'M5 12.5l4.5 4.5L19 7.5' },
  pending: { label: 'Awaiting payment', style: 'bg-amber-100 text-amber-900', icon: 'M12 7v5l3 2' },
  expired: { label: 'Expired', style: 'bg-slate-200 text-slate-800', icon: 'M6 6l12 12M18 6L6 18' },
  payment_failed: { label: 'Payment failed', style: 'bg-red-100 text-red-900', icon: 'M6 6l12 12M18 6L6 18' },
  cancelled: { label: 'Cancelled', style: 'bg-slate-200 text-slate-800', icon: 'M6 6l12 12M18 6L6 18' },
  refund_pending: { label: 'Refund in progress', style: 'bg-amber-100 text-amber-900', icon: 'M4 12h12m0 0l-4-4m4 4l-4 4' },
  refunded: { label: 'Refunded', style: 'bg-slate-200 text-slate-800', icon: 'M4 12h12m0 0l-4-4m4 4l-4 4' },
}

export default function MyBookings({ loaderData }: Route.ComponentProps) {
  const { account, bookings, shownSwimmer, hasCampRegistrations, campRegistrations } = loaderData
  // Sessions and camp places alike: what the list below shows.
  const count = bookings.length + campRegistrations.length
  return (
    <section className="container-page py-10 sm:py-14">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-extrabold text-brand-900 sm:text-4xl">My Bookings</h1>
        <span className="rounded-full bg-brand-700 px-3 py-1 text-sm font-bold text-white">
          {count}
          <span className="sr-only"> {count === 1 ? 'booking' : 'bookings'}</span>
        </span>
      </div>
      {account.swimmers.length > 1 && (
        <nav aria-label="Bookings of" className="mt-6">
          <ul className="flex flex-wrap gap-2">
            {[{ id: null, name: 'All swimmers' }, ...account.swimmers].map((swimmer) => {
              const current = (shownSwimmer?.id ?? null) === swimmer.id
              return (
                <li key={swimmer.id ?? 'all'}>
                  <Link
                    to={myBookingsLink(swimmer.id)}
                    aria-current={current ? 'page' : undefined}
                    className={`inline-flex min-h-11 items-center rounded-full border px-4 text-sm font-semibold ${current ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 text-brand-700 hover:bg-brand-50'}`}
                  >
                    {swimmer.name}
                  </Link>
                </li>
              )
            })}
          </ul>
        </nav>
      )}
      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <div className="space-y-4 lg:col-span-2">
          {bookings.length === 0 ? (
            <div className="card p-8 text-center shadow-sm">
              <h2 className="text-xl font-bold text-ink">{shownSwimmer ? `No bookings for ${shownSwimmer.name} yet` : 'No bookings yet'}</h2>
              <p className="mt-2 text-muted">Book an analysis session to see it here.</p>
              <Link to={href('/book')} className="btn-primary mt-6">
                Book a Session
              </Link>
            </div>
          ) : (
            <ol className="space-y-4">
              {bookings.map((booking) => {
                const status = STATUS[booking.status]
                return (
                  <li key={booking.id}>
                    <article aria-labelledby={`booking-${booking.id} booking-${booking.id}-swimmer`} className="card p-6 shadow-sm">
                      <div className="flex flex-wrap items-start justify-between gap-3">
                        <div>
                          <h2 id={`booking-${booking.id}`} className="text-xl font-bold text-ink">
                            {booking.title}
                          </h2>
                          <p id={`booking-${booking.id}-swimmer`} className="mt-1 font-semibold text-ink">
                            Swimmer: {booking.swimmer}
                          </p>
                          <p className="mt-1 text-sm text-muted">Booking ID {booking.reference}</p>
                        </div>
                        <StatusBadge status={status} />
                      </div>
                      <ul className="mt-4 space-y-1 text-ink">
                        {booking.days.map((day) => (
                          <li key={day.dayNumber}>
                            <span className="font-semibold">{booking.days.length > 1 ? `Day ${day.dayNumber}` : 'Date'}:</span> {day.date}
                          </li>
                        ))}
                      </ul>
                      <dl className="mt-4 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
                        <div>
                          <dt className="text-muted">Time</dt>
                          <dd className="font-semibold text-ink">{booking.timeRange}</dd>
                        </div>
                        <div>
                          <dt className="text-muted">Amount</dt>
                          <dd className="font-semibold text-ink">{booking.amount}</dd>
                        </div>
                        <div>
                          <dt className="text-muted">Booked on</dt>
                          <dd className="font-semibold text-ink">{booking.bookedOn}</dd>
                        </div>
                        {booking.venue.map((row) => (
                          <div key={row.term} className="sm:col-span-3">
                            <dt className="text-muted">{row.term}</dt>
                            <dd className="font-semibold text-ink">
                              <DetailValue value={row.value} href={row.href} />
                            </dd>
                          </div>
                        ))}
                      </dl>
                      {(booking.report || booking.analysisUrl) && <ReportPanel report={booking.report} analysisUrl={booking.analysisUrl} />}
                      <BookingActions reschedulePath={booking.reschedulePath} cancelPath={booking.cancelPath} linkQuery="" change={booking.change} receiptUrl={booking.receiptUrl} />
                      <CreditNoteLinks notes={booking.creditNotes} className="mt-3" />
                      {booking.payUntil && (
                        <div className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-950">
                          <p>Seats held until {booking.payUntil}.</p>
                          <Link to={slotPaymentLink(booking.id)} className="btn-primary">
                            Complete payment
                          </Link>
                        </div>
                      )}
                    </article>
                  </li>
                )
              })}
            </ol>
          )}
          {hasCampRegistrations && (
            <section aria-labelledby="camp-registrations" className="space-y-4 pt-4">
              <h2 id="camp-registrations" className="text-2xl font-bold text-brand-900">
                Camp registrations
              </h2>
              {campRegistrations.length === 0 ? (
                <div className="card p-8 text-center shadow-sm">
                  <p className="text-lg font-bold text-ink">No camp registrations for {shownSwimmer?.name ?? 'this swimmer'} yet</p>
                </div>
              ) : (
                <ol className="space-y-4">
                  {campRegistrations.map((registration) => {
                    const status = STATUS[registration.status]
                    return (
                      <li key={registration.id}>
                        <article aria-labelledby={`camp-registration-${registration.id} camp-registration-${registration.id}-swimmer`} className="card p-6 shadow-sm" data-testid="camp-registration">
                          <div className="flex flex-wrap items-start justify-between gap-3">
                            <div>
                              <h3 id={`camp-registration-${registration.id}`} className="text-xl font-bold text-ink">
                                {registration.camp}
                              </h3>
                              <p id={`camp-registration-${registration.id}-swimmer`} className="mt-1 font-semibold text-ink">
                                Swimmer: {registration.swimmer}
                              </p>
                              <p className="mt-1 text-sm text-muted">Registration ID {registration.reference}</p>
                            </div>
                            <StatusBadge status={status} />
                          </div>
                          <dl className="mt-4 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
                            <div>
                              <dt className="text-muted">Dates</dt>
                              <dd className="font-semibold text-ink">{registration.dates}</dd>
                            </div>
                            <div>
                              <dt className="text-muted">Batch</dt>
                              <dd className="font-semibold text-ink">{registration.batch}</dd>
                            </div>
                            <div>
                              <dt className="text-muted">Amount</dt>
                              <dd className="font-semibold text-ink">{registration.amount}</dd>
                            </div>
                          </dl>
                          <BookingActions reschedulePath={null} cancelPath={registration.cancelPath} linkQuery="" change={registration.change} receiptUrl={registration.receiptUrl} />
                          <CreditNoteLinks notes={registration.creditNotes} className="mt-3" />
                        </article>
                      </li>
                    )
                  })}
                </ol>
              )}
            </section>
          )}
        </div>
        <aside aria-labelledby="account-information" className="card h-fit p-6 shadow-sm">
          <h2 id="account-information" className="text-lg font-bold text-ink">
            Account Information
          </h2>
          <dl className="mt-4 space-y-3 text-sm">
            <AccountRow term="Name" value={account.name} />
            <AccountRow term="Email" value={account.email} />
            <AccountRow term="WhatsApp number" value={account.phone ?? 'Not specified'} />
            {account.whatsapp && (
              <div>
                <dt className="font-semibold text-muted">WhatsApp messages</dt>
                <dd className="text-ink">
                  {account.whatsapp}{' '}
                  <Link to={`${href('/account/data')}#whatsapp`} className="font-semibold text-brand-700 underline underline-offset-2">
                    Change<span className="sr-only"> WhatsApp messages</span>
                  </Link>
                </dd>
              </div>
            )}
            <AccountRow term="Location" value={account.location || 'Not specified'} />
            <div>
              <dt className="font-semibold text-muted">Swimmers</dt>
              <dd className="[overflow-wrap:anywhere] text-ink">{account.swimmers.length ? account.swimmers.map((swimmer) => swimmer.name).join(', ') : 'None yet'}</dd>
            </div>
          </dl>
          <Link to={href('/swimmers')} className="mt-4 inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-2">
            Manage swimmers
          </Link>
        </aside>
      </div>
    </section>
  )
}

function StatusBadge({ status }: { status: (typeof STATUS)[BookingStatus] }) {
  return (
    <span className={`inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-sm font-semibold ${status.style}`}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2.5">
        <path d={status.icon} strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {status.label}
    </span>
  )
}

function AccountRow({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt className="font-semibold text-muted">{term}</dt>
      <dd className="[overflow-wrap:anywhere] text-ink">{value}</dd>
    </div>
  )
}
