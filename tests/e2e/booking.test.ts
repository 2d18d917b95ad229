import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, firstTimeOn, PHONE, showOpenDates, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { usePhonePeSite } from '../support/phonepe-site'
import { useTestSite } from '../support/site'

// A customer books and pays for a 3-day session in a real browser, through the sandbox gateway and
// through PhonePe (a local fake that speaks its protocol), with an accessibility scan of each screen.

const browser = useBrowser()

const PASSWORD = 'butterfly-2027'
const WEBHOOK = { username: 'lab-webhook', password: 'hook-password-1' }

type Gateway = {
  name: 'sandbox' | 'phonepe'
  pay(page: Page): Promise<void>
  decline(page: Page): Promise<void>
}

const GATEWAYS: Gateway[] = [
  {
    name: 'sandbox',
    pay: (page) => page.getByRole('button', { name: /test success/ }).click(),
    decline: (page) => page.getByRole('button', { name: /test failure/ }).click(),
  },
  {
    name: 'phonepe',
    pay: (page) => page.getByRole('button', { name: 'Pay', exact: true }).click(),
    decline: (page) => page.getByRole('button', { name: 'Fail', exact: true }).click(),
  },
]

for (const gateway of GATEWAYS) {
  describe(`booking a 3-day session, paying through ${gateway.name}`, () => {
    const site = gateway.name === 'phonepe' ? usePhonePeSite(WEBHOOK).site : useTestSite()

    async function signedIn(name: string, viewport = DESKTOP) {
      const email = `${name.toLowerCase().replace(/\W/g, '')}.${gateway.name}@example.com`
      await site.customer(name, email)
      const context = await browser.context(site.url, viewport)
      const page = await context.newPage()
      const errors = watchPageErrors(page)
      await page.goto('/book-slot')
      await page.waitForURL(/\/login/)
      await signInWithForm(page, { email, password: PASSWORD }, /\/book-slot/)
      return { page, email, errors, close: () => context.close() }
    }

    /** Picks the `nth` open date, taps its first available time (which holds the seats), and goes to the gateway. */
    async function holdAndGoToGateway(page: Page, nth: number) {
      const { time, label } = await firstTimeOn(page, nth)
      await expectNoAxeViolations(page)
      await time.click()
      await page.waitForURL(/\/slot-payment\?booking=\d+/)
      await expect.poll(() => page.getByRole('heading', { name: 'Complete Your Payment' }).isVisible()).toBe(true)
      await expectNoAxeViolations(page)
      await page.getByRole('button', { name: /^Pay ₹30,000\.00$/ }).click()
      await page.waitForURL((url) => !url.pathname.startsWith('/slot-payment'))
      return label
    }

    it('sign in → date → time → pay → Payment Successful! → My Bookings, and the e-mail with its .ics', async () => {
      const { page, email, errors, close } = await signedIn('Asha Rao', gateway.name === 'sandbox' ? PHONE : DESKTOP)
      await expectNoAxeViolations(page)
      const time = await holdAndGoToGateway(page, 0)
      await gateway.pay(page)

      await page.waitForURL(/\/slot-payment-status\?orderId=SLOT_/)
      await expect.poll(() => page.getByRole('heading', { name: 'Payment Successful!' }).isVisible(), { timeout: 30_000 }).toBe(true)
      await expect.poll(() => page.getByText(new RegExp(`Booking Confirmed! Your analysis session has been booked for .* at ${time}`)).isVisible()).toBe(true)
      await expectNoAxeViolations(page)

      await page.getByRole('link', { name: 'View My Bookings' }).click()
      await page.waitForURL(/\/my-bookings/)
      const booking = page.getByRole('article')
      await expect.poll(() => booking.getByText('Confirmed', { exact: true }).isVisible()).toBe(true)
      await expect.poll(() => booking.getByText('₹30,000.00').isVisible()).toBe(true)
      await expect.poll(() => booking.getByText(time).isVisible()).toBe(true)
      await expectNoAxeViolations(page)
      expect(errors).toEqual([])

      const mail = await site.sink.waitForMailTo(email, /Booking confirmed/)
      expect(mail.text).toContain('3-Day Biomechanical Analysis')
      expect(mail.raw).toMatch(/Content-Type: text\/calendar[^]*filename=SWP-\d{10}\.ics/)
      await close()
    })

    it('a declined payment shows Payment Failed; Try Again leads back to booking, and the slot is free again', async () => {
      const { page, errors, close } = await signedIn('Ravi Kumar')
      await holdAndGoToGateway(page, 1)
      await gateway.decline(page)
      await page.waitForURL(/\/slot-payment-status/)
      await expect.poll(() => page.getByRole('heading', { name: 'Payment Failed' }).isVisible(), { timeout: 30_000 }).toBe(true)
      await expectNoAxeViolations(page)
      await page.getByRole('link', { name: 'Try Again' }).click()
      await page.waitForURL(/\/book-slot$/)
      await page.getByRole('link', { name: 'My Bookings' }).first().click()
      await expect.poll(() => page.getByRole('heading', { name: 'No bookings yet' }).isVisible()).toBe(true)
      expect(errors).toEqual([])
      await close()
    })
  })
}

describe('the status page while the gateway has not decided (sandbox)', () => {
  const site = useTestSite()

  it('counts the seconds, polls every 3 seconds, and turns to Payment Successful! without a reload', async () => {
    const email = 'meera@example.com'
    await site.customer('Meera Iyer', email)
    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    await page.goto('/login?redirectTo=/book-slot')
    await signInWithForm(page, { email, password: PASSWORD }, /\/book-slot/)

    // The calendar is operated from the keyboard: arrows move between open dates, Enter picks one.
    await showOpenDates(page, 2)
    const firstOpen = page.locator('table a[data-date]').first()
    const secondDate = await page.locator('table a[data-date]').nth(1).getAttribute('data-date')
    await firstOpen.focus()
    await page.keyboard.press('ArrowRight')
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.date)).toBe(secondDate)
    await page.keyboard.press('Enter')
    await page.waitForURL(new RegExp(`date=${secondDate}`))
    // The date chosen keeps the focus once the month is shown with it.
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.date)).toBe(secondDate)
    await expect.poll(() => page.locator(`table a[data-date="${secondDate}"]`).getAttribute('aria-current')).toBe('date')

    await page.locator('button[name="time"]').first().click()
    await page.waitForURL(/\/slot-payment\?/)
    await page.getByRole('button', { name: /^Pay / }).click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    const checkoutUrl = page.url()
    await page.getByRole('button', { name: 'Leave it pending and return' }).click()

    await page.waitForURL(/\/slot-payment-status/)
    await expect.poll(() => page.getByRole('heading', { name: 'Verifying Payment' }).isVisible()).toBe(true)
    await expect.poll(() => page.getByText('Auto-refreshing every 3 seconds...').isVisible()).toBe(true)
    await expect.poll(() => page.getByText(/Elapsed: [1-9]\d* seconds/).isVisible(), { timeout: 10_000 }).toBe(true)
    await expectNoAxeViolations(page)
    const url = page.url()

    // Meanwhile the bank settles the payment at the gateway.
    await fetch(checkoutUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: site.url }, body: 'outcome=success', redirect: 'manual' })
    await expect.poll(() => page.getByRole('heading', { name: 'Payment Successful!' }).isVisible(), { timeout: 15_000 }).toBe(true)
    expect(page.url()).toBe(url)
    await context.close()
  })
})
