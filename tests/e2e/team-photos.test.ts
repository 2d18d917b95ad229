import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { siteSettings } from '~/db/schema'
import { SITE_SETTINGS_SEED } from '~/db/seed.server'
import { chooseUnlisted, expectNoAxeViolations, LAPTOP, PHONE, useBrowser, watchPageErrors } from '../support/browser'
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
      // Part-way through naming the people: the coach and two of the team named (one without a photo
      // yet), the last two still placeholders.
      const [, , third, fourth] = SITE_SETTINGS_SEED.team
      const named = (name: string) => ({ name, role: 'Sports scientist', bio: `${name} studies how swimmers move.`, placeholder: false })
      await db
        .update(siteSettings)
        .set({
          coach: { name: 'Priya Rao', credentials: 'National champion, 200 m butterfly', placeholder: false, photoId: id },
          team: [{ ...named('Meera Iyer'), photoId: id }, named('Arjun Rao'), third!, fourth!],
        })
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
    await chooseUnlisted(coach.getByLabel('Photo'), processingId)
    await coach.getByRole('button', { name: 'Save the coach' }).click()
    await expect.poll(() => coach.getByText('That photo is still being processed').count()).toBe(1)
    await expectNoAxeViolations(settings)
    expect(errors).toEqual([])
  })
})

describe('named people and placeholders', () => {
  for (const viewport of [PHONE, LAPTOP]) {
    it(`at ${viewport.width}px: the named members (the one without a photo with the decorative pattern), no placeholder, and the coach in the banner`, async () => {
      const context = await browser.context(site.url, viewport)
      // The library's rows have no files behind them here: the photos' own requests are not watched.
      const page = await context.newPage()
      await page.goto('/about')
      const team = page.getByRole('region', { name: 'Our Team' })
      expect(await team.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(['Meera Iyer', 'Arjun Rao'])
      expect(await team.innerText()).not.toContain('[')
      expect(await team.innerText()).toContain('Names, photos and profiles of our team are being finalised and will appear here soon.')
      // The real photo keeps its alt text; the pattern in place of the other is there to be seen, not announced.
      expect(await team.getByRole('img').count()).toBe(1)
      expect(await team.getByRole('img', { name: 'Dr Meera Iyer smiling at the poolside' }).isVisible()).toBe(true)
      const pattern = team.getByRole('listitem').filter({ hasText: 'Arjun Rao' }).locator('svg')
      expect(await pattern.isVisible()).toBe(true)
      expect(await pattern.getAttribute('aria-hidden')).toBe('true')

      // The banner: one line (with the coach's name and photo from the md breakpoint), the rest behind "Details".
      const banner = page.getByRole('complementary', { name: 'Swimming camps' })
      const line = (await banner.boundingBox())!
      expect(line.height).toBeLessThanOrEqual(viewport === PHONE ? 56 : 72)
      if (viewport === LAPTOP) {
        expect(await banner.locator('summary').innerText()).toContain('Swimming camps with Priya Rao')
        expect(await banner.locator('summary').getByRole('img', { name: 'Dr Meera Iyer smiling at the poolside' }).isVisible()).toBe(true)
      }
      await banner.locator('summary').click()
      expect(await banner.getByText('National champion, 200 m butterfly').isVisible()).toBe(true)
      expect(await banner.innerText()).not.toContain('[')
      expect(await banner.getByRole('img').count()).toBe(1)
      await expectNoAxeViolations(page)
      await context.close()
    })
  }
})
