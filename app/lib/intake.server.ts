/**
 * The requests this instance has taken in and not yet started (the server starts one per turn of
 * its event loop, see oneATurn), and the work that may go before them.
 */

/** Requests that came and wait for their turn to start. */
let waiting = 0

/** Records how many requests wait for their turn (the server's queue says so as it changes). */
export function noteWaitingRequests(count: number) {
  waiting = count
}

/** How many requests are waiting for their turn to start. */
export function waitingRequests() {
  return waiting
}

/** How long new requests wait for work that goes first, at the most, each time it runs. */
export const FIRST_MS = 150

/** The least time new requests go on between two such waits. */
const GOING_AT_LEAST_MS = 10

/** Work that goes first, running now, and since when (performance.now()). */
let running = 0
let runningSince = 0
/** Started again when new requests may go on. */
let resumers: Array<() => void> = []
let resumeTimer: NodeJS.Timeout | null = null
/** The last wait of new requests: when it began (null when none is under way), how long it lasted, when it ended. */
let waitingSince: number | null = null
let lastWaitMs = 0
let resumedAt = Number.NEGATIVE_INFINITY

/**
 * Runs `work` before any new request starts, for FIRST_MS at the most: work that decides the
 * answers of many requests waiting behind it, such as settling a line of bookings in a rush. Once
 * it has given the seats away, everyone after it is answered "full" at a fraction of what putting
 * them in line costs; and each of its statements' round trips does not wait behind a request
 * started meanwhile. After such a wait, new requests go on at least as long as they waited: the
 * line needs the arrivals they bring.
 */
export async function beforeNewRequests<T>(work: () => Promise<T>): Promise<T> {
  if (running === 0) runningSince = performance.now()
  running += 1
  try {
    return await work()
  } finally {
    running -= 1
    if (running === 0) resume()
  }
}

/**
 * Whether new requests wait now for work that goes first; when they do, `start` is called once they
 * may go on (the work done, or FIRST_MS after it began).
 */
export function newRequestsWait(start: () => void): boolean {
  if (running === 0) return false
  const now = performance.now()
  const left = FIRST_MS - (now - runningSince)
  if (left <= 0 || now - resumedAt < Math.max(lastWaitMs, GOING_AT_LEAST_MS)) return false
  waitingSince ??= now
  resumers.push(start)
  resumeTimer ??= setTimeout(resume, left)
  return true
}

function resume() {
  if (resumeTimer) clearTimeout(resumeTimer)
  resumeTimer = null
  if (waitingSince !== null) {
    resumedAt = performance.now()
    lastWaitMs = resumedAt - waitingSince
    waitingSince = null
  }
  const waitingToStart = resumers
  resumers = []
  for (const start of waitingToStart) start()
}
