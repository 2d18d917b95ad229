import { afterEach, describe, expect, it } from 'vitest'
import type { Database } from '~/db/client.server'
import { KeptCache, trustNotificationsOf, type Kept } from './kept-cache.server'

let listening = true
const database = { listening: () => listening } as Database

afterEach(() => {
  trustNotificationsOf(undefined)
  listening = true
})

/** A loader that counts its reads and returns `value` kept for `forMs`. */
function reader<V>(value: V, forMs = 60_000) {
  const reader = {
    reads: 0,
    load: async (): Promise<Kept<V>> => {
      reader.reads += 1
      return { value, until: Date.now() + forMs }
    },
  }
  return reader
}

describe('a kept cache', () => {
  it('reads once and answers from memory until dropped', async () => {
    trustNotificationsOf(database)
    const cache = new KeptCache<string, string>(10)
    const source = reader('Asha')
    expect(await cache.get('a', source.load)).toBe('Asha')
    expect(await cache.get('a', source.load)).toBe('Asha')
    expect(source.reads).toBe(1)
    cache.drop('a')
    await cache.get('a', source.load)
    expect(source.reads).toBe(2)
    cache.clear()
    await cache.get('a', source.load)
    expect(source.reads).toBe(3)
  })

  it('shares one read among requests that arrive while it runs', async () => {
    trustNotificationsOf(database)
    const cache = new KeptCache<string, string>(10)
    const source = reader('Asha')
    await Promise.all([cache.get('a', source.load), cache.get('a', source.load), cache.get('a', source.load)])
    expect(source.reads).toBe(1)
  })

  it('tells what it keeps without reading, and nothing once the value’s time is up or notifications are not trusted', async () => {
    trustNotificationsOf(database)
    const cache = new KeptCache<string, string>(10)
    const source = reader('Asha', 60_000)
    expect(cache.peek('a')).toBeUndefined()
    await cache.get('a', source.load)
    expect(cache.peek('a')).toBe('Asha')
    expect(cache.peek('a', Date.now() + 61_000)).toBeUndefined()
    listening = false
    expect(cache.peek('a')).toBeUndefined()
    expect(source.reads).toBe(1)
  })

  it('reads again when asked to refresh, and keeps what it read', async () => {
    trustNotificationsOf(database)
    const cache = new KeptCache<string, string>(10)
    await cache.get('a', reader('Asha').load)
    const again = reader('Asha Rao')
    expect(await cache.refresh('a', again.load)).toBe('Asha Rao')
    expect(await cache.get('a', reader('never read').load)).toBe('Asha Rao')
    expect(again.reads).toBe(1)
    // A change announced while the refresh ran: what it read is handed back, not kept.
    const during = cache.refresh('a', reader('before the change').load)
    cache.clear()
    expect(await during).toBe('before the change')
    expect(cache.peek('a')).toBeUndefined()
  })

  it('reads again once the value’s own time is up', async () => {
    trustNotificationsOf(database)
    const cache = new KeptCache<string, string>(10)
    const source = reader('Asha', 60_000)
    await cache.get('a', source.load)
    await cache.get('a', source.load, Date.now() + 59_000)
    expect(source.reads).toBe(1)
    await cache.get('a', source.load, Date.now() + 61_000)
    expect(source.reads).toBe(2)
  })

  it('keeps nothing for a value that is already over (a session that does not exist)', async () => {
    trustNotificationsOf(database)
    const cache = new KeptCache<string, null>(10)
    const source = reader(null, 0)
    for (let i = 0; i < 3; i += 1) expect(await cache.get(`made-up-${i}`, source.load)).toBeNull()
    await cache.get('made-up-0', source.load)
    expect(source.reads).toBe(4)
    expect(cache.size).toBe(0)
  })

  it('holds at most its limit, forgetting the least recently used first', async () => {
    trustNotificationsOf(database)
    const cache = new KeptCache<number, number>(3)
    const source = reader(1)
    for (const key of [1, 2, 3]) await cache.get(key, source.load)
    await cache.get(1, source.load)
    await cache.get(4, source.load)
    expect(cache.size).toBe(3)
    const reads = source.reads
    await cache.get(1, source.load)
    expect(source.reads).toBe(reads)
    await cache.get(2, source.load)
    expect(source.reads).toBe(reads + 1)
  })

  it('does not keep a read that began before a drop: it may have seen the rows as they were', async () => {
    trustNotificationsOf(database)
    const cache = new KeptCache<string, string>(10)
    let release: (kept: Kept<string>) => void = () => {}
    const first = cache.get('a', () => new Promise((resolve) => (release = resolve)))
    cache.dropWhere(() => true)
    release({ value: 'before the change', until: Date.now() + 60_000 })
    expect(await first).toBe('before the change')
    const source = reader('after the change')
    expect(await cache.get('a', source.load)).toBe('after the change')
  })

  it('reads the database every time while notifications may be missed, and before they are trusted at all', async () => {
    const cache = new KeptCache<string, string>(10)
    const source = reader('Asha')
    await cache.get('a', source.load)
    await cache.get('a', source.load)
    expect(source.reads).toBe(2)
    trustNotificationsOf(database)
    await cache.get('a', source.load)
    listening = false
    await cache.get('a', source.load)
    await cache.get('a', source.load)
    expect(source.reads).toBe(5)
  })
})
