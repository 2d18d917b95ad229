import { sql } from 'drizzle-orm'
import type { Database, Executor } from '~/db/client.server'

// A camp registration that stops holding its seat (expired, cancelled, refunded), or a batch that
// grows, frees a seat for the camp's waitlist. Whatever frees it says so here; the waitlist
// (app/modules/camps/waitlist.server.ts) listens, so the modules that free seats need not know it.

/** The channel on which the database announces that a camp seat was freed. */
export const CAMP_SEAT_FREED_CHANNEL = 'camp_seat_freed'

/**
 * Lets the worker offer a freed seat to the waitlist at once rather than at its next round. Any
 * instance that hears it may offer the seat; the offer itself claims the seat under the batch's lock.
 */
export function onCampSeatFreed(database: Database, listener: () => void) {
  return database.listen(CAMP_SEAT_FREED_CHANNEL, () => listener())
}

/**
 * Called inside the transaction that frees a camp seat. The database sends the announcement when
 * that transaction commits, so whoever hears it sees the seat free (a listener called before the
 * commit would find nothing to offer, and the seat would wait for the worker's next round).
 */
export async function campSeatFreed(executor: Executor) {
  await executor.execute(sql`SELECT pg_notify(${CAMP_SEAT_FREED_CHANNEL}, '')`)
}
