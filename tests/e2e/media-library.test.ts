import type { BrowserContext, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { phonePhoto } from '~/modules/media/test-photos'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { useTestSite } from '../support/site'

// The journey of a team photo: staff upload it from a phone (with the GPS position a phone writes),
// describe it, put it on the team and on the coach, and visitors see it on /about and in the camp
// banner as AVIF in the size the layout needs, with nothing of the phone's metadata.

const browser = useBrowser()
const site = useTestSite()
let admin: BrowserContext
const ALT = 'Head coach Priya Rao on the pool deck'

beforeAll(async () => {
  admin = await browser.staff(site.url)
})

/** The form of the settings page that sends `intent` (and the team member `index`). */
function settingsForm(page: Page, intent: 'coach' | 'member', index?: number) {
  const form = page.locator('form').filter({ has: page.locator(`input[name="intent"][value="${intent}"]`) })
  return index === undefined ? form : form.filter({ has: page.locator(`input[name="index"][value="${index}"]`) })
}

/** What the browser chose to show of a photo: the file's address, its width, and the width drawn. */
function shown(page: Page, selector: string) {
  return page.locator(selector).first().evaluate((image: HTMLImageElement) => ({ src: image.currentSrc, natural: image.naturalWidth, drawn: image.getBoundingClientRect().width, complete: image.complete }))
}

describe('a team photo from a phone', () => {
  it('is uploaded, described, chosen for the team and the coach, and shown without its metadata at phone and desktop sizes', async () => {
    const page = await admin.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/admin/media')
    await expectNoAxeViolations(page)
    await page.getByLabel('Photo or video loop').setInputFiles({ name: 'IMG_0042.JPG', mimeType: 'image/jpeg', buffer: await phonePhoto({ width: 2400, height: 1800 }) })
    await page.getByLabel('What it shows').selectOption({ label: 'Team and coach portrait' })
    await page.getByLabel('Name in the library (optional)').fill('Priya on deck')
    await page.getByLabel('Alt text (optional now, needed before it is used)').fill(ALT)
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.getByText('Uploaded').first().waitFor()

    // The pipeline finishes in the background; the library shows it ready.
    await expect.poll(async () => {
      await page.reload()
      return page.getByRole('listitem').filter({ hasText: 'Priya on deck' }).getByText('Ready').count()
    }, { timeout: 30_000 }).toBe(1)
    await expectNoAxeViolations(page)

    await page.goto('/admin/settings#people')
    // Named as well: a placeholder stays off the public pages, photo or not.
    const member = settingsForm(page, 'member', 0)
    await member.getByLabel('Name', { exact: true }).fill('Priya Rao')
    await member.getByLabel('Photo').selectOption({ label: 'Priya on deck' })
    await member.getByRole('button', { name: /^Save/ }).click()
    await page.getByText('Team member saved').first().waitFor()
    const coach = settingsForm(page, 'coach')
    await coach.getByLabel('Name', { exact: true }).fill('Priya Rao')
    await coach.getByLabel('Photo').selectOption({ label: 'Priya on deck' })
    await coach.getByRole('button', { name: /^Save/ }).click()
    await page.getByText('Coach saved').first().waitFor()
    expect(errors).toEqual([])
    await page.close()

    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.context(site.url, viewport)
      const visitor = await context.newPage()
      await visitor.goto('/about')
      const portrait = `main img[alt="${ALT}"]`
      await visitor.locator(portrait).first().scrollIntoViewIfNeeded()
      await expect.poll(() => shown(visitor, portrait).then((image) => image.complete && image.natural > 0)).toBe(true)
      const image = await shown(visitor, portrait)
      // AVIF, since the browser takes it, and the narrowest width sharp at the size drawn (one pixel per CSS pixel here).
      expect(image.src).toMatch(/\/media\/[0-9a-f]{32}\.avif$/)
      expect(image.natural).toBeGreaterThanOrEqual(image.drawn)
      expect(image.natural).toBeLessThanOrEqual(320)
      const file = await visitor.request.get(image.src)
      expect(file.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
      const bytes = await file.body()
      expect(bytes.includes(Buffer.from('LabTestPhone'))).toBe(false)
      expect(bytes.includes(Buffer.from('Exif'))).toBe(false)
      await expectNoSidewaysScroll(visitor)
      await expectNoAxeViolations(visitor)

      // The camp banner carries the coach's photo: small in its line on a desktop, behind "Details" on a phone.
      if (viewport === PHONE) await visitor.locator('#promo-banner summary').click()
      const bannerPhoto = `#promo-banner img[alt="${ALT}"]`
      await expect.poll(() => visitor.locator(bannerPhoto).filter({ visible: true }).count()).toBe(1)
      const inBanner = await visitor.locator(bannerPhoto).filter({ visible: true }).evaluate((img: HTMLImageElement) => img.currentSrc)
      expect(inBanner).toMatch(/\.avif$/)
      await expectNoAxeViolations(visitor)
      await context.close()
    }
  }, 120_000)
})
