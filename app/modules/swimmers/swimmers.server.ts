import { and, asc, count, desc, eq } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { swimmers } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { labToday } from '~/lib/lab-time'
import { knownAgeOf, type SwimmerInput } from '~/modules/accounts/schemas'
import { ageOn, isMinorOn } from './age'

export type Swimmer = typeof swimmers.$inferSelect

/** However large a family or a coach's squad, an account keeps at most this many swimmers. */
export const MAX_SWIMMERS_PER_ACCOUNT = 20

/** The swimmer fields of a form (registration, add or edit a swimmer), as a row's values. */
type SwimmerFieldsInput = Omit<SwimmerInput, 'name' | 'guardianDeclaration'>

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
    howDidYouKnow: input.howDidYouKnow,
    otherSource: input.otherSource || null,
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
