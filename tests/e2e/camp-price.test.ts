import { describe, expect, it } from 'vitest'
import { promoCodes } from '~/db/schema'
import { expectNoAxeViolations, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { useTestSite } from '../support/site'

// The camp price in a real browser: a guest with a 10% promo code is shown what they will pay before
// the gateway, and the gateway asks exactly that; a wrong code is said next to its field.

const browser = useBrowser()
const site = useTestSite(
  {},
  {
    async prepare(db) {
      await db.insert(promoCodes).values({ code: 'TENOFF', discountKind: 'percent', discountValue: 10_00, products: ['camp'] })
    },
  },
)

const LAPTOP = { width: 1280, height: 800 }

describe('the camp price a guest is shown', () => {
  it('with a 10% code: a wrong code is said by its field, then the summary and its button say ₹31,500, and so does the gateway', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/onboarding')
    await page.getByLabel('Full Name').fill('Nila Raman')
    await page.getByLabel('Email Address').fill('raman@example.com')
    await page.getByLabel('Phone Number').fill('98450 12345')
    await page.getByRole('radio', { name: /^Camp 2/ }).check()
    await page.getByRole('radio', { name: /Batch 1/ }).check()
    await page.getByRole('checkbox', { name: /parent or legal guardian/ }).check()

    // A code that does not exist: the reason next to the field, the rest of the form as it was.
    await page.getByLabel(/Promo code/).fill('NOSUCH')
    await page.getByRole('button', { name: /^Register Now/ }).click()
    await expect.poll(() => page.getByText('This promo code is not valid.').isVisible()).toBe(true)
    expect(await page.getByLabel(/Promo code/).getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByRole('button', { name: 'Try Again' }).count()).toBe(0)
    expect(await page.getByLabel('Full Name').inputValue()).toBe('Nila Raman')
    expect(await page.getByRole('checkbox', { name: /parent or legal guardian/ }).isChecked()).toBe(true)
    await expectNoAxeViolations(page)

    await page.getByLabel(/Promo code/).fill('tenoff')
    await page.getByRole('button', { name: /^Register Now/ }).click()
    await page.waitForURL(/\/onboarding\/offer\?registration=CMP-/)
    await expect.poll(() => page.getByTestId('quote').innerText()).toMatch(/Camp fee for Nila Raman\s+₹35,000\.00\s+Promo code TENOFF\s+−₹3,500\.00\s+Total\s+₹31,500\.00/)
    const pay = page.getByRole('button', { name: 'Pay ₹31,500' })
    expect(await pay.isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await page.setViewportSize(LAPTOP)
    await expectNoAxeViolations(page)

    await pay.click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    expect(await page.getByText('₹31,500.00').first().isVisible()).toBe(true)
    await page.getByRole('button', { name: /test success/ }).click()
    await page.waitForURL(/\/payment-status\?orderId=CAMP_/)
    await expect.poll(() => page.getByRole('heading', { name: 'Registration Complete!' }).isVisible(), { timeout: 20_000 }).toBe(true)
    expect(await page.getByText('₹31,500 payment completed successfully').isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await page.setViewportSize(PHONE)
    await expectNoAxeViolations(page)
    // The wrong code was answered 400 Bad Request, which the browser notes; nothing else went wrong.
    expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([])
    await context.close()
  })
})
