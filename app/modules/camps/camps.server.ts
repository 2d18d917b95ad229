import { and, eq, gt, inArray, or, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { campRegistrations, campWaitlist } from '~/db/schema'
import { labToday, toUnixSeconds } from '~/lib/lab-time'
import { sharedRead } from '~/lib/shared-read.server'
import { listCamps } from '~/modules/site/site.server'
import { waitlistStates } from '~/modules/holders/waitlist-places.server'

/** A registration holds its seat while confirmed, or pending with an unexpired hold. */
export function holdsCampSeat(now: Date) {
  return or(eq(campRegistrations.status, 'confirmed'), and(eq(campRegistrations.status, 'pending'), gt(campRegistrations.holdExpiresAt, now)))
}

/** The fee at `now`: the early-bird price until its deadline, the regular price after. */
export function campPrice(camp: { earlyBirdPricePaise: number; regularPricePaise: number; earlyBirdEndsAt: Date }, now: Date) {
  return now < camp.earlyBirdEndsAt ? camp.earlyBirdPricePaise : camp.regularPricePaise
}

/** Registration closes when the camp starts (its first day in Bangalore) or when staff close it. */
export function registrationOpen(camp: { isOpen: boolean; startsOn: string }, now: Date) {
  return camp.isOpen && camp.startsOn > labToday(now)
}

/** Seats in use per batch, optionally leaving one registration out. */
export async function campSeatsTaken(batchIds: number[], now: Date, executor: Executor = db(), exceptRegistrationId?: number): Promise<Map<number, number>> {
  if (batchIds.length === 0) return new Map()
  const rows = await executor
    .select({ batchId: campRegistrations.batchId, taken: sql<number>`count(*)::int` })
    .from(campRegistrations)
    .where(and(inArray(campRegistrations.batchId, batchIds), holdsCampSeat(now), exceptRegistrationId ? sql`${campRegistrations.id} <> ${exceptRegistrationId}` : undefined))
    .groupBy(campRegistrations.batchId)
  return new Map(rows.map((row) => [row.batchId, row.taken]))
}

/**
 * In the queue for a seat: waiting, with the address confirmed through the e-mailed link. An entry
 * nobody confirmed keeps no seat from anyone and is offered none.
 */
export function queuedOnWaitlist() {
  return waitlistStates(campWaitlist).queued()
}

/** People in the queue per batch; a seat that frees up is theirs before a newcomer's. */
export async function waitingCounts(batchIds: number[], executor: Executor = db()): Promise<Map<number, number>> {
  if (batchIds.length === 0) return new Map()
  const rows = await executor
    .select({ batchId: campWaitlist.batchId, waiting: sql<number>`count(*)::int` })
    .from(campWaitlist)
    .where(and(inArray(campWaitlist.batchId, batchIds), queuedOnWaitlist()))
    .groupBy(campWaitlist.batchId)
  return new Map(rows.map((row) => [row.batchId, row.waiting]))
}

/**
 * Seats taken and people queued in every batch. In a rush thousands of parents ask at once (each
 * form page shows seats left, each submission glances at its batch): they share the reads, each
 * answered by one sent after it asked (see shared-read.server.ts).
 */
function campFill(camps: Awaited<ReturnType<typeof listCamps>>, now: Date) {
  const ids = camps.flatMap((camp) => camp.batches.map((batch) => batch.id))
  return sharedRead(`camp-fill:${ids.join(',')}:${toUnixSeconds(now)}`, async () => {
    const [taken, waiting] = await Promise.all([campSeatsTaken(ids, now), waitingCounts(ids)])
    return { taken, waiting }
  })
}

/** Every camp with its current price, whether it takes registrations, and seats left per batch. */
export async function campChoices(now = new Date()) {
  const camps = await listCamps(now)
  const { taken, waiting } = await campFill(camps, now)
  return camps.map((camp) => ({
    ...camp,
    pricePaise: camp.currentPricePaise,
    open: registrationOpen(camp, now),
    batches: camp.batches.map((batch) => ({ ...batch, seatsLeft: Math.max(0, batch.capacity - (taken.get(batch.id) ?? 0) - (waiting.get(batch.id) ?? 0)) })),
  }))
}

/**
 * A glance at one batch without locking it: during a rush, a parent who would be turned away is
 * told at once instead of queueing for the batch's lock. Only a "full" answer is acted on; seats
 * that look free are checked again under the lock.
 */
export async function batchLooksFull(campCode: string, batchCode: string, now: Date) {
  const camps = await listCamps(now)
  const camp = camps.find((candidate) => candidate.code === campCode)
  const batch = camp?.batches.find((candidate) => candidate.code === batchCode)
  if (!camp || !batch || !registrationOpen(camp, now)) return null
  const { taken, waiting } = await campFill(camps, now)
  return (taken.get(batch.id) ?? 0) + (waiting.get(batch.id) ?? 0) >= batch.capacity ? { campName: camp.name, batchName: batch.name } : null
}
