import { describe, expect, it } from 'vitest'
import { inLine, lineClock, LOOK_AGAIN, sawFull, waitingFor } from './hold-line.server'

/** A hold that runs until the test lets it finish. */
function pendingHold() {
  let finish!: () => void
  const finished = new Promise<void>((resolve) => (finish = resolve))
  let started = false
  return {
    run: async () => {
      started = true
      await finished
      return 'held'
    },
    finish,
    started: () => started,
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('the line for a session', () => {
  it('lets one hold in at a time, in arrival order', async () => {
    const first = pendingHold()
    const second = pendingHold()
    const firstDone = inLine('line-a', lineClock(), first.run)
    const secondDone = inLine('line-a', lineClock(), second.run)
    await settle()
    expect(first.started()).toBe(true)
    expect(second.started()).toBe(false)
    expect(waitingFor('line-a')).toBe(1)

    first.finish()
    await expect(firstDone).resolves.toBe('held')
    await settle()
    expect(second.started()).toBe(true)
    second.finish()
    await expect(secondDone).resolves.toBe('held')
    expect(waitingFor('line-a')).toBe(0)
  })

  it('once the session is seen full, sends back at once everyone who looked before that, and no one who looked after', async () => {
    const inside = pendingHold()
    const insideDone = inLine('line-b', lineClock(), inside.run)
    const earlier = pendingHold()
    const earlierDone = inLine('line-b', lineClock(), earlier.run)
    const fullAt = lineClock()
    const later = pendingHold()
    const laterDone = inLine('line-b', lineClock(), later.run)
    await settle()

    sawFull('line-b', fullAt)
    inside.finish()
    await insideDone
    await expect(earlierDone).resolves.toBe(LOOK_AGAIN)
    expect(earlier.started()).toBe(false)
    await settle()
    expect(later.started()).toBe(true)
    later.finish()
    await expect(laterDone).resolves.toBe('held')
  })

  it('lines for different sessions do not wait for each other', async () => {
    const one = pendingHold()
    const other = pendingHold()
    const oneDone = inLine('line-c', lineClock(), one.run)
    const otherDone = inLine('line-d', lineClock(), other.run)
    await settle()
    expect(one.started() && other.started()).toBe(true)
    one.finish()
    other.finish()
    await Promise.all([oneDone, otherDone])
  })
})
