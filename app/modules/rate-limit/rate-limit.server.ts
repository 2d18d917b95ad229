import { lt, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { DomainError } from '~/lib/domain-error'
import { rateLimitBuckets } from '~/db/schema'
import { addSeconds, durationMs, secondsBetween } from '~/lib/lab-time'

export type RateLimitRule = { limit: number; windowSeconds: number }

/** Thrown when a caller has used up a limit; the route shows `message`. */
export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
    super('rate_limited', `Too many attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`)
  }
}

/**
 * Counts one hit against `key` in the current fixed window and tells whether it is still within
 * the limit. One atomic upsert, so concurrent requests on any number of instances count exactly.
 */
export async function hit(key: string, rule: RateLimitRule, now = new Date()) {
  const [counted] = await countHits([{ key, rule, now }])
  return counted!
}

/**
 * Counts a hit on every key (so each limit sees every attempt) and throws if any is exceeded.
 */
export async function enforce(hits: Array<{ key: string; rule: RateLimitRule }>, now = new Date(), executor: Executor = db()) {
  const refused = (await countHits(hits.map((hit) => ({ ...hit, now })), executor)).filter((counted) => !counted.allowed)
  if (refused.length > 0) throw new RateLimitedError(Math.max(...refused.map((counted) => counted.retryAfterSeconds)))
}

/**
 * Counts every hit, of one caller or of many, and tells each whether it is within its limit: hits
 * on the same key count as if made one after the other, in the order given. All are counted by one
 * upsert: one round trip and one commit however many, with the rows in key order so that
 * concurrent statements lock them in the same order and never deadlock.
 */
export async function countHits(hits: Array<{ key: string; rule: RateLimitRule; now: Date }>, executor: Executor = db()) {
  const counted = hits.map(({ key, rule, now }) => {
    const windowStart = windowStartOf(rule, now)
    return { key, rule, now, windowStart, id: bucketId(key, windowStart) }
  })
  const increments = new Map<string, { key: string; windowStart: Date; count: number }>()
  for (const { id, key, windowStart } of counted) {
    const bucket = increments.get(id)
    if (bucket) bucket.count += 1
    else increments.set(id, { key, windowStart, count: 1 })
  }
  if (increments.size === 0) return []
  const buckets = [...increments.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.windowStart.getTime() - b.windowStart.getTime()))
  // The buckets go as three arrays: a statement of hundreds of rows costs no more to build than one of a few.
  const { rows } = await executor.execute<{ key: string; window_start: string | Date; count: number }>(sql`
    INSERT INTO ${rateLimitBuckets} (key, window_start, count)
    SELECT * FROM unnest(${sql.param(buckets.map((bucket) => bucket.key))}::text[], ${sql.param(buckets.map((bucket) => bucket.windowStart.toISOString()))}::timestamptz[], ${sql.param(buckets.map((bucket) => bucket.count))}::int[])
    ON CONFLICT (key, window_start) DO UPDATE SET count = ${rateLimitBuckets}.count + excluded.count
    RETURNING key, window_start, count`)
  // Each bucket's count after the upsert is its last hit's; the hits before it saw one less each.
  const later = new Map([...increments].map(([id, bucket]) => [id, bucket.count - 1]))
  const totals = new Map(rows.map((row) => [bucketId(row.key, new Date(row.window_start)), Number(row.count)]))
  return counted.map(({ id, rule, now, windowStart }) => {
    const count = (totals.get(id) ?? 1) - later.get(id)!
    later.set(id, later.get(id)! - 1)
    return { allowed: count <= rule.limit, count, retryAfterSeconds: secondsLeft(rule, windowStart, now) }
  })
}

function windowStartOf(rule: RateLimitRule, now: Date) {
  const windowMs = durationMs({ seconds: rule.windowSeconds })
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs)
}

function secondsLeft(rule: RateLimitRule, windowStart: Date, now: Date) {
  return Math.ceil(secondsBetween(now, addSeconds(windowStart, rule.windowSeconds)))
}

const bucketId = (key: string, windowStart: Date) => `${windowStart.getTime()}|${key}`

/** Drops windows that ended long ago; run by the housekeeping job. */
export async function pruneRateLimitBuckets(now = new Date(), keepSeconds = 24 * 60 * 60) {
  await db()
    .delete(rateLimitBuckets)
    .where(lt(rateLimitBuckets.windowStart, addSeconds(now, -keepSeconds)))
}
