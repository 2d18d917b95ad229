/**
 * Reads `read` until `done` holds, and returns what it read then; throws with the last value read
 * once `timeoutMs` has passed. For what a server does in the background (a worker's delivery, a
 * notification acted on): the test waits for the outcome, never for a fixed time.
 */
export async function eventually<T>(read: () => T | Promise<T>, done: (value: T) => boolean, { timeoutMs = 15_000, everyMs = 100 } = {}) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`Timed out; last seen: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
