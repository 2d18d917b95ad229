import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, PHONE, watchPageErrors, useBrowser } from '../support/browser'
import { useTestSite } from '../support/site'
import { bookableDate } from '../support/booking-flow'

// The public /booking in a real browser: success, a declined payment, and reloads along the way.

const browser = useBrowser()
const site = useTestSite()

async function fillDetails(page: Page, { name, email, date, time }: { name: string; email: string; date: string; time: string }) {
  await page.getByLabel('Full Name').fill(name)
  await page.getByLabel('Email').fill(email)
  await page.getByRole('radio', { name: /^Biomechanical Analysis/ }).check()
  await page.getByLabel('Date').selectOption(date)
  // The times follow the date without a reload.
  await expect.poll(() => page.getByRole('radio', { name: time, exact: true }).isEnabled(), { timeout: 10_000 }).toBe(true)
  await page.getByRole('radio', { name: time, exact: true }).check()
}

describe('/booking in the browser', () => {
  it('details → payment → gateway → Booking Confirmed!, surviving a reload at every step', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/booking')
    expect(await page.getByRole('navigation', { name: 'Booking progress' }).locator('[aria-current="step"]').innerText()).toContain('1. Details')
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await expect.poll(() => page.getByRole('alert').first().innerText()).toContain('Missing information - Please fill in all required fields.')
    await expectNoAxeViolations(page)

    await fillDetails(page, { name: 'Kavya Nair', email: 'kavya@example.com', date: bookableDate(4), time: '2:00 PM' })
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await page.waitForURL(/step=2/)
    await page.reload()
    await expect.poll(() => page.getByText('Total').isVisible()).toBe(true)
    expect(await page.getByRole('navigation', { name: 'Booking progress' }).locator('[aria-current="step"]').innerText()).toContain('2. Payment')
    expect(await page.locator('main').innerText()).toMatch(/Biomechanical Analysis[^]*at 2:00 PM[^]*₹3,499\.00/)
    await expectNoAxeViolations(page)

    await page.getByRole('button', { name: 'Complete Booking' }).click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    await page.getByRole('button', { name: /test success/ }).click()
    await page.waitForURL(/step=3/)
    await expect.poll(() => page.getByRole('heading', { name: 'Booking Confirmed!' }).isVisible(), { timeout: 20_000 }).toBe(true)
    await page.reload()
    await expect.poll(() => page.getByRole('heading', { name: 'Booking Confirmed!' }).isVisible()).toBe(true)
    expect(await page.locator('main').innerText()).toMatch(/Booking ID\s+SWP-\d{10}/)
    expect(await page.getByRole('navigation', { name: 'Booking progress' }).locator('[aria-current="step"]').innerText()).toContain('3. Confirmation')
    await expectNoAxeViolations(page)
    await site.sink.waitForMailTo('kavya@example.com', /Booking confirmed/)
    expect(errors).toEqual([])
    await context.close()
  })

  it('a declined payment returns to step 2 with a message and the details kept', async () => {
    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    await page.goto('/booking')
    await fillDetails(page, { name: 'Ravi Kumar', email: 'ravi@example.com', date: bookableDate(5), time: '3:00 PM' })
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await page.waitForURL(/step=2/)
    await page.getByRole('button', { name: 'Complete Booking' }).click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    await page.getByRole('button', { name: /test failure/ }).click()
    await page.waitForURL(/step=2&payment=failed/)
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Your payment did not go through')
    expect(await page.locator('main').innerText()).toContain('Ravi Kumar')
    await expectNoAxeViolations(page)
    await page.getByRole('link', { name: 'Change details' }).click()
    await page.waitForURL(/\/booking$/)
    await expect.poll(() => page.getByLabel('Full Name').inputValue()).toBe('Ravi Kumar')
    await context.close()
  })
})
