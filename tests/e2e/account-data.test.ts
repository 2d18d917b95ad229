import { readFileSync } from 'node:fs'
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { bookAndPay } from '../support/booking-flow'
import { DESKTOP, expectNoAxeViolations, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { emailFor, useTestSite } from '../support/site'

// A person's data in a real browser: they download it from the footer's "Your data", then delete
// their account, seeing first what is cancelled and kept.

const browser = useBrowser()
const site = useTestSite()
const PASSWORD = 'butterfly-2027'

describe('your data, in the browser', () => {
  it('downloads everything as a ZIP, then deletes the account with the password and is signed out', async () => {
    const name = 'Tara Leaving'
    const email = emailFor(name)
    const visitor = await site.customer(name, email)
    await bookAndPay(visitor, site.url, 'success', 0, { daysAhead: 3 })

    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.context(site.url, viewport)
      const page = await context.newPage()
      const errors = watchPageErrors(page)
      await page.goto('/login?redirectTo=/account/data')
      await signInWithForm(page, { email, password: PASSWORD }, /\/account\/data$/)
      expect(await page.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: 'Your data' }).getAttribute('href')).toBe('/account/data')
      await expectNoAxeViolations(page)

      if (viewport === PHONE) {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data (ZIP)' }).click()])
        expect(download.suggestedFilename()).toMatch(/^swimming-lab-data-\d{4}-\d{2}-\d{2}\.zip$/)
        const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)))
        const data = JSON.parse(strFromU8(files['data.json']!))
        expect(data.account.email).toBe(email)
        expect(data.bookings).toHaveLength(1)
        expect(Object.keys(files).filter((file) => file.startsWith('receipts/'))).toHaveLength(1)
      }

      await page.getByRole('link', { name: 'Delete my account and all its data' }).click()
      await page.waitForURL('**/account/data/delete')
      await expect.poll(() => page.getByRole('heading', { name: 'What will happen' }).count()).toBe(1)
      await expect.poll(() => page.getByText(/refunded in full/).count()).toBe(1)
      await expectNoAxeViolations(page)

      if (viewport === PHONE) {
        // A wrong password: the message is next to the field, and the page stays accessible.
        await page.getByLabel('Your password', { exact: true }).fill('not-the-password')
        await page.getByRole('button', { name: 'Delete my account for good' }).click()
        await expect.poll(() => page.getByText('That password is not right.').count()).toBe(1)
        expect(await page.getByLabel('Your password', { exact: true }).getAttribute('aria-invalid')).toBe('true')
        await expectNoAxeViolations(page)
        await context.close()
        continue
      }
      await page.getByLabel('Your password', { exact: true }).fill(PASSWORD)
      await page.getByRole('button', { name: 'Delete my account for good' }).click()
      await page.waitForURL((url) => url.pathname === '/')
      await expect.poll(() => page.getByText('Your account is deleted').count()).toBe(1)
      await page.goto('/account/data')
      await page.waitForURL('**/login?**')
      expect(errors).toEqual([])
      await context.close()
    }
    await site.sink.waitForMailTo(email, /has been deleted/)
  })
})
