import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, launchBrowser, newContext, watchPageErrors } from '../support/browser'
import { startTestServer, type TestServer } from '../support/test-server'
import { registrationForm, Visitor } from '../support/visitor'
import { STAFF } from '../support/site'

// The catalogue, settings, customers and audit pages in a real browser: accessible, validating as
// you type, and the banner switched here appearing and disappearing on pages already open elsewhere.

let browser: Browser
let server: TestServer
let admin: BrowserContext

beforeAll(async () => {
  ;[browser, server] = await Promise.all([launchBrowser(), startTestServer({ ADMIN_EMAIL: STAFF.email, ADMIN_PASSWORD: STAFF.password })])
  admin = await newContext(browser, server.url, DESKTOP)
  const page = await admin.newPage()
  await page.goto('/login')
  await page.getByLabel('Email').fill(STAFF.email)
  await page.getByLabel('Password', { exact: true }).fill(STAFF.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL('**/admin')
  await page.close()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('the new admin pages are accessible', () => {
  it('axe finds nothing on settings, customers, a customer (and the disable dialog) and the audit log', async () => {
    const registered = await new Visitor(server.url).post('/registration', registrationForm({ email: 'asha@example.com', name: 'Asha Rao' }))
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

describe('the banner switched from /admin/settings', () => {
  it('appears and disappears on a page open in another browser, without a reload', async () => {
    const visitor = await newContext(browser, server.url, DESKTOP)
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
