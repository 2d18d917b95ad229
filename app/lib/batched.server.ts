/**
 * Does many callers' work in one round trip: work asked for while a round is under way waits for
 * the next one, which carries everything asked for meanwhile (up to `maxItems`). Alone, an item is
 * sent at once; in a rush of a thousand callers, a handful of rounds serve them all. Each caller is
 * answered by a round sent after it asked. `runMany` answers the items in the order it was given
 * them; when it fails, every caller of that round is told so, and the next round still goes.
 */
export function batched<T, R>(runMany: (items: T[]) => Promise<R[]>, { maxItems = 500 } = {}) {
  type Waiting = { item: T; resolve: (value: R) => void; reject: (error: unknown) => void }
  let waiting: Waiting[] = []
  let underWay = false

  const sendNext = () => {
    if (waiting.length === 0) {
      underWay = false
      return
    }
    underWay = true
    const round = waiting.slice(0, maxItems)
    waiting = waiting.slice(maxItems)
    runMany(round.map((caller) => caller.item)).then(
      (answers) => {
        round.forEach((caller, index) => caller.resolve(answers[index]!))
        sendNext()
      },
      (error: unknown) => {
        for (const caller of round) caller.reject(error)
        sendNext()
      },
    )
  }

  return (item: T): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject })
      if (!underWay) sendNext()
    })
}

/**
 * Reads by key, many keys in one query (see `batched`); a key asked for twice in a round is read
 * once. `readMany` returns what it found by key; a key it did not find is answered with `undefined`.
 */
export function batchedReader<K, V>(readMany: (keys: K[]) => Promise<Map<K, V>>, { maxKeys = 500 } = {}) {
  return batched<K, V | undefined>(async (keys) => {
    const found = await readMany([...new Set(keys)])
    return keys.map((key) => found.get(key))
  }, { maxItems: maxKeys })
}
