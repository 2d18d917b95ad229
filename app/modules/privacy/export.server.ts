import { strToU8, zipSync, type Zippable } from 'fflate'
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { db } from '~/db/client.server'
import {
  cityAlerts,
  creditNotes,
  analyses,
  analysisClips,
  shareLinks,
  auditLog,
  bookingDays,
  bookingReports,
  bookings,
  campBatches,
  analysisDayLine,
  campLine,
  campRegistrations,
  camps,
  campWaitlist,
  analysisDayWaitlist,
  consentRequests,
  guardianConsents,
  outboxMessages,
  whatsappConsents,
  payments,
  receipts,
  refunds,
  reportFiles,
  sessions,
  swimmers,
  users,
} from '~/db/schema'
import { formatLabDateTime } from '~/lib/lab-time'
import { toE164 } from '~/lib/phone'
import { PRODUCT_NAME } from '~/lib/seo'
import { readableSummary } from '~/modules/audit/audit.server'
import { bookingFormColumns } from '~/modules/booking/staff.server'
import { renderReceiptPdf } from '~/modules/receipts/receipt-pdf.server'
import { receiptOf } from '~/modules/receipts/receipts.server'
import { renderCreditNotePdf } from '~/modules/receipts/credit-note-pdf.server'
import { creditNoteFileName, creditNoteOf } from '~/modules/receipts/credit-notes.server'
import { reportStorage } from '~/modules/reports/storage.server'
import { eventsWithMetricsOf, findingsWithDrillsOf } from '~/modules/analyses/contents.server'
import { clipLinks } from '~/lib/links'

/** How many exports one account may build in an hour: each reads everything and renders every receipt. */
export const EXPORT_LIMIT = { limit: 5, windowSeconds: 60 * 60 }
export const exportLimitKey = (accountId: number) => `data-export:account:${accountId}`

const inIds = <T>(column: Parameters<typeof inArray>[0], ids: T[]) => (ids.length ? inArray(column, ids as never[]) : sql`false`)

/**
 * The account's number's WhatsApp consent (whether it gets messages, since when, the words agreed
 * to) and the messages sent to it, once its owner proved the number is theirs: a number typed into
 * an account may be anyone's, and what was sent to it is theirs.
 */
async function whatsappOf(account: { whatsappNumber: string | null; phoneVerifiedAt: Date | null }) {
  const number = account.whatsappNumber && account.phoneVerifiedAt ? toE164(account.whatsappNumber) : null
  if (!number) return { consent: null, messages: [] }
  const [consent] = await db()
    .select({
      number: whatsappConsents.phone,
      optedIn: whatsappConsents.optedIn,
      optedInAt: whatsappConsents.optedInAt,
      optInWording: whatsappConsents.optInWording,
      optInSource: whatsappConsents.optInSource,
      optedOutAt: whatsappConsents.optedOutAt,
      optOutSource: whatsappConsents.optOutSource,
    })
    .from(whatsappConsents)
    .where(eq(whatsappConsents.phone, number))
  const messages = await db()
    .select({
      id: outboxMessages.id,
      to: outboxMessages.to,
      template: outboxMessages.templateName,
      parameters: outboxMessages.templateParams,
      text: outboxMessages.text,
      status: outboxMessages.status,
      deliveryStatus: outboxMessages.deliveryStatus,
      createdAt: outboxMessages.createdAt,
      sentAt: outboxMessages.sentAt,
    })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.channel, 'whatsapp'), eq(outboxMessages.to, number)))
    .orderBy(asc(outboxMessages.id))
  return { consent: consent ? { ...consent, state: consent.optedIn ? 'on' : 'off' } : null, messages }
}

/**
 * Everything the site holds about an account and its swimmers, as plain data: the account,
 * swimmers, consents and consent requests, bookings with their days, payments, refunds and receipt
 * numbers, reports, camp registrations, waitlist places (of camps and analysis days) and the camp line (the account's, and those
 * under its address once verified), e-mails sent to its verified address, the WhatsApp consent of its
 * proven number and the WhatsApp messages sent to it, signed-in sessions and audit entries about it.
 * Secrets (the password's hash, session and code hashes, consent tokens) are not data about the
 * person and are left out. Null when the account does not exist.
 */
export async function accountDataOf(accountId: number) {
  const [row] = await db()
    .select({ id: users.id, name: users.name, email: users.email, whatsappNumber: users.phone, phoneVerifiedAt: users.phoneVerifiedAt, currentLocation: users.currentLocation, verified: users.isVerified, createdAt: users.createdAt, updatedAt: users.updatedAt })
    .from(users)
    .where(eq(users.id, accountId))
  if (!row) return null
  const { phoneVerifiedAt, ...account } = row
  // What is under the address is the account's only once it proved the address is its own.
  const email = account.verified ? account.email.toLowerCase() : null
  const underAddress = (column: AnyPgColumn) => (email ? sql`lower(${column}) = ${email}` : sql`false`)
  const swimmerRows = await db().select().from(swimmers).where(eq(swimmers.accountId, accountId)).orderBy(asc(swimmers.id))
  const swimmerIds = swimmerRows.map((row) => row.id)
  const bookingRows = await db()
    .select({
      id: bookings.id,
      reference: bookings.reference,
      product: bookings.productCode,
      ...bookingFormColumns,
      amountPaise: bookings.amountPaise,
      status: bookings.status,
      origin: bookings.origin,
      attendance: bookings.attendance,
      confirmedAt: bookings.confirmedAt,
      cancelledAt: bookings.cancelledAt,
      createdAt: bookings.createdAt,
    })
    .from(bookings)
    .where(or(eq(bookings.userId, accountId), underAddress(bookings.customerEmail)))
    .orderBy(asc(bookings.id))
  const bookingIds = bookingRows.map((row) => row.id)
  const campRows = await db()
    .select({
      id: campRegistrations.id,
      reference: campRegistrations.reference,
      camp: camps.name,
      batch: campBatches.name,
      swimmerId: campRegistrations.swimmerId,
      swimmerName: campRegistrations.swimmerName,
      email: campRegistrations.email,
      phone: campRegistrations.phone,
      amountPaise: campRegistrations.amountPaise,
      status: campRegistrations.status,
      confirmedAt: campRegistrations.confirmedAt,
      createdAt: campRegistrations.createdAt,
    })
    .from(campRegistrations)
    .innerJoin(camps, eq(camps.id, campRegistrations.campId))
    .innerJoin(campBatches, eq(campBatches.id, campRegistrations.batchId))
    .where(or(eq(campRegistrations.accountId, accountId), underAddress(campRegistrations.email)))
    .orderBy(asc(campRegistrations.id))
  const campIds = campRows.map((row) => row.id)

  const [days, paymentRows, consents, requests, waitlist, dayWaitlist, line, dayLine, mail, sessionRows, reports, files] = await Promise.all([
    db().select().from(bookingDays).where(inIds(bookingDays.bookingId, bookingIds)).orderBy(asc(bookingDays.bookingId), asc(bookingDays.dayNumber)),
    db()
      .select({
        id: payments.id,
        orderId: payments.orderId,
        bookingId: payments.bookingId,
        campRegistrationId: payments.campRegistrationId,
        gateway: payments.gateway,
        amountPaise: payments.amountPaise,
        state: payments.state,
        transactionId: payments.transactionId,
        paymentMode: payments.paymentMode,
        completedAt: payments.completedAt,
        createdAt: payments.createdAt,
        receiptNumber: receipts.number,
        receiptIssuedAt: receipts.issuedAt,
      })
      .from(payments)
      .leftJoin(receipts, eq(receipts.paymentId, payments.id))
      .where(or(inIds(payments.bookingId, bookingIds), inIds(payments.campRegistrationId, campIds)))
      .orderBy(asc(payments.id)),
    db()
      .select({ id: guardianConsents.id, swimmerId: guardianConsents.swimmerId, campRegistrationId: guardianConsents.campRegistrationId, bookingId: guardianConsents.bookingId, guardianName: guardianConsents.guardianName, guardianEmail: guardianConsents.guardianEmail, emailVerifiedBy: guardianConsents.emailVerifiedBy, noticeVersion: guardianConsents.noticeVersion, method: guardianConsents.method, givenAt: guardianConsents.givenAt, withdrawnAt: guardianConsents.withdrawnAt })
      .from(guardianConsents)
      .where(or(inIds(guardianConsents.swimmerId, swimmerIds), inIds(guardianConsents.campRegistrationId, campIds), inIds(guardianConsents.bookingId, bookingIds), email ? eq(guardianConsents.guardianEmail, email) : sql`false`))
      .orderBy(asc(guardianConsents.id)),
    db()
      .select({ id: consentRequests.id, swimmerId: consentRequests.swimmerId, parentEmail: consentRequests.parentEmail, status: consentRequests.status, expiresAt: consentRequests.expiresAt, answeredAt: consentRequests.answeredAt, createdAt: consentRequests.createdAt })
      .from(consentRequests)
      .where(inIds(consentRequests.swimmerId, swimmerIds))
      .orderBy(asc(consentRequests.id)),
    db()
      .select({ id: campWaitlist.id, camp: camps.name, swimmerName: campWaitlist.swimmerName, email: campWaitlist.email, phone: campWaitlist.phone, status: campWaitlist.status, confirmedAt: campWaitlist.confirmedAt, offeredAt: campWaitlist.offeredAt, createdAt: campWaitlist.createdAt })
      .from(campWaitlist)
      .innerJoin(camps, eq(camps.id, campWaitlist.campId))
      .where(underAddress(campWaitlist.email))
      .orderBy(asc(campWaitlist.id)),
    db()
      .select({ id: analysisDayWaitlist.id, analysisDayId: analysisDayWaitlist.analysisDayId, swimmerName: analysisDayWaitlist.swimmerName, email: analysisDayWaitlist.email, phone: analysisDayWaitlist.phone, status: analysisDayWaitlist.status, confirmedAt: analysisDayWaitlist.confirmedAt, offeredAt: analysisDayWaitlist.offeredAt, createdAt: analysisDayWaitlist.createdAt })
      .from(analysisDayWaitlist)
      .where(or(eq(analysisDayWaitlist.userId, accountId), underAddress(analysisDayWaitlist.email)))
      .orderBy(asc(analysisDayWaitlist.id)),
    db()
      .select({ id: campLine.id, camp: campLine.campCode, batch: campLine.batchCode, swimmerName: campLine.swimmerName, email: campLine.email, phone: campLine.phone, outcome: campLine.outcome, message: campLine.message, createdAt: campLine.createdAt, settledAt: campLine.settledAt })
      .from(campLine)
      .where(or(underAddress(campLine.email), eq(campLine.holderUserId, accountId)))
      .orderBy(asc(campLine.id)),
    db()
      .select({ id: analysisDayLine.id, analysisDayId: analysisDayLine.analysisDayId, details: analysisDayLine.details, outcome: analysisDayLine.outcome, message: analysisDayLine.message, createdAt: analysisDayLine.createdAt, settledAt: analysisDayLine.settledAt })
      .from(analysisDayLine)
      .where(or(underAddress(analysisDayLine.email), eq(analysisDayLine.holderUserId, accountId)))
      .orderBy(asc(analysisDayLine.id)),
    db()
      .select({ id: outboxMessages.id, to: outboxMessages.to, subject: outboxMessages.subject, status: outboxMessages.status, createdAt: outboxMessages.createdAt, sentAt: outboxMessages.sentAt, text: outboxMessages.text })
      .from(outboxMessages)
      .where(email ? and(eq(outboxMessages.channel, 'email'), eq(outboxMessages.to, email)) : sql`false`)
      .orderBy(asc(outboxMessages.id)),
    db().select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt, ip: sessions.ip, userAgent: sessions.userAgent }).from(sessions).where(eq(sessions.userId, accountId)).orderBy(asc(sessions.createdAt)),
    db().select({ id: bookingReports.id, bookingId: bookingReports.bookingId, note: bookingReports.note, videoLinks: bookingReports.videoLinks, deliveredAt: bookingReports.deliveredAt }).from(bookingReports).where(inIds(bookingReports.bookingId, bookingIds)),
    db()
      .select({ id: reportFiles.id, bookingId: bookingReports.bookingId, filename: reportFiles.filename, contentType: reportFiles.contentType, sizeBytes: reportFiles.sizeBytes, storageKey: reportFiles.storageKey })
      .from(reportFiles)
      .innerJoin(bookingReports, eq(bookingReports.id, reportFiles.reportId))
      .where(inIds(bookingReports.bookingId, bookingIds))
      .orderBy(asc(reportFiles.id)),
  ])
  const paymentIds = paymentRows.map((row) => row.id)
  const [refundRows, audit] = await Promise.all([
    db()
      .select({
        id: refunds.id,
        refundId: refunds.refundId,
        paymentId: refunds.paymentId,
        amountPaise: refunds.amountPaise,
        reason: refunds.reason,
        state: refunds.state,
        completedAt: refunds.completedAt,
        createdAt: refunds.createdAt,
        creditNoteNumber: creditNotes.number,
        creditNoteIssuedAt: creditNotes.issuedAt,
      })
      .from(refunds)
      .leftJoin(creditNotes, eq(creditNotes.refundId, refunds.id))
      .where(inIds(refunds.paymentId, paymentIds))
      .orderBy(asc(refunds.id)),
    db()
      .select({ id: auditLog.id, action: auditLog.action, entityType: auditLog.entityType, entityId: auditLog.entityId, actorEmail: auditLog.actorEmail, summary: auditLog.summary, personal: auditLog.personal, before: auditLog.before, after: auditLog.after, createdAt: auditLog.createdAt })
      .from(auditLog)
      .where(
        or(
          eq(auditLog.actorId, accountId),
          email ? and(isNull(auditLog.actorId), eq(auditLog.actorEmail, email)) : sql`false`,
          eq(auditLog.accountId, accountId),
          inIds(auditLog.swimmerId, swimmerIds),
          inIds(auditLog.bookingId, bookingIds),
          inIds(auditLog.campRegistrationId, campIds),
        ),
      )
      .orderBy(asc(auditLog.id)),
  ])

  // City alerts are the account's when it asked for them signed in: by the account, never by address.
  const alerts = await db()
    .select({ id: cityAlerts.id, email: cityAlerts.email, city: cityAlerts.city, whatsapp: cityAlerts.whatsapp, confirmedAt: cityAlerts.confirmedAt, expiresAt: cityAlerts.expiresAt, createdAt: cityAlerts.createdAt })
    .from(cityAlerts)
    .where(eq(cityAlerts.userId, accountId))
    .orderBy(asc(cityAlerts.id))
  const analysisRows = await analysesOf(bookingIds, swimmerIds, accountId)
  const whatsapp = await whatsappOf({ whatsappNumber: account.whatsappNumber, phoneVerifiedAt })

  const { id: _id, ...accountFields } = account
  return {
    account: accountFields,
    swimmers: swimmerRows.map(({ accountId: _account, ...row }) => row),
    consents,
    consentRequests: requests,
    bookings: bookingRows.map((booking) => ({
      ...booking,
      days: days.filter((day) => day.bookingId === booking.id).map(({ bookingId: _booking, windowId: _window, ...day }) => day),
      report: reports.find((report) => report.bookingId === booking.id) ?? null,
    })),
    analyses: analysisRows.analyses,
    coachLinks: analysisRows.coachLinks,
    campRegistrations: campRows,
    payments: paymentRows,
    refunds: refundRows,
    campWaitlist: waitlist,
    analysisDayWaitlist: dayWaitlist,
    campLine: line,
    analysisDayLine: dayLine,
    cityAlerts: alerts,
    emails: mail.map(({ text, ...row }) => ({ ...row, body: text })),
    whatsappConsent: whatsapp.consent,
    whatsappMessages: whatsapp.messages,
    sessions: sessionRows,
    auditEntries: audit.map(({ personal, ...entry }) => ({ ...entry, summary: readableSummary(entry.summary, personal) })),
    reportFiles: files.map(({ storageKey: _key, ...file }) => file),
    /** Kept for the ZIP's files; not written to the JSON. */
    _files: files,
  }
}

/**
 * The analyses of the account's bookings and swimmers (drafts too: they are held about the swimmer),
 * with their events, figures, findings and drills, and their clips described with the address each
 * video is downloaded from when signed in (videos of up to 2 GB do not fit in an export built in
 * memory); and the links the account made for coaches, without their tokens.
 */
async function analysesOf(bookingIds: number[], swimmerIds: number[], accountId: number) {
  const rows = await db()
    .select({ id: analyses.id, bookingId: analyses.bookingId, swimmerId: analyses.swimmerId, poolLengthMetres: analyses.poolLengthMetres, summary: analyses.summary, publishedAt: analyses.publishedAt, nextAnalysisOn: analyses.nextAnalysisOn, createdAt: analyses.createdAt, updatedAt: analyses.updatedAt })
    .from(analyses)
    .where(or(inIds(analyses.bookingId, bookingIds), inIds(analyses.swimmerId, swimmerIds)))
    .orderBy(asc(analyses.id))
  const ids = rows.map((row) => row.id)
  const [events, clips, coachLinks] = await Promise.all([
    eventsWithMetricsOf(ids),
    db()
      .select({ id: analysisClips.id, analysisId: analysisClips.analysisId, title: analysisClips.title, angle: analysisClips.angle, chapters: analysisClips.chapters, contentType: analysisClips.contentType, sizeBytes: analysisClips.sizeBytes, createdAt: analysisClips.createdAt })
      .from(analysisClips)
      .where(inIds(analysisClips.analysisId, ids))
      .orderBy(asc(analysisClips.id)),
    db()
      .select({ id: shareLinks.id, swimmerId: shareLinks.swimmerId, analysisId: shareLinks.analysisId, coachEmail: shareLinks.coachEmail, createdAt: shareLinks.createdAt, expiresAt: shareLinks.expiresAt, revokedAt: shareLinks.revokedAt, lastOpenedAt: shareLinks.lastOpenedAt })
      .from(shareLinks)
      .where(eq(shareLinks.accountId, accountId))
      .orderBy(asc(shareLinks.id)),
  ])
  const findings = await Promise.all(ids.map((id) => findingsWithDrillsOf(id)))
  return {
    analyses: rows.map((row, index) => ({
      ...row,
      events: events
        .filter((event) => event.analysisId === row.id)
        .map((event) => ({ stroke: event.stroke, distanceMetres: event.distanceMetres, metrics: event.metrics.map(({ metricKey, label, unit, betterWhen, value }) => ({ metricKey, label, unit, betterWhen, value })) })),
      findings: findings[index]!.map(({ title, whyItMatters, priority, drills }) => ({ title, whyItMatters, priority, drills: drills.map(({ name, instructions, videoUrl }) => ({ name, instructions, videoUrl })) })),
      clips: clips.filter((clip) => clip.analysisId === row.id).map(({ analysisId: _analysis, ...clip }) => ({ ...clip, download: clipLinks(clip.id).video })),
    })),
    coachLinks,
  }
}

export type AccountData = NonNullable<Awaited<ReturnType<typeof accountDataOf>>>

const safeName = (value: string) => value.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'file'

const README = (generatedAt: Date) =>
  [
    `Your data at ${PRODUCT_NAME}`,
    '',
    `Made ${formatLabDateTime(generatedAt)} (India Standard Time) for the account signed in when it was asked for.`,
    '',
    'data.json   everything we hold about your account and its swimmers, in readable JSON:',
    '            your account, swimmers, parents\' consents and consent requests, bookings with their',
    '            days and reports, analyses with their figures, findings, drills and clips (each clip',
    '            with the address its video is downloaded from while signed in), links made for coaches,',
    '            payments, refunds with their credit note numbers, receipt numbers, camp registrations, waitlist',
    '            places and camp-line entries, the cities you asked to hear about, e-mails we sent you, whether your WhatsApp number gets',
    '            our WhatsApp messages (since when, and the words you agreed to) and the messages we',
    '            sent it (once you have confirmed the number is yours), the browsers signed in to your',
    '            account, and the entries of our audit log about you. Amounts are in paise',
    '            (1 rupee = 100 paise); times are UTC.',
    'receipts/   the receipt (or tax invoice) of each payment, and the credit note (or refund note)',
    '            of each refund, as PDF',
    'reports/    the files of your analysis reports',
    '',
    'To correct something, sign in and open /account/data, or write to us.',
    '',
  ].join('\n')

/**
 * The ZIP of an account's data: data.json, the receipts and credit notes as their pages render them, and the
 * report files. Built in memory for the request that asks and sent straight back, so nothing of it
 * stays on the server. Null when the account does not exist.
 */
export async function buildDataExport(accountId: number, now = new Date()): Promise<Uint8Array | null> {
  const data = await accountDataOf(accountId)
  if (!data) return null
  const { _files: files, ...readable } = data
  const entries: Zippable = {
    'README.txt': strToU8(README(now)),
    'data.json': strToU8(`${JSON.stringify({ generatedAt: now, ...readable }, null, 2)}\n`),
  }
  for (const payment of data.payments) {
    if (!payment.receiptNumber) continue
    const receipt = await receiptOf(payment.orderId)
    if (!receipt) continue
    entries[`receipts/receipt-${safeName(receipt.document.receiptNumber)}.pdf`] = [new Uint8Array(await renderReceiptPdf(receipt.document)), { level: 0 }]
  }
  for (const refund of data.refunds) {
    if (!refund.creditNoteNumber) continue
    const note = await creditNoteOf(refund.refundId)
    if (!note) continue
    entries[`receipts/${creditNoteFileName(note.document.number)}`] = [new Uint8Array(await renderCreditNotePdf(note.document)), { level: 0 }]
  }
  const references = new Map(data.bookings.map((booking) => [booking.id, booking.reference]))
  for (const file of files) {
    const bytes = await reportStorage().get(file.storageKey)
    if (!bytes) continue
    entries[`reports/${safeName(references.get(file.bookingId) ?? String(file.bookingId))}/${file.id}-${safeName(file.filename)}`] = [bytes, { level: 0 }]
  }
  return zipSync(entries, { mtime: now })
}
