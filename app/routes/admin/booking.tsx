import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/booking'
import { FormAlert, PendingButton, TextAreaField } from '~/components/form-fields'
import { DetailRow } from '~/components/payment-status-card'
import { ReportPanel } from '~/components/report-panel'
import { CreditNoteLinks } from '~/components/credit-note-links'
import { requireAdmin } from '~/web/auth.server'
import { formatRupees } from '~/lib/money'
import { formatLabDate, formatLabDateTime } from '~/lib/lab-time'
import { formatFileSize } from '~/web/file-size'
import { redirectWithToast } from '~/web/toast.server'
import { cancelBooking } from '~/modules/booking/changes.server'
import { OFFLINE_GATEWAY } from '~/modules/payments/payments.server'
import { bookingStory, setAttendance } from '~/modules/booking/staff.server'
import { BOOKING_STATUS_LABELS, bookingDayLines, venueDetails } from '~/modules/booking/texts'
import { deliverReport, MAX_REPORT_FILE_BYTES, MAX_REPORT_FILES, reportsOf } from '~/modules/reports/reports.server'
import { analysesOfBookings } from '~/modules/analyses/publishing.server'
import { creditNotesOfBookings } from '~/modules/receipts/credit-notes.server'
import { readForm } from '~/web/form-data.server'
import { formIntent } from '~/web/intent'
import { refuseNul } from '~/web/nul.server'
import { promoCodeOfOrder } from '~/modules/payments/checkout.server'
import { promoDiscountRow } from '~/modules/promotions/texts'
import { notFoundUnless, refusalData } from '~/web/refusals.server'
import { formatPhone } from '~/lib/phone'
import { bookingDeclaration } from '~/modules/swimmers/consent.server'
import { adminAnalysisLink, adminBookingLink, adminCustomerLink, creditNoteLink, reportFileLink, rescheduleLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ params }) => [{ title: `Booking ${params.reference} | Admin` }, { name: 'robots', content: 'noindex' }]

async function story(reference: string) {
  const found = await bookingStory(reference)
  notFoundUnless(found)
  return found
}

export async function loader({ request, params }: Route.LoaderArgs) {
  refuseNul(request, params)
  await requireAdmin(request)
  const { booking, account, days, venue, payments, events, refunds, messages } = await story(params.reference)
  const [reports, analyses, credits, promo, declaration] = await Promise.all([
    reportsOf([booking.id]),
    analysesOfBookings([booking.id]),
    creditNotesOfBookings([booking.id]),
    promoCodeOfOrder({ kind: 'booking', id: booking.id }),
    bookingDeclaration(booking.id),
  ])
  const report = reports.get(booking.id)
  const analysis = analyses.get(booking.id)
  return {
    analysisState: !analysis ? 'Not started' : analysis.publishedAt ? `Published on ${formatLabDate(analysis.publishedAt)}` : 'Draft',
    booking: {
      reference: booking.reference,
      product: booking.productName,
      status: BOOKING_STATUS_LABELS[booking.status],
      confirmed: booking.status === 'confirmed',
      movable: !days[0]?.analysisDayId,
      origin: ORIGIN_LABELS[booking.origin],
      refundable: payments.some((payment) => payment.state === 'completed' && payment.gateway !== OFFLINE_GATEWAY && payment.amountPaise > 0),
      attendance: booking.attendance,
      // Someone else who swims without a profile, with the age given when booked (as the summary before payment showed it).
      swimmer: booking.swimmerAge === null ? booking.swimmerName : `${booking.swimmerName}, ${booking.swimmerAge}`,
      // A swimmer under 18 booked by a guest: the booking person's declaration as parent or guardian.
      declaration: declaration && `Declared in the booking form by ${declaration.guardianName}, ${declaration.guardianEmail} (address not verified), ${formatLabDateTime(declaration.givenAt)}; privacy notice ${declaration.noticeVersion}`,
      customer: booking.customerName,
      email: booking.customerEmail,
      phone: booking.customerPhone ? formatPhone(booking.customerPhone) : '',
      // The account holder as they are now, with their page; a guest booking has none.
      account: account ? { name: account.name, email: account.email, phone: account.phone ? formatPhone(account.phone) : '', href: adminCustomerLink(account.id) } : null,
      notes: booking.notes ?? '',
      amount: formatRupees(booking.amountPaise),
      promo: promo && promoDiscountRow(promo),
      bookedOn: formatLabDate(booking.createdAt),
    },
    days: bookingDayLines(days),
    venue: venue ? venueDetails(venue) : [],
    payments: payments.map((payment) => ({
      orderId: payment.orderId,
      summary: `${payment.gateway}, ${payment.state}, ${formatRupees(payment.amountPaise)}${payment.paymentMode ? `, ${payment.paymentMode}` : ''}`,
      transactionId: payment.transactionId,
      failureReason: payment.failureReason,
      createdAt: formatLabDateTime(payment.createdAt),
      events: events.filter((event) => event.orderId === payment.orderId).map((event) => `${formatLabDateTime(event.receivedAt)}: ${event.source} said ${event.state ?? '(no state)'}, ${event.outcome}`),
    })),
    refunds: refunds.map((refund) => ({ refundId: refund.refundId, summary: `${formatRupees(refund.amountPaise)}, ${refund.settledByHand ? `repaid by hand (${refund.settledByHand})` : refund.state}: ${refund.reason}`, lastError: refund.settledByHand ? null : refund.lastError })),
    creditNotes: (credits.get(booking.id) ?? []).map((note) => ({ number: note.number, date: formatLabDate(note.issuedAt), amount: formatRupees(note.amountPaise), url: creditNoteLink(note.refundId) })),
    messages: messages.map((message) => ({
      channel: message.channel === 'whatsapp' ? 'WhatsApp' : 'E-mail',
      subject: message.subject,
      status: message.deliveryStatus ? `${message.status}, ${message.deliveryStatus}` : message.status,
      at: formatLabDateTime(message.createdAt),
    })),
    report: report?.deliveredAt
      ? {
          note: report.note,
          videoLinks: report.videoLinks,
          files: report.files.map((file) => ({ filename: file.filename, url: reportFileLink(file.id), size: formatFileSize(file.sizeBytes) })),
          deliveredAt: formatLabDateTime(report.deliveredAt),
        }
      : null,
    limits: { files: MAX_REPORT_FILES, megabytes: MAX_REPORT_FILE_BYTES / (1024 * 1024) },
  }
}

/** "Label | https://…" or just a URL, one per line. */
function videoLinksFrom(text: string) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [label, url] = line.includes('|') ? line.split('|').map((part) => part.trim()) : ['', line]
      return { label: label ?? '', url: url ?? '' }
    })
}

export async function action({ request, params }: Route.ActionArgs) {
  refuseNul(request, params)
  const admin = await requireAdmin(request)
  const { booking } = await story(params.reference)
  // Uploads are read into memory; refuse an oversized request before reading it.
  const length = Number(request.headers.get('Content-Length') ?? 'NaN')
  if (!Number.isFinite(length) || length > MAX_REPORT_FILES * MAX_REPORT_FILE_BYTES + 1024 * 1024) {
    return data({ error: `Please upload at most ${MAX_REPORT_FILES} files of up to ${MAX_REPORT_FILE_BYTES / (1024 * 1024)} MB each.` }, { status: 413 })
  }
  const formData = await readForm(request, { maxBytes: MAX_REPORT_FILES * MAX_REPORT_FILE_BYTES + 1024 * 1024 })
  const actor = { id: admin.id, email: admin.email }
  const here = adminBookingLink(booking.reference)
  // The report form, the page's main one, sends no intent.
  switch (formIntent(formData, ['cancel', 'attendance', 'report']) ?? 'report') {
    case 'cancel': {
      const refund = formData.get('refund') === 'yes'
      // Cancelling cannot be undone: the first press asks, the second (with confirm=yes) cancels.
      if (formData.get('confirm') !== 'yes') return { confirmCancel: { refund } }
      try {
        await cancelBooking({ bookingId: booking.id, enforceDeadline: false, refund, actor })
      } catch (error) {
        return refusalData(error)
      }
      return redirectWithToast(here, { type: 'success', title: 'Booking cancelled', description: refund ? 'The refund is on its way to the customer.' : 'No refund was made.' })
    }
    case 'attendance': {
      const value = formData.get('attendance')
      const attendance = value === 'attended' || value === 'no_show' ? value : null
      try {
        await setAttendance(actor, booking.id, attendance)
      } catch (error) {
        return refusalData(error)
      }
      return redirectWithToast(here, { type: 'success', title: attendance === 'attended' ? 'Marked as attended' : attendance === 'no_show' ? 'Marked as a no-show' : 'Attendance cleared' })
    }
    case 'report': {
      const uploads = formData.getAll('files').filter((entry): entry is File => typeof entry !== 'string' && entry.size > 0)
      const files = await Promise.all(uploads.map(async (file) => ({ filename: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })))
      const note = String(formData.get('note') ?? '').slice(0, 4000)
      const videoLinks = videoLinksFrom(String(formData.get('videoLinks') ?? ''))
      if (files.length === 0 && videoLinks.length === 0 && !note.trim()) return data({ error: 'Attach a PDF, add a video link or write a note.' }, { status: 400 })
      try {
        await deliverReport({ bookingId: booking.id, note, videoLinks, files, staffId: admin.id })
      } catch (error) {
        return refusalData(error)
      }
      return redirectWithToast(here, { type: 'success', title: 'Report delivered', description: `${booking.customerName} has been e-mailed.` })
    }
  }
}

const ORIGIN_LABELS = { online: 'Paid online', offline: 'Paid at the lab', complimentary: 'Complimentary' } as const

export default function AdminBooking({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, days, venue, payments, refunds, creditNotes, messages, report, limits, analysisState } = loaderData
  const confirmCancel = actionData && 'confirmCancel' in actionData ? actionData.confirmCancel : null
  const actionError = actionData && 'error' in actionData ? actionData.error : undefined
  return (
    <section>
      <Link to={href('/admin/bookings')} className="link text-sm">
        All bookings
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold text-brand-900">Booking {booking.reference}</h1>
      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <section aria-labelledby="details" className="card p-6">
          <h2 id="details" className="text-lg font-bold text-ink">
            Details
          </h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <DetailRow term="Status" value={booking.status} />
            <DetailRow term="Product" value={booking.product} />
            {days.map((day) => (
              <DetailRow key={day.label} term={day.label} value={day.value} />
            ))}
            {venue.map((row) => (
              <DetailRow key={row.term} {...row} />
            ))}
            <DetailRow term="Swimmer" value={booking.swimmer} />
            <DetailRow term="Booked as" value={booking.customer} />
            {booking.declaration && <DetailRow term="Parent's consent" value={booking.declaration} />}
            <DetailRow term="E-mail" value={booking.email} />
            {booking.phone && <DetailRow term="Phone" value={booking.phone} />}
            {booking.account ? (
              <>
                <dt className="text-muted">Account holder</dt>
                <dd className="[overflow-wrap:anywhere] font-medium text-ink">
                  <Link to={booking.account.href} className="link">
                    {booking.account.name}
                  </Link>
                  <span className="block text-muted">{[booking.account.email, booking.account.phone].filter(Boolean).join(' · ')}</span>
                </dd>
              </>
            ) : (
              <DetailRow term="Account" value="No (booked as a guest)" />
            )}
            {booking.promo && <DetailRow term={booking.promo.term} value={booking.promo.value} />}
            <DetailRow term="Amount" value={`${booking.amount} (${booking.origin})`} />
            {booking.attendance && <DetailRow term="Attendance" value={booking.attendance === 'attended' ? 'Attended' : 'No-show'} />}
            <DetailRow term="Booked on" value={booking.bookedOn} />
            {booking.notes && <DetailRow term="Notes" value={booking.notes} />}
          </dl>
        </section>

        {booking.confirmed && (
          <section aria-labelledby="actions-heading" className="card p-6 xl:col-span-2">
            <h2 id="actions-heading" className="text-lg font-bold text-ink">
              Actions
            </h2>
            <div className="mt-3 flex flex-wrap items-start gap-3">
              {booking.movable && (
                <Link to={rescheduleLink(booking.reference)} className="btn-secondary">
                  Reschedule
                </Link>
              )}
              {confirmCancel ? (
                <CancelConfirmation reference={booking.reference} amount={booking.amount} refund={confirmCancel.refund} />
              ) : (
                <Form method="post" className="flex flex-wrap gap-3">
                  <input type="hidden" name="intent" value="cancel" />
                  {booking.refundable && (
                    <button type="submit" name="refund" value="yes" className="btn-secondary">
                      Cancel and refund
                    </button>
                  )}
                  <button type="submit" name="refund" value="no" className="btn-secondary">
                    {booking.refundable ? 'Cancel without refund' : 'Cancel'}
                  </button>
                </Form>
              )}
              <Form method="post" className="flex flex-wrap gap-3">
                <input type="hidden" name="intent" value="attendance" />
                <button type="submit" name="attendance" value="attended" className="btn-secondary" aria-pressed={booking.attendance === 'attended'}>
                  Mark attended
                </button>
                <button type="submit" name="attendance" value="no_show" className="btn-secondary" aria-pressed={booking.attendance === 'no_show'}>
                  Mark no-show
                </button>
              </Form>
            </div>
          </section>
        )}

        <section aria-labelledby="analysis-heading" className="card p-6">
          <h2 id="analysis-heading" className="text-lg font-bold text-ink">
            Analysis
          </h2>
          <p className="mt-1 text-sm text-muted">{analysisState}</p>
          <Link to={adminAnalysisLink(booking.reference)} className="btn-secondary mt-3">
            {analysisState === 'Not started' ? 'Open the analysis' : 'Edit the analysis'}
          </Link>
        </section>

        <section aria-labelledby="report-heading" className="card p-6">
          <h2 id="report-heading" className="text-lg font-bold text-ink">
            Report
          </h2>
          {report ? (
            <>
              <p className="mt-1 text-sm text-muted">Delivered {report.deliveredAt}.</p>
              <ReportPanel report={report} />
            </>
          ) : (
            <p className="mt-1 text-sm text-muted">Not delivered yet.</p>
          )}
          {booking.confirmed && (
            <Form method="post" encType="multipart/form-data" className="mt-4 space-y-4">
              <FormAlert id="report-error" errors={actionError ? [actionError] : undefined} />
              <div>
                <label htmlFor="files" className="block text-sm font-semibold text-ink">
                  PDF files <span className="font-normal text-muted">(up to {limits.files}, {limits.megabytes} MB each)</span>
                </label>
                <input id="files" name="files" type="file" accept="application/pdf,.pdf" multiple className="mt-1 block w-full text-sm" />
              </div>
              <TextAreaField
                field={{ id: 'videoLinks', name: 'videoLinks', defaultValue: report?.videoLinks.map((link) => (link.label ? `${link.label} | ${link.url}` : link.url)).join('\n') }}
                label="Video links"
                note={'one per line; "Label | https://…" or just the address'}
              />
              <TextAreaField field={{ id: 'note', name: 'note', defaultValue: report?.note }} label="Note to the customer" />
              <PendingButton pendingLabel="Delivering...">{report ? 'Update the report' : 'Deliver the report'}</PendingButton>
            </Form>
          )}
        </section>

        <section aria-labelledby="payments-heading" className="card p-6 xl:col-span-2">
          <h2 id="payments-heading" className="text-lg font-bold text-ink">
            Payments
          </h2>
          {payments.length === 0 && <p className="mt-1 text-sm text-muted">No payments.</p>}
          <ol className="mt-3 space-y-3 text-sm">
            {payments.map((payment) => (
              <li key={payment.orderId} className="rounded-lg bg-slate-50 p-3">
                <p className="font-semibold text-ink [overflow-wrap:anywhere]">{payment.orderId}</p>
                <p className="text-ink">{payment.summary}</p>
                <p className="text-muted">
                  Started {payment.createdAt}
                  {payment.transactionId && `, transaction ${payment.transactionId}`}
                </p>
                {payment.failureReason && <p className="text-red-800">{payment.failureReason}</p>}
                {payment.events.length > 0 && (
                  <ul className="mt-2 list-disc pl-5 text-muted">
                    {payment.events.map((event) => (
                      <li key={event}>{event}</li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
          {refunds.length > 0 && (
            <>
              <h3 className="mt-4 font-semibold text-ink">Refunds</h3>
              <ul className="mt-2 space-y-1 text-sm">
                {refunds.map((refund) => (
                  <li key={refund.refundId}>
                    {refund.refundId}: {refund.summary}
                    {refund.lastError && <span className="block text-red-800">{refund.lastError}</span>}
                  </li>
                ))}
              </ul>
            </>
          )}
          {creditNotes.length > 0 && (
            <>
              <h3 className="mt-4 font-semibold text-ink">Credit notes</h3>
              <CreditNoteLinks notes={creditNotes} className="mt-2" />
            </>
          )}
          <h3 className="mt-4 font-semibold text-ink">Messages sent</h3>
          {messages.length === 0 ? (
            <p className="text-sm text-muted">None.</p>
          ) : (
            <ul className="mt-2 space-y-1 text-sm">
              {messages.map((message) => (
                <li key={`${message.channel}-${message.subject}-${message.at}`}>
                  {message.at}: {message.channel}: {message.subject} ({message.status})
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </section>
  )
}

/** The second step of cancelling, focused when it appears so keyboard and screen-reader users land on it. */
function CancelConfirmation({ reference, amount, refund }: { reference: string; amount: string; refund: boolean }) {
  return (
    <div role="group" aria-labelledby="confirm-cancel" tabIndex={-1} ref={(element) => element?.focus()} className="w-full rounded-xl border border-amber-300 bg-amber-50 p-4">
      <p id="confirm-cancel" className="font-semibold text-ink">
        {`Cancel booking ${reference}${refund ? ` and refund ${amount} to the customer` : ' without a refund'}? The customer is e-mailed, and this cannot be undone.`}
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        <Form method="post">
          <input type="hidden" name="intent" value="cancel" />
          <input type="hidden" name="refund" value={refund ? 'yes' : 'no'} />
          <button type="submit" name="confirm" value="yes" className="btn-primary">
            {refund ? 'Yes, cancel and refund' : 'Yes, cancel'}
          </button>
        </Form>
        <Link to="." className="btn-secondary">
          Keep the booking
        </Link>
      </div>
    </div>
  )
}
