import type { Database } from '~/db/client.server'

/**
 * A value read from the database and how long it stays true by the clock alone (holds expire,
 * sessions end, time slots begin), in epoch milliseconds. `until` at or before now keeps nothing.
 */
export type Kept<V> = { value: V; until: number }

type Entry<V> = { pending: Promise<Kept<V>>; kept?: Kept<V> }

/** The database whose notifications the caches trust; none until the server starts them. */
let source: Database | undefined

/**
 * Turns every KeptCache on, trusting `database`'s notifications to say when to drop what they
 * keep. While its listening connection is lost, every cache reads the database instead.
 */
export function trustNotificationsOf(database: Database | undefined) {
  source = database
}

function trusted() {
  return source !== undefined && source.listening()
}

/**
 * Values kept in memory until the database announces a change (the caller drops them when it hears
 * one) or their own clock runs out, whichever comes first. At most `limit` entries, the least
 * recently used leaving first, so a client asking for endless different keys cannot grow memory.
 * Concurrent requests for a missing key share one read. A read that started before a drop may
 * have seen the old rows, so its result is handed to its callers but not kept.
 */
export class KeptCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>()
  /** Bumped by every drop, so reads begun before it are not kept. */
  private generation = 0

  constructor(private readonly limit: number) {}

  async get(key: K, load: () => Promise<Kept<V>>, now = Date.now()): Promise<V> {
    if (!trusted()) return (await load()).value
    const entry = this.entries.get(key)
    if (entry && (!entry.kept || entry.kept.until > now)) {
      // Most recently used goes last: the map's order is the eviction order.
      this.entries.delete(key)
      this.entries.set(key, entry)
      return (entry.kept ?? (await entry.pending)).value
    }
    return (await this.load(key, load)).value
  }

  /** What is kept for `key` and still true at `now`, without reading anything; undefined when nothing is. */
  peek(key: K, now = Date.now()): V | undefined {
    if (!trusted()) return undefined
    const kept = this.entries.get(key)?.kept
    return kept && kept.until > now ? kept.value : undefined
  }

  /**
   * Reads `key` again now, whatever is kept (its caller has reason to doubt the copy), and keeps
   * the result as any read's: the next `get` sees it.
   */
  async refresh(key: K, load: () => Promise<Kept<V>>): Promise<V> {
    if (!trusted()) return (await load()).value
    return (await this.load(key, load)).value
  }

  private load(key: K, load: () => Promise<Kept<V>>) {
    const generation = this.generation
    const entry: Entry<V> = { pending: load() }
    this.entries.set(key, entry)
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as K)
    entry.pending.then(
      (kept) => {
        if (this.entries.get(key) !== entry) return
        if (generation === this.generation && kept.until > Date.now()) entry.kept = kept
        else this.entries.delete(key)
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key)
      },
    )
    return entry.pending
  }

  /** Drops the entries whose kept value matches, and every read still in flight. */
  dropWhere(matches: (value: V) => boolean) {
    this.generation += 1
    for (const [key, entry] of this.entries) if (!entry.kept || matches(entry.kept.value)) this.entries.delete(key)
  }

  drop(key: K) {
    this.generation += 1
    this.entries.delete(key)
  }

  clear() {
    this.generation += 1
    this.entries.clear()
  }

  get size() {
    return this.entries.size
  }
}
