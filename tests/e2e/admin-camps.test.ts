import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { text, Visitor } from '../support/visitor'
import { STAFF, useTestSite } from '../support/site'
import { CAMP_SUMMARY, paySummary } from '../support/camp-summary'

// Staff run camps in a real browser at desktop size: the pages pass axe, and the forms check
// what is typed as it is typed.

const browser = useBrowser()
const site = useTestSite({ SMTP_URL: undefined })

/** A parent registers for the camp, confirms the summary and pays at the sandbox gateway, as the public form does it. */
async function paidRegistration(name: string, camp: string, batch: string) {
  const parent = new Visitor(site.url)
  const submitted = await parent.post('/onboarding', { name, email: `${name.toLowerCase().replace(/\W/g, '.')}@example.com`, phone_number: '98450 12345', guardianDeclaration: 'on', camp, batch, website_url: '' })
  expect(submitted.location).toMatch(CAMP_SUMMARY)
  const paid = await parent.post((await paySummary(parent, submitted.location!)).location!, { outcome: 'success' })
  // Back from the gateway, as a parent is: the status page settles the payment, so the registration
  // is confirmed before staff look (the gateway's webhook may come a moment later).
  expect(paid.status).toBe(303)
  expect(text((await parent.get(paid.location!)).html)).toContain('Registration Complete!')
}

const errorShown = (page: Page, message: string) => page.getByText(message, { exact: true }).count()

describe('the camps pages in a browser', () => {
  it('a new camp is checked as it is typed and created with two batches; its page passes axe and moves a registration', async () => {
    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/login')
    await signInWithForm(page, STAFF, /\/admin$/)
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Camps' }).click()
    await page.waitForURL(/\/admin\/camps$/)
    await expect.poll(() => page.getByRole('heading', { name: 'Camps', level: 1 }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)

    const newCamp = page.getByRole('region', { name: 'New camp' })
    await newCamp.getByLabel('Code', { exact: true }).fill('Camp 4')
    await newCamp.getByLabel('Name', { exact: true }).focus()
    await expect.poll(() => errorShown(page, 'Use up to 40 lower-case letters, digits, - or _')).toBe(1)
    await newCamp.getByLabel('Code', { exact: true }).fill('camp4')
    await expect.poll(() => errorShown(page, 'Use up to 40 lower-case letters, digits, - or _')).toBe(0)

    await newCamp.getByLabel('Name', { exact: true }).fill('Camp 4')
    await newCamp.getByLabel('Venue').fill('PDCSE, Bangalore')
    await newCamp.getByLabel('First day').fill('2030-12-20')
    await newCamp.getByLabel('Last day').fill('2030-12-28')
    await newCamp.getByLabel('Early-bird price (₹)').fill('35,000')
    await newCamp.getByLabel('Regular price (₹)').fill('30000')
    await newCamp.getByLabel('Early-bird price until').focus()
    await expect.poll(() => errorShown(page, 'The regular price must be at least the early-bird price')).toBe(1)
    await newCamp.getByLabel('Regular price (₹)').fill('40,000')
    await expect.poll(() => errorShown(page, 'The regular price must be at least the early-bird price')).toBe(0)
    await newCamp.getByLabel('Early-bird price until').fill('2030-11-30')

    const first = newCamp.getByRole('group', { name: 'Batch 1' })
    await first.getByLabel('Batch name').fill('Morning')
    await first.getByLabel('Batch code').fill('morning')
    await first.getByLabel('First session starts').fill('07:00')
    await first.getByLabel('First session ends').fill('06:30')
    await first.getByLabel('Seats').focus()
    await expect.poll(() => errorShown(page, 'The end time must be after the start time')).toBe(1)
    await first.getByLabel('First session ends').fill('08:30')
    await expect.poll(() => errorShown(page, 'The end time must be after the start time')).toBe(0)
    await first.getByLabel('Seats').fill('1')

    // With JavaScript the second row appears in place.
    const url = page.url()
    await newCamp.getByRole('button', { name: 'Add another batch' }).click()
    const second = newCamp.getByRole('group', { name: 'Batch 2' })
    await expect.poll(() => second.isVisible()).toBe(true)
    expect(page.url()).toBe(url)
    await second.getByLabel('Batch name').fill('Evening')
    await second.getByLabel('Batch code').fill('evening')
    await second.getByLabel('First session starts').fill('17:00')
    await second.getByLabel('First session ends').fill('18:30')
    await second.getByLabel('Seats').fill('12')
    await expectNoAxeViolations(page)
    await newCamp.getByRole('button', { name: 'Create camp' }).click()

    await page.waitForURL(/\/admin\/camps\/camp4$/)
    await expect.poll(() => page.getByRole('heading', { name: 'Camp 4', level: 1 }).isVisible()).toBe(true)
    await expect.poll(() => page.getByText('Camp created').isVisible()).toBe(true)
    await expectNoAxeViolations(page)

    // Seats that are not a number are flagged as typed; the saved batch shows its new size.
    const morning = page.getByRole('region', { name: 'Morning' })
    await morning.getByText('Edit Morning').click()
    await morning.getByLabel('Seats').fill('two')
    await morning.getByLabel('Batch name').focus()
    await expect.poll(() => errorShown(page, 'Please enter a whole number of seats from 0 to 500')).toBe(1)
    await morning.getByLabel('Seats').fill('2')
    await expect.poll(() => errorShown(page, 'Please enter a whole number of seats from 0 to 500')).toBe(0)
    await expectNoAxeViolations(page)
    await morning.getByRole('button', { name: 'Save Morning' }).click()
    await expect.poll(() => morning.getByText('7:00 AM - 8:30 AM. 0 of 2 seats taken.').isVisible()).toBe(true)

    // A registration moved in the browser, from a page full of forms that passes axe.
    await paidRegistration('Isha Nair', 'camp4', 'morning')
    await page.reload()
    await expect.poll(() => morning.getByRole('cell', { name: /Isha Nair/ }).isVisible()).toBe(true)
    await morning.getByText('Move Isha Nair').click()
    await morning.getByText('Cancel Isha Nair').click()
    await expectNoAxeViolations(page)
    await morning.getByRole('button', { name: 'Move', exact: true }).click()
    await expect.poll(() => errorShown(page, 'Please choose the batch to move to')).toBe(1)
    await morning.getByLabel('To batch').selectOption('evening')
    await expect.poll(() => errorShown(page, 'Please choose the batch to move to')).toBe(0)
    await morning.getByRole('button', { name: 'Move', exact: true }).click()
    await expect.poll(() => page.getByText('Isha Nair is now in Evening; the parent has been e-mailed.').isVisible()).toBe(true)
    const evening = page.getByRole('region', { name: 'Evening' })
    await expect.poll(() => evening.getByRole('cell', { name: /Isha Nair/ }).isVisible()).toBe(true)

    // The same page on a 360 px phone: nothing wider than the screen.
    await page.setViewportSize(PHONE)
    await page.reload()
    await expectNoSidewaysScroll(page)
    await expectNoAxeViolations(page)
    expect(errors).toEqual([])
    await context.close()
  })
})
