import type { BrowserContext } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, expectReadableText, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { registrationForm, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// The catalogue, settings, customers and audit pages in a real browser: accessible, validating as
// you type, and the banner switched here appearing and disappearing on pages already open elsewhere.

const browser = useBrowser()
const site = useTestSite()
let admin: BrowserContext

beforeAll(async () => {
  admin = await browser.staff(site.url)
})

describe('the new admin pages are accessible', () => {
  it('axe finds nothing on settings, customers, a customer (and the disable dialog) and the audit log', async () => {
    const registered = await new Visitor(site.url).post('/registration', registrationForm({ email: 'asha@example.com', name: 'Asha Rao' }))
    expect(registered.status).toBe(302)
    const page = await admin.newPage()
    const errors = watchPageErrors(page)

    await page.goto('/admin/settings')
    await expectNoAxeViolations(page)
    await page.goto('/admin/customers?q=asha')
    await expectNoAxeViolations(page)
    await page.getByRole('link', { name: 'Asha Rao' }).click()
    await page.waitForURL(/\/admin\/customers\/\d+$/)
    await expectNoAxeViolations(page)
    await page.getByRole('link', { name: 'Disable the account…' }).click()
    await page.getByRole('dialog', { name: "Disable Asha Rao's account?" }).waitFor()
    await expectNoAxeViolations(page)
    await page.keyboard.press('Escape')
    await page.waitForURL(/\/admin\/customers\/\d+$/)
    await page.goto('/admin/audit')
    await expectNoAxeViolations(page)
    expect(errors).toEqual([])
    await page.close()
  })

  it('on a 360 px phone, settings fit the screen and the overview’s charts are readable', async () => {
    const page = await admin.newPage()
    await page.setViewportSize(PHONE)
    await page.goto('/admin/settings')
    await expectNoSidewaysScroll(page)
    await expectNoAxeViolations(page)
    await page.goto('/admin')
    await expectNoSidewaysScroll(page)
    await expectReadableText(page, 'main figure')
    await page.close()
  })

  it('a price error shows next to its field as you type, before anything is sent', async () => {
    const page = await admin.newPage()
    await page.goto('/admin/settings')
    const regular = page.getByLabel('Regular price of Competition Race Analysis (Competitive Edge), in rupees (optional)')
    await regular.fill('4999')
    await regular.blur()
    await expect.poll(() => regular.getAttribute('aria-invalid')).toBe('true')
    const row = page.getByRole('row', { name: /Race Analysis \(Competitive Edge\)/ })
    expect(await row.getByText('The regular price must be at least the price').isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await regular.fill('')
    await expect.poll(() => regular.getAttribute('aria-invalid')).toBe(null)
    await page.close()
  })
})

describe('the launch checklist on the overview', () => {
  it('takes staff from an item to its field, the cursor in it', async () => {
    const page = await admin.newPage()
    await page.goto('/admin')
    await page.getByRole('region', { name: /^Before going live/ }).getByRole('link', { name: 'Phone number' }).click()
    await page.waitForURL(/\/admin\/settings#contact-details-phone$/)
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('contact-details-phone')
    expect(await page.getByLabel('Phone', { exact: true }).evaluate((input) => input === document.activeElement)).toBe(true)
    await page.close()
  })
})

describe('the banner switched from /admin/settings', () => {
  it('appears and disappears on a page open in another browser, without a reload', async () => {
    const visitor = await browser.context(site.url, DESKTOP)
    const pricing = await visitor.newPage()
    await pricing.goto('/pricing')
    const banner = pricing.getByRole('complementary', { name: 'Swimming camps' })
    await banner.waitFor({ state: 'visible' })
    // Set on the open page: a reload would lose it.
    await pricing.evaluate(() => Object.assign(window, { stillTheSamePage: true }))

    const settings = await admin.newPage()
    await settings.goto('/admin/settings')
    await settings.getByRole('button', { name: 'Turn the banner off' }).click()
    await settings.getByRole('button', { name: 'Turn the banner on' }).waitFor()
    await banner.waitFor({ state: 'detached', timeout: 5_000 })

    await settings.getByRole('button', { name: 'Turn the banner on' }).click()
    await settings.getByRole('button', { name: 'Turn the banner off' }).waitFor()
    await banner.waitFor({ state: 'visible', timeout: 5_000 })
    expect(await pricing.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true)

    await settings.goto('/admin/audit?type=site_settings')
    expect(await settings.getByTestId('audit-entry').allTextContents()).toEqual([expect.stringContaining('Showed the camp banner'), expect.stringContaining('Hid the camp banner')])
    await expectNoAxeViolations(settings)
    await visitor.close()
  })
})
