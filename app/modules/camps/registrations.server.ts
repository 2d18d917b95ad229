import { randomInt } from 'node:crypto'
import { and, eq, lte, sql } from 'drizzle-orm'
import { config } from '~/config.server'
import { db, type Executor } from '~/db/client.server'
import { isUniqueViolation } from '~/db/unique-violation.server'
import { campBatches, campRegistrations, camps, campWaitlist } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { formatRupees } from '~/lib/money'
import { setStatus } from '~/modules/statuses/status.server'
import { holderColumns, limitHoldAttempts, makeRoomForHold, type Holder } from '~/modules/holders/holders.server'
import { batchLooksFull, campSeatsTaken, registrationOpen, waitingCounts } from './camps.server'
import { campPricingColumns } from '~/db/camp-columns.server'
import { priceColumns, registrationPrice } from './pricing.server'
import { addMinutes } from '~/lib/lab-time'
import { recordCampDeclaration } from '~/modules/swimmers/consent.server'

export class CampNotFoundError extends DomainError {
  constructor() {
    super('invalid', 'Please select a camp')
  }
}

export class RegistrationClosedError extends DomainError {
  constructor(campName: string) {
    super('conflict', `Registration for ${campName} is closed.`)
  }
}

/** No seat left in the batch (or the freed ones are promised to the waitlist): the parent may join it. */
export class BatchFullError extends DomainError {
  constructor(campName: string, batchName: string) {
    super('conflict', `${batchName} of ${campName} is full.`)
  }
}

export class AlreadyRegisteredError extends DomainError {
  constructor(swimmerName: string, campName: string) {
    super('conflict', `${swimmerName} is already registered for ${campName} with this e-mail address.`)
  }
}

/**
 * Who is registered. `guardianDeclaration`: the person registering declared that the swimmer is 18
 * or older, or that they are the parent or guardian and agree to the Privacy Policy (the form asks
 * every guest); the registration keeps it as a guardian's consent.
 */
export type CampApplicant = { swimmerName: string; email: string; phone: string; guardianDeclaration?: boolean }

/** The camp exists but has no batch by that code (camps can have different batches). */
export class BatchNotInCampError extends DomainError {
  constructor(campName: string) {
    super('invalid', `${campName} has no such batch. Please select one of its batches.`, 'batch')
  }
}

/** The batch of a camp, locked; or why there is none to lock. */
export async function lockBatchOrExplain(executor: Executor, campCode: string, batchCode: string) {
  return batchOrExplain(executor, campCode, batchCode, true)
}

/** The batch of a camp as it stands, unlocked (a price shown before anything is held); or why there is none. */
export async function findBatchOrExplain(executor: Executor, campCode: string, batchCode: string) {
  return batchOrExplain(executor, campCode, batchCode, false)
}

async function batchOrExplain(executor: Executor, campCode: string, batchCode: string, lock: boolean) {
  const batch = await batchOf(executor, campCode, batchCode, lock)
  if (batch) return batch
  const [camp] = await executor.select({ name: camps.name }).from(camps).where(eq(camps.code, campCode))
  throw camp ? new BatchNotInCampError(camp.name) : new CampNotFoundError()
}

async function batchOf(executor: Executor, campCode: string, batchCode: string, lock: boolean) {
  const query = executor
    .select({
      campId: camps.id,
      campName: camps.name,
      startsOn: camps.startsOn,
      isOpen: camps.isOpen,
      ...campPricingColumns,
      batchId: campBatches.id,
      batchName: campBatches.name,
      capacity: campBatches.capacity,
    })
    .from(campBatches)
    .innerJoin(camps, eq(camps.id, campBatches.campId))
    .where(and(eq(camps.code, campCode), eq(campBatches.code, batchCode)))
  const [row] = lock ? await query.for('update', { of: campBatches }) : await query
  return row ?? null
}

type SeatRequest = { campCode: string; batchCode: string; applicant: CampApplicant; holder?: Holder; now?: Date }

/**
 * Holds a seat in a camp's batch for SEAT_HOLD_MINUTES while the parent pays, as a pending
 * registration, in one transaction with the batch locked: however many parents submit at once,
 * a batch never has more holders than seats. A seat freed while confirmed waitlist entries wait
 * goes to the waitlist first. Routes pass the visitor as `holder`: their earlier unpaid hold is
 * released, and they may hold no more than makeRoomForHold allows, so a swimmer's unpaid hold made
 * in another browser is never released by someone typing the same name and e-mail address; each
 * of their attempts at a batch with a seat counts against limitHoldAttempts (RateLimitedError past it).
 * Parents registering through the site reach it through the camp line (line.server.ts).
 */
export async function holdCampSeat({ campCode, batchCode, applicant, holder, now = new Date() }: SeatRequest) {
  const full = await batchLooksFull(campCode, batchCode, now)
  if (full) throw new BatchFullError(full.campName, full.batchName)
  // An attempt counts against the visitor's limits when there is a seat to try for: a parent told
  // the batch is full has cost a shared read and held nothing, not worth a write.
  if (holder) await limitHoldAttempts(holder, now)
  try {
    return await db().transaction((tx) => holdCampSeatIn(tx, { campCode, batchCode, applicant, holder, now }))
  } catch (error) {
    throw await alreadyRegisteredInstead(error, campCode, applicant)
  }
}

/** The hold itself, inside `tx` (see holdCampSeat). */
export async function holdCampSeatIn(tx: Executor, { campCode, batchCode, applicant, holder, now = new Date() }: SeatRequest) {
  const holdExpiresAt = addMinutes(now, config().SEAT_HOLD_MINUTES)
  // The holder's locks come first, before the batch's, in every transaction that takes both.
  if (holder) await makeRoomForHold(tx, holder, now)
  const batch = await lockBatchOrExplain(tx, campCode, batchCode)
  if (!registrationOpen(batch, now)) throw new RegistrationClosedError(batch.campName)
  if (await isRegistered(tx, batch.campId, applicant)) throw new AlreadyRegisteredError(applicant.swimmerName, batch.campName)
  const taken = (await campSeatsTaken([batch.batchId], now, tx)).get(batch.batchId) ?? 0
  const waiting = (await waitingCounts([batch.batchId], tx)).get(batch.batchId) ?? 0
  if (taken + waiting >= batch.capacity) throw new BatchFullError(batch.campName, batch.batchName)
  const price = await registrationPrice(tx, batch, { email: applicant.email, phone: applicant.phone }, now)
  const registration = await insertRegistration(tx, {
    campId: batch.campId,
    batchId: batch.batchId,
    swimmerName: applicant.swimmerName,
    email: applicant.email.toLowerCase(),
    phone: applicant.phone,
    ...priceColumns(price),
    status: 'pending',
    holdExpiresAt,
    ...(holder && holderColumns(holder)),
    createdAt: now,
    updatedAt: now,
  })
  if (applicant.guardianDeclaration) await recordCampDeclaration(tx, { registrationId: registration.id, swimmerName: applicant.swimmerName, email: applicant.email, now })
  return { ...registration, holdExpiresAt, ...priceColumns(price) }
}

/**
 * What the payment for one registration is for, as the gateway shows it: the swimmer, and when the
 * sibling price applies (an earlier swimmer of the family is paid for), that it does.
 */
export async function campPaymentDescription(registrationId: number) {
  const [row] = await db().select({ swimmerName: campRegistrations.swimmerName, siblingDiscountPaise: campRegistrations.siblingDiscountPaise }).from(campRegistrations).where(eq(campRegistrations.id, registrationId))
  if (!row) return 'Camp Registration'
  const sibling = row.siblingDiscountPaise ? `, at the sibling price (${formatRupees(row.siblingDiscountPaise)} off): a swimmer of your family is registered already` : ''
  return `Camp Registration - ${row.swimmerName}${sibling}`.slice(0, 200)
}

/**
 * The same swimmer held or waiting elsewhere: the unique index lets one live registration through,
 * and the parent is told the swimmer is registered. Any other error is returned as it is.
 */
export async function alreadyRegisteredInstead(error: unknown, campCode: string, applicant: Pick<CampApplicant, 'swimmerName'>, executor: Executor = db()) {
  if (!isUniqueViolation(error, 'camp_registrations_one_per_swimmer')) return error
  const [camp] = await executor.select({ name: camps.name }).from(camps).where(eq(camps.code, campCode))
  return new AlreadyRegisteredError(applicant.swimmerName, camp?.name ?? 'this camp')
}

/** Same camp, same e-mail and swimmer name, in any letter case. */
export function sameSwimmer(campId: number, applicant: Pick<CampApplicant, 'email' | 'swimmerName'>) {
  return and(
    eq(campRegistrations.campId, campId),
    sql`lower(${campRegistrations.email}) = ${applicant.email.toLowerCase()}`,
    sql`lower(${campRegistrations.swimmerName}) = ${applicant.swimmerName.toLowerCase()}`,
  )
}

async function isRegistered(tx: Executor, campId: number, applicant: CampApplicant) {
  const [row] = await tx
    .select({ id: campRegistrations.id })
    .from(campRegistrations)
    .where(and(sameSwimmer(campId, applicant), eq(campRegistrations.status, 'confirmed')))
    .limit(1)
  return Boolean(row)
}

type NewRegistration = Omit<typeof campRegistrations.$inferInsert, 'reference'>

/** Inserts a registration under a fresh reference: CMP- and ten random digits. */
export async function insertRegistration(executor: Executor, values: NewRegistration) {
  for (;;) {
    const reference = `CMP-${String(randomInt(0, 1e10)).padStart(10, '0')}`
    const [row] = await executor
      .insert(campRegistrations)
      .values({ ...values, reference })
      .onConflictDoNothing({ target: campRegistrations.reference })
      .returning({ id: campRegistrations.id, reference: campRegistrations.reference })
    if (row) return row
  }
}

/**
 * Pending registrations whose hold ran out become expired (their seats are already free for
 * others); a seat offered from the waitlist and not paid for goes to the next in line.
 */
export async function expireStaleCampHolds(now = new Date()) {
  return db().transaction(async (tx) => {
    const expired = await setStatus(tx, campRegistrations, 'expired', lte(campRegistrations.holdExpiresAt, now), { updatedAt: now }).returning({ id: campRegistrations.id })
    for (const { id } of expired) {
      await tx.update(campWaitlist).set({ status: 'expired' }).where(and(eq(campWaitlist.registrationId, id), eq(campWaitlist.status, 'offered')))
    }
    return expired.length
  })
}

