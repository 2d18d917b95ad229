/**
 * What every page shows and staff rarely change (settings, prices, camps), kept in memory by each
 * instance. The database announces every change (NOTIFY site_content_changed, see drizzle/0001),
 * and each instance clears its copy when it hears one, so a page never shows an edit late by more
 * than the moment the notification takes. Off unless the server turns it on (tests that change
 * rows directly read the database).
 */
let enabled = false
const entries = new Map<string, Promise<unknown>>()

export function enableContentCache() {
  enabled = true
}

export function invalidateContentCache() {
  entries.clear()
}

export function cachedContent<T>(key: string, load: () => Promise<T>): Promise<T> {
  if (!enabled) return load()
  let entry = entries.get(key) as Promise<T> | undefined
  if (!entry) {
    entry = load()
    entries.set(key, entry)
    // A failed read is not remembered: the next page asks again.
    entry.catch(() => {
      if (entries.get(key) === entry) entries.delete(key)
    })
  }
  return entry
}
