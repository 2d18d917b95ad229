import { describe, expect, it } from 'vitest'
import { oneATurn } from './turns'

/** Resolves once the event loop has gone round `turns` times (an immediate set by an immediate waits for the next turn). */
function afterTurns(turns: number) {
  return new Promise<void>((resolve) => {
    const next = (left: number) => (left === 0 ? resolve() : setImmediate(() => next(left - 1)))
    next(turns)
  })
}

describe('oneATurn', () => {
  it('starts the work in the order it was asked for, one piece per turn of the event loop', async () => {
    const inTurn = oneATurn()
    let turn = 0
    let counting = true
    const count = () => {
      turn += 1
      if (counting) setImmediate(count)
    }
    setImmediate(count)
    const started: Array<{ piece: string; turn: number }> = []
    for (const piece of ['a', 'b', 'c']) inTurn(() => started.push({ piece, turn }))
    await afterTurns(6)
    counting = false
    expect(started.map((start) => start.piece)).toEqual(['a', 'b', 'c'])
    expect(started[1]!.turn).toBeGreaterThan(started[0]!.turn)
    expect(started[2]!.turn).toBeGreaterThan(started[1]!.turn)
  })

  it('starts work asked for after the queue ran dry', async () => {
    const inTurn = oneATurn()
    const started: string[] = []
    inTurn(() => started.push('a'))
    await afterTurns(3)
    inTurn(() => started.push('b'))
    await afterTurns(3)
    expect(started).toEqual(['a', 'b'])
  })
})
