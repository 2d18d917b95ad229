import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

/** A fresh copy of the module (its state is the instance's), on a clock the test moves. */
async function intake() {
  vi.resetModules()
  return import('./intake.server')
}

/** Work that runs until its `finish` is called. */
function pending(run: <T>(work: () => Promise<T>) => Promise<T>) {
  let finish!: () => void
  const done = run(() => new Promise<void>((resolve) => (finish = resolve)))
  return {
    finish: async () => {
      finish()
      await done
    },
  }
}

describe('work that goes before new requests', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('holds new requests back while it runs, and lets them go on once it is done', async () => {
    const { beforeNewRequests, newRequestsWait } = await intake()
    const work = pending(beforeNewRequests)
    const resumed: number[] = []
    expect(newRequestsWait(() => resumed.push(1))).toBe(true)
    vi.advanceTimersByTime(20)
    expect(resumed).toEqual([])
    await work.finish()
    expect(resumed).toEqual([1])
    expect(newRequestsWait(() => resumed.push(2))).toBe(false)
  })

  it('holds them back for FIRST_MS at the most, then lets them go on while it still runs', async () => {
    const { beforeNewRequests, FIRST_MS, newRequestsWait } = await intake()
    const work = pending(beforeNewRequests)
    const resumed: number[] = []
    expect(newRequestsWait(() => resumed.push(performance.now()))).toBe(true)
    vi.advanceTimersByTime(FIRST_MS - 1)
    expect(resumed).toEqual([])
    vi.advanceTimersByTime(1)
    expect(resumed).toHaveLength(1)
    expect(newRequestsWait(() => {})).toBe(false)
    await work.finish()
  })

  it('lets new requests go on after a wait at least as long as they waited', async () => {
    const { beforeNewRequests, newRequestsWait } = await intake()
    const first = pending(beforeNewRequests)
    expect(newRequestsWait(() => {})).toBe(true)
    vi.advanceTimersByTime(60)
    await first.finish()
    // Settling again at once: new requests waited 60 ms and now go on for as long.
    const second = pending(beforeNewRequests)
    expect(newRequestsWait(() => {})).toBe(false)
    vi.advanceTimersByTime(59)
    expect(newRequestsWait(() => {})).toBe(false)
    vi.advanceTimersByTime(1)
    expect(newRequestsWait(() => {})).toBe(true)
    await second.finish()
  })

  it('never holds anything back when no such work runs', async () => {
    const { newRequestsWait } = await intake()
    expect(newRequestsWait(() => {})).toBe(false)
  })
})

describe('requests waiting for their turn', () => {
  it('is what the server last said', async () => {
    const { noteWaitingRequests, waitingRequests } = await intake()
    expect(waitingRequests()).toBe(0)
    noteWaitingRequests(12)
    expect(waitingRequests()).toBe(12)
  })
})
