import { describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, PHONE, watchPageErrors, useBrowser } from '../support/browser'
import { useTestSite } from '../support/site'
import { lettersFor, Visitor } from '../support/visitor'

// A parent registers a swimmer for a camp in a real browser: from the banner to a confirmed
// registration, and from a full batch to its waitlist.

const browser = useBrowser()
const site = useTestSite()

describe('camp registration in the browser', () => {
  it('banner → form (checked as you type) → gateway → Registration Complete! → the e-mail → Register Another Person', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/')
    // On a phone the banner is one line; its details hold the way to register.
    await page.getByRole('complementary', { name: 'Swimming camps' }).getByText('Details').click()
    await page.getByRole('link', { name: 'Register' }).first().click()
    await page.waitForURL(/\/onboarding$/)
    await expect.poll(() => page.getByRole('heading', { name: 'Camp Registration Form' }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)

    await page.getByLabel('Full Name').fill('A')
    await page.getByLabel('Email Address').focus()
    await expect.poll(() => page.getByText('Name must be at least 2 characters').isVisible()).toBe(true)
    await page.getByLabel('Full Name').fill('Arjun Menon')
    await expect.poll(() => page.getByText('Name must be at least 2 characters').count()).toBe(0)
    await page.getByLabel('Email Address').fill('menon@example.com')
    await page.getByLabel('Phone Number').fill('98450 12345')
    await page.getByRole('radio', { name: /^Camp 2/ }).check()
    await page.getByRole('radio', { name: /Batch 2/ }).check()
    await expect.poll(() => page.getByRole('radio', { name: /Batch 2/ }).locator('xpath=..').innerText()).toMatch(/30 seats left$/)
    await page.getByRole('checkbox', { name: /parent or legal guardian/ }).check()
    await expectNoAxeViolations(page)
    await page.getByRole('button', { name: 'Register Now - ₹35,000' }).click()

    // The summary of what the parent pays comes before the gateway.
    await page.waitForURL(/\/onboarding\/offer\?registration=CMP-/)
    await expect.poll(() => page.getByTestId('quote').innerText()).toMatch(/Camp fee for Arjun Menon\s+₹35,000\.00\s+Total\s+₹35,000\.00/)
    await expectNoAxeViolations(page)
    await page.getByRole('button', { name: 'Pay ₹35,000' }).click()

    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    await expectNoAxeViolations(page)
    await page.getByRole('button', { name: /test success/ }).click()
    await page.waitForURL(/\/payment-status\?orderId=CAMP_/)
    await expect.poll(() => page.getByRole('heading', { name: 'Registration Complete!' }).isVisible(), { timeout: 20_000 }).toBe(true)
    await expect.poll(() => page.getByText("₹35,000 payment completed successfully. You're registered for the camp!").isVisible()).toBe(true)
    await expectNoAxeViolations(page)

    const mail = await site.sink.waitForMailTo('menon@example.com', /Camp registration confirmed/)
    expect(mail.text).toContain('Camp 2')
    expect(mail.raw).toMatch(/Content-Type: text\/calendar/)

    await page.getByRole('link', { name: 'Register Another Person' }).click()
    await page.waitForURL(/\/onboarding\?email=/)
    await expect.poll(() => page.getByLabel('Email Address').inputValue()).toBe('menon@example.com')
    expect(await page.getByLabel('Phone Number').inputValue()).toBe('+91 98450 12345')
    expect(await page.getByLabel('Full Name').inputValue()).toBe('')
    expect(errors).toEqual([])
    await context.close()
  })

  it('a full batch says Full; the parent joins its waitlist instead, and keeps the place through the e-mailed link', async () => {
    for (let index = 0; index < 30; index += 1) {
      const filled = await new Visitor(site.url).post('/onboarding', { name: `Swimmer ${lettersFor(index + 1)}`, email: `filler${index}@example.com`, phone_number: '9845012345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1', website_url: '' })
      expect(filled.status).toBe(302)
    }
    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/onboarding')
    await page.getByRole('radio', { name: /^Camp 1/ }).check()
    await expect.poll(() => page.getByRole('radio', { name: /Batch 1/ }).locator('xpath=..').innerText()).toMatch(/Full$/)
    await page.getByLabel('Full Name').fill('Late Comer')
    await page.getByLabel('Email Address').fill('late@example.com')
    await page.getByLabel('Phone Number').fill('9845012345')
    await page.getByRole('radio', { name: /Batch 1/ }).check()
    await page.getByRole('checkbox', { name: /parent or legal guardian/ }).check()
    await page.getByRole('button', { name: /Register Now/ }).click()

    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Batch 1 of Camp 1 is full. You can join its waitlist')
    await expectNoAxeViolations(page)
    await page.getByRole('button', { name: 'Join the waitlist' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Please check your e-mail' }).isVisible()).toBe(true)
    await expect.poll(() => page.getByText('We have e-mailed late@example.com a link to confirm the place on its waitlist.').isVisible()).toBe(true)
    await expectNoAxeViolations(page)

    const mail = await site.sink.waitForMailTo('late@example.com', /Please confirm your waitlist place/)
    await page.goto(/(http:\/\/\S+\/onboarding\/waitlist\?entry=\d+&key=[\w-]+)/.exec(mail.text)![1]!)
    await expect.poll(() => page.getByRole('heading', { name: 'Keep your place on the waitlist' }).isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await page.getByRole('button', { name: 'Keep my place' }).click()
    await expect.poll(() => page.getByRole('heading', { name: "You're on the waitlist" }).isVisible()).toBe(true)
    await expect.poll(() => page.getByText('Late Comer is number 1 on the waitlist of Batch 1.').isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    // The refused submission is answered 409 Conflict, which the browser notes; nothing else went wrong.
    expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 409 (Conflict)'])
    await context.close()
  })
})
