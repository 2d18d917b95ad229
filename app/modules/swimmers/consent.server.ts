import { and, asc, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm'
import { config } from '~/config.server'
import { db, type Executor } from '~/db/client.server'
import { consentRequests, guardianConsents, swimmers, users, type ConsentMethod, type WeakConsentReason } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { PRODUCT_NAME } from '~/lib/seo'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { isMinor, type Swimmer } from './swimmers.server'
import { href } from 'react-router'

/**
 * The version of the privacy notice a parent is shown when they consent, kept with each consent:
 * change it whenever the privacy policy's text on children's data changes.
 */
export const PRIVACY_NOTICE_VERSION = '2026-11-29'

type ConsentGiven = {
  swimmerId?: number | null
  campRegistrationId?: number | null
  bookingId?: number | null
  guardianName: string
  guardianEmail: string
  emailVerifiedBy: 'account_code' | 'consent_link' | 'unverified'
  method: ConsentMethod
  /** Why the address may be the swimmer's own: the consent then waits for staff to confirm it. */
  weakBecause?: WeakConsentReason | null
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
      weakBecause: consent.weakBecause ?? null,
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
    {
      action: 'consent.give',
      ...subject,
      summary: `Parent's consent given (${consent.method.replace('_', ' ')}, privacy notice ${PRIVACY_NOTICE_VERSION})`,
      about: { swimmerId: consent.swimmerId, campRegistrationId: consent.campRegistrationId },
      after: { consentId: row!.id },
    },
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

/** A consent in force that lets the swimmer be booked: not one from an address that may be their own, until staff confirm it. */
function letsBook(consent: Pick<typeof guardianConsents.$inferSelect, 'weakBecause' | 'staffConfirmedAt'>) {
  return consent.weakBecause === null || consent.staffConfirmedAt !== null
}

/**
 * Whether the swimmer may be booked or registered now: an adult, or a minor with a parent's consent
 * in force, confirmed by staff when the address that gave it may be the swimmer's own.
 */
export async function mayBeBooked(swimmer: Pick<Swimmer, 'id' | 'birthDate' | 'ageYears' | 'ageGivenOn'>, now = new Date(), executor: Executor = db()) {
  if (!isMinor(swimmer, now)) return true
  const consent = await consentInForce(swimmer.id, executor)
  return consent !== null && letsBook(consent)
}

export async function assertMayBeBooked(swimmer: Pick<Swimmer, 'id' | 'birthDate' | 'ageYears' | 'ageGivenOn'>, now = new Date(), executor: Executor = db(), field?: string) {
  if (!(await mayBeBooked(swimmer, now, executor))) throw new ConsentNeededError(field)
}

export const NO_GUARDIAN_DECLARATION_MESSAGE =
  "Your account is of a swimmer under 18, so it cannot declare to be a parent or guardian. Please choose one of your account's swimmers instead: booking for them needs your parent's consent."

/** A signed-in account of a swimmer under 18 (or one waiting for a parent's consent) ticked the guardian's declaration. */
export class GuardianDeclarationRefusedError extends DomainError {
  constructor() {
    super('conflict', NO_GUARDIAN_DECLARATION_MESSAGE, 'guardianDeclaration')
  }
}

/**
 * Whether a signed-in account may register or book through a guest form's declaration ("the
 * swimmer is 18 or older, or I am their parent or guardian"). An account whose holder is under 18,
 * or that is waiting for a parent's consent, may not: the site knows its holder is a minor, so they
 * book and register only through their account's swimmers, checked like any booking
 * (assertMayBeBooked). Throws GuardianDeclarationRefusedError, whose message belongs next to the
 * declaration's box.
 */
export async function assertMayDeclareAsGuardian(accountId: number, now = new Date(), executor: Executor = db()) {
  const own = await executor
    .select({ id: swimmers.id, isAccountHolder: swimmers.isAccountHolder, birthDate: swimmers.birthDate, ageYears: swimmers.ageYears, ageGivenOn: swimmers.ageGivenOn })
    .from(swimmers)
    .where(eq(swimmers.accountId, accountId))
  const holder = own.find((swimmer) => swimmer.isAccountHolder)
  if (holder && isMinor(holder, now)) throw new GuardianDeclarationRefusedError()
  const ids = own.map((swimmer) => swimmer.id)
  if (ids.length === 0) return
  const [waiting] = await executor
    .select({ id: consentRequests.id })
    .from(consentRequests)
    .where(and(inArray(consentRequests.swimmerId, ids), inArray(consentRequests.status, ['unsent', 'waiting'])))
    .limit(1)
  if (waiting) throw new GuardianDeclarationRefusedError()
}

/**
 * Where a swimmer's consent stands: not needed (18 or older), given (and in force), given by an
 * address that may be the swimmer's own and waiting for staff to confirm it (checking), a parent's
 * address named at registration but not asked yet (not_asked: the account's owner verified it in
 * another browser than the one that registered, and sends the link themselves), waiting for the
 * parent's answer to the e-mailed link, refused by the parent, or missing (never given, withdrawn,
 * or the link ran out unanswered).
 */
export type ConsentStatus =
  | { state: 'not_needed' }
  | { state: 'given'; guardianName: string; givenAt: Date; method: ConsentMethod }
  | { state: 'checking'; guardianName: string; givenAt: Date }
  | { state: 'not_asked'; parentEmail: string }
  | { state: 'waiting'; parentEmail: string; expiresAt: Date }
  | { state: 'refused'; answeredAt: Date | null }
  | { state: 'missing' }

export async function consentStatusOf(swimmer: Pick<Swimmer, 'id' | 'birthDate' | 'ageYears' | 'ageGivenOn'>, now = new Date(), executor: Executor = db()): Promise<ConsentStatus> {
  if (!isMinor(swimmer, now)) return { state: 'not_needed' }
  const consent = await consentInForce(swimmer.id, executor)
  if (consent && !letsBook(consent)) return { state: 'checking', guardianName: consent.guardianName, givenAt: consent.givenAt }
  if (consent) return { state: 'given', guardianName: consent.guardianName, givenAt: consent.givenAt, method: consent.method }
  const request = await latestConsentRequest(swimmer.id, executor)
  if (request?.status === 'unsent') return { state: 'not_asked', parentEmail: request.parentEmail }
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

/** What staff are told of why an address that consented may be the swimmer's own. */
export const WEAK_CONSENT_REASONS: Record<WeakConsentReason, string> = {
  same_day_account: "has an account registered the same day as the swimmer's",
  answers_for_others: 'has answered for swimmers of other accounts',
}

/**
 * Consents in force given by an address that may be the swimmer's own, which staff have not yet
 * confirmed: the swimmers cannot be booked until they are. Oldest first.
 */
export function consentsToConfirm() {
  return db()
    .select({
      consentId: guardianConsents.id,
      guardianName: guardianConsents.guardianName,
      guardianEmail: guardianConsents.guardianEmail,
      weakBecause: guardianConsents.weakBecause,
      givenAt: guardianConsents.givenAt,
      swimmerName: swimmers.name,
      accountId: users.id,
      accountEmail: users.email,
    })
    .from(guardianConsents)
    .innerJoin(swimmers, eq(swimmers.id, guardianConsents.swimmerId))
    .innerJoin(users, eq(users.id, swimmers.accountId))
    .where(and(isNotNull(guardianConsents.weakBecause), isNull(guardianConsents.staffConfirmedAt), isNull(guardianConsents.withdrawnAt)))
    .orderBy(asc(guardianConsents.givenAt))
    .limit(100)
}

/**
 * Staff have checked (by a call to the parent, say) a consent from an address that may have been
 * the swimmer's own: the swimmer can be booked from now, and the account is told. False when the
 * consent is not one waiting for that (confirmed already, withdrawn, or never weak).
 */
export async function confirmConsent({ consentId, actor, now = new Date() }: { consentId: number; actor: Actor; now?: Date }) {
  return db().transaction(async (tx) => {
    const [confirmed] = await tx
      .update(guardianConsents)
      .set({ staffConfirmedAt: now })
      .where(and(eq(guardianConsents.id, consentId), isNotNull(guardianConsents.weakBecause), isNull(guardianConsents.staffConfirmedAt), isNull(guardianConsents.withdrawnAt)))
      .returning({ swimmerId: guardianConsents.swimmerId })
    if (!confirmed?.swimmerId) return false
    const [account] = await tx.select({ id: users.id, name: users.name, email: users.email }).from(swimmers).innerJoin(users, eq(users.id, swimmers.accountId)).where(eq(swimmers.id, confirmed.swimmerId))
    const about = { accountId: account!.id, swimmerId: confirmed.swimmerId }
    await recordAudit(tx, actor, { action: 'consent.confirm', entityType: 'swimmer', entityId: confirmed.swimmerId, summary: "Staff confirmed the parent's consent", after: { consentId }, about }, now)
    await enqueueEmail(
      letter({
        to: account!.email,
        subject: `Your parent's consent is confirmed: you can book at ${PRODUCT_NAME}`,
        name: account!.name,
        paragraphs: [`We have checked your parent's or guardian's consent, so you can now book sessions and camps at ${PRODUCT_NAME}.`],
        action: { label: 'Book a session', url: `${config().SITE_URL}${href('/book-slot')}` },
      }),
      about,
      tx,
      now,
    )
    return true
  })
}

/**
 * After a parent withdrew consent, a new link goes only to the address that withdrew; staff re-open
 * asking another address (the parent has a new one, say) for a swimmer of the account. False when
 * the swimmer's newest consent is not a withdrawn one still closed.
 */
export async function reopenConsentAsking({ accountId, swimmerId, actor, now = new Date() }: { accountId: number; swimmerId: number; actor: Actor; now?: Date }) {
  return db().transaction(async (tx) => {
    const [newest] = await tx
      .select({ id: guardianConsents.id, withdrawnAt: guardianConsents.withdrawnAt, reopenedAt: guardianConsents.reopenedAt })
      .from(guardianConsents)
      .innerJoin(swimmers, eq(swimmers.id, guardianConsents.swimmerId))
      .where(and(eq(guardianConsents.swimmerId, swimmerId), eq(swimmers.accountId, accountId)))
      .orderBy(desc(guardianConsents.id))
      .limit(1)
      .for('update', { of: guardianConsents })
    if (!newest?.withdrawnAt || newest.reopenedAt) return false
    await tx.update(guardianConsents).set({ reopenedAt: now }).where(eq(guardianConsents.id, newest.id))
    await recordAudit(tx, actor, { action: 'consent.reopen', entityType: 'swimmer', entityId: swimmerId, summary: 'Staff let the swimmer ask another address for consent', after: { consentId: newest.id }, about: { accountId, swimmerId } }, now)
    return true
  })
}

/**
 * The only address a new consent link may go to, when the swimmer's newest consent was withdrawn
 * and staff have not re-opened asking another: the one that withdrew. Null when any may be asked.
 */
export async function onlyAddressToAsk(swimmerId: number, executor: Executor = db()) {
  const [newest] = await executor
    .select({ guardianEmail: guardianConsents.guardianEmail, withdrawnAt: guardianConsents.withdrawnAt, reopenedAt: guardianConsents.reopenedAt })
    .from(guardianConsents)
    .where(eq(guardianConsents.swimmerId, swimmerId))
    .orderBy(desc(guardianConsents.id))
    .limit(1)
  return newest?.withdrawnAt && !newest.reopenedAt ? newest.guardianEmail : null
}

