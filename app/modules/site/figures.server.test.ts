import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import type { Database } from '~/db/client.server'
import { db } from '~/db/client.server'
import { analyses } from '~/db/schema'
import { trustNotificationsOf } from '~/lib/kept-cache.server'
import { analysisOf, campHeld } from '../../../tests/support/figures'
import { accountWithSwimmer } from '../../../tests/support/family-analyses'
import { useTestDatabase } from '../../../tests/support/test-database'
import { figuresToShow } from './figures'
import { countFigures, siteFigures } from './figures.server'

useTestDatabase()

afterEach(() => trustNotificationsOf(undefined))

const published = new Date('2025-05-01T10:00:00Z')
/** A day long before the seeded camps (next August), after the camps these tests hold. */
const may2025 = new Date('2025-05-20T06:00:00Z')

describe('the numbers counted from the records', () => {
  it('counts published analyses only, and each swimmer with one once however many they have', async () => {
    const asha = await accountWithSwimmer(db(), { name: 'Asha Rao', email: 'asha@example.com' })
    const ravi = await accountWithSwimmer(db(), { name: 'Ravi Iyer', email: 'ravi@example.com' })
    await analysisOf(db(), asha, published)
    await analysisOf(db(), asha, published)
    await analysisOf(db(), ravi, null)
    expect(await countFigures(may2025)).toEqual({ swimmersAnalysed: 1, analysesDelivered: 2, campsRun: 0 })

    const [draft] = await db().select({ id: analyses.id }).from(analyses).where(eq(analyses.swimmerId, ravi.swimmerId))
    await db().update(analyses).set({ publishedAt: published }).where(eq(analyses.id, draft!.id))
    expect(await countFigures(may2025)).toEqual({ swimmersAnalysed: 2, analysesDelivered: 3, campsRun: 0 })
  })

  it("counts a guest's child by the booking's address and the name as booked, so a second visit is the same child", async () => {
    await analysisOf(db(), { swimmerId: null, name: 'Kavya', email: 'parent@example.com' }, published)
    await analysisOf(db(), { swimmerId: null, name: ' kavya ', email: 'Parent@Example.com' }, published)
    await analysisOf(db(), { swimmerId: null, name: 'Arjun', email: 'parent@example.com' }, published)
    await analysisOf(db(), { swimmerId: null, name: 'Meera', email: 'other@example.com' }, null)
    expect(await countFigures(may2025)).toMatchObject({ swimmersAnalysed: 2, analysesDelivered: 3 })
  })

  it('counts a camp as run once its last day is over in Bangalore, whatever the server’s clock says', async () => {
    await campHeld(db(), 'APR25', '2025-04-01', '2025-04-05')
    await campHeld(db(), 'MAY25', '2025-05-10', '2025-05-14')
    // 23:59 on 14 May in Bangalore (18:29 UTC): the May camp's last day is not over.
    expect((await countFigures(new Date('2025-05-14T18:29:59Z'))).campsRun).toBe(1)
    // Midnight in Bangalore (18:30 UTC, still 14 May in UTC): it is.
    expect((await countFigures(new Date('2025-05-14T18:30:00Z'))).campsRun).toBe(2)
  })

  it('keeps the numbers in memory for a few minutes: a publish shows within them, not at once', async () => {
    trustNotificationsOf({ listening: () => true } as Database)
    const asha = await accountWithSwimmer(db(), { name: 'Asha Rao', email: 'asha@example.com' })
    const now = new Date()
    expect(await siteFigures(now)).toMatchObject({ analysesDelivered: 0 })
    await analysisOf(db(), asha, published)
    expect(await siteFigures(new Date(now.getTime() + 60_000))).toMatchObject({ analysesDelivered: 0 })
    expect(await siteFigures(new Date(now.getTime() + 5 * 60_000))).toMatchObject({ analysesDelivered: 1 })
  })
})

describe('which numbers are shown', () => {
  const counts = { swimmersAnalysed: 120, analysesDelivered: 49, campsRun: 3 }

  it('shows a number at or above its threshold, and none below', () => {
    expect(figuresToShow(counts, { swimmersAnalysedThreshold: 120, analysesDeliveredThreshold: 50, campsRunThreshold: 3 })).toEqual({ swimmersAnalysed: 120, campsRun: 3 })
    expect(figuresToShow(counts, { swimmersAnalysedThreshold: 121, analysesDeliveredThreshold: 49, campsRunThreshold: 4 })).toEqual({ analysesDelivered: 49 })
  })

  it('never shows a number whose threshold is 0, nor a count of 0', () => {
    expect(figuresToShow(counts, { swimmersAnalysedThreshold: 0, analysesDeliveredThreshold: 0, campsRunThreshold: 0 })).toEqual({})
    expect(figuresToShow({ swimmersAnalysed: 0, analysesDelivered: 0, campsRun: 0 }, { swimmersAnalysedThreshold: 1, analysesDeliveredThreshold: 1, campsRunThreshold: 1 })).toEqual({})
  })
})
