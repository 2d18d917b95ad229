import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { addDays, addMonths, labToday } from '~/lib/lab-time'
import { DESKTOP, expectNoAxeViolations, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { STAFF, useTestSite } from '../support/site'

// The admin console in a real browser: staff open hours a month out, a customer books and pays
// for them, and staff find the booking and cancel it with a refund. Every page is checked with axe.

const browser = useBrowser()
const site = useTestSite()
const PASSWORD = 'butterfly-2027'

async function signIn(email: string, password: string, landing: RegExp) {
  const context = await browser.context(site.url, DESKTOP)
  const page = await context.newPage()
  const errors = watchPageErrors(page)
  await page.goto('/login')
  await signInWithForm(page, { email, password }, landing)
  return { page, errors, close: () => context.close() }
}

const toast = (page: Page, title: string) => expect.poll(() => page.getByText(title, { exact: true }).first().isVisible()).toBe(true)

// Beyond the few weeks a fresh installation opens, so only the hours staff open here exist.
const month = addMonths(labToday().slice(0, 7), 2)
const from = `${month}-01`
const to = addDays(from, 13)

describe('running the lab from the admin console', () => {
  it('staff open hours; a customer books and pays for them; staff cancel the booking with a refund', async () => {
    const staff = await signIn(STAFF.email, STAFF.password, /\/admin$/)
    await expect.poll(() => staff.page.getByRole('heading', { name: 'Overview', level: 1 }).isVisible()).toBe(true)
    await expectNoAxeViolations(staff.page)

    await staff.page.getByRole('link', { name: 'Availability' }).click()
    await staff.page.waitForURL(/\/admin\/availability$/)
    await expectNoAxeViolations(staff.page)
    const openHours = staff.page.locator('form', { has: staff.page.getByRole('heading', { name: 'Open hours' }) })
    await openHours.getByLabel('From').fill(from)
    await openHours.getByLabel(/^To/).fill(to)
    await openHours.getByLabel('Opening time').fill('13:00')
    await openHours.getByLabel('Closing time').fill('10:00')
    await openHours.getByRole('button', { name: 'Open these hours' }).click()
    // Checked in the browser, next to the field, before anything is sent.
    await expect.poll(() => openHours.getByText('The closing time must be after the opening time').isVisible()).toBe(true)
    expect(staff.page.url()).toMatch(/\/admin\/availability$/)
    await openHours.getByLabel('Opening time').fill('10:00')
    await openHours.getByLabel('Closing time').fill('13:00')
    await openHours.getByLabel('People per slot').fill('1')
    await openHours.getByRole('button', { name: 'Open these hours' }).click()
    await staff.page.waitForURL(new RegExp(`month=${month}`))
    await toast(staff.page, 'Opening hours added')
    await expectNoAxeViolations(staff.page)

    // One opening-hours page: close nothing, but it must be usable.
    await staff.page.locator('a[href^="/admin/availability/"]').first().click()
    await staff.page.waitForURL(/\/admin\/availability\/\d+$/)
    await expectNoAxeViolations(staff.page)

    // The customer books the first of those dates.
    const email = 'meera.iyer@example.com'
    await site.customer('Meera Iyer', email)
    const customer = await signIn(email, PASSWORD, /\/book-slot/)
    await customer.page.goto(`/book-slot?month=${month}`)
    await customer.page.locator('table a[data-date]').first().click()
    await customer.page.waitForURL(/date=/)
    const times = customer.page.locator('button[name="time"]')
    expect(await times.evaluateAll((buttons) => buttons.map((button) => button.querySelector('span')?.firstChild?.textContent?.trim()))).toEqual(['10:00 AM - 11:00 AM', '11:00 AM - 12:00 PM', '12:00 PM - 1:00 PM'])
    await times.first().click()
    await customer.page.waitForURL(/\/slot-payment\?booking=\d+/)
    await customer.page.getByRole('button', { name: /^Pay ₹30,000\.00$/ }).click()
    await customer.page.waitForURL((url) => !url.pathname.startsWith('/slot-payment'))
    await customer.page.getByRole('button', { name: /test success/ }).click()
    await customer.page.waitForURL(/\/slot-payment-status/)
    await expect.poll(() => customer.page.getByRole('heading', { name: 'Payment Successful!' }).isVisible(), { timeout: 30_000 }).toBe(true)

    // Staff find it by the customer's e-mail and cancel it with a refund, confirming first.
    await staff.page.getByRole('link', { name: 'Bookings', exact: true }).click()
    await staff.page.waitForURL(/\/admin\/bookings$/)
    await staff.page.getByLabel(/Search/).fill('meera.iyer@')
    await staff.page.getByRole('button', { name: 'Show bookings' }).click()
    await staff.page.waitForURL(/q=meera/)
    await expectNoAxeViolations(staff.page)
    await staff.page.getByRole('link', { name: /^SWP-\d{10}$/ }).click()
    await staff.page.waitForURL(/\/admin\/bookings\/SWP-\d{10}$/)
    await expectNoAxeViolations(staff.page)
    await staff.page.getByRole('button', { name: 'Cancel and refund' }).click()
    const confirmation = staff.page.getByRole('group', { name: /Cancel booking SWP-\d{10} and refund ₹30,000\.00 to the customer\?/ })
    await expect.poll(() => confirmation.isVisible()).toBe(true)
    await expect.poll(() => confirmation.evaluate((element) => element === document.activeElement)).toBe(true)
    await expectNoAxeViolations(staff.page)
    await confirmation.getByRole('button', { name: 'Yes, cancel and refund' }).click()
    await toast(staff.page, 'Booking cancelled')

    const mail = await site.sink.waitForMailTo(email, /Refund completed/, 30_000)
    expect(mail.text).toContain('₹30,000.00')
    await customer.page.goto('/my-bookings')
    await expect.poll(() => customer.page.getByRole('article').getByText('Refunded', { exact: true }).isVisible()).toBe(true)

    // A booking made at the desk, through the form.
    await staff.page.goto('/admin/bookings/new')
    await expectNoAxeViolations(staff.page)
    expect(staff.errors).toEqual([])
    expect(customer.errors).toEqual([])
    await staff.close()
    await customer.close()
  })
})
