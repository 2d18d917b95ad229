import { randomUUID } from 'node:crypto'
import { asc, eq, inArray } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { bookingReports, bookings, reportFiles, type VideoLink } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { analysisOfBooking, bookingForMail, bookingLink, bookingWhatsAppNumber, swimmerRow } from '~/modules/booking/fulfilment.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'
import { reportStorage } from './storage.server'

export const MAX_REPORT_FILE_BYTES = 20 * 1024 * 1024
export const MAX_REPORT_FILES = 6

export class ReportInputError extends DomainError {
  constructor(message: string) {
    super('invalid', message)
  }
}

type NewReportFile = { filename: string; bytes: Uint8Array }

/** A PDF starts with "%PDF-"; the file's name and declared type are not trusted. */
function isPdf(bytes: Uint8Array) {
  return bytes.length > 5 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-'
}

function checkInput(files: NewReportFile[], videoLinks: VideoLink[]) {
  if (files.length > MAX_REPORT_FILES) throw new ReportInputError(`Please attach at most ${MAX_REPORT_FILES} files at a time.`)
  for (const file of files) {
    if (file.bytes.length > MAX_REPORT_FILE_BYTES) throw new ReportInputError(`${file.filename} is larger than 20 MB.`)
    if (!isPdf(file.bytes)) throw new ReportInputError(`${file.filename} is not a PDF file.`)
  }
  for (const link of videoLinks) {
    let url: URL
    try {
      url = new URL(link.url)
    } catch {
      throw new ReportInputError(`"${link.url}" is not a web address.`)
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ReportInputError(`"${link.url}" is not a web address.`)
  }
}

/**
 * Staff deliver (or add to) a booking's report: PDF files, video links and a note. The files are
 * stored first; the report and the e-mail to the customer are written in one transaction, and if
 * it fails the stored files are removed again. The customer is e-mailed (and sent a WhatsApp
 * message) at the first delivery and whenever something is added.
 */
export async function deliverReport({ bookingId, note, videoLinks, files, staffId, now = new Date() }: { bookingId: number; note: string; videoLinks: VideoLink[]; files: NewReportFile[]; staffId: number | null; now?: Date }) {
  checkInput(files, videoLinks)
  const storage = reportStorage()
  const stored = files.map((file) => ({ ...file, key: `${bookingId}/${randomUUID()}.pdf` }))
  for (const file of stored) await storage.put(file.key, file.bytes)
  try {
    await db().transaction(async (tx) => {
      const [booking] = await tx.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, bookingId)).for('update')
      if (booking?.status !== 'confirmed') throw new ReportInputError('A report can only be delivered for a confirmed booking.')
      const [existing] = await tx.select({ id: bookingReports.id, deliveredAt: bookingReports.deliveredAt }).from(bookingReports).where(eq(bookingReports.bookingId, bookingId))
      const [report] = existing
        ? await tx.update(bookingReports).set({ note, videoLinks, updatedAt: now, deliveredAt: existing.deliveredAt ?? now }).where(eq(bookingReports.id, existing.id)).returning({ id: bookingReports.id })
        : await tx.insert(bookingReports).values({ bookingId, note, videoLinks, createdBy: staffId, deliveredAt: now, createdAt: now, updatedAt: now }).returning({ id: bookingReports.id })
      if (stored.length) {
        await tx.insert(reportFiles).values(stored.map((file) => ({ reportId: report!.id, filename: safeFilename(file.filename), contentType: 'application/pdf', sizeBytes: file.bytes.length, storageKey: file.key, createdAt: now })))
      }
      const mail = await bookingForMail(tx, bookingId)
      const link = await bookingLink(tx, mail)
      const whose = analysisOfBooking(mail)
      await enqueueEmail(
        letter({
          to: mail.customerEmail,
          subject: existing ? `Your report has been updated (${mail.reference})` : `Your personalised report is ready (${mail.reference})`,
          name: mail.customerName,
          paragraphs: [
            existing ? `We have added to the report of ${whose.text}.` : `The personalised report of ${whose.text} is ready.`,
            ...(note.trim() ? [note.trim()] : []),
          ],
          details: [swimmerRow(mail), ['Booking ID', mail.reference]],
          action: { ...link, label: 'Open your report' },
        }),
        { bookingId },
        tx,
        now,
      )
      // A guest's link carries the booking's key: the message keeps which booking, and the link is made when it is sent.
      const results = [mail.customerName, whose.swimmer, whose.analysis, mail.reference, mail.userId ? link.url : { kind: 'guest-booking' as const, reference: mail.reference }]
      await notifyOnWhatsApp(existing ? 'results_updated' : 'report_ready', async () => ({ phone: await bookingWhatsAppNumber(tx, mail), parameters: results, names: [mail.customerName, whose.swimmer], about: { bookingId } }), tx, now)
    })
  } catch (error) {
    for (const file of stored) await storage.remove(file.key).catch(() => {})
    throw error
  }
}

/** "swim report (final).pdf" stays readable; path separators and control characters do not survive. */
function safeFilename(name: string) {
  const cleaned = name.replace(/[\\/\u0000-\u001f\u007f"]/g, '_').trim().slice(0, 120)
  return cleaned.toLowerCase().endsWith('.pdf') ? cleaned : `${cleaned || 'report'}.pdf`
}

export type ReportSummary = { note: string; videoLinks: VideoLink[]; deliveredAt: Date | null; files: Array<{ id: number; filename: string; sizeBytes: number }> }

/** The reports of these bookings, keyed by booking id. */
export async function reportsOf(bookingIds: number[]): Promise<Map<number, ReportSummary>> {
  if (bookingIds.length === 0) return new Map()
  const reports = await db()
    .select({ id: bookingReports.id, bookingId: bookingReports.bookingId, note: bookingReports.note, videoLinks: bookingReports.videoLinks, deliveredAt: bookingReports.deliveredAt })
    .from(bookingReports)
    .where(inArray(bookingReports.bookingId, bookingIds))
  const files = reports.length
    ? await db()
        .select({ id: reportFiles.id, reportId: reportFiles.reportId, filename: reportFiles.filename, sizeBytes: reportFiles.sizeBytes })
        .from(reportFiles)
        .where(
          inArray(
            reportFiles.reportId,
            reports.map((report) => report.id),
          ),
        )
        .orderBy(asc(reportFiles.id))
    : []
  return new Map(
    reports.map((report) => [
      report.bookingId,
      {
        note: report.note,
        videoLinks: report.videoLinks,
        deliveredAt: report.deliveredAt,
        files: files.filter((file) => file.reportId === report.id).map(({ reportId: _reportId, ...file }) => file),
      },
    ]),
  )
}

/** A stored report file with the booking it belongs to (for deciding who may open it). */
export async function reportFile(fileId: number) {
  const [row] = await db()
    .select({ filename: reportFiles.filename, contentType: reportFiles.contentType, storageKey: reportFiles.storageKey, bookingId: bookings.id, userId: bookings.userId, email: bookings.customerEmail, reference: bookings.reference })
    .from(reportFiles)
    .innerJoin(bookingReports, eq(bookingReports.id, reportFiles.reportId))
    .innerJoin(bookings, eq(bookings.id, bookingReports.bookingId))
    .where(eq(reportFiles.id, fileId))
  if (!row) return null
  const bytes = await reportStorage().get(row.storageKey)
  return bytes ? { ...row, bytes } : null
}

/**
 * How long after the last session the report is due, from the report delivery setting: "within 48
 * hours" → 48; a range of days ("5-7 business days") promises its upper end, counted as calendar days.
 */
export function reportDueHours(reportDelivery: string) {
  const hours = /(\d+)\s*hours?/i.exec(reportDelivery)
  if (hours) return Number(hours[1])
  const days = /(\d+)\s*(?:business\s+)?days?/i.exec(reportDelivery)
  return days ? Number(days[1]) * 24 : 48
}
