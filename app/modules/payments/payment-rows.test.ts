import { readdir, readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

// Only the payments module writes payment rows: a booking staff record as paid at the lab gets its
// row from recordPaidAtTheLab, so exactly-once, receipts and refunds see every payment there is.
describe('payment rows', () => {
  it('are inserted, changed and deleted by the payments module alone', async () => {
    const files = (await readdir('app', { recursive: true })).filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith('modules/payments/'))
    const writers: string[] = []
    for (const file of files) if (/\.(insert|update|delete)\(payments\)/.test(await readFile(`app/${file}`, 'utf8'))) writers.push(file)
    expect(writers).toEqual([])
  })
})
