import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { codeFromAdminMailbox, DESKTOP, expectNoAxeViolations, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { startFakeWhatsApp, type FakeWhatsApp } from '../support/fake-whatsapp'
import { useTestSite } from '../support/site'

// WhatsApp in a real browser, with the site's WhatsApp settings pointing at the local fake of Meta:
// the opt-in box on registration (a wrong number said next to the field), proving the number with
// the code sent to it, the account's WhatsApp switch, the box on /booking and on the camp form, and
// the staff's messages page. Accessible at phone and desktop sizes.

let fake: FakeWhatsApp
beforeAll(async () => {
  fake = await startFakeWhatsApp()
})
afterAll(async () => {
  await fake?.close()
})
const browser = useBrowser()
const site = useTestSite(() => ({ ...fake.env, SMTP_URL: undefined }))
let admin: BrowserContext

beforeAll(async () => {
  admin = await browser.staff(site.url)
})

const OPT_IN = /^Send me booking confirmations, reminders, payment and refund updates and analysis results on WhatsApp/

describe('WhatsApp in the browser', () => {
  it('registration asks, never ticked; a wrong number is said next to it; the account proves its number with the code sent to it, then turns messages off and on', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/registration')
    const box = page.getByRole('checkbox', { name: OPT_IN })
    expect(await box.isChecked()).toBe(false)
    await page.getByLabel('Full Name').fill('Anita Desai')
    await page.getByLabel('Email').fill('anita@example.com')
    await page.getByLabel('Password', { exact: true }).fill('butterfly-22')
    const number = page.getByLabel('WhatsApp Number')
    await number.fill('044 2345 6789 1')
    await number.blur()
    await expect.poll(() => number.getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByText(/Enter a valid WhatsApp number/).count()).toBe(1)
    await expectNoAxeViolations(page)
    await number.fill('98450 66666')
    await box.check()
    await page.getByLabel('Age').fill('34')
    await page.getByLabel('Current Location').fill('Bengaluru')
    await page.getByLabel('Female').check()
    await page.getByLabel('Swimming Experience').selectOption('intermediate')
    await page.getByLabel('Academy Name').fill('NA')
    await page.getByLabel('Coach Name').fill('NA')
    await page.getByLabel('How did you get to know about us?').selectOption('google')
    await page.getByRole('button', { name: 'Register' }).click()
    await page.waitForURL('**/verify-email?**')
    await page.getByLabel('Verification code').fill(await codeFromAdminMailbox(admin, 'anita@example.com', /verification code/))
    await page.getByRole('button', { name: 'Verify and continue' }).click()
    await page.waitForURL('**/book-slot')

    // The box asked the number to confirm; the account proves the number is Anita's with the code sent to it.
    await expect.poll(() => fake.sentTo('+919845066666').map((message) => message.template)).toEqual(['confirm_whatsapp_messages'])
    await page.goto('/account/data#whatsapp')
    await expect.poll(() => page.getByText(/WhatsApp messages: off until you confirm that the number is yours/).count()).toBe(1)
    await expectNoAxeViolations(page)
    await page.getByRole('button', { name: 'Send me a code on WhatsApp' }).click()
    await expect.poll(() => fake.sentTo('+919845066666').length, { timeout: 15_000 }).toBe(2)
    const code = page.getByLabel('Code from WhatsApp')
    await code.fill('12')
    await code.blur()
    await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true')
    await code.fill(fake.sentTo('+919845066666')[1]!.parameters[0]!)
    await page.getByRole('button', { name: 'Confirm my number' }).click()
    await expect.poll(() => page.getByText(/WhatsApp messages: on \(since /).count()).toBe(1)
    expect(await page.getByText('+91 98450 66666').count()).toBeGreaterThan(0)
    await expectNoAxeViolations(page)
    await page.getByRole('button', { name: 'Turn WhatsApp messages off' }).click()
    await expect.poll(() => page.getByText(/WhatsApp messages: off since /).count()).toBe(1)
    await page.setViewportSize(DESKTOP)
    await expectNoAxeViolations(page)
    await page.getByRole('button', { name: 'Turn WhatsApp messages on' }).click()
    await expect.poll(() => page.getByText(/WhatsApp messages: on \(since /).count()).toBe(1)
    expect(errors).toEqual([])
    await context.close()
  })

  it('/booking and the camp form ask too, unticked', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/booking')
    expect(await page.getByRole('checkbox', { name: OPT_IN }).isChecked()).toBe(false)
    await expectNoAxeViolations(page)
    await page.goto('/onboarding')
    expect(await page.getByRole('checkbox', { name: OPT_IN }).isChecked()).toBe(false)
    await expectNoAxeViolations(page)
    await page.setViewportSize(DESKTOP)
    await expectNoAxeViolations(page)
    expect(errors).toEqual([])
    await context.close()
  })

  it("staff read the messages, e-mail and WhatsApp, with WhatsApp's report", async () => {
    // Someone writes to the lab's number: the site answers, and WhatsApp reports the answer read.
    const webhook = `${site.url}/webhooks/whatsapp`
    expect((await fake.deliver(webhook, fake.incomingNotification({ from: '+919845055555', text: 'Is Saturday free?' }))).status).toBe(200)
    await expect.poll(() => fake.sentTo('+919845055555').length, { timeout: 15_000 }).toBe(1)
    expect((await fake.deliver(webhook, fake.statusNotification([{ wamid: fake.sentTo('+919845055555')[0]!.wamid, status: 'read' }]))).status).toBe(200)
    const page = await admin.newPage()
    await page.goto('/admin/messages?channel=whatsapp')
    await expect.poll(() => page.getByTestId('delivery').first().innerText()).toMatch(/^Read /)
    await expectNoAxeViolations(page)
    await page.goto('/admin/messages')
    await expectNoAxeViolations(page)
    await page.setViewportSize(PHONE)
    await expectNoAxeViolations(page)
    await page.close()
  })
})
