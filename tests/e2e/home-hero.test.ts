import { readFileSync } from 'node:fs'
import type { BrowserContext, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { phonePhoto } from '~/modules/media/test-photos'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { eventually } from '../support/eventually'
import { useTestSite } from '../support/site'

// The lab's own pictures on the home page: staff upload a landscape photo, an upright one and a
// video loop, choose them for the hero and a service, and visitors see the upright crop on a phone,
// the landscape one on a wider screen, and the loop only where it may play, with a way to pause it.

const browser = useBrowser()
const site = useTestSite()
const WIDE_ALT = 'Swimmers racing down lane four, seen from the pool deck'
const PHONE_ALT = 'A swimmer’s hand entering the water, filmed from below'
const LOOP = readFileSync(new URL('../fixtures/loop-h264.mp4', import.meta.url))
let admin: BrowserContext

async function upload(page: Page, file: { name: string; mimeType: string; buffer: Buffer }, collection: string, title: string, altText: string) {
  await page.goto('/admin/media')
  await page.getByLabel('Photo or video loop').setInputFiles(file)
  await page.getByLabel('What it shows').selectOption({ label: collection })
  await page.getByLabel('Name in the library (optional)').fill(title)
  await page.getByLabel('Alt text (optional now, needed before it is used)').fill(altText)
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByText('Uploaded').first().waitFor()
}

/** The hero's image as the browser chose it, and the srcsets it chose among. */
function heroImage(page: Page) {
  return page.locator('[data-hero="photo"] picture').evaluate((picture) => {
    const image = picture.querySelector('img')!
    const sources = [...picture.querySelectorAll('source')].map((source) => ({ media: source.media, type: source.type, srcset: source.srcset }))
    return { src: image.currentSrc, complete: image.complete && image.naturalWidth > 0, alt: image.alt, sources }
  })
}

/** Whether the hero's loop is playing: started, not paused, time moving. */
const loopState = (page: Page) =>
  page.locator('video[data-hero-loop]').evaluate((video: HTMLVideoElement) => ({ src: video.currentSrc, paused: video.paused, muted: video.muted, time: video.currentTime }))

beforeAll(async () => {
  admin = await browser.staff(site.url)
  const page = await admin.newPage()
  const errors = watchPageErrors(page)
  // A phone stores its photos turned (EXIF orientation 6): stored 1280 × 1920, this one shows 1920 × 1280; the next, 1280 × 1700.
  await upload(page, { name: 'IMG_2001.JPG', mimeType: 'image/jpeg', buffer: Buffer.from(await phonePhoto({ width: 1280, height: 1920 })) }, 'Pool', 'Lane four', WIDE_ALT)
  await upload(page, { name: 'IMG_2002.JPG', mimeType: 'image/jpeg', buffer: Buffer.from(await phonePhoto({ width: 1700, height: 1280 })) }, 'Underwater still', 'Catch from below', PHONE_ALT)
  await upload(page, { name: 'loop.mp4', mimeType: 'video/mp4', buffer: LOOP }, 'Video loop for the hero', 'Lane four loop', 'Swimmers racing down lane four')
  await eventually(
    async () => {
      await page.goto('/admin/media')
      return page.getByText('Ready', { exact: true }).count()
    },
    (ready) => ready === 3,
    { timeoutMs: 60_000, everyMs: 500 },
  )

  await page.goto('/admin/settings#pictures')
  const form = page.locator('form').filter({ has: page.locator('input[name="intent"][value="pictures"]') })
  // A landscape photo is not offered for phones, nor the upright one for wider screens.
  expect(await form.getByLabel('Home page, phones').locator('option').allTextContents()).toEqual(['The site’s artwork', 'Catch from below'])
  await form.getByLabel('Home page, computers and tablets').selectOption({ label: 'Lane four' })
  await form.getByLabel('Home page, phones').selectOption({ label: 'Catch from below' })
  await form.getByLabel('Home page video loop').selectOption({ label: 'Lane four loop' })
  await form.getByLabel('Race Analysis (home page)').selectOption({ label: 'Catch from below' })
  await form.getByRole('button', { name: 'Save the pictures' }).click()
  await page.getByText('Pictures saved').first().waitFor()
  await expectNoAxeViolations(page)
  expect(errors).toEqual([])
  await page.close()
}, 120_000)

describe('the home page’s pictures', () => {
  it('on a phone: the upright photo as AVIF, no loop, the heading readable, axe clean', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    await page.goto('/')
    await expect.poll(() => heroImage(page).then((image) => image.complete)).toBe(true)
    const image = await heroImage(page)
    const phoneAvif = image.sources.find((source) => source.media && source.type === 'image/avif')!
    expect(phoneAvif.media).toBe('(max-width: 639px)')
    expect(image.src).toMatch(/\/media\/[0-9a-f]{32}\.avif$/)
    expect(phoneAvif.srcset).toContain(new URL(image.src).pathname)
    // Read out: the upright photo's description, not the landscape one's.
    expect(image.alt).toBe('')
    const described = await page.locator('[data-hero="photo"]').ariaSnapshot()
    expect(described).toContain(PHONE_ALT)
    expect(described).not.toContain(WIDE_ALT)
    // The heading sits below the photo's visible part, on the shade.
    const heading = await page.getByRole('heading', { level: 1 }).boundingBox()
    expect(heading!.y + heading!.height).toBeLessThan(PHONE.height * 1.5)
    await page.waitForLoadState('load')
    expect((await loopState(page)).src).toBe('')
    await expect.poll(() => page.getByRole('button', { name: 'Pause the video' }).count()).toBe(0)
    // The race analysis is told beside its photo; the other services beside the brand's artwork.
    await expect.poll(() => page.locator('main img[alt="A swimmer’s hand entering the water, filmed from below"]').count()).toBe(1)
    await expectNoSidewaysScroll(page)
    await expectNoAxeViolations(page)
    await context.close()
  })

  it('on a wider screen: the landscape photo, then the silent loop over it, which a visitor can pause and play again', async () => {
    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/')
    await expect.poll(() => heroImage(page).then((image) => image.complete)).toBe(true)
    const image = await heroImage(page)
    const wideAvif = image.sources.find((source) => !source.media && source.type === 'image/avif')!
    expect(image.src).toMatch(/\.avif$/)
    expect(wideAvif.srcset).toContain(new URL(image.src).pathname)
    const described = await page.locator('[data-hero="photo"]').ariaSnapshot()
    expect(described).toContain(WIDE_ALT)
    expect(described).not.toContain(PHONE_ALT)

    await expect.poll(() => loopState(page).then((loop) => !loop.paused && loop.time > 0)).toBe(true)
    expect(await loopState(page)).toMatchObject({ src: expect.stringMatching(/\/media\/[0-9a-f]{32}\.mp4$/), muted: true })
    await expectNoAxeViolations(page)
    await page.getByRole('button', { name: 'Pause the video' }).click()
    await expect.poll(() => loopState(page).then((loop) => loop.paused)).toBe(true)
    await page.getByRole('button', { name: 'Play the video' }).click()
    await expect.poll(() => loopState(page).then((loop) => loop.paused)).toBe(false)
    expect(errors).toEqual([])
    await context.close()
  })

  it('never plays the loop for a visitor who asks for less motion, saves data or runs no script', async () => {
    const calm = await browser.context(site.url, DESKTOP, { reducedMotion: 'reduce' })
    const saving = await browser.context(site.url, DESKTOP, { extraHTTPHeaders: { 'Save-Data': 'on' } })
    const noScript = await browser.context(site.url, DESKTOP, { javaScriptEnabled: false })
    for (const context of [calm, saving, noScript]) {
      const page = await context.newPage()
      await page.goto('/')
      await page.waitForLoadState('load')
      await expect.poll(() => heroImage(page).then((image) => image.complete)).toBe(true)
      expect(await page.getByRole('button', { name: /the video$/ }).allTextContents(), String(context === calm ? 'calm' : context === saving ? 'saving' : 'no script')).toEqual([])
      if (context === saving) expect(await page.locator('video').count()).toBe(0)
      else expect(await loopState(page)).toMatchObject({ src: '', paused: true })
      await context.close()
    }
  })
})
