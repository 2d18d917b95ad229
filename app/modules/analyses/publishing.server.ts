import { and, count, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { analyses, analysisEvents, analysisFindings, analysisMetrics, bookingDays, bookingReports, bookings, siteSettings } from '~/db/schema'
import { config } from '~/config.server'
import { DomainError } from '~/lib/domain-error'
import { addHours, addMonthsToDate, formatWeekdayDate, labInstant, labToday, toHourMinute } from '~/lib/lab-time'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { analysisOfBooking, bookingForMail, bookingLink, bookingWhatsAppNumber, swimmerRow } from '~/modules/booking/fulfilment.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'
import { reportDueHours } from '~/modules/reports/reports.server'
import { lockedAnalysis } from './editing.server'
import { analysisLink } from '~/lib/links'

// Publishing: the family sees the analysis from the moment it is published, and is e-mailed a link
// to it. The family's pages read what staff keep editing, so a change saved after publishing shows
// at once; publishing again records that the analysis was gone over, and tells the family only
// when staff ask for it. Each e-mail to the family has its WhatsApp message beside it.

export const NOTHING_TO_PUBLISH = 'There is nothing to publish yet: add an event with at least one metric, or a finding.'

/**
 * The booking's first session is after today in Bangalore: results published now would reach the
 * family before the swimmer has been in the pool, which is almost always the wrong booking.
 */
export class SessionNotHeldYetError extends DomainError {
  constructor(readonly firstDate: string) {
    super('conflict', `This session has not happened yet (it starts on ${formatWeekdayDate(firstDate)}). Publish anyway?`)
  }
}

/**
 * Publishes the analysis (or publishes it again). The first time, it is dated and the swimmer's
 * next analysis is set to the lab day of publishing plus the months of the re-analysis setting,
 * and the family is e-mailed that the analysis is ready; after that, the "updated" e-mail goes
 * only when `tellFamily`. Before the booking's first session day it publishes only when staff
 * have confirmed (`beforeSession`), else SessionNotHeldYetError. Returns whether this was the
 * first publication.
 */
export async function publishAnalysis({ actor, analysisId, tellFamily, beforeSession = false, now = new Date() }: { actor: Actor; analysisId: number; tellFamily: boolean; beforeSession?: boolean; now?: Date }) {
  return db().transaction(async (tx) => {
    const analysis = await lockedAnalysis(tx, analysisId)
    const [booking] = await tx.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, analysis.bookingId))
    if (booking?.status !== 'confirmed') throw new DomainError('conflict', 'Only the analysis of a confirmed booking can be published.')
    const [measured] = await tx.select({ count: count() }).from(analysisMetrics).innerJoin(analysisEvents, eq(analysisEvents.id, analysisMetrics.eventId)).where(eq(analysisEvents.analysisId, analysisId))
    const [found] = await tx.select({ count: count() }).from(analysisFindings).where(eq(analysisFindings.analysisId, analysisId))
    if (!measured?.count && !found?.count) throw new DomainError('conflict', NOTHING_TO_PUBLISH)
    const first = analysis.publishedAt === null
    const mail = await bookingForMail(tx, analysis.bookingId)
    const firstDate = mail.days[0]?.date
    if (!beforeSession && firstDate && firstDate > labToday(now)) throw new SessionNotHeldYetError(firstDate)
    if (first) {
      const [settings] = await tx.select({ reanalysisMonths: siteSettings.reanalysisMonths }).from(siteSettings).where(eq(siteSettings.id, 1))
      const nextAnalysisOn = addMonthsToDate(labToday(now), settings?.reanalysisMonths ?? 3)
      await tx.update(analyses).set({ publishedAt: now, nextAnalysisOn }).where(eq(analyses.id, analysisId))
      await recordAudit(
        tx,
        actor,
        {
          action: 'analysis.publish',
          entityType: 'analysis',
          entityId: analysisId,
          summary: `Published the analysis of ${mail.reference} ({swimmer}); next analysis from ${nextAnalysisOn}`,
          personal: { swimmer: mail.swimmerName },
          about: { bookingId: analysis.bookingId, swimmerId: analysis.swimmerId },
          after: { publishedAt: now, nextAnalysisOn },
        },
        now,
      )
    } else {
      await recordAudit(tx, actor, { action: 'analysis.republish', entityType: 'analysis', entityId: analysisId, summary: `Published the analysis of ${mail.reference} again${tellFamily ? ', telling the family' : ''}`, about: { bookingId: analysis.bookingId, swimmerId: analysis.swimmerId } }, now)
    }
    if (first || tellFamily) {
      // An account opens the analysis's own page; a guest booking (no account) has only its private link.
      const link = mail.userId ? { url: `${config().SITE_URL}${analysisLink(analysisId)}` } : await bookingLink(tx, mail)
      const whose = analysisOfBooking(mail)
      await enqueueEmail(
        letter({
          to: mail.customerEmail,
          subject: first ? `${whose.text} is ready (${mail.reference})` : `${whose.text} has been updated (${mail.reference})`,
          name: mail.customerName,
          paragraphs: [first ? `${whose.text} is ready: the figures we measured, what we found, and drills to work on it.` : `We have updated ${whose.text}: the changes show on its page.`],
          details: [swimmerRow(mail), ['Booking ID', mail.reference]],
          action: { url: link.url, label: 'Open the analysis' },
        }),
        { bookingId: analysis.bookingId },
        tx,
        now,
      )
      // A guest's link carries the booking's key: the message keeps which booking, and the link is made when it is sent.
      const results = [mail.customerName, whose.swimmer, whose.analysis, mail.reference, mail.userId ? link.url : { kind: 'guest-booking' as const, reference: mail.reference }]
      await notifyOnWhatsApp(first ? 'report_ready' : 'results_updated', async () => ({ phone: await bookingWhatsAppNumber(tx, mail), parameters: results, names: [mail.customerName, whose.swimmer], about: { bookingId: analysis.bookingId } }), tx, now)
    }
    return first
  })
}

/** Each booking's analysis, if staff have opened one: its id and when it was published (null for a draft). */
export async function analysesOfBookings(bookingIds: number[]) {
  if (bookingIds.length === 0) return new Map<number, { id: number; publishedAt: Date | null; updatedAt: Date }>()
  const rows = await db().select({ id: analyses.id, bookingId: analyses.bookingId, publishedAt: analyses.publishedAt, updatedAt: analyses.updatedAt }).from(analyses).where(inArray(analyses.bookingId, bookingIds))
  return new Map(rows.map(({ bookingId, ...row }) => [bookingId, row]))
}

/**
 * The analyses the lab owes: confirmed bookings whose last session has ended, with neither a
 * published analysis nor a delivered report. Each is due the promised time (the report delivery
 * setting) after the end of its last session, and overdue from then; the soonest due first.
 */
export async function analysesDue(now = new Date()) {
  const [settings] = await db().select({ reportDelivery: siteSettings.reportDelivery }).from(siteSettings).where(eq(siteSettings.id, 1))
  const dueHours = reportDueHours(settings?.reportDelivery ?? '')
  const rows = await db()
    .select({
      id: bookings.id,
      reference: bookings.reference,
      swimmerName: bookings.swimmerName,
      analysisId: analyses.id,
      lastDate: sql<string>`max(${bookingDays.date})::text`,
      lastEnd: sql<string>`(array_agg(${bookingDays.endTime} ORDER BY ${bookingDays.date} DESC))[1]::text`,
    })
    .from(bookings)
    .innerJoin(bookingDays, eq(bookingDays.bookingId, bookings.id))
    .leftJoin(bookingReports, eq(bookingReports.bookingId, bookings.id))
    .leftJoin(analyses, eq(analyses.bookingId, bookings.id))
    .where(and(eq(bookings.status, 'confirmed'), isNull(bookingReports.deliveredAt), or(isNull(analyses.id), isNull(analyses.publishedAt))))
    .groupBy(bookings.id, bookings.reference, bookings.swimmerName, analyses.id)
  return rows
    .map((row) => {
      const endedAt = labInstant(row.lastDate, toHourMinute(row.lastEnd))
      const dueAt = addHours(endedAt, dueHours)
      return { id: row.id, reference: row.reference, swimmerName: row.swimmerName, started: row.analysisId !== null, endedAt, dueAt, overdue: dueAt <= now }
    })
    .filter((row) => row.endedAt <= now)
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime())
}

/** The analyses past their promised time (the bookings list flags them). */
export async function overdueAnalyses(now = new Date()) {
  return (await analysesDue(now)).filter((row) => row.overdue)
}

/** Whether a booking's analysis is published (for the customer's pages). */
export async function publishedAnalysisOf(bookingId: number) {
  const [row] = await db()
    .select({ id: analyses.id })
    .from(analyses)
    .where(and(eq(analyses.bookingId, bookingId), isNotNull(analyses.publishedAt)))
  return row?.id ?? null
}
