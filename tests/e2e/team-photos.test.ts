import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { siteSettings } from '~/db/schema'
import { SITE_SETTINGS_SEED } from '~/db/seed.server'
import { expectNoAxeViolations, useBrowser, watchPageErrors } from '../support/browser'
import { addPortrait } from '../support/media'
import { useTestSite } from '../support/site'

// The library's portraits on the pages that show them and in the form that chooses them, in a real browser.

const browser = useBrowser()
let processingId = 0
const site = useTestSite(
  {},
  {
    prepare: async (db) => {
      const { id } = await addPortrait(db, { title: 'Meera at the pool', altText: 'Dr Meera Iyer smiling at the poolside', status: 'ready' })
      processingId = (await addPortrait(db, { title: 'Still processing', altText: 'A swimmer in a cap', status: 'processing' })).id
      const [first, ...others] = SITE_SETTINGS_SEED.team
      await db
        .update(siteSettings)
        .set({ coach: { ...SITE_SETTINGS_SEED.coach, photoId: id }, team: [{ ...first!, photoId: id }, ...others] })
        .where(eq(siteSettings.id, 1))
    },
  },
)

describe('portraits', () => {
  it('axe finds nothing on /about with a photo and the banner with the coach’s, nor on the settings with a photo refused', async () => {
    const visitor = await browser.context(site.url)
    const page = await visitor.newPage()
    await page.goto('/about')
    await expect.poll(() => page.getByRole('img', { name: 'Dr Meera Iyer smiling at the poolside' }).count()).toBeGreaterThan(1)
    await expectNoAxeViolations(page)

    const admin = await browser.staff(site.url)
    const settings = await admin.newPage()
    const errors = watchPageErrors(settings)
    await settings.goto('/admin/settings')
    const coach = settings.locator('form#coach')
    await expect.poll(() => coach.getByLabel('Photo').inputValue()).not.toBe('')
    // A photo the list no longer offers, as a page opened earlier would send it.
    await coach.getByLabel('Photo').evaluate((select, id) => {
      const option = document.createElement('option')
      option.value = String(id)
      select.append(option)
      ;(select as HTMLSelectElement).value = String(id)
    }, processingId)
    await coach.getByRole('button', { name: 'Save the coach' }).click()
    await expect.poll(() => coach.getByText('That photo is still being processed').count()).toBe(1)
    await expectNoAxeViolations(settings)
    expect(errors).toEqual([])
  })
})
