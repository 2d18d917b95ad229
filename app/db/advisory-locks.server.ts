import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Executor } from './client.server'

/**
 * Takes a transaction-scoped advisory lock for each key (released when the transaction ends), so
 * work on the same keys on any number of instances happens one after the other. The locks of one
 * call are taken in the order of their numbers, so two calls sharing keys never deadlock.
 */
export async function lockKeys(tx: Executor, keys: string[]) {
  const ids = [...new Set(keys.map(lockId))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  if (ids.length === 0) return
  // One statement for all of them: a round trip less per key for whoever waits behind this one.
  const list = sql.join(
    ids.map((id) => sql`${id.toString()}::bigint`),
    sql`, `,
  )
  await tx.execute(sql`SELECT pg_advisory_xact_lock(key.id) FROM unnest(ARRAY[${list}]) WITH ORDINALITY AS key(id, position) ORDER BY key.position`)
}

function lockId(key: string): bigint {
  return createHash('sha256').update(key).digest().readBigInt64BE(0)
}
