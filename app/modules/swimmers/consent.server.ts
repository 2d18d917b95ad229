import { and, desc, eq, inArray, isNull } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { consentRequests, guardianConsents, swimmers, type ConsentMethod } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { recordAudit } from '~/modules/audit/audit.server'
import { isMinor, type Swimmer } from './swimmers.server'

/**
 * The version of the privacy notice a parent is shown when they consent, kept with each consent:
 * change it whenever the privacy policy's text on children's data changes.
 */
export const PRIVACY_NOTICE_VERSION = '2026-11-26'

type ConsentGiven = {
  swimmerId?: number | null
  campRegistrationId?: number | null
  bookingId?: number | null
  guardianName: string
  guardianEmail: string
  emailVerifiedBy: 'account_code' | 'consent_link' | 'unverified'
  method: ConsentMethod
  now: Date
}

/** Records a parent's consent, and that it was given in the audit log, in the caller's transaction. */
export async function recordConsent(executor: Executor, consent: ConsentGiven) {
  const [row] = await executor
    .insert(guardianConsents)
    .values({
      swimmerId: consent.swimmerId ?? null,
      campRegistrationId: consent.campRegistrationId ?? null,
      bookingId: consent.bookingId ?? null,
      guardianName: consent.guardianName,
      guardianEmail: consent.guardianEmail.toLowerCase(),
      emailVerifiedBy: consent.emailVerifiedBy,
      noticeVersion: PRIVACY_NOTICE_VERSION,
      method: consent.method,
      givenAt: consent.now,
    })
    .returning({ id: guardianConsents.id })
  const subject = consent.swimmerId
    ? { entityType: 'swimmer', entityId: consent.swimmerId }
    : consent.campRegistrationId
      ? { entityType: 'camp_registration', entityId: consent.campRegistrationId }
      : { entityType: 'booking', entityId: consent.bookingId! }
  await recordAudit(
    executor,
    { id: null, email: consent.guardianEmail.toLowerCase() },
    { action: 'consent.give', ...subject, summary: `Parent's consent given (${consent.method.replace('_', ' ')}, privacy notice ${PRIVACY_NOTICE_VERSION})`, after: { consentId: row!.id } },
    consent.now,
  )
  return row!.id
}

/** The swimmer's consent in force (given and not withdrawn), if any. */
export async function consentInForce(swimmerId: number, executor: Executor = db()) {
  const [consent] = await executor
    .select()
    .from(guardianConsents)
    .where(and(eq(guardianConsents.swimmerId, swimmerId), isNull(guardianConsents.withdrawnAt)))
    .orderBy(desc(guardianConsents.id))
    .limit(1)
  return consent ?? null
}

export const CONSENT_NEEDED_MESSAGE = "A swimmer under 18 can be booked only with a parent's or guardian's consent. Please ask your parent to agree through the link we e-mailed them."

/** A swimmer under 18 without a parent's consent in force is not booked or registered. */
export class ConsentNeededError extends DomainError {
  constructor(field?: string) {
    super('conflict', CONSENT_NEEDED_MESSAGE, field)
  }
}

/** Whether the swimmer may be booked or registered now: an adult, or a minor with a parent's consent in force. */
export async function mayBeBooked(swimmer: Pick<Swimmer, 'id' | 'birthDate' | 'ageYears' | 'ageGivenOn'>, now = new Date(), executor: Executor = db()) {
  if (!isMinor(swimmer, now)) return true
  return (await consentInForce(swimmer.id, executor)) !== null
}

export async function assertMayBeBooked(swimmer: Pick<Swimmer, 'id' | 'birthDate' | 'ageYears' | 'ageGivenOn'>, now = new Date(), executor: Executor = db(), field?: string) {
  if (!(await mayBeBooked(swimmer, now, executor))) throw new ConsentNeededError(field)
}

/**
 * Where a swimmer's consent stands: not needed (18 or older), given (and in force), waiting for the
 * parent's answer to the e-mailed link, refused by the parent, or missing (never given, withdrawn,
 * or the link ran out unanswered).
 */
export type ConsentStatus =
  | { state: 'not_needed' }
  | { state: 'given'; guardianName: string; givenAt: Date; method: ConsentMethod }
  | { state: 'waiting'; parentEmail: string; expiresAt: Date }
  | { state: 'refused'; answeredAt: Date | null }
  | { state: 'missing' }

export async function consentStatusOf(swimmer: Pick<Swimmer, 'id' | 'birthDate' | 'ageYears' | 'ageGivenOn'>, now = new Date(), executor: Executor = db()): Promise<ConsentStatus> {
  if (!isMinor(swimmer, now)) return { state: 'not_needed' }
  const consent = await consentInForce(swimmer.id, executor)
  if (consent) return { state: 'given', guardianName: consent.guardianName, givenAt: consent.givenAt, method: consent.method }
  const request = await latestConsentRequest(swimmer.id, executor)
  if (request?.status === 'waiting' && request.expiresAt > now) return { state: 'waiting', parentEmail: request.parentEmail, expiresAt: request.expiresAt }
  if (request?.status === 'refused') return { state: 'refused', answeredAt: request.answeredAt }
  return { state: 'missing' }
}

/** The newest link e-mailed to the swimmer's parent, if any: only it can still be answered. */
export async function latestConsentRequest(swimmerId: number, executor: Executor = db()) {
  const [request] = await executor.select().from(consentRequests).where(eq(consentRequests.swimmerId, swimmerId)).orderBy(desc(consentRequests.id)).limit(1)
  return request ?? null
}

/**
 * Consent can be withdrawn (and given again) on the account for a swimmer it holds for someone else:
 * a child. A swimmer under 18 who holds the account themselves had it from their parent through the
 * e-mailed link; their parent is the one to withdraw it.
 */
export function consentIsTheAccounts(swimmer: Pick<Swimmer, 'isAccountHolder'>) {
  return !swimmer.isAccountHolder
}

export class NoConsentToWithdrawError extends DomainError {
  constructor() {
    super('conflict', 'There is no consent in force to withdraw for this swimmer.')
  }
}

export class ConsentNotTheAccountsError extends DomainError {
  constructor() {
    super('conflict', "This swimmer's consent was given by their parent through the e-mailed link. They can withdraw it through the link in the e-mail that confirmed it.")
  }
}

export type AccountActing = { id: number; name: string; email: string }

export class ConsentAlreadyGivenError extends DomainError {
  constructor() {
    super('conflict', 'Consent for this swimmer is already in force.')
  }
}

/** The account holder gives consent again for a child under 18, by the declaration in the form. */
export async function giveConsentAgain({ account, swimmer, now = new Date() }: { account: AccountActing; swimmer: Swimmer; now?: Date }) {
  if (!consentIsTheAccounts(swimmer)) throw new ConsentNotTheAccountsError()
  await db().transaction(async (tx) => {
    // The swimmer's row, locked: two presses of the button give consent once.
    await tx.select({ id: swimmers.id }).from(swimmers).where(eq(swimmers.id, swimmer.id)).for('update')
    if (await consentInForce(swimmer.id, tx)) throw new ConsentAlreadyGivenError()
    await recordConsent(tx, { swimmerId: swimmer.id, guardianName: account.name, guardianEmail: account.email, emailVerifiedBy: 'account_code', method: 'registration_form', now })
  })
}

/**
 * A guest camp registration's declaration: the person registering said the swimmer is 18 or older,
 * or that they are the parent or guardian and agree. Their address is not verified and their name
 * not asked, so the consent is recorded as the declaration of the address's owner.
 */
export function recordCampDeclaration(executor: Executor, { registrationId, swimmerName, email, now }: { registrationId: number; swimmerName: string; email: string; now: Date }) {
  return recordConsent(executor, { campRegistrationId: registrationId, guardianName: `Parent or guardian of ${swimmerName}`, guardianEmail: email, emailVerifiedBy: 'unverified', method: 'camp_form', now })
}

/**
 * A guest's booking for a swimmer under 18 on /booking: the person booking declared that they are
 * the swimmer's parent or guardian and agree to the Privacy Policy. Their address is not verified,
 * so the consent is recorded as the declaration of the name and address they booked with.
 */
export function recordBookingDeclaration(executor: Executor, { bookingId, guardianName, email, now }: { bookingId: number; guardianName: string; email: string; now: Date }) {
  return recordConsent(executor, { bookingId, guardianName, guardianEmail: email, emailVerifiedBy: 'unverified', method: 'booking_form', now })
}

/** The declaration kept with a booking (see recordBookingDeclaration), if it has one. */
export async function bookingDeclaration(bookingId: number, executor: Executor = db()) {
  const [consent] = await executor
    .select({ guardianName: guardianConsents.guardianName, guardianEmail: guardianConsents.guardianEmail, noticeVersion: guardianConsents.noticeVersion, givenAt: guardianConsents.givenAt })
    .from(guardianConsents)
    .where(eq(guardianConsents.bookingId, bookingId))
    .orderBy(desc(guardianConsents.id))
    .limit(1)
  return consent ?? null
}

/** For staff: each swimmer's newest consent (in force or withdrawn) and newest consent link, by swimmer id. */
export async function consentRecordsOf(swimmerIds: number[], executor: Executor = db()) {
  const records = new Map<number, { consent: typeof guardianConsents.$inferSelect | null; request: typeof consentRequests.$inferSelect | null }>()
  if (swimmerIds.length === 0) return records
  const [consents, requests] = await Promise.all([
    executor.select().from(guardianConsents).where(inArray(guardianConsents.swimmerId, swimmerIds)).orderBy(desc(guardianConsents.id)),
    executor.select().from(consentRequests).where(inArray(consentRequests.swimmerId, swimmerIds)).orderBy(desc(consentRequests.id)),
  ])
  for (const id of swimmerIds) {
    records.set(id, { consent: consents.find((consent) => consent.swimmerId === id) ?? null, request: requests.find((request) => request.swimmerId === id) ?? null })
  }
  return records
}
