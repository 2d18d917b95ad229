import { lt, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import type { Executor } from '~/modules/mail/outbox.server'
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
  const windowStart = windowStartOf(rule, now)
  const [row] = await db()
    .insert(rateLimitBuckets)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitBuckets.key, rateLimitBuckets.windowStart],
      set: { count: sql`${rateLimitBuckets.count} + 1` },
    })
    .returning({ count: rateLimitBuckets.count })
  const count = row?.count ?? 1
  return { allowed: count <= rule.limit, count, retryAfterSeconds: secondsLeft(rule, windowStart, now) }
}

/**
 * Counts a hit on every key (so each limit sees every attempt) and throws if any is exceeded. All
 * keys are counted by one upsert: one round trip and one commit however many limits apply, with the
 * rows in key order so that concurrent statements lock them in the same order and never deadlock.
 */
export async function enforce(hits: Array<{ key: string; rule: RateLimitRule }>, now = new Date(), executor: Executor = db()) {
  const counted = hits.map(({ key, rule }) => ({ key, rule, windowStart: windowStartOf(rule, now) }))
  const increments = new Map<string, { key: string; windowStart: Date; count: number }>()
  for (const { key, windowStart } of counted) {
    const id = bucketId(key, windowStart)
    const bucket = increments.get(id)
    if (bucket) bucket.count += 1
    else increments.set(id, { key, windowStart, count: 1 })
  }
  if (increments.size === 0) return
  const rows = await executor
    .insert(rateLimitBuckets)
    .values([...increments.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.windowStart.getTime() - b.windowStart.getTime())))
    .onConflictDoUpdate({
      target: [rateLimitBuckets.key, rateLimitBuckets.windowStart],
      set: { count: sql`${rateLimitBuckets.count} + excluded.count` },
    })
    .returning({ key: rateLimitBuckets.key, windowStart: rateLimitBuckets.windowStart, count: rateLimitBuckets.count })
  const counts = new Map(rows.map((row) => [bucketId(row.key, row.windowStart), row.count]))
  const exceeded = counted.filter(({ key, rule, windowStart }) => (counts.get(bucketId(key, windowStart)) ?? 1) > rule.limit)
  if (exceeded.length > 0) throw new RateLimitedError(Math.max(...exceeded.map(({ rule, windowStart }) => secondsLeft(rule, windowStart, now))))
}

function windowStartOf(rule: RateLimitRule, now: Date) {
  const windowMs = rule.windowSeconds * 1000
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs)
}

function secondsLeft(rule: RateLimitRule, windowStart: Date, now: Date) {
  return Math.ceil((windowStart.getTime() + rule.windowSeconds * 1000 - now.getTime()) / 1000)
}

const bucketId = (key: string, windowStart: Date) => `${windowStart.getTime()}|${key}`

/** Drops windows that ended long ago; run by the housekeeping job. */
export async function pruneRateLimitBuckets(now = new Date(), keepSeconds = 24 * 60 * 60) {
  await db()
    .delete(rateLimitBuckets)
    .where(lt(rateLimitBuckets.windowStart, new Date(now.getTime() - keepSeconds * 1000)))
}
