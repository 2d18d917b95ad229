import { describe, expect, it } from 'vitest'
import { expectNoAxeViolations, PHONE, useBrowser } from '../support/browser'
import { FAMILY, useFamilySite } from '../support/family-site'

// A parent cancels their child's camp place from My Bookings in a real browser, on a phone and
// on a laptop, and sees the refund come back.

const browser = useBrowser()
const site = useFamilySite()

const LAPTOP = { width: 1280, height: 800 }

describe('cancelling a camp place', () => {
  it('My Bookings → Cancel → the confirmation page → cancelled, the refund and its credit note shown', { timeout: 120_000 }, async () => {
    const { context, page, errors } = await browser.familyOnCampForm(site.url, FAMILY, PHONE)
    await page.getByRole('radio', { name: /^Camp 2/ }).check()
    await page.getByRole('radio', { name: /Batch 1/ }).check()
    await page.getByRole('checkbox', { name: /Kavya Iyer/ }).check()
    await page.getByRole('button', { name: /Register and Pay/ }).click()
    await page.waitForURL(/\/onboarding\/offer\?registration=CMP-/)
    await page.getByRole('button', { name: /^Pay ₹/ }).click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    await page.getByRole('button', { name: /test success/ }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Registration Complete!' }).isVisible(), { timeout: 20_000 }).toBe(true)

    await page.goto('/my-bookings')
    const place = page.getByTestId('camp-registration').filter({ hasText: 'Kavya Iyer' })
    // The count beside the heading counts the camp place.
    expect(await page.getByRole('heading', { name: 'My Bookings', level: 1 }).locator('xpath=following-sibling::span[1]').textContent()).toBe('1 booking')
    expect(await place.getByRole('link', { name: 'Download Receipt' }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await place.getByRole('link', { name: 'Cancel' }).click()

    await page.waitForURL(/\/camp-registrations\/CMP-\d{10}\/cancel$/)
    await expect.poll(() => page.getByRole('heading', { name: 'Cancel your camp registration' }).isVisible()).toBe(true)
    expect(await page.getByText('You will get your ₹35,000.00 back').isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await page.setViewportSize(LAPTOP)
    await expectNoAxeViolations(page)
    await page.setViewportSize(PHONE)
    await page.getByRole('button', { name: 'Cancel this registration' }).click()

    await page.waitForURL(/\/my-bookings$/)
    await expect.poll(() => page.getByText('Registration cancelled').isVisible()).toBe(true)
    // The refund completes through the gateway a moment later: the place says so, with its credit note.
    await expect
      .poll(
        async () => {
          await page.reload()
          return place.innerText()
        },
        { timeout: 30_000, interval: 500 },
      )
      .toMatch(/Refunded[\s\S]*Credit note/)
    await expectNoAxeViolations(page)
    await page.setViewportSize(LAPTOP)
    await expectNoAxeViolations(page)
    expect(errors).toEqual([])
    await context.close()
  })
})
