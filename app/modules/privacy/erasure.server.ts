import { randomBytes } from 'node:crypto'
import { and, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { db, type Executor } from '~/db/client.server'
import {
  analysisDayWaitlist,
  auditLog,
  bookingReports,
  bookings,
  analysisDayLine,
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
import { accountLimit, cityAlertAddressLimit } from '~/modules/rate-limit/limits.server'
import { forgetSessionsOf } from '~/modules/accounts/sessions.server'
import { recordAudit } from '~/modules/audit/audit.server'
import { enqueueEmail, type NewEmail } from '~/modules/mail/outbox.server'
import { reportStorage } from '~/modules/reports/storage.server'
import { dropAnalysesOf, removeStoredFiles as removeAnalysisFiles } from '~/modules/analyses/files/clips.server'
import { cancelFutureBookings, type FutureBooking } from '~/modules/future-bookings/future-bookings.server'
import { holdAttemptsKey } from '~/modules/holders/holders.server'
import { promoAttemptsKey, promoCustomerKey } from '~/modules/promotions/uses.server'

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
 * | guardian_consents | guardian's name and e-mail | those of the account's camp registrations and bookings deleted; those the person gave (under its verified address) for someone else's swimmer kept, the name and address replaced |
 * | consent_requests | a parent's address | those naming the person (its verified address) as parent for someone else's swimmer: the address replaced |
 * | camp_line, camp_waitlist | swimmer name, e-mail, phone, network | deleted: those the account made, and those under its verified address |
 * | analysis_day_waitlist | swimmer name, e-mail, phone, network | deleted: those the account made signed in (`user_id`, ON DELETE CASCADE), and those under its verified address; erasing a swimmer, those under the verified address in the swimmer's name |
 * | analysis_day_line | the booking form as sent (names, e-mail, phone, notes), network, browser | deleted: those the account made signed in (`holder_user_id`, ON DELETE CASCADE), and those under its verified address; erasing a swimmer, those whose booking is the swimmer's and those the account made for the swimmer by id; the rest a day after they were settled |
 * | outbox_messages | address or WhatsApp number, subject, bodies, a WhatsApp message's parameters | deleted: those about the account, its swimmers (the consent e-mails to their parents among them), bookings and camp registrations, by those keys; e-mails to its verified address, WhatsApp messages to its proven number; one last e-mail to a verified address says the erasure is done |
 * | whatsapp_consents | a WhatsApp number, and whether it opted in | deleted for the account's proven number while it is opted in; a STOP (the number owner's instruction) and any number the account has not proven stay |
 * | audit_log | who acted, the values naming people (`personal`), summaries, before and after | kept (what happened stays on record): the person as actor and the values kept apart in the entries about them replaced by an opaque id; entries about them written before values were kept apart keep only what was done |
 * | rate_limit_buckets | counters keyed by the address | deleted, by their exact keys, under a verified address |
 * | city_alerts, city_alert_notices | an address and a city asked about, whether WhatsApp too, which days it was told of | those the account asked for signed in (`user_id`) deleted with it (ON DELETE CASCADE); those under its address asked for without signing in are apart from accounts (below) |
 * | promo_code_uses | whose use it was (the account, or a guest's address) | kept (uses count against their code), the customer replaced by an opaque id |
 * | sandbox_gateway_orders | the customer's name (the test gateway's own books) | replaced |
 * | payments, refunds, receipts, credit_notes, payment_events, booking_days, reminders_sent | no name, address or number | kept: the invoice, its payment and its credit notes |
 *
 * Only a verified account's address is its own: guest bookings, registrations, places, consents and
 * counters under it are the account's then, and never while it is unverified (anyone can register
 * anyone's address). Likewise its WhatsApp number, once its owner proved it. Nothing is found by
 * what a text says: a name is no key.
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
  analysis_day_waitlist: ['swimmer_name', 'email', 'phone', 'holder_network'],
  analysis_day_line: ['details', 'email', 'holder_network', 'holder_browser', 'message'],
  outbox_messages: ['to', 'subject', 'text', 'html', 'attachments', 'last_error', 'template_params', 'delivery_error'],
  whatsapp_consents: ['phone'],
  audit_log: ['actor_email', 'summary', 'before', 'after', 'personal'],
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
  // Where a staff member works when: their own account's, deleted with it.
  staff_assignments: ['note'],
  // City alerts asked for signed in: the account's (user_id), deleted with it (ON DELETE CASCADE), with what they were told.
  city_alerts: ['email', 'city', 'city_key', 'token_hash'],
  city_alert_notices: ['token_hash'],
}

/**
 * Text columns about a person whom no account owns, so no account's erasure can find them (nothing
 * is found by an e-mail's text): a testimonial's words, name and the address asked. The person takes
 * theirs off the site with the link in their confirmation e-mail; staff delete it on request
 * (`deleteTestimonial`, which also blanks the address the audit log kept of their answers).
 */
export const APART_FROM_ACCOUNTS_COLUMNS: Record<string, string[]> = {
  testimonials: ['quote', 'name', 'role', 'email', 'status', 'token_hash', 'agreed_text', 'text_version', 'withdrawn_by'],
  // The person a pool or club names as its contact for the lab's visits: staff change or blank it
  // on the person's request, or when the club names someone else.
  venues: ['host_name', 'host_email', 'host_phone'],
  // City alerts asked for without signing in (no user_id): the address stops them with the link in
  // any alert e-mail; unconfirmed ones are deleted by the retention job once their link expires.
  city_alerts: ['email', 'city', 'city_key', 'token_hash'],
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
  camp_line: ['camp_code', 'batch_code', 'outcome', 'promo_code'],
  camp_registrations: ['reference', 'status'],
  camp_waitlist: ['status'],
  analysis_day_waitlist: ['status'],
  // The host's key is the club's (staff send it), the field a refusal is about is a form's field's name.
  analysis_day_line: ['outcome', 'promo_code', 'host_key', 'field'],
  consent_requests: ['token_hash', 'status'],
  guardian_consents: ['email_verified_by', 'notice_version', 'method', 'weak_because'],
  instance_secrets: '*',
  // Organisations the lab works with and their links.
  partners: '*',
  // The places the lab works at, its camera kits and where they go (staff's notes on a trip).
  venues: ['name', 'address', 'city', 'state_code', 'map_url', 'gstin', 'invoice_series'],
  kits: '*',
  kit_placements: '*',
  // The lab's days at a venue: what it sells there, when, and what to bring.
  analysis_days: '*',
  // An anonymised copy with no link back to the family's analysis, swimmer or account (its names
  // stripped when copied; staff are shown where a name remains in the free texts before publishing).
  sample_analyses: '*',
  // The lab's own photos and video loops (of its staff, pool and lab), uploaded by staff: no family's data.
  media_items: '*',
  one_time_codes: ['purpose', 'code_hash'],
  outbox_messages: ['status', 'channel', 'template_name', 'provider_message_id', 'delivery_status', 'private_link'],
  payment_events: '*',
  payments: '*',
  promo_codes: '*',
  promo_code_uses: ['state'],
  receipts: '*',
  // The last number of each invoice series (the lab's, a venue registration's) and year.
  receipt_sequences: '*',
  credit_note_sequences: '*',
  refunds: '*',
  reminders_sent: '*',
  report_files: ['content_type', 'storage_key'],
  sandbox_gateway_orders: ['merchant_order_id', 'gateway_order_id', 'redirect_url', 'callback_url', 'state', 'transaction_id', 'payment_mode'],
  sandbox_gateway_refunds: '*',
  sessions: ['id'],
  site_settings: '*',
  analysis_clips: ['angle', 'storage_key', 'content_type', 'poster_key', 'poster_content_type', 'poster_avif_key'],
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

const inIds = (column: AnyPgColumn, ids: number[]) => (ids.length ? inArray(column, ids) : sql`false`)

/**
 * What an erasure removes, by structure: the account (for an account's erasure), swimmers, bookings
 * and camp registrations. Outbox messages and audit entries carry the same keys.
 */
type Erased = { accountId: number | null; swimmerIds: number[]; bookingIds: number[]; campRegistrationIds: number[] }

/** The rows of a table with the four keys (outbox_messages, audit_log) that are about what is erased. */
function aboutErased(table: Record<'accountId' | 'swimmerId' | 'bookingId' | 'campRegistrationId', AnyPgColumn>, erased: Erased) {
  return or(
    erased.accountId !== null ? eq(table.accountId, erased.accountId) : sql`false`,
    inIds(table.swimmerId, erased.swimmerIds),
    inIds(table.bookingId, erased.bookingIds),
    inIds(table.campRegistrationId, erased.campRegistrationIds),
  )!
}

/**
 * The person's traces in the audit log, which keeps what happened. Entries about what is erased keep
 * their summary and have the values kept apart for it (`personal`) replaced by the marker; entries
 * written before values were kept apart keep only what was done. Where the person acted (their
 * account, or their verified address without signing in), the marker stands for them.
 */
async function eraseFromAudit(tx: Executor, { erased, actor, marker }: { erased: Erased; actor?: { id: number; address: string | null }; marker: string }) {
  const byThePerson = actor
    ? or(eq(auditLog.actorId, actor.id), actor.address ? and(isNull(auditLog.actorId), eq(auditLog.actorEmail, actor.address)) : sql`false`)!
    : sql`false`
  await tx
    .update(auditLog)
    .set({ summary: sql`${auditLog.action} || ' (details erased)'`, before: null, after: null })
    .where(and(isNull(auditLog.personal), or(aboutErased(auditLog, erased), byThePerson)))
  await tx
    .update(auditLog)
    .set({ personal: sql`(SELECT coalesce(jsonb_object_agg(key, to_jsonb(${marker}::text)), '{}'::jsonb) FROM jsonb_each(${auditLog.personal}))` })
    .where(and(isNotNull(auditLog.personal), aboutErased(auditLog, erased)))
  if (actor) await tx.update(auditLog).set({ actorEmail: marker }).where(byThePerson)
}

/** The rate-limit counters kept under an address, by the keys their limits build. */
function countersUnder(address: string) {
  return [
    ...(['signIn', 'codeEntry', 'codeSending'] as const).map((action) => accountLimit(action, address).key),
    holdAttemptsKey(address),
    promoAttemptsKey(promoCustomerKey({ accountId: null, email: address })),
    cityAlertAddressLimit(address).key,
  ]
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

/** The account's bookings and camp registrations: its own, and guest ones under its verified address (null: none). */
function accountBookings(accountId: number, address: string | null) {
  return or(eq(bookings.userId, accountId), address ? sql`lower(${bookings.customerEmail}) = ${address}` : sql`false`)!
}
function accountRegistrations(accountId: number, address: string | null) {
  return or(eq(campRegistrations.accountId, accountId), address ? sql`lower(${campRegistrations.email}) = ${address}` : sql`false`)!
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
  // What is the account's by its address or number only once its owner proved them.
  const address = account.isVerified ? email : null
  const number = account.phoneVerifiedAt && account.phone ? toE164(account.phone) : null
  if (address) {
    await db().update(bookings).set({ userId: accountId }).where(and(isNull(bookings.userId), sql`lower(${bookings.customerEmail}) = ${address}`))
  }
  const cancelled = await cancelFutureBookings({ accountId, email: address }, { person: { id: accountId, email }, reason, now })
  const marker = newMarker('account')

  const result = await db().transaction(async (tx) => {
    const [locked] = await tx.select({ id: users.id }).from(users).where(eq(users.id, accountId)).for('update')
    if (!locked) return null
    const profiles = await tx.select({ id: swimmers.id }).from(swimmers).where(eq(swimmers.accountId, accountId))
    const profileIds = profiles.map((profile) => profile.id)
    const bookingIds = (await tx.select({ id: bookings.id }).from(bookings).where(accountBookings(accountId, address))).map((row) => row.id)
    const campIds = (await tx.select({ id: campRegistrations.id }).from(campRegistrations).where(accountRegistrations(accountId, address))).map((row) => row.id)
    const erased: Erased = { accountId, swimmerIds: profileIds, bookingIds, campRegistrationIds: campIds }

    await tx
      .delete(outboxMessages)
      .where(
        or(
          aboutErased(outboxMessages, erased),
          address ? and(eq(outboxMessages.channel, 'email'), eq(outboxMessages.to, address)) : sql`false`,
          number ? and(eq(outboxMessages.channel, 'whatsapp'), eq(outboxMessages.to, number)) : sql`false`,
        ),
      )
    // A STOP is the number's owner's word, whoever erases what: it stays.
    if (number) await tx.delete(whatsappConsents).where(and(eq(whatsappConsents.phone, number), eq(whatsappConsents.optedIn, true)))
    await eraseFromAudit(tx, { erased, actor: { id: accountId, address }, marker })

    // The declarations made on the account's own camp forms and bookings go with them.
    if (campIds.length) await tx.delete(guardianConsents).where(inArray(guardianConsents.campRegistrationId, campIds))
    if (bookingIds.length) await tx.delete(guardianConsents).where(inArray(guardianConsents.bookingId, bookingIds))
    if (address) {
      // Consents the person gave or was asked for about someone else's swimmer stay on record without them.
      await tx.update(guardianConsents).set({ guardianName: ERASED_NAME, guardianEmail: erasedAddress(marker) }).where(eq(guardianConsents.guardianEmail, address))
      await tx.update(consentRequests).set({ parentEmail: erasedAddress(marker) }).where(eq(consentRequests.parentEmail, address))
    }

    const storedFiles = await dropReports(tx, bookingIds)
    const analysisFiles = await dropAnalysesOf(tx, { bookingIds, swimmerIds: profileIds })
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
          swimmerAge: null,
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
    const paid = or(inIds(payments.bookingId, bookingIds), inIds(payments.campRegistrationId, campIds))!
    await tx.update(sandboxGatewayOrders).set({ customerName: ERASED_NAME, description: ERASED_NAME }).where(inArray(sandboxGatewayOrders.merchantOrderId, tx.select({ orderId: payments.orderId }).from(payments).where(paid)))

    await tx.delete(campLine).where(or(eq(campLine.holderUserId, accountId), address ? sql`lower(${campLine.email}) = ${address}` : sql`false`))
    await tx.delete(analysisDayLine).where(or(eq(analysisDayLine.holderUserId, accountId), address ? sql`${analysisDayLine.email} = ${address}` : sql`false`))
    if (address) {
      await tx.delete(campWaitlist).where(sql`lower(${campWaitlist.email}) = ${address}`)
      await tx.delete(analysisDayWaitlist).where(sql`lower(${analysisDayWaitlist.email}) = ${address}`)
      await tx.delete(rateLimitBuckets).where(inArray(rateLimitBuckets.key, countersUnder(address)))
    }
    // Promo code uses still count against their codes, no longer as anyone's.
    const customerKeys = [promoCustomerKey({ accountId, email }), ...(address ? [promoCustomerKey({ accountId: null, email: address })] : [])]
    await tx.update(promoCodeUses).set({ customerKey: marker }).where(inArray(promoCodeUses.customerKey, customerKeys))
    await tx.delete(users).where(eq(users.id, accountId))

    await recordAudit(tx, { id: null, email: marker }, { action: 'account.erase', entityType: 'customer', entityId: marker, summary: `Erased an account and its ${profiles.length} swimmer profile(s): ${reason}`, after: { bookings: bookingIds.length, campRegistrations: campIds.length, cancelled: cancelled.length } }, now)
    // An address never verified may be anyone's: it is told nothing.
    const last = address ? farewell?.({ email: address, name: account.name, cancelled }) : null
    if (last) await enqueueEmail(last, {}, tx, now)
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
 * their reports go, and so do the messages about them and their values in the audit log.
 */
export async function eraseSwimmer(accountId: number, swimmerId: number, { reason, now = new Date() }: { reason: string; now?: Date }) {
  const [swimmer] = await db().select().from(swimmers).where(and(eq(swimmers.id, swimmerId), eq(swimmers.accountId, accountId)))
  if (!swimmer || swimmer.isAccountHolder) throw new NotTheirSwimmerError()
  const [account] = await db().select({ email: users.email, isVerified: users.isVerified }).from(users).where(eq(users.id, accountId))
  const email = account!.email.toLowerCase()
  // A guest's camp place or waitlist place under the address is the swimmer's only when the address is the account's.
  const address = account!.isVerified ? email : null
  const cancelled = await cancelFutureBookings({ accountId, email: address, swimmerId }, { person: { id: accountId, email }, reason, now })
  const marker = newMarker('swimmer')
  const sameSwimmerName = sql`lower(${swimmer.name})`
  const underAddress = (column: AnyPgColumn) => (address ? sql`lower(${column}) = ${address}` : sql`false`)
  const storedFiles = await db().transaction(async (tx) => {
    const [locked] = await tx.select({ id: swimmers.id }).from(swimmers).where(eq(swimmers.id, swimmerId)).for('update')
    if (!locked) return { reports: [], analyses: [] }
    const bookingIds = (await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.swimmerId, swimmerId))).map((row) => row.id)
    const campRows = await tx
      .select({ id: campRegistrations.id, groupId: campRegistrations.groupId })
      .from(campRegistrations)
      .where(or(eq(campRegistrations.swimmerId, swimmerId), and(underAddress(campRegistrations.email), sql`lower(${campRegistrations.swimmerName}) = ${sameSwimmerName}`)))
    const campIds = campRows.map((row) => row.id)
    // A group's messages are kept under its first registration, and name every swimmer of it.
    const groups = campRows.flatMap((row) => (row.groupId !== null ? [row.groupId] : []))
    const erased: Erased = { accountId: null, swimmerIds: [swimmerId], bookingIds, campRegistrationIds: [...new Set([...campIds, ...groups])] }
    await tx.delete(outboxMessages).where(aboutErased(outboxMessages, erased))
    await eraseFromAudit(tx, { erased, marker })
    const files = await dropReports(tx, bookingIds)
    const analysisFiles = await dropAnalysesOf(tx, { bookingIds, swimmerIds: [swimmerId] })
    if (bookingIds.length) {
      await tx.update(bookings).set({ swimmerId: null, swimmerName: ERASED_NAME, swimmerAge: null, swimmingExperience: null, notes: null, updatedAt: now }).where(inArray(bookings.id, bookingIds))
    }
    if (campIds.length) {
      await tx.delete(guardianConsents).where(inArray(guardianConsents.campRegistrationId, campIds))
      // The registration's unique rule is per name and address: each erased place gets a name of its own.
      await tx.update(campRegistrations).set({ swimmerId: null, swimmerName: sql`${ERASED_NAME} || ' ' || ${campRegistrations.id}::text`, updatedAt: now }).where(inArray(campRegistrations.id, campIds))
    }
    const paid = or(inIds(payments.bookingId, bookingIds), inIds(payments.campRegistrationId, campIds))!
    await tx
      .update(sandboxGatewayOrders)
      .set({ description: ERASED_NAME, customerName: sql`CASE WHEN lower(${sandboxGatewayOrders.customerName}) = ${swimmer.name.toLowerCase()} THEN ${ERASED_NAME} ELSE ${sandboxGatewayOrders.customerName} END` })
      .where(inArray(sandboxGatewayOrders.merchantOrderId, tx.select({ orderId: payments.orderId }).from(payments).where(paid)))
    await tx.delete(campLine).where(and(underAddress(campLine.email), sql`lower(${campLine.swimmerName}) = ${sameSwimmerName}`))
    // A place in the analysis days' line is the swimmer's when its booking is theirs, or when the account chose them by id.
    await tx.delete(analysisDayLine).where(or(inIds(analysisDayLine.bookingId, bookingIds), and(eq(analysisDayLine.holderUserId, accountId), sql`${analysisDayLine.details}->>'whoSwims' = ${String(swimmerId)}`)))
    await tx.delete(campWaitlist).where(and(underAddress(campWaitlist.email), sql`lower(${campWaitlist.swimmerName}) = ${sameSwimmerName}`))
    await tx.delete(analysisDayWaitlist).where(and(underAddress(analysisDayWaitlist.email), sql`lower(${analysisDayWaitlist.swimmerName}) = ${sameSwimmerName}`))
    await tx.delete(swimmers).where(eq(swimmers.id, swimmerId))
    await recordAudit(tx, { id: accountId, email }, { action: 'swimmer.erase', entityType: 'swimmer', entityId: marker, summary: `Erased a swimmer profile: ${reason}`, about: { accountId }, after: { bookings: bookingIds.length, campRegistrations: campIds.length, cancelled: cancelled.length } }, now)
    return { reports: files, analyses: analysisFiles }
  })
  await removeStoredFiles(storedFiles.reports)
  await removeAnalysisFiles(storedFiles.analyses)
  return { cancelled }
}
