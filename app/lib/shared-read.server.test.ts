import { describe, expect, it } from 'vitest'
import { sharedRead } from './shared-read.server'

/** A read whose answer the test gives, counting how often it was sent. */
function controlledRead() {
  const answers: Array<(value: number) => void> = []
  return {
    read: () => new Promise<number>((resolve) => answers.push(resolve)),
    sent: () => answers.length,
    answer: (index: number, value: number) => answers[index]!(value),
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('a shared read', () => {
  it('costs two reads for a thousand callers asking at once: the first at once, one more for all the others', async () => {
    const database = controlledRead()
    const answers = Promise.all(Array.from({ length: 1000 }, () => sharedRead('shared-a', database.read)))
    await settle()
    expect(database.sent()).toBe(1)
    database.answer(0, 1)
    await settle()
    expect(database.sent()).toBe(2)
    database.answer(1, 2)
    const told = await answers
    expect(told[0]).toBe(1)
    expect(told.slice(1).every((answer) => answer === 2)).toBe(true)
  })

  it('never answers a caller with a read that was already under way when it asked', async () => {
    const database = controlledRead()
    const early = sharedRead('shared-b', database.read)
    await settle()
    // These ask while the first read is under way: they share the next one, sent after it.
    const late = Promise.all([sharedRead('shared-b', database.read), sharedRead('shared-b', database.read)])
    await settle()
    expect(database.sent()).toBe(1)
    database.answer(0, 1)
    expect(await early).toBe(1)
    await settle()
    expect(database.sent()).toBe(2)
    database.answer(1, 2)
    expect(await late).toEqual([2, 2])
  })

  it('passes a failed read on to everyone who shared it, and the next caller reads again', async () => {
    const failing = () => Promise.reject(new Error('connection lost'))
    const both = [sharedRead('shared-c', failing), sharedRead('shared-c', failing)]
    for (const answer of both) await expect(answer).rejects.toThrow('connection lost')
    await expect(sharedRead('shared-c', () => Promise.resolve(3))).resolves.toBe(3)
  })
})
