import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { bookAndPay } from '../support/booking-flow'
import { DESKTOP, expectNoAxeViolations, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { pdfText } from '../support/pdf-text'
import { emailFor, useTestSite } from '../support/site'

// After the booking, in a real browser: the receipt, rescheduling, cancelling with a refund, and a
// report delivered by staff.

const browser = useBrowser()
const site = useTestSite()
const PASSWORD = 'butterfly-2027'

/** A customer who has paid for two sessions (booked without JavaScript), signed in in the browser on My Bookings. */
async function customerWithBookings(name: string, skips: number[]) {
  const email = emailFor(name)
  const visitor = await site.customer(name, email)
  for (const skip of skips) await bookAndPay(visitor, site.url, 'success', skip, { daysAhead: 2 })
  const context = await browser.context(site.url, DESKTOP)
  const page = await context.newPage()
  const errors = watchPageErrors(page)
  await page.goto('/login?redirectTo=/my-bookings')
  await signInWithForm(page, { email, password: PASSWORD }, /\/my-bookings/)
  return { page, email, errors, close: () => context.close() }
}

const bookings = (page: Page) => page.getByRole('article')

describe('after the booking, in the browser', () => {
  it('downloads the receipt, reschedules one session and cancels the other with a refund', async () => {
    const { page, email, errors, close } = await customerWithBookings('Asha Rao', [0, 1])
    await expect.poll(() => bookings(page).count()).toBe(2)
    await expectNoAxeViolations(page)

    const [download] = await Promise.all([page.waitForEvent('download'), bookings(page).first().getByRole('link', { name: 'Download Receipt' }).click()])
    expect(download.suggestedFilename()).toMatch(/^receipt-SSL-\d\d-\d\d-\d{6}\.pdf$/)
    const receipt = (await pdfText(readFileSync((await download.path())!))).lines.join('\n')
    expect(receipt).toContain('Asha Rao')
    expect(receipt).toContain('₹30,000.00')

    // Reschedule the newest booking to a later date.
    const first = bookings(page).first()
    const before = await first.innerText()
    await first.getByRole('link', { name: 'Reschedule' }).click()
    await page.waitForURL(/\/reschedule/)
    await expectNoAxeViolations(page)
    await page.locator('table a[data-date]').last().click()
    await page.waitForURL(/date=/)
    await page.locator('a[href*="time="]').first().click()
    await page.waitForURL(/time=/)
    await page.getByRole('button', { name: /Move my booking to/ }).click()
    await page.waitForURL(/\/my-bookings$/)
    await expect.poll(() => page.getByText('Booking rescheduled').isVisible()).toBe(true)
    expect(await bookings(page).first().innerText()).not.toBe(before)
    await site.sink.waitForMailTo(email, /Booking rescheduled/)

    // Cancel the other one.
    await bookings(page).nth(1).getByRole('link', { name: 'Cancel' }).click()
    await page.waitForURL(/\/cancel$/)
    await expectNoAxeViolations(page)
    await page.getByRole('button', { name: 'Cancel my booking' }).click()
    await page.waitForURL(/\/my-bookings$/)
    await expect.poll(() => page.getByText('Booking cancelled').first().isVisible()).toBe(true)
    await site.sink.waitForMailTo(email, /Refund completed/, 30_000)
    await page.reload()
    await expect.poll(() => bookings(page).nth(1).getByText('Refunded', { exact: true }).isVisible()).toBe(true)
    expect(errors).toEqual([])
    await close()
  })

  it('shows a report staff delivered, and opens its PDF', async () => {
    const { page, email, close } = await customerWithBookings('Kiran Das', [2])
    const reference = /SWP-\d{10}/.exec(await bookings(page).first().innerText())![0]
    const admin = await site.staff()
    const form = new FormData()
    form.append('files', new Blob([new TextEncoder().encode('%PDF-1.4\n% report\n%%EOF\n')], { type: 'application/pdf' }), 'Kiran report.pdf')
    form.append('videoLinks', 'Underwater, Day 1 | https://video.example/kiran')
    form.append('note', 'Great kick; work on the catch.')
    expect((await admin.upload(`/admin/bookings/${reference}`, form)).status).toBe(302)
    await site.sink.waitForMailTo(email, /report is ready/)

    await page.reload()
    const report = page.getByRole('region', { name: 'Your report' })
    await expect.poll(() => report.getByText('Report ready').isVisible()).toBe(true)
    expect(await report.innerText()).toContain('Great kick; work on the catch.')
    await expectNoAxeViolations(page)
    const file = await page.request.get(await report.getByRole('link', { name: 'Kiran report.pdf' }).getAttribute('href').then((href) => href!))
    expect(file.status()).toBe(200)
    expect(file.headers()['content-type']).toBe('application/pdf')
    await close()
  })
})
