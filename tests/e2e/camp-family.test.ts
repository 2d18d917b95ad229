import { describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { FAMILY, useFamilySite } from '../support/family-site'

// A signed-in parent registers both their swimmers for a camp in a real browser and pays once.

const browser = useBrowser()
const site = useFamilySite()

describe('a family registering for a camp', () => {
  it('signed in: both swimmers ticked → one payment → the status page names both', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/login')
    await signInWithForm(page, FAMILY, /\/book-slot/)
    await page.goto('/onboarding')
    await expect.poll(() => page.getByRole('group', { name: 'Swimmers' }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)

    // Nothing ticked: the message sits by the group.
    await page.getByRole('radio', { name: /^Camp 1/ }).check()
    await page.getByRole('radio', { name: /Batch 2/ }).check()
    await page.getByRole('button', { name: /Register and Pay/ }).click()
    await expect.poll(() => page.getByText('Please choose at least one swimmer').isVisible()).toBe(true)
    await expectNoAxeViolations(page)

    expect(await page.getByLabel('WhatsApp Number').inputValue()).toBe(FAMILY.phone)
    await page.getByRole('checkbox', { name: /Meera Iyer/ }).check()
    await page.getByRole('checkbox', { name: /Kavya Iyer/ }).check()
    await page.getByRole('button', { name: /Register and Pay/ }).click()

    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    await page.getByRole('button', { name: /test success/ }).click()
    await page.waitForURL(/\/payment-status\?orderId=CAMP_/)
    await expect.poll(() => page.getByRole('heading', { name: 'Registration Complete!' }).isVisible(), { timeout: 20_000 }).toBe(true)
    await expect.poll(() => page.getByText(/Meera Iyer \(Registration ID CMP-/).isVisible()).toBe(true)
    expect(await page.getByText(/Kavya Iyer \(Registration ID CMP-/).isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    expect(errors).toEqual([])
    await context.close()
  })

  it('the signed-in form passes axe at desktop size', async () => {
    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    await page.goto('/login')
    await signInWithForm(page, FAMILY, /\/book-slot/)
    await page.goto('/onboarding')
    await expect.poll(() => page.getByRole('checkbox', { name: /Kavya Iyer/ }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await context.close()
  })
})
