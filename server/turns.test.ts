import { describe, expect, it } from 'vitest'
import { oneATurn } from './turns'

/** Resolves once the event loop has gone round `turns` times (an immediate set by an immediate waits for the next turn). */
function afterTurns(turns: number) {
  return new Promise<void>((resolve) => {
    const next = (left: number) => (left === 0 ? resolve() : setImmediate(() => next(left - 1)))
    next(turns)
  })
}

/** Counts the event loop's turns while the returned `stop` is not called. */
function turnCounter() {
  let turn = 0
  let counting = true
  const count = () => {
    turn += 1
    if (counting) setImmediate(count)
  }
  setImmediate(count)
  return {
    now: () => turn,
    stop: () => {
      counting = false
    },
  }
}

const never = () => false

describe('oneATurn', () => {
  it('starts the work in the order it was asked for, one piece per turn of the event loop', async () => {
    const inTurn = oneATurn()
    const turns = turnCounter()
    const started: Array<{ piece: string; turn: number }> = []
    for (const piece of ['a', 'b', 'c']) inTurn(never, () => started.push({ piece, turn: turns.now() }))
    await afterTurns(6)
    turns.stop()
    expect(started.map((start) => start.piece)).toEqual(['a', 'b', 'c'])
    expect(started[1]!.turn).toBeGreaterThan(started[0]!.turn)
    expect(started[2]!.turn).toBeGreaterThan(started[1]!.turn)
  })

  it('starts work asked for after the queue ran dry', async () => {
    const inTurn = oneATurn()
    const started: string[] = []
    inTurn(never, () => started.push('a'))
    await afterTurns(3)
    inTurn(never, () => started.push('b'))
    await afterTurns(3)
    expect(started).toEqual(['a', 'b'])
  })

  it('answers many requests from memory in one turn, without starting their work, and starts the next one that needs it', async () => {
    const inTurn = oneATurn()
    const turns = turnCounter()
    const answered: number[] = []
    const started: number[] = []
    for (let index = 0; index < 40; index += 1) {
      inTurn(
        () => index < 35 && answered.push(turns.now()) > 0,
        () => started.push(index),
      )
    }
    await afterTurns(10)
    turns.stop()
    // At most 32 in a turn: the 33rd waits for the next.
    expect(answered).toHaveLength(35)
    expect(new Set(answered.slice(0, 32)).size).toBe(1)
    expect(answered[32]).toBeGreaterThan(answered[0]!)
    expect(started).toEqual([35, 36, 37, 38, 39])
  })

  it('holds new starts back while it is paused, answering from memory meanwhile, and goes on when resumed', async () => {
    let resume: (() => void) | null = null
    const inTurn = oneATurn({
      paused: (resumeLater) => {
        if (pausedNow) resume = resumeLater
        return pausedNow
      },
    })
    let pausedNow = true
    const events: string[] = []
    inTurn(
      () => (events.push('quick a'), true),
      () => events.push('start a'),
    )
    inTurn(never, () => events.push('start b'))
    inTurn(
      () => (events.push('quick c'), true),
      () => events.push('start c'),
    )
    await afterTurns(5)
    // The first is answered from memory; the second waits, and with it everything behind it.
    expect(events).toEqual(['quick a'])
    expect(resume).not.toBeNull()
    pausedNow = false
    resume!()
    await afterTurns(5)
    expect(events).toEqual(['quick a', 'start b', 'quick c'])
  })
})
