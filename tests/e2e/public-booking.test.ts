import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, PHONE, signInWithForm, watchPageErrors, useBrowser } from '../support/browser'
import { useTestSite } from '../support/site'
import { bookableDate } from '../support/booking-flow'

// The public /booking in a real browser: a booking for a child, a declined payment, reloads along
// the way, and who swims for a signed-in customer.

const browser = useBrowser()
const site = useTestSite()

async function fillDetails(page: Page, { name, email, date, time }: { name: string; email: string; date: string; time: string }) {
  await page.getByLabel('Full Name').fill(name)
  await page.getByLabel('Email').fill(email)
  await page.getByRole('radio', { name: /^Biomechanical Analysis/ }).check()
  await page.getByLabel('Date').selectOption(date)
  // The times follow the date without a reload.
  await expect.poll(() => page.getByRole('radio', { name: time, exact: true }).isEnabled(), { timeout: 10_000 }).toBe(true)
  await page.getByRole('radio', { name: time, exact: true }).check()
}

/** A laptop's width, the other size every journey is checked at. */
const LAPTOP = { width: 1280, height: 800 }

const GUEST_PARENTS = [
  { size: 'a phone', viewport: PHONE, parent: 'Kavya Nair', email: 'kavya@example.com', child: 'Anika Nair', date: bookableDate(4) },
  { size: 'a laptop', viewport: LAPTOP, parent: 'Ravi Menon', email: 'ravi.menon@example.com', child: 'Diya Menon', date: bookableDate(5) },
] as const

describe('/booking in the browser', () => {
  it.each(GUEST_PARENTS)('details for a child, as their parent → payment → gateway → Booking Confirmed!, surviving a reload at every step, on $size', async ({ viewport, parent, email, child, date }) => {
    const context = await browser.context(site.url, viewport)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/booking')
    expect(await page.getByRole('navigation', { name: 'Booking progress' }).locator('[aria-current="step"]').innerText()).toContain('1. Details')
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await expect.poll(() => page.getByRole('alert').first().innerText()).toContain('Missing information - Please fill in all required fields.')
    await expectNoAxeViolations(page)

    await fillDetails(page, { name: parent, email, date, time: '2:00 PM' })
    // Who swims: the person booking unless they say otherwise; someone else is named with their age.
    expect(await page.getByRole('radio', { name: 'Myself' }).isChecked()).toBe(true)
    expect(await page.getByLabel("Swimmer's name").isVisible()).toBe(false)
    await page.getByRole('radio', { name: 'Someone else' }).check()
    await page.getByLabel("Swimmer's name").fill(child)
    await page.getByLabel("Swimmer's age").fill('11')
    // Under 18: the parent's or guardian's declaration, never ticked for them, asked for before the next step.
    const declaration = page.getByRole('checkbox', { name: /parent or legal guardian/ })
    expect(await declaration.isChecked()).toBe(false)
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await expect.poll(() => page.getByText("Please confirm that you are the swimmer's parent or guardian and agree to the Privacy Policy").isVisible()).toBe(true)
    expect(page.url()).not.toMatch(/step=2/)
    await expectNoAxeViolations(page)
    await declaration.check()
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await page.waitForURL(/step=2/)
    await page.reload()
    await expect.poll(() => page.getByText('Total').isVisible()).toBe(true)
    expect(await page.getByRole('navigation', { name: 'Booking progress' }).locator('[aria-current="step"]').innerText()).toContain('2. Payment')
    expect(await page.locator('main').innerText()).toMatch(new RegExp(`Name\\s+${parent}[^]*Swimmer\\s+${child}, 11[^]*Biomechanical Analysis[^]*at 2:00 PM[^]*₹3,499\\.00`))
    await expectNoAxeViolations(page)

    await page.getByRole('button', { name: 'Complete Booking' }).click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    await page.getByRole('button', { name: /test success/ }).click()
    await page.waitForURL(/step=3/)
    await expect.poll(() => page.getByRole('heading', { name: 'Booking Confirmed!' }).isVisible(), { timeout: 20_000 }).toBe(true)
    await page.reload()
    await expect.poll(() => page.getByRole('heading', { name: 'Booking Confirmed!' }).isVisible()).toBe(true)
    expect(await page.locator('main').innerText()).toMatch(new RegExp(`Swimmer\\s+${child}[^]*Booking ID\\s+SWP-\\d{10}`))
    expect(await page.getByRole('navigation', { name: 'Booking progress' }).locator('[aria-current="step"]').innerText()).toContain('3. Confirmation')
    await expectNoAxeViolations(page)
    // The e-mail greets the parent who booked and paid, and names the child who swims.
    const mail = await site.sink.waitForMailTo(email, /Booking confirmed/)
    expect(mail.text).toMatch(new RegExp(`Hello ${parent},`))
    expect(mail.text).toMatch(new RegExp(`Swimmer: +${child}`))
    expect(mail.text).toContain(`We look forward to seeing ${child.split(' ')[0]} in the pool.`)
    expect(errors).toEqual([])
    await context.close()
  })

  it('a declined payment returns to step 2 with a message and the details kept', async () => {
    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    await page.goto('/booking')
    await fillDetails(page, { name: 'Ravi Kumar', email: 'ravi@example.com', date: bookableDate(5), time: '3:00 PM' })
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await page.waitForURL(/step=2/)
    await page.getByRole('button', { name: 'Complete Booking' }).click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    await page.getByRole('button', { name: /test failure/ }).click()
    await page.waitForURL(/step=2&payment=failed/)
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Your payment did not go through')
    expect(await page.locator('main').innerText()).toContain('Ravi Kumar')
    await expectNoAxeViolations(page)
    await page.getByRole('link', { name: 'Change details' }).click()
    await page.waitForURL(/\/booking$/)
    await expect.poll(() => page.getByLabel('Full Name').inputValue()).toBe('Ravi Kumar')
    await context.close()
  })

  it("offers a signed-in customer their account's swimmers, or someone else named with their age", async () => {
    await site.customer('Deepa Menon')
    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/login?redirectTo=%2Fbooking')
    await signInWithForm(page, { email: 'deepamenon@example.com', password: 'butterfly-2027' }, /\/booking$/)
    const who = page.getByRole('group', { name: 'Who will swim?' })
    await expect.poll(() => who.getByRole('radio', { name: 'Deepa Menon' }).isChecked()).toBe(true)
    expect(await who.getByRole('radio').count()).toBe(2)
    expect(await page.getByLabel("Swimmer's name").isVisible()).toBe(false)
    await who.getByRole('radio', { name: 'Someone else' }).check()
    await expect.poll(() => page.getByLabel("Swimmer's name").isVisible()).toBe(true)
    await page.getByLabel("Swimmer's age").fill('35')
    expect(await page.getByRole('checkbox', { name: /parent or legal guardian/ }).isVisible()).toBe(false)
    await expectNoAxeViolations(page)
    expect(errors).toEqual([])
    await context.close()
  })
})
