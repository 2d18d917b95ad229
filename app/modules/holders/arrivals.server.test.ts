import { describe, expect, it, vi } from 'vitest'

/**
 * Fresh copies of the count of arrivals and of the requests waiting: they are the instance's, and
 * other files run in this worker may have left their own.
 */
async function fresh() {
  vi.resetModules()
  const [arrivals, intake] = await Promise.all([import('./arrivals.server'), import('~/lib/intake.server')])
  return { ...arrivals, ...intake }
}

describe('a rush of parents on this instance', () => {
  it('is more bookings arriving at once than are answered one by one', async () => {
    const { arriving, inARush } = await fresh()
    expect(inARush()).toBe(false)
    const answers: Array<() => void> = []
    const arrivals = Array.from({ length: 5 }, () => arriving(() => new Promise<boolean>((resolve) => answers.push(() => resolve(inARush())))))
    // The fifth came while four were arriving: in a rush.
    expect(inARush()).toBe(true)
    for (const answer of answers) answer()
    await Promise.all(arrivals)
    expect(inARush()).toBe(false)
  })

  it('is also more requests waiting for their turn than that: the first of a rush, before any has reached a line', async () => {
    const { inARush, noteWaitingRequests } = await fresh()
    noteWaitingRequests(4)
    expect(inARush()).toBe(false)
    noteWaitingRequests(5)
    expect(inARush()).toBe(true)
    noteWaitingRequests(0)
    expect(inARush()).toBe(false)
  })
})
