import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog } from '~/db/schema'
import { createStaff } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { addBand, bandKey, bandsOfEvents, deleteBand, listBands, updateBand, type BandInput } from './bands.server'
import { BandSchema } from './schemas'

useTestDatabase()

let actor: { id: number; email: string }
beforeEach(async () => {
  actor = await createStaff()
})

const band = (overrides: Partial<BandInput>): BandInput => ({ stroke: 'freestyle', distance: 50, metric: 'final_time', ageMin: 11, ageMax: 12, gender: 'any', level: 'State finalist', value: 30.5, ...overrides })

describe('reference bands', () => {
  it('match the event, metric, age and gender (or any gender; a level for the gender wins over the same for any), weakest first', async () => {
    await addBand(actor, band({ level: 'District finalist', value: 33.2 }))
    await addBand(actor, band({ gender: 'female', level: 'National junior finalist', value: 28.9 }))
    await addBand(actor, band({ gender: 'male', level: 'National junior finalist', value: 27.6 }))
    await addBand(actor, band({ ageMin: 13, ageMax: 14, level: 'State finalist', value: 29.1 }))
    await addBand(actor, band({ metric: 'stroke_rate', level: 'State finalist', value: 52 }))
    await addBand(actor, band({ distance: 100, level: 'State finalist', value: 66 }))
    await addBand(actor, band({ stroke: 'backstroke', level: 'State finalist', value: 34 }))
    await addBand(actor, band({ level: 'State finalist', value: 30.5 }))

    await addBand(actor, band({ gender: 'female', level: 'District finalist', value: 34 }))

    const freestyle50 = { stroke: 'freestyle', distanceMetres: 50, metrics: [{ key: 'final_time', betterWhen: 'lower' as const }] }
    const of = async (age: number, gender: string | null) => (await bandsOfEvents([freestyle50], age, gender)).get(bandKey('freestyle', 50, 'final_time')) ?? []
    // Lower times are better: the slowest first.
    expect(await of(12, 'female')).toEqual([
      { level: 'District finalist', value: 34 },
      { level: 'State finalist', value: 30.5 },
      { level: 'National junior finalist', value: 28.9 },
    ])
    expect(await of(11, 'male')).toEqual([
      { level: 'District finalist', value: 33.2 },
      { level: 'State finalist', value: 30.5 },
      { level: 'National junior finalist', value: 27.6 },
    ])
    // Neither male nor female, or not known: the bands for any gender.
    expect(await of(11, 'other')).toEqual([
      { level: 'District finalist', value: 33.2 },
      { level: 'State finalist', value: 30.5 },
    ])
    expect(await of(11, null)).toEqual(await of(11, 'other'))
    // The age range holds both ends, and nothing outside it.
    expect(await of(13, 'female')).toEqual([{ level: 'State finalist', value: 29.1 }])
    expect(await of(14, 'female')).toEqual([{ level: 'State finalist', value: 29.1 }])
    expect(await of(10, 'female')).toEqual([])
    expect(await of(15, 'female')).toEqual([])
  })

  it('are changed and deleted with an audit entry; a second band of the same level is refused next to the level', async () => {
    const id = await addBand(actor, band({}))
    await expect(addBand(actor, band({ value: 31 }))).rejects.toMatchObject({ kind: 'conflict', field: 'level' })
    await updateBand(actor, id, band({ value: 30.1, level: 'State medallist' }))
    expect((await listBands()).map((row) => [row.level, row.value])).toEqual([['State medallist', 30.1]])
    await deleteBand(actor, id)
    expect(await listBands()).toEqual([])
    await expect(deleteBand(actor, id)).rejects.toMatchObject({ kind: 'not_found' })
    const entries = await db().select({ action: auditLog.action, summary: auditLog.summary }).from(auditLog).where(eq(auditLog.entityType, 'reference_band')).orderBy(auditLog.id)
    expect(entries.map((entry) => entry.action)).toEqual(['band.add', 'band.change', 'band.delete'])
    expect(entries[0]!.summary).toBe('Added the reference band 50 m freestyle, Final time, ages 11-12, any gender: State finalist 30.5 s')
  })

  it('the form explains each mistake next to its field', () => {
    const result = BandSchema.safeParse({ stroke: 'doggy', distance: '60', metric: 'speed', ageMin: '', ageMax: '3', gender: 'x', level: '', value: 'fast' })
    expect(Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]))).toEqual({
      stroke: 'Choose a stroke',
      distance: 'Choose a distance',
      metric: 'Choose a metric',
      ageMin: 'Enter the youngest age, in whole years',
      ageMax: 'Ages run from 4 to 99',
      gender: 'Choose who the band is for',
      level: 'Name the level, for example “State finalist”',
      value: 'Enter a number, for example 1.85 or a time as 1:05.32',
    })
    expect(BandSchema.safeParse({ stroke: 'freestyle', distance: '50', metric: 'final_time', ageMin: '14', ageMax: '12', gender: 'any', level: 'State', value: '30' }).error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['ageMax', 'The oldest age must be at least the youngest']])
  })
})
