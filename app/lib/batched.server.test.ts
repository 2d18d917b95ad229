import { describe, expect, it } from 'vitest'
import { batchedReader } from './batched.server'

/** A database whose answers the test gives: each read answers with the keys it was sent, doubled. */
function controlledDatabase() {
  const reads: Array<{ keys: number[]; answer: () => void; fail: (error: Error) => void }> = []
  const read = batchedReader(
    (keys: number[]) =>
      new Promise<Map<number, number>>((resolve, reject) =>
        reads.push({ keys, answer: () => resolve(new Map(keys.filter((key) => key !== 13).map((key) => [key, key * 2]))), fail: reject }),
      ),
    { maxKeys: 400 },
  )
  return { read, reads }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('a batched read', () => {
  it('reads a lone key at once', async () => {
    const database = controlledDatabase()
    const answer = database.read(1)
    expect(database.reads.map((read) => read.keys)).toEqual([[1]])
    database.reads[0]!.answer()
    expect(await answer).toBe(2)
  })

  it('reads a thousand different keys asked for at once in a handful of queries, each caller told its own', async () => {
    const database = controlledDatabase()
    const answers = Promise.all(Array.from({ length: 1000 }, (_, key) => database.read(key)))
    for (let index = 0; index < 4; index += 1) {
      await settle()
      database.reads[index]!.answer()
    }
    const told = await answers
    expect(database.reads.map((read) => read.keys.length)).toEqual([1, 400, 400, 199])
    expect(told).toEqual(Array.from({ length: 1000 }, (_, key) => (key === 13 ? undefined : key * 2)))
  })

  it('never answers a caller with a read that was already under way when it asked', async () => {
    const database = controlledDatabase()
    const early = database.read(5)
    const late = database.read(5)
    expect(database.reads).toHaveLength(1)
    database.reads[0]!.answer()
    expect(await early).toBe(10)
    await settle()
    expect(database.reads.map((read) => read.keys)).toEqual([[5], [5]])
    database.reads[1]!.answer()
    expect(await late).toBe(10)
  })

  it('passes a failed read on to the callers of its keys, and the others are still read', async () => {
    const database = controlledDatabase()
    const first = database.read(1)
    const second = [database.read(2), database.read(3)]
    database.reads[0]!.fail(new Error('connection lost'))
    await expect(first).rejects.toThrow('connection lost')
    await settle()
    database.reads[1]!.answer()
    expect(await Promise.all(second)).toEqual([4, 6])
  })
})
