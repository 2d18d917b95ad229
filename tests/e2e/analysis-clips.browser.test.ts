import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { BrowserContext } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { prepareAnalysisFixture, type AnalysisFixture } from '../support/clip-uploads'
import { useTestSite } from '../support/site'

// The staff page of an analysis's clips in a real browser: a real (tiny) video uploaded with tus,
// its progress shown, the clip listed and playable, chapters and a poster from the current frame,
// a file that is not a video refused with its message, and nothing for axe at phone or desktop size.

const browser = useBrowser()
let fixture: AnalysisFixture
const site = useTestSite({}, { prepare: async (db) => void (fixture = await prepareAnalysisFixture(db)) })
let staff: BrowserContext

beforeAll(async () => {
  staff = await browser.staff(site.url)
})

const VIDEO = path.resolve(import.meta.dirname, '../fixtures/swim-clip.webm')

describe('the clips of an analysis', () => {
  it('staff upload a video with its progress shown, see it listed, add chapters and a poster from the current frame', async () => {
    const page = await staff.newPage()
    const errors = watchPageErrors(page)
    await page.goto(`/admin/bookings/${fixture.references[0]}/analysis/clips`)
    await page.getByRole('heading', { name: 'Upload a clip' }).waitFor()
    await expectNoAxeViolations(page)

    // Slow enough to see the progress of a 13 KB file: about 8 KB a second upwards.
    const network = await staff.newCDPSession(page)
    await network.send('Network.enable')
    await network.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 8 * 1024 })
    // Every progress text shown while it uploads, as staff would read them.
    await page.evaluate(() => {
      const seen: string[] = []
      ;(window as unknown as { progressSeen: string[] }).progressSeen = seen
      new MutationObserver(() => {
        const bar = document.querySelector('progress')
        if (bar) seen.push(`${bar.value}|${bar.nextElementSibling?.textContent ?? ''}`)
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
    })

    await page.getByLabel('Video file').setInputFiles(VIDEO)
    await page.getByLabel('Title').fill('Underwater, lap 1')
    await page.getByLabel('Camera angle').selectOption({ label: 'Underwater, side' })
    await page.getByRole('button', { name: 'Upload clip' }).click()
    await page.getByRole('heading', { name: 'Underwater, lap 1' }).waitFor({ timeout: 30_000 })
    await network.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen)
    // A file under 1 MB is counted in KB, never "0.0 MB".
    expect(seen.some((entry) => /^\d+\|\d+% \(\d+ KB of 13 KB\)$/.test(entry))).toBe(true)
    expect(await page.getByText('swim-clip.webm is uploaded.').isVisible()).toBe(true)
    expect(await page.getByText('Underwater, side · 13 KB').isVisible()).toBe(true)

    // The clip plays from the site (a range request answered by the video route).
    const video = page.locator('video').first()
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(2)

    const clip = page.getByRole('article', { name: 'Underwater, lap 1' })
    await clip.getByLabel('Chapter 1: what happens').selectOption({ label: 'Start' })
    await clip.getByLabel('Chapter 1: from').fill('0:00')
    await clip.getByLabel('Chapter 2: what happens').selectOption({ label: 'Underwater' })
    await clip.getByLabel('Chapter 2: from').fill('0:01.2')
    await clip.getByRole('button', { name: 'Save clip' }).click()
    await expect.poll(() => page.getByRole('article', { name: 'Underwater, lap 1' }).getByLabel('Chapter 2: from').inputValue()).toBe('0:01.2')

    // A poster from the frame the video is at.
    await video.evaluate(
      (element: HTMLVideoElement) =>
        new Promise<void>((resolve) => {
          element.addEventListener('seeked', () => resolve(), { once: true })
          element.currentTime = 1
        }),
    )
    await page.getByRole('button', { name: 'Use the current frame' }).click()
    await expect.poll(() => page.locator('video').first().getAttribute('poster'), { timeout: 15_000 }).toMatch(/\/analyses\/clips\/\d+\/poster$/)
    const poster = await page.request.get((await page.locator('video').first().getAttribute('poster'))!)
    expect(poster.status()).toBe(200)
    // Kept as the page shows it: a WebP, whatever the browser sent.
    expect(poster.headers()['content-type']).toBe('image/webp')

    await expectNoAxeViolations(page)
    await page.setViewportSize(PHONE)
    await expectNoAxeViolations(page)
    await page.setViewportSize(DESKTOP)
    expect(errors).toEqual([])
    await page.close()
  })

  it('an upload cut off by leaving the page goes on from where it stopped when the same file is chosen again', async () => {
    // 2 MB that starts like an MP4, on disk (the browser knows it again by its name, size and date).
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'clip-resume-')), 'long-race.mp4')
    const bytes = Buffer.alloc(2 * 1024 * 1024, 7)
    Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0]).copy(bytes)
    writeFileSync(file, bytes)
    const page = await staff.newPage()
    const patches: number[] = []
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/uploads/clips/')) patches.push(Number(request.headers()['upload-offset']))
    })
    const network = await staff.newCDPSession(page)
    await network.send('Network.enable')
    await network.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 128 * 1024 })
    const choose = async () => {
      await page.goto(`/admin/bookings/${fixture.references[2]}/analysis/clips`)
      await page.getByRole('heading', { name: 'Upload a clip' }).waitFor()
      await page.getByLabel('Video file').setInputFiles(file)
      await page.getByLabel('Title').fill('Long race')
      await page.getByLabel('Camera angle').selectOption({ label: 'Overhead' })
      await page.getByRole('button', { name: 'Upload clip' }).click()
    }
    await choose()
    await expect.poll(async () => Number((await page.locator('progress').getAttribute('value').catch(() => '0')) ?? 0), { timeout: 30_000 }).toBeGreaterThanOrEqual(30)
    // Leaving the page cuts the upload off; the server keeps what had arrived.
    await choose()
    await network.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    await page.getByRole('heading', { name: 'Long race' }).waitFor({ timeout: 30_000 })
    expect(patches[0]).toBe(0)
    expect(patches.at(-1)).toBeGreaterThan(0)
    const clip = await page.request.get((await page.locator('video').first().getAttribute('src'))!)
    expect(Buffer.from(await clip.body()).equals(bytes)).toBe(true)
    await page.close()
  })

  it('a file that is not a video is refused with a message, and nothing is listed', async () => {
    const page = await staff.newPage()
    await page.goto(`/admin/bookings/${fixture.references[1]}/analysis/clips`)
    await page.getByRole('heading', { name: 'Upload a clip' }).waitFor()
    await page.getByLabel('Video file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Lap times: 31.2, 30.8\n'.repeat(20)) })
    await page.getByLabel('Title').fill('Notes')
    await page.getByLabel('Camera angle').selectOption({ label: 'Overhead' })
    await page.getByRole('button', { name: 'Upload clip' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('notes.txt is not a video (mp4, webm or mov).')
    expect(await page.getByRole('heading', { name: 'Clips (0)' }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await page.setViewportSize(PHONE)
    await expectNoAxeViolations(page)
    await page.close()
  })
})
