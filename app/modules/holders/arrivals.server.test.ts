import { describe, expect, it } from 'vitest'
import { noteWaitingRequests } from '~/lib/intake.server'
import { arriving, inARush } from './arrivals.server'

describe('a rush of parents on this instance', () => {
  it('is more bookings arriving at once than are answered one by one', async () => {
    expect(inARush()).toBe(false)
    const answers: Array<() => void> = []
    const arrivals = Array.from({ length: 5 }, () => arriving(() => new Promise<boolean>((resolve) => answers.push(() => resolve(inARush())))))
    // The fifth came while four were arriving: in a rush.
    expect(inARush()).toBe(true)
    for (const answer of answers) answer()
    await Promise.all(arrivals)
    expect(inARush()).toBe(false)
  })

  it('is also more requests waiting for their turn than that: the first of a rush, before any has reached a line', () => {
    noteWaitingRequests(4)
    expect(inARush()).toBe(false)
    noteWaitingRequests(5)
    expect(inARush()).toBe(true)
    noteWaitingRequests(0)
    expect(inARush()).toBe(false)
  })
})
