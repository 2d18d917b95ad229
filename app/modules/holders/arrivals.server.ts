import { waitingRequests } from '~/lib/intake.server'

/**
 * Parents arriving at once on this instance, through a line (the camp line, an analysis day's line):
 * while few arrive, a page may wait for its outcome and answer it directly; in a rush, answering
 * everyone still arriving with their place in line comes first.
 */

/** Bookings and registrations arriving on this instance now; more than QUIET of them is a rush. */
let arrivals = 0
const QUIET = 4
/** Pages waiting for the rush of arrivals on this instance to pass. */
let waitingForQuiet: Array<() => void> = []
/**
 * When this instance was last in a rush (performance.now()). It is over once it has not been for
 * QUIET_GAP_MS: parents arrive in waves, and a page started between two waves would hold up the next.
 */
let lastRushAt = Number.NEGATIVE_INFINITY
const QUIET_GAP_MS = 250
let recheck: NodeJS.Timeout | null = null

function quietNow() {
  return arrivals <= QUIET && performance.now() - lastRushAt >= QUIET_GAP_MS
}

/** Wakes the pages waiting for quiet once it has come: a moment after the rush, looked at again then. */
function wakeWhenQuiet() {
  if (waitingForQuiet.length === 0 || arrivals > QUIET || recheck) return
  const gap = QUIET_GAP_MS - (performance.now() - lastRushAt)
  if (gap > 0) {
    recheck = setTimeout(() => {
      recheck = null
      wakeWhenQuiet()
    }, gap)
    return
  }
  const waiting = waitingForQuiet
  waitingForQuiet = []
  for (const wake of waiting) wake()
}

/**
 * Runs one booking's or registration's arrival, telling it whether this instance is quiet (few parents
 * booking or registering at once), in which case it may wait for its outcome and answer it directly.
 */
export async function arriving<T>(work: (quiet: boolean) => Promise<T>): Promise<T> {
  arrivals += 1
  if (arrivals > QUIET) lastRushAt = performance.now()
  try {
    return await work(arrivals <= QUIET)
  } finally {
    if (arrivals > QUIET) lastRushAt = performance.now()
    arrivals -= 1
    wakeWhenQuiet()
  }
}

/**
 * Notes a parent's booking that was answered without running as an arrival (a day known to be sold
 * out, answered at once): while such bookings keep coming, the rush is not over.
 */
export function arrived() {
  lastRushAt = performance.now()
}

/**
 * Whether more parents are arriving on this instance at once than it answers one by one, or more
 * requests are waiting for their turn (the first of a rush, before any has reached the line).
 */
export function inARush() {
  return arrivals > QUIET || waitingRequests() > QUIET
}

/**
 * Resolves once this instance is quiet, or at `deadline`. In a rush, answering every parent who
 * is still arriving (with their place in line) comes before showing outcomes to those already in
 * line: an outcome page costs many times what the place in line does, and even reading a page's
 * request costs a parent still arriving a little time.
 */
export function quietOr(deadline: number) {
  if (quietNow()) return Promise.resolve()
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, deadline - Date.now())
    waitingForQuiet.push(() => {
      clearTimeout(timer)
      resolve()
    })
    wakeWhenQuiet()
  })
}

/**
 * The moves of one line on this instance (a chunk of it settled, here or, when its notification is
 * heard, on another instance): a page waiting for a place's turn waits for the next move.
 */
export function lineMoves() {
  let moved: { promise: Promise<void>; resolve: () => void } | null = null
  return {
    /** The line moved: whoever waits looks again. */
    wake() {
      moved?.resolve()
      moved = null
    },
    /** Resolves at the line's next move, or after `timeoutMs`. */
    next(timeoutMs: number) {
      if (!moved) {
        let resolve!: () => void
        const promise = new Promise<void>((done) => (resolve = done))
        moved = { promise, resolve }
      }
      return Promise.race([moved.promise, new Promise<void>((done) => setTimeout(done, timeoutMs).unref())])
    },
  }
}

/**
 * A place in a line once it is settled (and this instance is answering no rush of arrivals), or as
 * it stands after `waitMs`. Waiting costs nothing but a read each time the line moves; each look
 * asks the line to be settled, in case no instance is doing it (one that stopped, say).
 */
export async function settledPlace<Place extends { outcome: unknown }>(read: () => Promise<Place | undefined>, { waitMs, settle, moves }: { waitMs: number; settle: () => Promise<void>; moves: ReturnType<typeof lineMoves> }) {
  const deadline = Date.now() + waitMs
  for (;;) {
    const place = await read()
    const left = deadline - Date.now()
    if (!place || left <= 0) return place
    if (place.outcome) {
      await quietOr(deadline)
      return place
    }
    void settle().catch(() => {})
    await moves.next(Math.min(left, 1_000))
  }
}
