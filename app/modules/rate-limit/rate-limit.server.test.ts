import { describe, expect, it } from 'vitest'
import { useTestDatabase } from '../../../tests/support/test-database'
import { countHits, enforce, hit, RateLimitedError } from './rate-limit.server'

useTestDatabase()
const rule = { limit: 3, windowSeconds: 60 }

describe('rate limits', () => {
  it('allows up to the limit in a window, then refuses until the next window', async () => {
    const now = new Date('2027-03-10T06:00:10Z')
    const results = []
    for (let i = 0; i < 4; i += 1) results.push(await hit('test:key', rule, now))
    expect(results.map((result) => result.allowed)).toEqual([true, true, true, false])
    expect(results[3]!.retryAfterSeconds).toBe(50)
    expect((await hit('test:key', rule, new Date('2027-03-10T06:01:00Z'))).allowed).toBe(true)
  })

  it('keeps keys apart', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    for (let i = 0; i < 3; i += 1) await hit('test:a', rule, now)
    expect((await hit('test:a', rule, now)).allowed).toBe(false)
    expect((await hit('test:b', rule, now)).allowed).toBe(true)
  })

  it('counts exactly under concurrency (one atomic upsert per hit)', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    const results = await Promise.all(Array.from({ length: 40 }, () => hit('test:burst', { limit: 25, windowSeconds: 60 }, now)))
    expect(results.map((result) => result.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    expect(results.filter((result) => result.allowed)).toHaveLength(25)
  })

  it('enforce throws with the time to wait when any key is over its limit', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    const hits = [
      { key: 'test:ip', rule: { limit: 10, windowSeconds: 900 } },
      { key: 'test:account', rule: { limit: 1, windowSeconds: 900 } },
    ]
    await enforce(hits, now)
    const error = await enforce(hits, now).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(RateLimitedError)
    expect((error as RateLimitedError).message).toBe('Too many attempts. Please wait 15 minutes and try again.')
  })

  it('enforce counts every key exactly under concurrency, in any order, a key named twice counting twice', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    const roomy = { limit: 1_000, windowSeconds: 60 }
    const forwards = [
      { key: 'test:x', rule: roomy },
      { key: 'test:y', rule: roomy },
      { key: 'test:x', rule: roomy },
    ]
    const backwards = [...forwards].reverse()
    await Promise.all(Array.from({ length: 20 }, (_, index) => enforce(index % 2 ? forwards : backwards, now)))
    expect((await hit('test:x', roomy, now)).count).toBe(41)
    expect((await hit('test:y', roomy, now)).count).toBe(21)
  })

  it('counts the hits of many callers in one go, hits on the same key as if one after the other', async () => {
    const now = new Date('2027-03-10T06:00:30Z')
    await hit('test:shared', rule, now)
    const counted = await countHits([
      { key: 'test:shared', rule, now },
      { key: 'test:own', rule, now },
      { key: 'test:shared', rule, now },
      { key: 'test:shared', rule, now },
    ])
    expect(counted).toEqual([
      { allowed: true, count: 2, retryAfterSeconds: 30 },
      { allowed: true, count: 1, retryAfterSeconds: 30 },
      { allowed: true, count: 3, retryAfterSeconds: 30 },
      { allowed: false, count: 4, retryAfterSeconds: 30 },
    ])
    expect(await countHits([])).toEqual([])
  })
})
