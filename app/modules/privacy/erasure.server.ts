import { randomBytes } from 'node:crypto'
import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import {
  auditLog,
  bookingReports,
  bookings,
  campLine,
  campRegistrations,
  campWaitlist,
  consentRequests,
  guardianConsents,
  outboxMessages,
  whatsappConsents,
  payments,
  promoCodeUses,
  rateLimitBuckets,
  reportFiles,
  sandboxGatewayOrders,
  swimmers,
  users,
} from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { logger } from '~/lib/logger.server'
import { toE164 } from '~/lib/phone'
import { forgetSessionsOf } from '~/modules/accounts/sessions.server'
import { recordAudit } from '~/modules/audit/audit.server'
import { enqueueEmail, type NewEmail } from '~/modules/mail/outbox.server'
import { reportStorage } from '~/modules/reports/storage.server'
import { dropAnalysesOf, removeStoredFiles as removeAnalysisFiles } from '~/modules/analyses/files/clips.server'
import { cancelFutureBookings, type FutureBooking } from '~/modules/swimmers/future-bookings.server'
import { promoCustomerKey } from '~/modules/promotions/uses.server'

/**
 * Erasing a person's data (the right to erasure of the DPDP Act, 2023): a swimmer profile of an
 * account, or the whole account. What every table holds of a person, and what erasure does to it:
 *
 * | table | personal data | on erasing the account |
 * |---|---|---|
 * | users | name, e-mail, WhatsApp number, location | deleted; sessions, one_time_codes, swimmers, guardian_consents (of its swimmers) and consent_requests (of its swimmers) go with it (ON DELETE CASCADE) |
 * | bookings | customer and swimmer names, e-mail, phone, experience, notes, the holder's network and browser | kept with placeholders (the invoice needs the booking), see ERASED_NAME |
 * | booking_reports, report_files (and report storage) | the analysis, its videos and files | deleted, files removed from storage |
 * | analyses (events, metrics, findings, clips) and their clip and poster files | the swimmer's results and videos | deleted, those of the person's bookings and swimmer profiles; the files removed from storage after the commit (a failed delete is logged and the hourly sweep of files no clip refers to removes it) |
 * | camp_registrations | swimmer name, e-mail, phone, holder | kept with placeholders (the invoice needs it) |
 * | guardian_consents | guardian's name and e-mail | those of the account's camp registrations deleted; those the person gave for someone else's swimmer kept, the name and address replaced |
 * | consent_requests | a parent's address | those naming the person as parent for someone else's swimmer: the address replaced |
 * | camp_line, camp_waitlist | swimmer name, e-mail, phone, network | deleted |
 * | outbox_messages | address or WhatsApp number, subject, bodies, a WhatsApp message's parameters | deleted when sent to the address or to the numbers erased, or mentioning the person; one last e-mail says the erasure is done |
 * | whatsapp_consents | a WhatsApp number, and whether it opted in | deleted for the account's number and the numbers of its bookings, camp registrations and places erased |
 * | audit_log | who acted, summaries, before and after | kept (what happened stays on record), the person's values replaced by an opaque id |
 * | rate_limit_buckets | counters keyed by the address | deleted |
 * | promo_code_uses | whose use it was (the account, or a guest's address) | kept (uses count against their code), the customer replaced by an opaque id |
 * | sandbox_gateway_orders | the customer's name (the test gateway's own books) | replaced |
 * | payments, refunds, receipts, credit_notes, payment_events, booking_days, reminders_sent | no name, address or number | kept: the invoice, its payment and its credit notes |
 *
 * `ERASURE_HANDLED_COLUMNS` lists every text column that can hold a person's data; a test fails
 * when a table gains one that is not listed here (and so not handled).
 */
export const ERASURE_HANDLED_COLUMNS: Record<string, string[]> = {
  users: ['name', 'email', 'phone', 'current_location', 'password_hash'],
  swimmers: ['name', 'gender', 'swimming_experience', 'academy_name', 'coach_name', 'specialization', 'other_specialization', 'stroke_best_time', 'how_did_you_know', 'other_source'],
  guardian_consents: ['guardian_name', 'guardian_email'],
  consent_requests: ['parent_email'],
  sessions: ['ip', 'user_agent'],
  bookings: ['swimmer_name', 'customer_name', 'customer_email', 'customer_phone', 'swimming_experience', 'notes', 'holder_network', 'holder_browser'],
  booking_reports: ['note', 'video_links'],
  report_files: ['filename'],
  camp_registrations: ['swimmer_name', 'email', 'phone', 'holder_network', 'holder_browser'],
  camp_line: ['swimmer_name', 'email', 'phone', 'holder_network', 'holder_browser', 'message'],
  camp_waitlist: ['swimmer_name', 'email', 'phone', 'holder_network'],
  outbox_messages: ['to', 'subject', 'text', 'html', 'attachments', 'last_error', 'template_params', 'delivery_error'],
  whatsapp_consents: ['phone'],
  audit_log: ['actor_email', 'summary', 'before', 'after'],
  rate_limit_buckets: ['key'],
  promo_code_uses: ['customer_key'],
  sandbox_gateway_orders: ['customer_name', 'description'],
  // Analyses: deleted with the person's bookings and swimmer profiles (dropAnalysesOf), their clips' files after the commit.
  analyses: ['summary'],
  analysis_clips: ['title', 'chapters'],
  analysis_findings: ['title', 'why_it_matters'],
  finding_drills: ['name', 'instructions', 'video_url'],
  // Deleted with the account or the swimmer (ON DELETE CASCADE).
  share_links: ['coach_email'],
  one_time_codes: ['phone'],
}

/**
 * Text columns that hold nothing about a person: codes, states, references, the lab's own settings,
 * hashes, and the gateways' answers (ids, amounts, states and the kind of instrument, never a name
 * or address). A new text column must be added here or to ERASURE_HANDLED_COLUMNS.
 */
export const NOT_PERSONAL_COLUMNS: Record<string, string[] | '*'> = {
  audit_log: ['action', 'entity_type', 'entity_id'],
  bookings: ['reference', 'product_code', 'status', 'origin', 'attendance'],
  camp_batches: '*',
  camps: '*',
  catalogue_items: '*',
  credit_notes: '*',
  camp_line: ['camp_code', 'batch_code', 'outcome'],
  camp_registrations: ['reference', 'status'],
  camp_waitlist: ['status'],
  consent_requests: ['token_hash', 'status'],
  guardian_consents: ['email_verified_by', 'notice_version', 'method'],
  instance_secrets: '*',
  one_time_codes: ['purpose', 'code_hash'],
  outbox_messages: ['status', 'channel', 'template_name', 'provider_message_id', 'delivery_status', 'private_link'],
  payment_events: '*',
  payments: '*',
  promo_codes: '*',
  promo_code_uses: ['state'],
  receipts: '*',
  refunds: '*',
  reminders_sent: '*',
  report_files: ['content_type', 'storage_key'],
  sandbox_gateway_orders: ['merchant_order_id', 'gateway_order_id', 'redirect_url', 'callback_url', 'state', 'transaction_id', 'payment_mode'],
  sandbox_gateway_refunds: '*',
  sessions: ['id'],
  site_settings: '*',
  analysis_clips: ['angle', 'storage_key', 'content_type', 'poster_key', 'poster_content_type'],
  analysis_events: ['stroke'],
  analysis_findings: ['priority'],
  analysis_metrics: '*',
  reference_bands: '*',
  share_links: ['token_hash'],
  // The words a person agreed to are the lab's own, and the form or reply it came through.
  whatsapp_consents: ['opt_in_wording', 'opt_in_source', 'opt_out_source', 'request_wording', 'request_source'],
  // A WhatsApp message's id and state, as the webhook sent them: nothing about who it went to.
  whatsapp_webhook_events: ['event_key'],
}

/** What a booking, registration or consent shows instead of a name after erasure. */
export const ERASED_NAME = 'Erased'

/** An address that reaches no one and names no one: RFC 2606 reserves .invalid. */
function erasedAddress(marker: string) {
  return `${marker}@invalid`
}

function newMarker(kind: 'account' | 'swimmer') {
  return `erased-${kind}-${randomBytes(6).toString('hex')}`
}

export class StaffAccountError extends DomainError {
  constructor() {
    super('conflict', 'A staff account cannot be deleted here. Please ask another administrator of the lab.')
  }
}

export class NotTheirSwimmerError extends DomainError {
  constructor() {
    super('not_found', 'There is no such swimmer in your account.')
  }
}

/** Invoices to an unregistered buyer of ₹50,000 or more must name the buyer (CGST Rules, rule 46): their name stays. */
const NAMED_INVOICE_FROM_PAISE = 50_000_00

type Erasure = {
  /** Why, in the audit log and to the refund: 'The account was deleted.' */
  reason: string
  now?: Date
  /** The last e-mail to the address, written after the erasure (none for an address never verified). */
  farewell?: (erased: { email: string; name: string; cancelled: FutureBooking[] }) => NewEmail | null
}

/** The distinct, non-trivial values to look for in free text (summaries, e-mail bodies). */
function searchable(values: Array<string | null | undefined>) {
  return [...new Set(values.map((value) => value?.trim()).filter((value): value is string => Boolean(value && value.length >= 3)))]
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `text` with every value replaced by the marker, in any letter case. */
function scrub(text: string, values: string[], marker: string) {
  return values.reduce((result, value) => result.replace(new RegExp(escapeRegExp(value), 'gi'), marker), text)
}

/** A jsonb value with every value replaced inside its strings (and keys). */
function scrubJson(value: unknown, values: string[], marker: string): unknown {
  if (value === null || value === undefined) return value
  const json = JSON.stringify(value)
  const escaped = values.map((item) => JSON.stringify(item).slice(1, -1))
  return JSON.parse(scrub(json, escaped, marker))
}

/** The distinct WhatsApp numbers (E.164) among phone numbers as kept, leaving out blanks and what is not a number. */
function whatsappNumbersOf(phones: Array<string | null | undefined>) {
  return [...new Set(phones.map((phone) => (phone ? toE164(phone) : null)).filter((phone): phone is string => phone !== null))]
}

/** Whether a text column holds any of the values (case-insensitive), as SQL. */
function mentions(column: SQL | typeof outboxMessages.text, values: string[]) {
  if (values.length === 0) return sql`false`
  return or(...values.map((value) => sql`strpos(lower(${column}::text), ${value.toLowerCase()}) > 0`))!
}

/**
 * Audit entries keep what happened; the person's values in them (who acted, summaries, before and
 * after) become the marker.
 */
async function scrubAudit(tx: Executor, { values, actorId, actorEmail, marker }: { values: string[]; actorId?: number; actorEmail?: string; marker: string }) {
  const conditions = [mentions(sql`${auditLog.summary}`, values), mentions(sql`${auditLog.before}`, values), mentions(sql`${auditLog.after}`, values), mentions(sql`${auditLog.actorEmail}`, values)]
  if (actorId !== undefined) conditions.push(eq(auditLog.actorId, actorId))
  if (actorEmail) conditions.push(eq(auditLog.actorEmail, actorEmail))
  const rows = await tx.select({ id: auditLog.id, actorEmail: auditLog.actorEmail, summary: auditLog.summary, before: auditLog.before, after: auditLog.after }).from(auditLog).where(or(...conditions)).for('update')
  for (const row of rows) {
    const personal = values.some((value) => row.actorEmail.toLowerCase() === value.toLowerCase()) || row.actorEmail === actorEmail
    await tx
      .update(auditLog)
      .set({
        actorEmail: personal ? marker : scrub(row.actorEmail, values, marker),
        summary: scrub(row.summary, values, marker),
        before: scrubJson(row.before, values, marker) as object | null,
        after: scrubJson(row.after, values, marker) as object | null,
      })
      .where(eq(auditLog.id, row.id))
  }
}

/** Report files of these bookings: their rows and reports go now, their bytes after the commit. */
async function dropReports(tx: Executor, bookingIds: number[]) {
  if (bookingIds.length === 0) return []
  const files = await tx.select({ key: reportFiles.storageKey }).from(reportFiles).innerJoin(bookingReports, eq(bookingReports.id, reportFiles.reportId)).where(inArray(bookingReports.bookingId, bookingIds))
  await tx.delete(bookingReports).where(inArray(bookingReports.bookingId, bookingIds))
  return files.map((file) => file.key)
}

async function removeStoredFiles(keys: string[]) {
  for (const key of keys) {
    try {
      await reportStorage().remove(key)
    } catch (error) {
      logger().error({ err: error, key }, 'could not remove an erased report file from storage')
    }
  }
}

/** The account's bookings and camp registrations (also guest ones under its address). */
function accountBookings(accountId: number, email: string) {
  return or(eq(bookings.userId, accountId), sql`lower(${bookings.customerEmail}) = ${email}`)!
}
function accountRegistrations(accountId: number, email: string) {
  return or(eq(campRegistrations.accountId, accountId), sql`lower(${campRegistrations.email}) = ${email}`)!
}

/**
 * Erases an account and everything of it, as the table above says: its future sessions and camp
 * places are cancelled first under the refund policy (guest bookings made under its verified
 * address count as its own). Returns null when the account no longer exists (erased meanwhile, by
 * another instance too: the account's row is locked and deleted in one transaction, so one
 * erasure wins and the last e-mail is written once).
 */
export async function eraseAccount(accountId: number, { reason, now = new Date(), farewell }: Erasure) {
  const [account] = await db().select().from(users).where(eq(users.id, accountId))
  if (!account) return null
  if (account.isAdmin) throw new StaffAccountError()
  const email = account.email.toLowerCase()
  if (account.isVerified) {
    // The holder proved the address: bookings made under it without signing in are theirs too.
    await db().update(bookings).set({ userId: accountId }).where(and(isNull(bookings.userId), sql`lower(${bookings.customerEmail}) = ${email}`))
  }
  const cancelled = await cancelFutureBookings({ accountId, email }, { person: { id: accountId, email }, reason, now })
  const marker = newMarker('account')

  const result = await db().transaction(async (tx) => {
    const [locked] = await tx.select({ id: users.id }).from(users).where(eq(users.id, accountId)).for('update')
    if (!locked) return null
    const profiles = await tx.select({ id: swimmers.id, name: swimmers.name }).from(swimmers).where(eq(swimmers.accountId, accountId))
    const sessionRows = await tx.select({ id: bookings.id, customerName: bookings.customerName, customerEmail: bookings.customerEmail, customerPhone: bookings.customerPhone, swimmerName: bookings.swimmerName }).from(bookings).where(accountBookings(accountId, email))
    const campRows = await tx.select({ id: campRegistrations.id, swimmerName: campRegistrations.swimmerName, email: campRegistrations.email, phone: campRegistrations.phone }).from(campRegistrations).where(accountRegistrations(accountId, email))
    const waiting = await tx.select({ swimmerName: campWaitlist.swimmerName, phone: campWaitlist.phone }).from(campWaitlist).where(sql`lower(${campWaitlist.email}) = ${email}`)
    const inLine = await tx.select({ swimmerName: campLine.swimmerName, phone: campLine.phone }).from(campLine).where(or(sql`lower(${campLine.email}) = ${email}`, eq(campLine.holderUserId, accountId)))
    const profileIds = profiles.map((profile) => profile.id)
    const parents = profileIds.length ? await tx.select({ email: consentRequests.parentEmail }).from(consentRequests).where(inArray(consentRequests.swimmerId, profileIds)) : []
    const guardians = profileIds.length || campRows.length
      ? await tx
          .select({ name: guardianConsents.guardianName, email: guardianConsents.guardianEmail })
          .from(guardianConsents)
          .where(or(profileIds.length ? inArray(guardianConsents.swimmerId, profileIds) : sql`false`, campRows.length ? inArray(guardianConsents.campRegistrationId, campRows.map((row) => row.id)) : sql`false`))
      : []
    const values = searchable([
      account.name,
      email,
      account.phone,
      ...profiles.map((profile) => profile.name),
      ...sessionRows.flatMap((row) => [row.customerName, row.customerEmail, row.customerPhone, row.swimmerName]),
      ...campRows.flatMap((row) => [row.swimmerName, row.email, row.phone]),
      ...waiting.flatMap((row) => [row.swimmerName, row.phone]),
      ...inLine.flatMap((row) => [row.swimmerName, row.phone]),
      ...guardians.flatMap((row) => [row.name, row.email]),
    ]).filter((value) => value !== ERASED_NAME)

    // E-mails: to the address or to the parents asked about its swimmers, and any that mention them;
    // WhatsApp messages: to the numbers erased, and any that mention the person.
    const parentEmails = parents.map((parent) => parent.email.toLowerCase())
    const numbers = whatsappNumbersOf([account.phone, ...sessionRows.map((row) => row.customerPhone), ...campRows.map((row) => row.phone), ...waiting.map((row) => row.phone), ...inLine.map((row) => row.phone)])
    const recipients = [email, ...parentEmails, ...numbers]
    await tx
      .delete(outboxMessages)
      .where(
        or(
          inArray(outboxMessages.to, recipients),
          mentions(sql`${outboxMessages.subject}`, values),
          mentions(sql`${outboxMessages.text}`, values),
          mentions(sql`${outboxMessages.html}`, values),
          mentions(sql`${outboxMessages.templateParams}`, values),
        ),
      )
    if (numbers.length) await tx.delete(whatsappConsents).where(inArray(whatsappConsents.phone, numbers))
    await scrubAudit(tx, { values, actorId: accountId, actorEmail: email, marker })

    // Consents the person gave or was asked for about someone else's swimmer stay on record without them.
    const campIds = campRows.map((row) => row.id)
    if (campIds.length) await tx.delete(guardianConsents).where(inArray(guardianConsents.campRegistrationId, campIds))
    await tx.update(guardianConsents).set({ guardianName: ERASED_NAME, guardianEmail: erasedAddress(marker) }).where(eq(guardianConsents.guardianEmail, email))
    await tx.update(consentRequests).set({ parentEmail: erasedAddress(marker) }).where(eq(consentRequests.parentEmail, email))

    const storedFiles = await dropReports(tx, sessionRows.map((row) => row.id))
    const analysisFiles = await dropAnalysesOf(tx, { bookingIds: sessionRows.map((row) => row.id), swimmerIds: profileIds })
    const bookingIds = sessionRows.map((row) => row.id)
    if (bookingIds.length) {
      const named = await tx
        .select({ id: payments.bookingId })
        .from(payments)
        .where(and(inArray(payments.bookingId, bookingIds), eq(payments.state, 'completed'), sql`${payments.amountPaise} >= ${NAMED_INVOICE_FROM_PAISE}`))
      const keepName = named.map((row) => row.id!)
      await tx
        .update(bookings)
        .set({
          userId: null,
          swimmerId: null,
          swimmerName: ERASED_NAME,
          customerName: keepName.length ? sql`CASE WHEN ${bookings.id} IN (${sql.join(keepName.map((id) => sql`${id}`), sql`, `)}) THEN ${bookings.customerName} ELSE ${ERASED_NAME} END` : ERASED_NAME,
          customerEmail: sql`'erased-' || md5(random()::text || ${bookings.id}::text) || '@invalid'`,
          customerPhone: null,
          swimmingExperience: null,
          notes: null,
          holderNetwork: null,
          holderBrowser: null,
          updatedAt: now,
        })
        .where(inArray(bookings.id, bookingIds))
    }
    if (campIds.length) {
      await tx
        .update(campRegistrations)
        .set({ accountId: null, swimmerId: null, swimmerName: ERASED_NAME, email: sql`'erased-' || md5(random()::text || ${campRegistrations.id}::text) || '@invalid'`, phone: ERASED_NAME, holderNetwork: null, holderBrowser: null, updatedAt: now })
        .where(inArray(campRegistrations.id, campIds))
    }
    const paid = or(bookingIds.length ? inArray(payments.bookingId, bookingIds) : sql`false`, campIds.length ? inArray(payments.campRegistrationId, campIds) : sql`false`)!
    await tx.update(sandboxGatewayOrders).set({ customerName: ERASED_NAME, description: ERASED_NAME }).where(inArray(sandboxGatewayOrders.merchantOrderId, tx.select({ orderId: payments.orderId }).from(payments).where(paid)))

    await tx.delete(campLine).where(or(sql`lower(${campLine.email}) = ${email}`, eq(campLine.holderUserId, accountId)))
    await tx.delete(campWaitlist).where(sql`lower(${campWaitlist.email}) = ${email}`)
    await tx.delete(rateLimitBuckets).where(sql`strpos(lower(${rateLimitBuckets.key}), ${email}) > 0`)
    // Promo code uses still count against their codes, no longer as anyone's.
    await tx.update(promoCodeUses).set({ customerKey: marker }).where(inArray(promoCodeUses.customerKey, [promoCustomerKey({ accountId, email }), promoCustomerKey({ accountId: null, email })]))
    await tx.delete(users).where(eq(users.id, accountId))

    await recordAudit(tx, { id: null, email: marker }, { action: 'account.erase', entityType: 'customer', entityId: marker, summary: `Erased an account and its ${profiles.length} swimmer profile(s): ${reason}`, after: { bookings: bookingIds.length, campRegistrations: campIds.length, cancelled: cancelled.length } }, now)
    const last = farewell?.({ email, name: account.name, cancelled })
    if (last) await enqueueEmail(last, tx, now)
    return { marker, storedFiles, analysisFiles, cancelled }
  })
  if (!result) return null
  forgetSessionsOf(String(accountId))
  await removeStoredFiles(result.storedFiles)
  await removeAnalysisFiles(result.analysisFiles)
  logger().info({ erased: result.marker }, 'account erased')
  return { marker: result.marker, cancelled: result.cancelled }
}

/**
 * Erases one swimmer of an account (never the account holder's own profile: deleting that is
 * deleting the account): their future sessions and camp places are cancelled under the refund
 * policy, their name leaves the account's bookings and registrations (kept for the invoices),
 * their reports go, and so does every e-mail and audit mention of them.
 */
export async function eraseSwimmer(accountId: number, swimmerId: number, { reason, now = new Date() }: { reason: string; now?: Date }) {
  const [swimmer] = await db().select().from(swimmers).where(and(eq(swimmers.id, swimmerId), eq(swimmers.accountId, accountId)))
  if (!swimmer || swimmer.isAccountHolder) throw new NotTheirSwimmerError()
  const [account] = await db().select({ email: users.email }).from(users).where(eq(users.id, accountId))
  const email = account!.email.toLowerCase()
  const cancelled = await cancelFutureBookings({ accountId, email, swimmerId }, { person: { id: accountId, email }, reason, now })
  const marker = newMarker('swimmer')
  const sameSwimmerName = sql`lower(${swimmer.name})`
  const storedFiles = await db().transaction(async (tx) => {
    const [locked] = await tx.select({ id: swimmers.id }).from(swimmers).where(eq(swimmers.id, swimmerId)).for('update')
    if (!locked) return { reports: [], analyses: [] }
    const sessionRows = await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.swimmerId, swimmerId))
    const campRows = await tx.select({ id: campRegistrations.id }).from(campRegistrations).where(or(eq(campRegistrations.swimmerId, swimmerId), and(accountRegistrations(accountId, email), sql`lower(${campRegistrations.swimmerName}) = ${sameSwimmerName}`)))
    const parents = await tx.select({ email: consentRequests.parentEmail }).from(consentRequests).where(eq(consentRequests.swimmerId, swimmerId))
    const values = searchable([swimmer.name]).filter((value) => value !== ERASED_NAME)
    const parentEmails = parents.map((parent) => parent.email.toLowerCase())
    await tx
      .delete(outboxMessages)
      .where(
        or(
          mentions(sql`${outboxMessages.subject}`, values),
          mentions(sql`${outboxMessages.text}`, values),
          mentions(sql`${outboxMessages.html}`, values),
          mentions(sql`${outboxMessages.templateParams}`, values),
          parentEmails.length ? inArray(outboxMessages.to, parentEmails) : sql`false`,
        ),
      )
    await scrubAudit(tx, { values, marker })
    const files = await dropReports(tx, sessionRows.map((row) => row.id))
    const analysisFiles = await dropAnalysesOf(tx, { bookingIds: sessionRows.map((row) => row.id), swimmerIds: [swimmerId] })
    if (sessionRows.length) {
      await tx.update(bookings).set({ swimmerId: null, swimmerName: ERASED_NAME, swimmingExperience: null, notes: null, updatedAt: now }).where(inArray(bookings.id, sessionRows.map((row) => row.id)))
    }
    const campIds = campRows.map((row) => row.id)
    if (campIds.length) {
      await tx.delete(guardianConsents).where(inArray(guardianConsents.campRegistrationId, campIds))
      // The registration's unique rule is per name and address: each erased place gets a name of its own.
      await tx.update(campRegistrations).set({ swimmerId: null, swimmerName: sql`${ERASED_NAME} || ' ' || ${campRegistrations.id}::text`, updatedAt: now }).where(inArray(campRegistrations.id, campIds))
    }
    const paid = or(sessionRows.length ? inArray(payments.bookingId, sessionRows.map((row) => row.id)) : sql`false`, campIds.length ? inArray(payments.campRegistrationId, campIds) : sql`false`)!
    await tx
      .update(sandboxGatewayOrders)
      .set({ description: ERASED_NAME, customerName: sql`CASE WHEN lower(${sandboxGatewayOrders.customerName}) = ${swimmer.name.toLowerCase()} THEN ${ERASED_NAME} ELSE ${sandboxGatewayOrders.customerName} END` })
      .where(inArray(sandboxGatewayOrders.merchantOrderId, tx.select({ orderId: payments.orderId }).from(payments).where(paid)))
    await tx.delete(campLine).where(and(sql`lower(${campLine.email}) = ${email}`, sql`lower(${campLine.swimmerName}) = ${sameSwimmerName}`))
    await tx.delete(campWaitlist).where(and(sql`lower(${campWaitlist.email}) = ${email}`, sql`lower(${campWaitlist.swimmerName}) = ${sameSwimmerName}`))
    await tx.delete(swimmers).where(eq(swimmers.id, swimmerId))
    await recordAudit(tx, { id: accountId, email }, { action: 'swimmer.erase', entityType: 'swimmer', entityId: marker, summary: `Erased a swimmer profile: ${reason}`, after: { bookings: sessionRows.length, campRegistrations: campIds.length, cancelled: cancelled.length } }, now)
    return { reports: files, analyses: analysisFiles }
  })
  await removeStoredFiles(storedFiles.reports)
  await removeAnalysisFiles(storedFiles.analyses)
  return { cancelled }
}
