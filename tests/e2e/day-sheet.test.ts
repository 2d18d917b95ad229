import type { BrowserContext, Page } from 'playwright-core'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { availabilityWindows, type bookings, type BookingStatus } from '~/db/schema'
import { addDays, labToday } from '~/lib/lab-time'
import { insertedBooking } from '../support/booking'
import { publishedDay, seedAnalysisDays } from '../support/analysis-days'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { STAFF, useTestSite } from '../support/site'

// The day sheet in a real browser, at a phone's and a desktop's size: every row readable without
// scrolling sideways (cards on a phone, a table on a desk), a swimmer checked in with a tap and the
// row told at once, the same without JavaScript, and a print that is the table alone.

const browser = useBrowser()

/** The narrowest screen that shows the sheet as a table. */
const TABLET = { width: 768, height: 1024 }

const DAY = addDays(labToday(), 6)
let sheet = ''

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      const now = new Date()
      const { venueId, dayId } = await seedAnalysisDays(db, installation, (organiser) => publishedDay(organiser, DAY, now, {}, 'Balewadi Aquatics'))
      sheet = `/admin/venues/${venueId}/day/${DAY}`
      const [window] = await db.select({ id: availabilityWindows.id }).from(availabilityWindows).where(eq(availabilityWindows.analysisDayId, dayId))
      const places: Array<[string, string, BookingStatus, Partial<typeof bookings.$inferInsert>]> = [
        ['09:00', '09:20', 'pending', { swimmerName: 'Hema Host', customerName: 'Hema Host' }],
        ['09:20', '09:40', 'confirmed', { swimmerName: 'Pavan Public', customerName: 'Pavan Public' }],
        // A long name and a long booker's name, as a phone must show them without scrolling sideways.
        ['09:40', '10:00', 'confirmed', { swimmerName: 'Venkatalakshmi Subramaniam-Raghunathan', swimmerAge: 12, customerName: 'Chandrasekharan Subramaniam-Raghunathan' }],
        ['10:00', '10:20', 'confirmed', { swimmerName: 'Nikhil Rao', customerName: 'Nikhil Rao' }],
      ]
      for (const [index, [start, end, status, over]] of places.entries()) {
        await insertedBooking(db, [{ windowId: window!.id, date: DAY }], { start, end, now }, { reference: `SWP-70000000${index + 1}0`, status, ...over })
      }
    },
  },
)

/** Staff signed in through the login form, at `viewport`, with or without JavaScript. */
async function staffAt(viewport: typeof PHONE, javaScriptEnabled = true): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.context(site.url, viewport, { javaScriptEnabled })
  const page = await context.newPage()
  await page.goto('/login')
  await signInWithForm(page, STAFF, '**/admin')
  await page.goto(sheet)
  return { context, page }
}

/** The row of the sheet that names `swimmer`. */
const rowOf = (page: Page, swimmer: string) => page.locator('tbody tr', { hasText: swimmer })

/** Neither the page nor anything in it is wider than the window. */
async function expectFitsTheWindow(page: Page) {
  await expectNoSidewaysScroll(page)
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
}

describe('the day sheet in the browser', () => {
  it('reads at every size without scrolling sideways: stacked cards on a phone, a table on a tablet and a desk', async () => {
    for (const viewport of [PHONE, TABLET, DESKTOP]) {
      const { context, page } = await staffAt(viewport)
      const errors = watchPageErrors(page)
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(/^Day sheet: Balewadi Aquatics, /)
      await expectNoAxeViolations(page)
      await expectFitsTheWindow(page)
      const row = rowOf(page, 'Venkatalakshmi')
      const cells = await row.locator('td').evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().top))
      // On a phone each cell is a line of the card, one under another; on a desk they share a line.
      if (viewport === PHONE) expect(new Set(cells.map(Math.round)).size).toBe(cells.length)
      else expect(new Set(cells.map(Math.round)).size).toBe(1)
      expect(await row.getByRole('link', { name: '+91 98450 12345' }).getAttribute('href')).toBe('tel:+919845012345')
      expect(errors).toEqual([])
      await context.close()
    }
  })

  it('checks a swimmer in with a tap: the row says so, without leaving the page', async () => {
    const { context, page } = await staffAt(PHONE)
    const errors = watchPageErrors(page)
    await rowOf(page, 'Pavan Public').getByRole('button', { name: 'Check in Pavan Public' }).click()
    await expect.poll(() => rowOf(page, 'Pavan Public').innerText()).toContain('Checked in')
    expect(page.url()).toContain(sheet)
    await expect.poll(() => page.getByText('Pavan Public checked in').isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await expectFitsTheWindow(page)
    expect(errors).toEqual([])
    await context.close()
  })

  it('without JavaScript, marks a no-show all the same', async () => {
    const { context, page } = await staffAt(PHONE, false)
    await rowOf(page, 'Nikhil Rao').getByRole('button', { name: 'No-show Nikhil Rao' }).click()
    await page.waitForLoadState()
    expect(await rowOf(page, 'Nikhil Rao').innerText()).toContain('No-show')
    expect(await rowOf(page, 'Nikhil Rao').getByRole('button', { name: 'Check in Nikhil Rao' }).count()).toBe(1)
    await context.close()
  })

  it('prints the table alone: no site header, navigation, buttons or forms', async () => {
    const { context, page } = await staffAt(DESKTOP)
    await page.emulateMedia({ media: 'print' })
    for (const hidden of ['header', 'footer', 'nav[aria-label="Admin"]', 'nav[aria-label="Other days"]', 'tbody form']) {
      expect(await page.locator(hidden).evaluateAll((elements) => elements.every((element) => getComputedStyle(element).display === 'none')), hidden).toBe(true)
    }
    expect(await page.locator('table').isVisible()).toBe(true)
    expect(await page.locator('tbody tr').count()).toBe(4)
    await context.close()
  })
})
