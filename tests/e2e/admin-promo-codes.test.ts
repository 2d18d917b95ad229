import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { STAFF, useTestSite } from '../support/site'

// Staff create and edit a promo code in a real browser at desktop size: the pages pass axe, and the
// form checks what is typed as it is typed.

const browser = useBrowser()
const site = useTestSite({ SMTP_URL: undefined })

const errorShown = (page: Page, message: string) => page.getByText(message, { exact: true }).count()

describe('the promo codes pages in a browser', () => {
  it('a new code is checked as it is typed and created; the list and its page pass axe, and it is switched off', async () => {
    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/login')
    await signInWithForm(page, STAFF, /\/admin$/)
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Promo codes' }).click()
    await page.waitForURL(/\/admin\/promo-codes$/)
    await expect.poll(() => page.getByRole('heading', { name: 'Promo codes', level: 1 }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)

    const form = page.getByRole('region', { name: 'New promo code' })
    await form.getByLabel('Code', { exact: true }).fill('D!WALI')
    await form.getByLabel('Description').focus()
    await expect.poll(() => errorShown(page, 'Use 3 to 32 letters, digits, - or _, such as DIWALI25')).toBe(1)
    await form.getByLabel('Code', { exact: true }).fill('diwali25')
    await expect.poll(() => errorShown(page, 'Use 3 to 32 letters, digits, - or _, such as DIWALI25')).toBe(0)
    await form.getByLabel('An amount in rupees').check()
    await form.getByLabel('Discount (% or ₹)').fill('0')
    await form.getByLabel('Valid from').focus()
    await expect.poll(() => errorShown(page, 'Enter an amount in rupees of at least ₹0.01, such as 500')).toBe(1)
    await form.getByLabel('Discount (% or ₹)').fill('500')
    await form.getByLabel('Camps').check()
    await form.getByLabel('Valid from').fill('2030-12-10')
    await form.getByLabel('Valid until').fill('2030-12-01')
    await form.getByLabel('Uses in all').focus()
    await expect.poll(() => errorShown(page, 'The last day cannot be before the first day')).toBe(1)
    await form.getByLabel('Valid until').fill('2030-12-31')
    await form.getByLabel('Uses in all').fill('100')
    await expectNoAxeViolations(page)
    await form.getByRole('button', { name: 'Create promo code' }).click()

    await page.waitForURL(/\/admin\/promo-codes\/\d+$/)
    await expect.poll(() => page.getByRole('heading', { name: 'DIWALI25', level: 1 }).isVisible()).toBe(true)
    await expect.poll(() => page.getByText('₹500.00 off camps.', { exact: false }).count()).toBe(1)
    await expectNoAxeViolations(page)
    await page.getByRole('button', { name: 'Deactivate' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Activate' }).isVisible()).toBe(true)
    expect(errors).toEqual([])
  })
})
