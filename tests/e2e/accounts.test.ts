import type { BrowserContext, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { codeFromAdminMailbox, DESKTOP, expectNoAxeViolations, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { useTestSite } from '../support/site'

// Journeys through the account pages in a real browser, on the default set-up: no SMTP_URL, so
// the codes are read where a newcomer would read them, in the admin's mailbox at /admin/messages.

const browser = useBrowser()
const site = useTestSite({ SMTP_URL: undefined, TRUST_PROXY: undefined })
let admin: BrowserContext

beforeAll(async () => {
  admin = await browser.staff(site.url)
})

async function register(page: Page, person: { name: string; email: string; password: string }) {
  await page.goto('/registration')
  await page.getByLabel('Full Name').fill(person.name)
  await page.getByLabel('Email').fill(person.email)
  await page.getByLabel('Password', { exact: true }).fill(person.password)
  await page.getByLabel('WhatsApp Number').fill('98450 12345')
  // An adult registering themselves: a swimmer under 18 would also name a parent (tests/e2e/families.test.ts).
  await page.getByLabel('Age').fill('26')
  await page.getByLabel('Current Location').fill('Bengaluru')
  await page.getByLabel('Female').check()
  await page.getByLabel('Swimming Experience').selectOption('intermediate')
  await page.getByLabel('Academy Name').fill('NA')
  await page.getByLabel('Coach Name').fill('NA')
  await page.getByLabel('How did you get to know about us?').selectOption('google')
  await page.getByRole('button', { name: 'Register' }).click()
  await page.waitForURL('**/verify-email?**')
}

async function verify(page: Page, email: string) {
  await page.getByLabel('Verification code').fill(await codeFromAdminMailbox(admin, email, /verification code/))
  await page.getByRole('button', { name: 'Verify and continue' }).click()
  await page.waitForURL('**/book-slot')
}

describe('accounts in the browser', () => {
  it('register → code from the mailbox → verify → /book-slot with the welcome toast; logout', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    await page.goto('/registration')
    await expectNoAxeViolations(page)

    // Validation as you type, with each field's message, tied to the field.
    const name = page.getByLabel('Full Name')
    await name.fill('A')
    await name.blur()
    await expect.poll(() => page.getByText('Name must be at least 2 characters').count()).toBe(1)
    expect(await name.getAttribute('aria-invalid')).toBe('true')
    await name.fill('Ab')
    await expect.poll(() => page.getByText('Name must be at least 2 characters').count()).toBe(0)
    await page.getByRole('button', { name: 'Register' }).click()
    await expect.poll(() => page.getByText('WhatsApp number must be at least 10 digits').count()).toBe(1)
    await expectNoAxeViolations(page)

    await register(page, { name: 'Priya Nair', email: 'priya@example.com', password: 'backstroke-1' })
    await expect.poll(() => page.getByRole('heading', { name: 'Verify your e-mail' }).count()).toBe(1)
    await expectNoAxeViolations(page)

    await verify(page, 'priya@example.com')
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Registration successful!Welcome to Swimming Sport Science Lab, Priya Nair!')
    await expectNoAxeViolations(page)
    await page.locator('summary[aria-label="Menu"]').click()
    const menu = page.getByRole('navigation', { name: 'Mobile' })
    expect(await menu.getByText('Welcome, Priya Nair').count()).toBe(1)
    await menu.getByRole('link', { name: 'My Bookings' }).click()
    await page.waitForURL('**/my-bookings')
    await expect.poll(() => page.getByText('No bookings yet').count()).toBe(1)
    await expectNoAxeViolations(page)
    // The swimmer's profile, as registered, is on My Swimmers.
    await page.locator('summary[aria-label="Menu"]').click()
    await menu.getByRole('link', { name: 'My Swimmers' }).click()
    await page.waitForURL('**/swimmers')
    await expect.poll(() => page.getByText('Intermediate').count()).toBe(1)

    await page.locator('summary[aria-label="Menu"]').click()
    await menu.getByRole('button', { name: 'Logout' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await expect.poll(() => page.getByRole('link', { name: 'Book a Session' }).count()).toBeGreaterThan(0)
    await page.goto('/my-bookings')
    expect(new URL(page.url()).pathname).toBe('/login')
    await context.close()
  })

  it('login returns to the requested page; the password can be shown; wrong passwords are refused', async () => {
    const setup = await browser.context(site.url, DESKTOP)
    const first = await setup.newPage()
    await register(first, { name: 'Kiran Das', email: 'kiran@example.com', password: 'freestyle-1' })
    await verify(first, 'kiran@example.com')
    await setup.close()

    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    await page.goto('/my-bookings')
    await page.waitForURL('**/login?redirectTo=%2Fmy-bookings')
    expect(await page.getByRole('heading', { name: 'Welcome Back' }).count()).toBe(1)
    await expectNoAxeViolations(page)

    await page.getByLabel('Email').fill('kiran@example.com')
    const password = page.getByLabel('Password', { exact: true })
    await password.fill('wrong-password')
    await page.getByRole('button', { name: 'Show password' }).click()
    expect(await password.getAttribute('type')).toBe('text')
    await page.getByRole('button', { name: 'Hide password' }).click()
    expect(await password.getAttribute('type')).toBe('password')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/^Login failed\s+Invalid email or password\. Please try again\.$/)
    await expectNoAxeViolations(page)

    await password.fill('freestyle-1')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/my-bookings')
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Login successful!')
    const nav = page.getByRole('navigation', { name: 'Main' })
    expect(await nav.getByRole('link', { name: 'Book Analysis' }).count()).toBe(1)
    expect(await page.getByRole('banner').getByText('Welcome, Kiran Das').first().isVisible()).toBe(true)

    // The toast can be dismissed, and leaves by itself after 5 seconds.
    await page.getByRole('button', { name: 'Dismiss notification' }).click()
    expect(await page.getByRole('status').count()).toBe(0)
    await context.close()
  })

  it('sign-in checks the e-mail in the browser once its rules arrive, after the page has shown', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    // The script with zod is held back until released, to see the form work before and after it.
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/assets/*.js', async (route) => {
      const response = await route.fetch()
      const body = await response.text()
      if (body.includes('$ZodObject')) await released
      await route.fulfill({ response, body })
    })
    const errors = watchPageErrors(page)
    const posts: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url())
    })
    await page.goto('/login')
    expect(await page.getByLabel('Email').getAttribute('required')).toBe('')
    await page.getByRole('button', { name: 'Show password' }).waitFor()

    const email = page.getByLabel('Email')
    await email.fill('not-an-address')
    await email.blur()
    expect(await page.getByText('Invalid email address').count()).toBe(0)
    release()
    await expect.poll(() => page.getByText('Invalid email address').count()).toBe(1)
    expect(await email.getAttribute('aria-invalid')).toBe('true')
    await email.fill('ana@example.com')
    await expect.poll(() => page.getByText('Invalid email address').count()).toBe(0)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await expect.poll(() => page.getByText('Password must be at least 6 characters').count()).toBe(1)
    expect(posts).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it('forgot password, end to end', async () => {
    const setup = await browser.context(site.url, DESKTOP)
    const first = await setup.newPage()
    await register(first, { name: 'Dev Menon', email: 'dev@example.com', password: 'old-password-1' })
    await verify(first, 'dev@example.com')

    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    await page.goto('/login')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await page.waitForURL('**/forgot-password')
    await expectNoAxeViolations(page)
    await page.getByLabel('Email').fill('dev@example.com')
    await page.getByRole('button', { name: 'Send Reset Code' }).click()
    await page.waitForURL('**/forgot-password?email=dev%40example.com')
    await expectNoAxeViolations(page)

    await page.getByLabel('Reset code').fill(await codeFromAdminMailbox(admin, 'dev@example.com', /password reset code/))
    await page.getByLabel('New Password', { exact: true }).fill('new-password-1')
    await page.getByLabel('Confirm Password', { exact: true }).fill('new-password-2')
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await expect.poll(() => page.getByText("Passwords don't match").count()).toBe(1)
    await expectNoAxeViolations(page)
    await page.getByLabel('Confirm Password', { exact: true }).fill('new-password-1')
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await page.waitForURL('**/forgot-password?done=1')
    await expect.poll(() => page.getByText('Your password has been updated successfully.').count()).toBe(1)
    await expectNoAxeViolations(page)
    await page.waitForURL('**/login', { timeout: 5_000 })

    // The other browser was signed out.
    await first.goto('/my-bookings')
    expect(new URL(first.url()).pathname).toBe('/login')
    await setup.close()

    await page.getByLabel('Email').fill('dev@example.com')
    await page.getByLabel('Password', { exact: true }).fill('new-password-1')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/book-slot')
    await context.close()
  })

  it('the admin pages pass axe; a customer is refused', async () => {
    const page = await admin.newPage()
    await page.goto('/admin')
    await expectNoAxeViolations(page)
    await page.goto('/admin/messages')
    await expectNoAxeViolations(page)
    await page.close()

    const context = await browser.context(site.url, DESKTOP)
    const customer = await context.newPage()
    await register(customer, { name: 'Sam Roy', email: 'sam@example.com', password: 'medley-1234' })
    await verify(customer, 'sam@example.com')
    const response = await customer.goto('/admin')
    expect(response?.status()).toBe(403)
    expect(await customer.getByRole('heading', { name: 'Access denied' }).count()).toBe(1)
    await expectNoAxeViolations(customer)
    await context.close()
  })

  it('works without JavaScript: sign-in errors are shown next to the fields', async () => {
    const context = await browser.context(site.url, PHONE, { javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForLoadState()
    expect(await page.getByText('Invalid email address').count()).toBe(1)
    expect(await page.getByText('Password must be at least 6 characters').count()).toBe(1)
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true')
    // (axe needs JavaScript to run; the same markup is scanned with JavaScript above.)
    await context.close()
  })
})
