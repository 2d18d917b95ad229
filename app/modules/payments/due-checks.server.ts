import { sql, type SQL } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { addMinutes } from '~/lib/lab-time'

/** A claimed check is this worker's for this long; if it dies, another instance carries on. */
const CHECK_LEASE_MINUTES = 1

/**
 * Claims up to `limit` rows of `table` still `waiting` whose next check is due, and returns their
 * `key`: rows another instance is working on are skipped, and a claimed row is pushed out of reach
 * for a lease.
 */
export async function claimDueChecks({ table, key, waiting }: { table: 'payments' | 'refunds'; key: 'order_id' | 'refund_id'; waiting: SQL }, now: Date, limit: number) {
  const claimed = await db().execute<Record<string, string>>(sql`
    UPDATE ${sql.identifier(table)} SET next_check_at = ${addMinutes(now, CHECK_LEASE_MINUTES)}
    WHERE id IN (
      SELECT id FROM ${sql.identifier(table)}
      WHERE next_check_at <= ${now} AND ${waiting}
      ORDER BY next_check_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING ${sql.identifier(key)}`)
  return claimed.rows.map((row) => row[key]!)
}
