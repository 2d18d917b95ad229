import { and, sql, type SQLWrapper } from 'drizzle-orm'
import { prepared } from '~/db/prepared.server'
import type { Executor } from '~/db/client.server'
import { kitPlacements, kits } from '~/db/schema'
import { addDays, labInstant } from '~/lib/lab-time'

// A session at the lab needs a kit there. A kit is at the lab unless a placement has it elsewhere
// (its range covers the travel, the set-up and the packing), so a time slot at the lab can be booked
// only while at least one kit in service is not away.

/** The kits in service, and when each placed one is away, between two dates (inclusive). */
export type KitAbsences = { inService: number; away: Array<{ kitId: number; from: number; to: number }> }

/** The count of kits in service with each placement of one of them overlapping `from`-`to` (instants), in one round trip. */
function absencesQuery(executor: Executor, from: string | SQLWrapper, to: string | SQLWrapper) {
  return executor
    .select({
      inService: sql<number>`(SELECT count(*)::int FROM ${kits} WHERE ${kits.retiredAt} IS NULL)`,
      kitId: kitPlacements.kitId,
      from: sql<number | null>`(extract(epoch from lower(${kitPlacements.during})) * 1000)::float8`,
      to: sql<number | null>`(extract(epoch from upper(${kitPlacements.during})) * 1000)::float8`,
    })
    .from(sql`(SELECT 1) AS one`)
    .leftJoin(kitPlacements, and(sql`${kitPlacements.during} && tstzrange(${from}::timestamptz, ${to}::timestamptz, '[)')`, sql`${kitPlacements.kitId} IN (SELECT ${kits.id} FROM ${kits} WHERE ${kits.retiredAt} IS NULL)`))
}

/**
 * Asked with every read of the lab's windows (mostly no placement: one row with the count alone),
 * so a prepared statement outside a transaction, as the windows' own query.
 */
export async function kitAbsences(fromDate: string, toDate: string, executor?: Executor): Promise<KitAbsences> {
  const from = labInstant(fromDate).toISOString()
  const to = labInstant(addDays(toDate, 1)).toISOString()
  const rows = executor
    ? await absencesQuery(executor, from, to)
    : await prepared('kit_absences', (database) => absencesQuery(database, sql.placeholder('from'), sql.placeholder('to')).prepare('kit_absences')).execute({ from, to })
  return {
    inService: rows[0]?.inService ?? 0,
    away: rows.flatMap((row) => (row.kitId === null ? [] : [{ kitId: row.kitId, from: Number(row.from), to: Number(row.to) }])),
  }
}

/** Whether no kit in service is at the lab for some of a time slot at the lab on `date`. */
export function noKitAtHome(absences: KitAbsences, date: string, slot: { start: string; end: string }) {
  return noKitBetween(absences, labInstant(date, slot.start).getTime(), labInstant(date, slot.end).getTime())
}

/** Whether no kit in service is at the lab for some of the time from `from` to `to` (instants, ms). */
function noKitBetween({ inService, away }: KitAbsences, from: number, to: number) {
  if (away.length === 0) return inService === 0
  const gone = new Set(away.filter((absence) => absence.from < to && from < absence.to).map((absence) => absence.kitId))
  return inService - gone.size < 1
}
