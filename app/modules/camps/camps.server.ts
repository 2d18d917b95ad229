import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { campBatches, campRegistrations, camps, campWaitlist } from '~/db/schema'
import { labToday } from '~/lib/format'
import type { Executor } from '~/modules/mail/outbox.server'

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

/** People waiting per batch; a seat that frees up is theirs before a newcomer's. */
export async function waitingCounts(batchIds: number[], executor: Executor = db()): Promise<Map<number, number>> {
  if (batchIds.length === 0) return new Map()
  const rows = await executor
    .select({ batchId: campWaitlist.batchId, waiting: sql<number>`count(*)::int` })
    .from(campWaitlist)
    .where(and(inArray(campWaitlist.batchId, batchIds), eq(campWaitlist.status, 'waiting')))
    .groupBy(campWaitlist.batchId)
  return new Map(rows.map((row) => [row.batchId, row.waiting]))
}

export type CampChoice = Awaited<ReturnType<typeof campChoices>>[number]

/** Every camp with its current price, whether it takes registrations, and seats left per batch. */
export async function campChoices(now = new Date()) {
  const rows = await db()
    .select({
      id: camps.id,
      code: camps.code,
      name: camps.name,
      startsOn: camps.startsOn,
      endsOn: camps.endsOn,
      venue: camps.venue,
      earlyBirdPricePaise: camps.earlyBirdPricePaise,
      regularPricePaise: camps.regularPricePaise,
      earlyBirdEndsAt: camps.earlyBirdEndsAt,
      isOpen: camps.isOpen,
    })
    .from(camps)
    .orderBy(asc(camps.sortOrder), asc(camps.startsOn))
  const batches = await db()
    .select({ id: campBatches.id, campId: campBatches.campId, code: campBatches.code, name: campBatches.name, timeRanges: campBatches.timeRanges, capacity: campBatches.capacity })
    .from(campBatches)
    .orderBy(asc(campBatches.code))
  const ids = batches.map((batch) => batch.id)
  const [taken, waiting] = await Promise.all([campSeatsTaken(ids, now), waitingCounts(ids)])
  return rows.map((camp) => ({
    ...camp,
    pricePaise: campPrice(camp, now),
    earlyBird: now < camp.earlyBirdEndsAt,
    open: registrationOpen(camp, now),
    batches: batches
      .filter((batch) => batch.campId === camp.id)
      .map(({ campId: _campId, ...batch }) => ({ ...batch, seatsLeft: Math.max(0, batch.capacity - (taken.get(batch.id) ?? 0) - (waiting.get(batch.id) ?? 0)) })),
  }))
}
