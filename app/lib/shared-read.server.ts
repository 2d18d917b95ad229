/**
 * Coalesces identical reads asked for at the same moment: each caller gets the result of a read
 * sent after it asked (never of one already under way, which may predate what it knows), shared
 * with everyone who asked for the same key meanwhile. A thousand customers asking at once cost a
 * handful of reads, and each is still told what the database said after they asked. Callers of
 * one key must pass the same read.
 */
type Batch = { result: Promise<unknown>; send: () => void }
type Reads = { underWay: boolean; next: Batch | null }

const reads = new Map<string, Reads>()

export function sharedRead<T>(key: string, read: () => Promise<T>): Promise<T> {
  let entry = reads.get(key)
  if (!entry) {
    entry = { underWay: false, next: null }
    reads.set(key, entry)
  }
  if (!entry.next) {
    let send!: () => void
    const sent = new Promise<void>((resolve) => (send = resolve))
    entry.next = { result: sent.then(read), send }
  }
  const { result } = entry.next
  if (!entry.underWay) sendNext(key, entry)
  return result as Promise<T>
}

function sendNext(key: string, entry: Reads) {
  const batch = entry.next
  if (!batch) {
    reads.delete(key)
    return
  }
  entry.next = null
  entry.underWay = true
  const done = () => {
    entry.underWay = false
    sendNext(key, entry)
  }
  batch.send()
  batch.result.then(done, done)
}
