import { describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { FAMILY, useFamilySite } from '../support/family-site'
import { decodeHtml } from '../support/visitor'

// A signed-in parent registers both their swimmers for a camp in a real browser and pays once.

const browser = useBrowser()
const site = useFamilySite()

describe('a family registering for a camp', () => {
  it('signed in: both swimmers ticked → one payment → the status page names both', async () => {
    const { context, page, errors } = await browser.familyOnCampForm(site.url, FAMILY, PHONE)
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

    await page.waitForURL(/\/onboarding\/offer\?registration=CMP-/)
    await page.getByRole('button', { name: /^Pay ₹/ }).click()
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

  it('with a sibling price: each ticked swimmer’s price and the total follow the ticks, priced by the server', async () => {
    // Staff give Camp 2 a sibling price of ₹2,000 on its page.
    const admin = await site.staff()
    const campPage = (await admin.get('/admin/camps/camp2')).html
    const value = (name: string) => decodeHtml(/value="([^"]*)"/.exec(new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(campPage)![0])![1]!)
    const fields = ['name', 'startsOn', 'endsOn', 'venue', 'earlyBirdPrice', 'regularPrice', 'earlyBirdDeadline']
    const saved = await admin.post('/admin/camps/camp2', { ...Object.fromEntries(fields.map((name) => [name, value(name)])), registration: 'open', siblingPrice: 'amount', siblingPercent: '', siblingAmount: '2,000', intent: 'update-camp' })
    expect(saved.status).toBe(302)

    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/login')
    await signInWithForm(page, FAMILY, /\/book-slot/)
    const prices = page.getByTestId('family-prices')
    // Public pages read camps from a cache that the change clears a moment later.
    await expect
      .poll(async () => {
        await page.goto('/onboarding')
        return page.getByRole('group', { name: 'Select Camp' }).innerText()
      }, { timeout: 10_000, interval: 300 })
      .toContain('Each further swimmer of your family: ₹33,000 (₹2,000 off)')
    await page.getByRole('radio', { name: /^Camp 2/ }).check()
    await expect.poll(() => prices.innerText()).toContain('The first swimmer of your family pays ₹35,000. Each further swimmer of your family: ₹33,000 (₹2,000 off).')

    await page.getByRole('radio', { name: /Batch 1/ }).check()
    // The server prices what is ticked, as the summary will.
    const quote = () => page.getByTestId('quote').innerText().catch(() => '')
    await page.getByRole('checkbox', { name: /Meera Iyer/ }).check()
    await expect.poll(quote).toMatch(/Camp fee for Meera Iyer\s+₹35,000\.00\s+Total\s+₹35,000\.00/)
    await page.getByRole('checkbox', { name: /Kavya Iyer/ }).check()
    await expect.poll(quote).toMatch(/Camp fee for Meera Iyer\s+₹35,000\.00\s+Camp fee for Kavya Iyer\s+₹35,000\.00\s+Sibling price for Kavya Iyer\s+−₹2,000\.00\s+Total\s+₹68,000\.00/)
    await expect.poll(() => page.getByRole('button', { name: 'Register and Pay - ₹68,000' }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await page.getByRole('checkbox', { name: /Meera Iyer/ }).uncheck()
    await expect.poll(quote).toMatch(/Camp fee for Kavya Iyer\s+₹35,000\.00\s+Total\s+₹35,000\.00/)
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
