/**
 * Reads by key, many keys in one query: a key asked for while a read is under way waits for the
 * next one, which carries every key asked for meanwhile (up to `maxKeys`). Alone, a key is read at
 * once; in a rush of a thousand different keys, a handful of queries read them all. Each caller is
 * answered by a read sent after it asked. `readMany` returns what it found by key; a key it did not
 * find is answered with `undefined`.
 */
export function batchedReader<K, V>(readMany: (keys: K[]) => Promise<Map<K, V>>, { maxKeys = 500 } = {}) {
  type Waiting = { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }
  let waiting = new Map<K, Waiting[]>()
  let underWay = false

  const sendNext = () => {
    if (waiting.size === 0) {
      underWay = false
      return
    }
    underWay = true
    const batch = new Map<K, Waiting[]>()
    for (const [key, callers] of waiting) {
      if (batch.size === maxKeys) break
      batch.set(key, callers)
    }
    for (const key of batch.keys()) waiting.delete(key)
    readMany([...batch.keys()]).then(
      (found) => {
        for (const [key, callers] of batch) for (const caller of callers) caller.resolve(found.get(key))
        sendNext()
      },
      (error: unknown) => {
        for (const callers of batch.values()) for (const caller of callers) caller.reject(error)
        sendNext()
      },
    )
  }

  return (key: K): Promise<V | undefined> =>
    new Promise<V | undefined>((resolve, reject) => {
      const callers = waiting.get(key)
      if (callers) callers.push({ resolve, reject })
      else waiting.set(key, [{ resolve, reject }])
      if (!underWay) sendNext()
    })
}
