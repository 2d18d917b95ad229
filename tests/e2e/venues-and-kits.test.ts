import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { addDays, formatLongDate, formatWeekdayDate, isoWeekday, labToday } from '~/lib/lab-time'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { STAFF, useTestSite } from '../support/site'

// Staff take the lab's kit to a pool in Pune in a real browser, at a phone's width and a desktop's:
// they add the venue, check what moving the kit there for a Saturday would do, place it, and the
// public booking then offers nothing that Saturday (no kit at the lab). Every page passes axe.

const browser = useBrowser()
const site = useTestSite({ SMTP_URL: undefined })

/** The seeded opening hours' Saturdays (09:00 to 18:00, for 28 days from tomorrow), a few days out. */
const SATURDAYS = Array.from({ length: 20 }, (_, index) => addDays(labToday(), index + 3)).filter((date) => isoWeekday(date) === 6)

const JOURNEYS = [
  { size: 'a phone', viewport: PHONE, venue: 'Shree Shiv Chhatrapati pool', saturday: SATURDAYS[0]! },
  { size: 'a desktop', viewport: DESKTOP, venue: 'Deccan Gymkhana pool', saturday: SATURDAYS[1]! },
] as const

const toast = (page: Page, title: string) => expect.poll(() => page.getByText(title, { exact: true }).first().isVisible()).toBe(true)

/** The dates /booking offers a guest. */
async function bookingDates(url: string) {
  const context = await browser.context(url, DESKTOP)
  const page = await context.newPage()
  await page.goto('/booking')
  const dates = await page.getByLabel('Date').locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
  await context.close()
  return dates
}

describe('moving the kit to a venue in the browser', () => {
  it.each(JOURNEYS)('on $size: staff add a venue in Pune, check and place the kit there for a Saturday, and the lab offers no time that day', async ({ viewport, venue, saturday }) => {
    expect(await bookingDates(site.url)).toContain(saturday)

    const context = await browser.context(site.url, viewport)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/login')
    await signInWithForm(page, STAFF, /\/admin$/)
    const nav = page.getByRole('navigation', { name: 'Admin' })

    await nav.getByRole('link', { name: 'Venues', exact: true }).click()
    await page.waitForURL(/\/admin\/venues$/)
    await expect.poll(() => page.getByRole('heading', { name: 'Venues', level: 1 }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await expectNoSidewaysScroll(page)

    const add = page.getByRole('region', { name: 'Add a venue' })
    await add.getByLabel('Name', { exact: true }).fill(venue)
    await add.getByLabel('City').fill('Pune')
    await add.getByLabel('Address').fill('Shivajinagar, Pune 411005')
    await add.getByLabel('State').selectOption({ label: 'Maharashtra' })
    expect(await add.getByLabel('State').inputValue()).toBe('27')
    await add.getByLabel('Travel time in minutes').fill('180')
    await add.getByLabel('Map link (optional)').fill('maps.example.com')
    await add.getByLabel('Host’s name (optional)').focus()
    // Checked as it is typed, next to the field.
    await expect.poll(() => add.getByText('Enter the map link in full, starting with https://, or leave it empty').isVisible()).toBe(true)
    await add.getByLabel('Map link (optional)').fill('https://maps.example.com/pune-pool')
    await add.getByRole('button', { name: 'Add the venue' }).click()
    await page.waitForURL(/\/admin\/venues\/\d+$/)
    await toast(page, 'Venue added')
    await expect.poll(() => page.getByRole('heading', { name: venue, level: 1 }).isVisible()).toBe(true)
    expect(await page.locator('main').innerText()).toContain('180 minutes from the lab, each way')
    await expectNoAxeViolations(page)
    await expectNoSidewaysScroll(page)

    await nav.getByRole('link', { name: 'Kits', exact: true }).click()
    await page.waitForURL(/\/admin\/kits$/)
    await expectNoAxeViolations(page)
    await expectNoSidewaysScroll(page)
    const move = page.getByRole('region', { name: 'Move a kit' })
    await move.getByLabel('Kit').selectOption({ label: 'Underwater rig 1' })
    await move.getByLabel('Venue').selectOption({ label: `${venue}, Pune` })
    await move.getByLabel('First date').fill(saturday)
    await move.getByLabel('Starting time').fill('10:00')
    await move.getByLabel('Last date').fill(saturday)
    await move.getByLabel('Finishing time').fill('15:00')
    await move.getByRole('button', { name: 'Check' }).click()
    const review = move.getByRole('region', { name: 'What this move would do (not saved)' })
    await expect.poll(() => review.isVisible()).toBe(true)
    const day = formatLongDate(saturday)
    // Three hours' travel and an hour's set-up each side of 10 AM to 3 PM: away all the lab's day.
    expect(await review.innerText()).toContain(`away from the lab from 6:00 AM IST on ${day} to 7:00 PM IST on ${day}`)
    expect(await review.innerText()).toContain('9 time slots at the lab would close')
    expect(await move.getByLabel('First date').inputValue()).toBe(saturday)
    await expectNoAxeViolations(page)

    await move.getByRole('button', { name: 'Place the kit' }).click()
    await toast(page, 'Kit placed')
    const placements = page.getByRole('table', { name: 'Where Underwater rig 1 goes' })
    await expect.poll(() => placements.getByRole('link', { name: venue }).isVisible()).toBe(true)
    expect(await placements.innerText()).toContain(`10:00 AM IST on ${day} to 3:00 PM IST on ${day}`)
    await expectNoAxeViolations(page)

    // The lab's calendar says why its time slots that Saturday are closed.
    await nav.getByRole('link', { name: 'Availability', exact: true }).click()
    await page.waitForURL(/\/admin\/availability$/)
    if (saturday.slice(0, 7) !== labToday().slice(0, 7)) await page.getByRole('link', { name: 'Next month' }).click()
    const calendarDay = page.getByRole('listitem').filter({ hasText: formatWeekdayDate(saturday) })
    await expect.poll(() => calendarDay.innerText()).toContain('No kit at the lab: 9 time slots closed')
    await expectNoAxeViolations(page)
    expect(errors).toEqual([])
    await context.close()

    expect(await bookingDates(site.url)).not.toContain(saturday)
  })
})
