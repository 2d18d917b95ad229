/**
 * When a session opens, hundreds of customers may ask for it in the same second. Only one
 * transaction at a time can hold its windows' locks, and each one waiting for them keeps a database
 * connection that the others need to be told quickly that the session is full. So, on each
 * instance, holds for one session line up here, without a connection, and go in one at a time.
 *
 * When the one inside finds the session full, everyone still in line who last looked at the
 * session before that is sent back to look again (each with one quick read, all at once) instead
 * of queueing for the locks only to be refused there one by one. Only the transaction decides who
 * gets a seat; the line merely decides who is worth sending to it.
 */

/** Told to a customer sent back to look at the session again. */
export const LOOK_AGAIN = Symbol('look again')

type Waiting = { lookedAt: number; go: (enter: boolean) => void }
type Line = { waiting: Waiting[]; fullAt: number }

const lines = new Map<string, Line>()
let ticks = 0

/** This instance's clock for ordering looks at a session: every call returns a later moment. */
export function lineClock() {
  ticks += 1
  return ticks
}

/**
 * Runs `hold` when its turn comes in the line for `session`, or returns LOOK_AGAIN when the
 * session was found full after `lookedAt` (the caller's own look at it).
 */
export async function inLine<T>(session: string, lookedAt: number, hold: () => Promise<T>): Promise<T | typeof LOOK_AGAIN> {
  let line = lines.get(session)
  if (!line) {
    line = { waiting: [], fullAt: 0 }
    lines.set(session, line)
  } else {
    const current = line
    const enter = await new Promise<boolean>((go) => current.waiting.push({ lookedAt, go }))
    if (!enter) return LOOK_AGAIN
  }
  try {
    if (line.fullAt > lookedAt) return LOOK_AGAIN
    return await hold()
  } finally {
    nextInLine(session, line)
  }
}

/** The one inside saw the session full at `at` (lineClock(), taken before it counted the seats). */
export function sawFull(session: string, at: number) {
  const line = lines.get(session)
  if (line) line.fullAt = Math.max(line.fullAt, at)
}

function nextInLine(session: string, line: Line) {
  const behind = line.waiting.filter((waiting) => waiting.lookedAt < line.fullAt)
  line.waiting = line.waiting.filter((waiting) => waiting.lookedAt >= line.fullAt)
  for (const waiting of behind) waiting.go(false)
  const next = line.waiting.shift()
  if (next) next.go(true)
  else lines.delete(session)
}

/** How many are waiting in line for `session` (for tests). */
export function waitingFor(session: string) {
  return lines.get(session)?.waiting.length ?? 0
}
