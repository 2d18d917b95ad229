import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useDatabase } from '~/db/client.server'
import { users } from '~/db/schema'
import { addDays, formatLabDateTime, formatWeekdayDayMonth, labInstant, labToday } from '~/lib/lab-time'
import { readyVenue } from '../support/analysis-days'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { STAFF, useTestSite } from '../support/site'

// Staff add an analysis day at a pool in Pune in a real browser, at a phone's width and a desktop's:
// the capacity under the form's numbers changes as they type the slot length, the day is saved as a
// draft, published, and its host's link shown to copy. Every page passes axe, without sideways scroll.

const browser = useBrowser()

const JOURNEYS = [
  { size: 'a phone', viewport: PHONE, venue: 'Shree Shiv Chhatrapati pool', date: addDays(labToday(), 10) },
  { size: 'a desktop', viewport: DESKTOP, venue: 'Deccan Gymkhana pool', date: addDays(labToday(), 12) },
] as const

// Each venue is ready on its date (open 6 AM to 8 PM, the lab's kit and a coach there 8 AM to 6 PM),
// written before the site starts: the staff's own pages that do it are tested on their own.
const site = useTestSite(
  { SMTP_URL: undefined },
  {
    async prepare(db, { database }) {
      useDatabase(database)
      try {
        const [coach] = await db.insert(users).values({ name: 'Field Coach', email: 'coach@lab.example', passwordHash: 'x', isAdmin: true, isVerified: true }).returning({ id: users.id, email: users.email })
        for (const journey of JOURNEYS) await readyVenue(coach!, journey.date, new Date(), journey.venue)
      } finally {
        useDatabase(undefined)
      }
    },
  },
)

const toast = (page: Page, title: string) => expect.poll(() => page.getByText(title, { exact: true }).first().isVisible()).toBe(true)

describe('adding an analysis day in the browser', () => {
  it.each(JOURNEYS)('on $size: staff add a day at a ready venue, watch its capacity as they type, publish it and see the host’s link', async ({ viewport, venue, date }) => {
    const context = await browser.context(site.url, viewport)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/login')
    await signInWithForm(page, STAFF, /\/admin$/)

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Analysis days', exact: true }).click()
    await page.waitForURL(/\/admin\/analysis-days$/)
    await expect.poll(() => page.getByRole('heading', { name: 'Analysis days', level: 1 }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await expectNoSidewaysScroll(page)

    const add = page.getByRole('region', { name: 'Add an analysis day' })
    const capacity = add.getByRole('status')
    expect(await capacity.innerText()).toBe('Fill in the dates, the hours, the slot length and the rigs to see how many swimmers the day takes.')
    await add.getByLabel('Venue').selectOption({ label: `${venue}, Pune` })
    await add.getByLabel('What is sold').selectOption('race_analysis')
    await add.getByLabel('First date').fill(date)
    await add.getByLabel('Last date').fill(date)
    await add.getByLabel('Starting time').fill('09:00')
    await add.getByLabel('Finishing time').fill('17:00')
    // The slot length starts at 20 minutes, one rig.
    await expect.poll(() => capacity.innerText()).toBe('1 rig × 8 h ÷ 20-minute slots = 24 swimmers')
    await add.getByLabel('Slot length in minutes').fill('30')
    await expect.poll(() => capacity.innerText()).toBe('1 rig × 8 h ÷ 30-minute slots = 16 swimmers')
    await add.getByLabel('Slot length in minutes').fill('45')
    await expect.poll(() => capacity.innerText()).toBe('1 rig × 8 h ÷ 45-minute slots = 10 swimmers')
    await add.getByLabel('Price in rupees').fill('1,500')
    await add.getByLabel('Seats kept for the host').fill('4')
    const release = addDays(date, -3)
    await add.getByLabel('Date booking opens to everyone').fill(release)
    await add.getByLabel('Time booking opens to everyone').fill('07:00')
    await add.getByLabel('What to bring (optional)').fill('Racing suit, cap and goggles')
    await expectNoAxeViolations(page)
    await add.getByRole('button', { name: 'Add the analysis day' }).click()

    await page.waitForURL(/\/admin\/analysis-days\/\d+$/)
    const dayId = /(\d+)$/.exec(page.url())![1]
    await toast(page, 'Analysis day added')
    const heading = `${formatWeekdayDayMonth(date)} at ${venue}`
    await expect.poll(() => page.getByRole('heading', { name: heading, level: 1 }).isVisible()).toBe(true)
    const main = page.locator('main')
    expect(await main.innerText()).toContain('1 rig × 8 h ÷ 45-minute slots = 10 swimmers')
    expect(await page.getByRole('region', { name: 'Ready to go ahead?' }).innerText()).toContain(`${formatWeekdayDayMonth(date)}: ready`)
    await expectNoAxeViolations(page)
    await expectNoSidewaysScroll(page)

    await page.getByRole('button', { name: 'Publish' }).click()
    await toast(page, 'Published')
    const opens = formatLabDateTime(labInstant(release, '07:00'))
    await expect.poll(() => page.getByText(`Published, opens to everyone at ${opens}`).isVisible()).toBe(true)
    const hostLink = page.getByLabel(`Host’s link: books up to 4 seats before ${opens}`)
    expect(await hostLink.inputValue()).toMatch(new RegExp(`^${site.url}/analysis-days/${dayId}\\?host=[\\w-]{32}$`))
    expect(await hostLink.getAttribute('readonly')).not.toBeNull()
    await expectNoAxeViolations(page)
    await expectNoSidewaysScroll(page)

    // The list shows it, published, with its capacity and no seat held yet.
    await page.getByRole('link', { name: 'All analysis days' }).click()
    await page.waitForURL(/\/admin\/analysis-days$/)
    const row = page.getByRole('row').filter({ hasText: venue })
    await expect.poll(() => row.innerText()).toContain('1 rig × 8 h ÷ 45-minute slots = 10 swimmers')
    expect(await row.innerText()).toContain('0 of 10')
    await expectNoAxeViolations(page)
    await expectNoSidewaysScroll(page)
    expect(errors).toEqual([])
    await context.close()
  })
})
