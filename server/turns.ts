import { noteWaitingRequests } from '~/lib/intake.server'

/** Requests answered at once from memory (as cheaply as a static file) in one turn, at the most. */
const ANSWERED_AT_ONCE_PER_TURN = 32

/**
 * Starts work one piece per turn of the event loop, in the order it was asked for.
 *
 * Node accepts one new connection per turn of its event loop. Under load a turn used to render
 * every page whose request had arrived (50 pages and 100 ms or more at 50 connections), so a new
 * connection waited one such turn for each connection ahead of it in the kernel's queue: seconds
 * for a visitor arriving in a busy minute, while the pages of connections already open kept going.
 * Started one a turn, each page leaves room for an accept, and for every socket's reads, before the next.
 * A request answered at once from memory (a day known sold out, a kept page) does not take a turn
 * of its own: in a rush, the hundreds still waiting once a day is sold out are told so in a few turns.
 * `paused` may hold new starts back while work that decides their answers runs (beforeNewRequests).
 */
export function oneATurn({ paused = () => false }: { paused?: (resume: () => void) => boolean } = {}) {
  const waiting: Array<{ atOnce: () => boolean; start: () => void }> = []
  // Whether startNext is due: in the next turn, or when new starts may go on after a pause.
  let scheduled = false
  const schedule = () => {
    scheduled = true
    setImmediate(startNext)
  }
  const startNext = () => {
    scheduled = false
    for (let answered = 0; waiting.length > 0; ) {
      if (answered === ANSWERED_AT_ONCE_PER_TURN) {
        schedule()
        break
      }
      const next = waiting[0]!
      if (next.atOnce()) {
        waiting.shift()
        answered += 1
        continue
      }
      // Held back, it is called again when new starts may go on.
      if (paused(startNext)) {
        scheduled = true
        break
      }
      waiting.shift()
      next.start()
      // An immediate set by an immediate runs in the loop's next turn, after its I/O.
      if (waiting.length > 0) schedule()
      break
    }
    noteWaitingRequests(waiting.length)
  }
  /** `atOnce` answers from memory when it can (saying so), else `start` starts the work, in its turn. */
  return (atOnce: () => boolean, start: () => void) => {
    waiting.push({ atOnce, start })
    noteWaitingRequests(waiting.length)
    if (!scheduled) schedule()
  }
}
