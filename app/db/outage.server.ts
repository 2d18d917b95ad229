/**
 * Errors that say the database cannot be reached right now (restarting, failing over, the network
 * between us down), as opposed to a query that is wrong. Such a request is answered "try again in a
 * moment" (503), never "something broke" (500), and the site recovers by itself when the database
 * is back: the pool opens fresh connections for the next requests.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const candidate of causes(error)) {
    const code = typeof candidate.code === 'string' ? candidate.code : ''
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true
    if (typeof candidate.message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(candidate.message as string))) return true
  }
  return false
}

/** Seconds a client is asked to wait before trying again (the Retry-After header). */
export const RETRY_AFTER_SECONDS = 5

/** Sockets refused, reset or timed out on the way to the database. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

/**
 * PostgreSQL's own "not now": 57P01 admin_shutdown (a restart), 57P02 crash_shutdown, 57P03
 * cannot_connect_now (starting up, recovering), 53300 too_many_connections; class 08 (connection
 * exceptions) is matched by prefix.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300'])

/** What `pg` says when a connection dies under it or cannot be made in time; it sets no code for these. */
const UNAVAILABLE_MESSAGES = [/Connection terminated/i, /timeout exceeded when trying to connect/i, /connection error and is not queryable/i, /Connection ended unexpectedly/i]

type ErrorLike = { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown }

/** The error, its causes (Drizzle wraps the driver's error as `cause`) and, for an AggregateError, its parts. */
function* causes(error: unknown, depth = 0): Generator<ErrorLike> {
  if (depth > 5 || typeof error !== 'object' || error === null) return
  const candidate = error as ErrorLike
  yield candidate
  if (candidate.cause !== undefined) yield* causes(candidate.cause, depth + 1)
  if (Array.isArray(candidate.errors)) for (const part of candidate.errors) yield* causes(part, depth + 1)
}
