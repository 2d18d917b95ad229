import { and, asc, count, desc, eq } from 'drizzle-orm'
import { lockKeys } from '~/db/advisory-locks.server'
import { db, type Executor } from '~/db/client.server'
import { swimmers } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { formatLabDateTime, labToday } from '~/lib/lab-time'
import { GUARDIAN_DECLARATION_MESSAGE, knownAgeOf, type HeardAboutInput, type SwimmerInput } from './schemas'
import { ageOn, isMinorOn } from './age'
import { consentInForce, consentStatusOf, recordConsent } from './consent.server'

export type Swimmer = typeof swimmers.$inferSelect

/** However large a family or a coach's squad, an account keeps at most this many swimmers. */
export const MAX_SWIMMERS_PER_ACCOUNT = 20

/**
 * The swimmer fields of a form (registration, add or edit a swimmer), as a row's values. How the
 * family heard of the lab comes with registration only: a swimmer added or edited keeps what it has.
 */
type SwimmerFieldsInput = Omit<SwimmerInput, 'name' | 'guardianDeclaration'> & HeardAboutInput

export function swimmerColumns(name: string, input: SwimmerFieldsInput, today: string) {
  return {
    name,
    ...knownAgeOf(input, today),
    gender: input.gender,
    swimmingExperience: input.swimmingExperience,
    academyName: input.academyName,
    coachName: input.coachName,
    specialization: input.specialization,
    otherSpecialization: input.otherSpecialization || null,
    participateInEvents: input.participateInEvents === 'yes',
    strokeBestTime: input.strokeBestTime || null,
    ...(input.howDidYouKnow ? { howDidYouKnow: input.howDidYouKnow, otherSource: input.otherSource || null } : {}),
  }
}

export async function insertSwimmer(
  executor: Executor,
  accountId: number,
  name: string,
  input: SwimmerFieldsInput,
  { isAccountHolder, now }: { isAccountHolder: boolean; now: Date },
): Promise<Swimmer> {
  const [swimmer] = await executor
    .insert(swimmers)
    .values({ accountId, isAccountHolder, ...swimmerColumns(name, input, labToday(now)), createdAt: now, updatedAt: now })
    .returning()
  return swimmer!
}

/** The account's swimmers: the account holder first (when they swim), then in the order they were added. */
export function swimmersOf(accountId: number, executor: Executor = db()) {
  return executor
    .select()
    .from(swimmers)
    .where(eq(swimmers.accountId, accountId))
    .orderBy(desc(swimmers.isAccountHolder), asc(swimmers.id))
}

/** One swimmer of the account; null for a swimmer of another account or none, so nobody learns which. */
export async function swimmerOf(accountId: number, swimmerId: number, executor: Executor = db()): Promise<Swimmer | null> {
  if (!Number.isSafeInteger(swimmerId) || swimmerId <= 0) return null
  const [swimmer] = await executor
    .select()
    .from(swimmers)
    .where(and(eq(swimmers.id, swimmerId), eq(swimmers.accountId, accountId)))
  return swimmer ?? null
}

export async function countSwimmers(accountId: number, executor: Executor = db()) {
  const [row] = await executor.select({ count: count() }).from(swimmers).where(eq(swimmers.accountId, accountId))
  return row?.count ?? 0
}

export class TooManySwimmersError extends DomainError {
  constructor() {
    super('conflict', `An account can hold at most ${MAX_SWIMMERS_PER_ACCOUNT} swimmers. Please write to us if you need more.`)
  }
}

/** The swimmer's age today (Asia/Kolkata), as the site shows it. */
export function swimmerAge(swimmer: Pick<Swimmer, 'birthDate' | 'ageYears' | 'ageGivenOn'>, now = new Date()) {
  return ageOn(swimmer, labToday(now))
}

/** Whether the swimmer is under 18 today, so that nothing is booked for them without a parent's consent. */
export function isMinor(swimmer: Pick<Swimmer, 'birthDate' | 'ageYears' | 'ageGivenOn'>, now = new Date()) {
  return isMinorOn(swimmer, labToday(now))
}

/** A swimmer under 18 is added, or made under 18, only with the account holder's declaration that they are the parent or guardian. */
export class GuardianDeclarationNeededError extends DomainError {
  constructor() {
    super('invalid', GUARDIAN_DECLARATION_MESSAGE, 'guardianDeclaration')
  }
}

export const MINOR_HOLDER_MESSAGE =
  'An account of a swimmer under 18 cannot add other swimmers. A parent or guardian can create an account of their own and add the swimmers they look after there.'

/** The account holder is under 18: they cannot add swimmers (nor give a parent's consent for them). */
export class MinorAccountHolderError extends DomainError {
  constructor() {
    super('conflict', MINOR_HOLDER_MESSAGE)
  }
}

export const OWN_AGE_MESSAGE =
  "Your age decides whether a parent's or guardian's consent is needed, so it cannot be changed here to or from under 18. If it is wrong, please write to us to correct it."

/** The account holder's own age cannot make them under 18 without a parent asked, nor over 18 while they are waiting for one. */
export class OwnAgeChangeError extends DomainError {
  constructor() {
    super('invalid', OWN_AGE_MESSAGE, 'age')
  }
}

export class SwimmerNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'Not found')
  }
}

type AccountHolder = { id: number; name: string; email: string }

/** The swimmers of one account are added one after the other, so the limit holds however many forms arrive at once. */
const lockAccountSwimmers = (tx: Executor, accountId: number) => lockKeys(tx, [`account-swimmers:${accountId}`])

/**
 * Adds a swimmer to the account, from the account holder's own form. A swimmer under 18 needs the
 * holder's declaration that they are the parent or guardian, recorded as the parent's consent
 * (method 'registration_form': the declaration is made in the account holder's own form, as at
 * registration). An account holder under 18 cannot add swimmers. Throws TooManySwimmersError,
 * MinorAccountHolderError or GuardianDeclarationNeededError, and then adds nothing.
 */
export async function addSwimmer(account: AccountHolder, input: SwimmerInput, now = new Date()): Promise<Swimmer> {
  const today = labToday(now)
  return db().transaction(async (tx) => {
    await lockAccountSwimmers(tx, account.id)
    const existing = await swimmersOf(account.id, tx)
    const holder = existing.find((swimmer) => swimmer.isAccountHolder)
    if (holder && isMinor(holder, now)) throw new MinorAccountHolderError()
    if (existing.length >= MAX_SWIMMERS_PER_ACCOUNT) throw new TooManySwimmersError()
    const minor = isMinorOn(knownAgeOf(input, today), today)
    if (minor && !input.guardianDeclaration) throw new GuardianDeclarationNeededError()
    const swimmer = await insertSwimmer(tx, account.id, input.name, input, { isAccountHolder: false, now })
    if (minor) await recordGuardianDeclaration(tx, account, swimmer.id, now)
    return swimmer
  })
}

/**
 * Changes a swimmer's profile, only a swimmer of this account (any other id: SwimmerNotFoundError,
 * answered as 404, and nothing changes). A swimmer whose new age or date of birth makes them under 18
 * without a parent's consent in force needs the holder's declaration, as when added. The account
 * holder's own profile takes no declaration: they cannot make themselves under 18 that way, nor 18
 * or over while they are under 18 (OwnAgeChangeError).
 */
export async function updateSwimmer(account: AccountHolder, swimmerId: number, input: SwimmerInput, now = new Date()): Promise<Swimmer> {
  const today = labToday(now)
  return db().transaction(async (tx) => {
    if (!Number.isSafeInteger(swimmerId) || swimmerId <= 0) throw new SwimmerNotFoundError()
    const [current] = await tx
      .select()
      .from(swimmers)
      .where(and(eq(swimmers.id, swimmerId), eq(swimmers.accountId, account.id)))
      .for('update')
    if (!current) throw new SwimmerNotFoundError()
    const minorBefore = isMinor(current, now)
    const minorAfter = isMinorOn(knownAgeOf(input, today), today)
    let declared = false
    if (current.isAccountHolder) {
      if (minorBefore !== minorAfter) throw new OwnAgeChangeError()
    } else if (minorAfter && !(await consentInForce(current.id, tx))) {
      if (!input.guardianDeclaration) throw new GuardianDeclarationNeededError()
      declared = true
    }
    const [updated] = await tx
      .update(swimmers)
      .set({ ...swimmerColumns(input.name, input, today), updatedAt: now })
      .where(eq(swimmers.id, current.id))
      .returning()
    if (declared) await recordGuardianDeclaration(tx, account, current.id, now)
    return updated!
  })
}


/** The account holder's declaration in their own form, as the parent's consent; their address is verified by the account's code. */
function recordGuardianDeclaration(tx: Executor, account: AccountHolder, swimmerId: number, now: Date) {
  return recordConsent(tx, { swimmerId, guardianName: account.name, guardianEmail: account.email, emailVerifiedBy: 'account_code', method: 'registration_form', now })
}

/**
 * When the account holder is under 18 and their parent has not consented yet: the notice they see
 * on the account's pages (null otherwise). They cannot book until the parent agrees.
 */
export async function holderConsentNotice(accountId: number, now = new Date(), executor: Executor = db()) {
  const [holder] = await executor
    .select()
    .from(swimmers)
    .where(and(eq(swimmers.accountId, accountId), eq(swimmers.isAccountHolder, true)))
  if (!holder) return null
  const status = await consentStatusOf(holder, now, executor)
  if (status.state === 'waiting') return { parentEmail: status.parentEmail, answerBy: formatLabDateTime(status.expiresAt) }
  if (status.state === 'missing' || status.state === 'not_asked') return { parentEmail: null, answerBy: null }
  return null
}

/** Why the account cannot add a swimmer now (the message the page shows instead of the form), or null when it can. */
export async function addSwimmerRefusal(accountId: number, now = new Date(), executor: Executor = db()): Promise<string | null> {
  const existing = await swimmersOf(accountId, executor)
  const holder = existing.find((swimmer) => swimmer.isAccountHolder)
  if (holder && isMinor(holder, now)) return new MinorAccountHolderError().message
  if (existing.length >= MAX_SWIMMERS_PER_ACCOUNT) return new TooManySwimmersError().message
  return null
}
