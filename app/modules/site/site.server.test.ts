import { eq, sql } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { catalogueItems } from '~/db/schema'
import { CATALOGUE_SEED } from '~/db/seed.server'
import { addSeconds } from '~/lib/lab-time'
import { useTestDatabase } from '../../../tests/support/test-database'
import { getCatalogue, isBannerVisible, listCamps, requireItem } from './site.server'

// Seeded before the early-bird deadline of that year's camps (15 July, end of day, IST).
const { database } = useTestDatabase({ seedAt: new Date('2026-03-01T06:30:00Z') })

describe('catalogue', () => {
  it('returns every seeded item with its price', async () => {
    const catalogue = await getCatalogue()
    for (const item of CATALOGUE_SEED) {
      expect(requireItem(catalogue, item.code)).toMatchObject({ name: item.name, pricePaise: item.pricePaise, regularPricePaise: item.regularPricePaise })
    }
  })

  it('returns a price an admin changed, not the seeded one', async () => {
    const { db } = await database()
    await db.update(catalogueItems).set({ pricePaise: 28_000_00, regularPricePaise: 36_000_00 }).where(eq(catalogueItems.code, 'biomechanical_package'))

    const item = requireItem(await getCatalogue(), 'biomechanical_package')
    expect(item.pricePaise).toBe(28_000_00)
    expect(item.regularPricePaise).toBe(36_000_00)
  })

  it('fails loudly when a page asks for an item that is missing', async () => {
    const { db } = await database()
    await db.delete(catalogueItems).where(eq(catalogueItems.code, 'race_analysis'))
    const catalogue = await getCatalogue()
    expect(() => requireItem(catalogue, 'race_analysis')).toThrow(/race_analysis is missing/)
  })
})

describe('camp prices', () => {
  it('charges the early-bird price until the deadline and the regular price from then on', async () => {
    const [seeded] = await listCamps()
    if (!seeded) throw new Error('no camp was seeded')
    const deadline = new Date(seeded.earlyBirdEndsAt)
    expect(deadline.toISOString()).toBe('2026-07-15T18:29:59.000Z') // 23:59:59 IST

    const before = (await listCamps(addSeconds(deadline, -1))).find((camp) => camp.code === seeded.code)
    expect(before).toMatchObject({ earlyBird: true, currentPricePaise: seeded.earlyBirdPricePaise })
    expect(before?.currentPricePaise).toBe(35_000_00)

    const at = (await listCamps(deadline)).find((camp) => camp.code === seeded.code)
    expect(at).toMatchObject({ earlyBird: false, currentPricePaise: seeded.regularPricePaise })
    expect(at?.currentPricePaise).toBe(40_000_00)
  })

  it('lists each camp with its two batches of 30 seats', async () => {
    const camps = await listCamps()
    expect(camps.map((camp) => camp.code)).toEqual(['camp1', 'camp2'])
    for (const camp of camps) {
      expect(camp.batches.map((batch) => batch.code)).toEqual(['batch1', 'batch2'])
      for (const batch of camp.batches) expect(batch.capacity).toBe(30)
    }
  })
})

describe('banner visibility', () => {
  it('is read from the settings', async () => {
    expect(await isBannerVisible()).toBe(true)
  })

  it('hides the banner and reports the error when the settings cannot be read', async () => {
    const { db } = await database()
    const onError = vi.fn()
    await db.execute(sql`ALTER TABLE site_settings RENAME TO site_settings_unavailable`)
    try {
      expect(await isBannerVisible(onError)).toBe(false)
    } finally {
      await db.execute(sql`ALTER TABLE site_settings_unavailable RENAME TO site_settings`)
    }
    expect(onError).toHaveBeenCalledOnce()
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(Error)
    expect(await isBannerVisible(onError)).toBe(true)
  })
})
