import { lt, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { rateLimitBuckets } from '~/db/schema'

export type RateLimitRule = { limit: number; windowSeconds: number }

/** Thrown when a caller has used up a limit; the route shows `message`. */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
    super(`Too many attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`)
    this.name = 'RateLimitedError'
  }
}

/**
 * Counts one hit against `key` in the current fixed window and tells whether it is still within
 * the limit. One atomic upsert, so concurrent requests on any number of instances count exactly.
 */
export async function hit(key: string, rule: RateLimitRule, now = new Date()) {
  const windowMs = rule.windowSeconds * 1000
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs)
  const [row] = await db()
    .insert(rateLimitBuckets)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitBuckets.key, rateLimitBuckets.windowStart],
      set: { count: sql`${rateLimitBuckets.count} + 1` },
    })
    .returning({ count: rateLimitBuckets.count })
  const count = row?.count ?? 1
  const retryAfterSeconds = Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000)
  return { allowed: count <= rule.limit, count, retryAfterSeconds }
}

/** Counts a hit on every key (so each limit sees every attempt) and throws if any is exceeded. */
export async function enforce(hits: Array<{ key: string; rule: RateLimitRule }>, now = new Date()) {
  const results = await Promise.all(hits.map(({ key, rule }) => hit(key, rule, now)))
  const exceeded = results.filter((result) => !result.allowed)
  if (exceeded.length > 0) throw new RateLimitedError(Math.max(...exceeded.map((result) => result.retryAfterSeconds)))
}

/** Drops windows that ended long ago; run by the housekeeping job. */
export async function pruneRateLimitBuckets(now = new Date(), keepSeconds = 24 * 60 * 60) {
  await db()
    .delete(rateLimitBuckets)
    .where(lt(rateLimitBuckets.windowStart, new Date(now.getTime() - keepSeconds * 1000)))
}
