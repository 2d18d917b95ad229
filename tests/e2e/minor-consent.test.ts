import { describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, firstTimeOn, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { useTestSite } from '../support/site'
import { codeIn } from '../support/smtp-sink'
import { registrationForm, text, Visitor } from '../support/visitor'

// A swimmer of 15 registers alone and names a parent; they cannot book until the parent agrees
// through the e-mailed link, and then book and pay as anyone does. Each new page is scanned with axe
// at phone and desktop sizes.

const browser = useBrowser()
const site = useTestSite()

const MINOR = { name: 'Kiran Rao', email: 'kiran.rao@example.com', password: 'butterfly-2027' }
const PARENT = 'lakshmi.rao@example.com'

/** Registers the swimmer of 15 ("Myself", with a parent's address) as the registration form posts it, and verifies the address. */
async function registerAlone() {
  const visitor = new Visitor(site.url)
  const registered = await visitor.post('/registration', registrationForm({ whoSwims: 'myself', name: MINOR.name, email: MINOR.email, age: '15', parentEmail: PARENT }))
  expect(registered.status).toBe(302)
  const code = codeIn((await site.sink.waitForMailTo(MINOR.email, /verification code/)).text)
  expect((await visitor.post(`/verify-email?${new URLSearchParams({ email: MINOR.email })}`, { email: MINOR.email, code, website_url: '' })).location).toBe('/book-slot')
  for (let id = 1; id < 20; id += 1) if ((await visitor.get(`/swimmers/${id}/consent`)).status === 200) return id
  throw new Error('no swimmer')
}

/** Taps the first open time on /book-slot, which holds its seats. */
async function pickFirstTime(page: import('playwright-core').Page) {
  const { time } = await firstTimeOn(page)
  await time.click()
}

describe('a swimmer under 18 who registers alone', () => {
  it('cannot book until the parent agrees through the e-mailed link, then books and pays', async () => {
    const swimmerId = await registerAlone()
    const minor = await browser.context(site.url, PHONE)
    const page = await minor.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/login')
    await signInWithForm(page, MINOR, /\/book-slot/)

    // Booking is refused while the parent has not answered.
    await pickFirstTime(page)
    await expect.poll(() => page.getByText(/can be booked only with a parent's or guardian's consent/).first().isVisible(), { timeout: 15_000 }).toBe(true)

    // Where things stand, on the swimmer's consent page.
    await page.goto(`/swimmers/${swimmerId}/consent`)
    await expect.poll(() => page.getByText(`we e-mailed ${PARENT} a link to agree`, { exact: false }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await page.setViewportSize(DESKTOP)
    await expectNoAxeViolations(page)
    await page.setViewportSize(PHONE)

    // The parent opens the link from their e-mail, on their own phone.
    const link = /(http:\/\/\S+\/consent\/[A-Za-z0-9_-]{43})/.exec((await site.sink.waitForMailTo(PARENT, /asks for your consent/)).text)![1]!
    const parentContext = await browser.context(site.url, PHONE)
    const parent = await parentContext.newPage()
    const parentErrors = watchPageErrors(parent)
    await parent.goto(link)
    await expect.poll(() => parent.getByRole('heading', { name: 'Consent for Kiran' }).isVisible()).toBe(true)
    await expectNoAxeViolations(parent)
    await parent.setViewportSize(DESKTOP)
    await expectNoAxeViolations(parent)
    await parent.getByRole('button', { name: 'I agree' }).click()
    await expect.poll(() => parent.getByText('Please enter your full name').isVisible()).toBe(true)
    await expectNoAxeViolations(parent)
    await parent.getByLabel('Your full name').fill('Lakshmi Rao')
    await parent.getByRole('checkbox', { name: /parent or legal guardian/ }).check()
    await parent.getByRole('button', { name: 'I agree' }).click()
    await expect.poll(() => parent.getByRole('heading', { name: 'Thank you' }).isVisible()).toBe(true)
    await expectNoAxeViolations(parent)
    expect(parentErrors).toEqual([])
    await parentContext.close()
    await site.sink.waitForMailTo(MINOR.email, /you can book/)

    // Now the swimmer books a session and pays.
    await page.goto(`/swimmers/${swimmerId}/consent`)
    await expect.poll(() => page.getByText("Parent's consent given by Lakshmi Rao").isVisible()).toBe(true)
    await page.goto('/book-slot')
    await pickFirstTime(page)
    await page.waitForURL(/\/slot-payment\?booking=\d+/)
    await page.getByRole('button', { name: /^Pay ₹30,000\.00$/ }).click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    await page.getByRole('button', { name: /test success/ }).click()
    await page.waitForURL(/\/slot-payment-status\?orderId=SLOT_/)
    await expect.poll(() => page.getByRole('heading', { name: 'Payment Successful!' }).isVisible(), { timeout: 30_000 }).toBe(true)
    expect(text(await page.content())).toContain('Booking Confirmed!')
    expect(errors).toEqual([])

    // The parent changes their mind: the e-mail that confirmed their consent has the link to withdraw
    // it, which lists what it cancels before they confirm.
    const withdrawLink = /(http:\/\/\S+\/consent\/withdraw\/\d+\?key=[A-Za-z0-9_-]+)/.exec((await site.sink.waitForMailTo(PARENT, /Your consent for Kiran/)).text)![1]!
    const parentAgain = await browser.context(site.url, PHONE)
    const withdrawing = await parentAgain.newPage()
    const withdrawingErrors = watchPageErrors(withdrawing)
    await withdrawing.goto(withdrawLink)
    await expect.poll(() => withdrawing.getByRole('heading', { name: 'Your consent for Kiran' }).isVisible()).toBe(true)
    expect(text(await withdrawing.content())).toContain('These sessions and camp places of Kiran will be cancelled:')
    await expectNoAxeViolations(withdrawing)
    await withdrawing.setViewportSize(DESKTOP)
    await expectNoAxeViolations(withdrawing)
    await withdrawing.getByRole('button', { name: 'Withdraw consent and cancel these bookings' }).click()
    await expect.poll(() => withdrawing.getByRole('heading', { name: 'Consent withdrawn' }).isVisible()).toBe(true)
    await expectNoAxeViolations(withdrawing)
    expect(withdrawingErrors).toEqual([])
    await parentAgain.close()
    await site.sink.waitForMailTo(MINOR.email, /Your parent has withdrawn their consent/)
    await page.goto(`/swimmers/${swimmerId}/consent`)
    await expect.poll(() => page.getByText("We do not have your parent's or guardian's consent yet", { exact: false }).isVisible()).toBe(true)
    await minor.close()
    // Two people's journeys, with e-mail between them and a payment.
  }, 180_000)
})
