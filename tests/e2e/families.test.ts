import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { codeFromAdminMailbox, DESKTOP, expectNoAxeViolations, firstTimeOn, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { useTestSite } from '../support/site'

// A parent registers with their child, verifies the address, adds a second child and edits them,
// in a real browser with JavaScript: the registration form shows only the fields that apply.
// Codes are read in the admin's mailbox at /admin/messages, as on the default set-up.

const browser = useBrowser()
const site = useTestSite({ SMTP_URL: undefined, TRUST_PROXY: undefined })
let admin: BrowserContext
const PARENT = { name: 'Lakshmi Menon', email: 'lakshmi.menon@example.com', password: 'backstroke-2027' }

beforeAll(async () => {
  admin = await browser.staff(site.url)
})
afterAll(async () => {
  await admin?.close()
})

/** The swimmer's profile fields, as on registration and on the add and edit pages. */
async function fillSwimmer(page: Page, swimmer: { age: string; birthDate?: string; experience: string; specialization: string }) {
  // One or the other: the age given, or the date of birth instead.
  if (swimmer.birthDate) await page.getByLabel('Date of birth').fill(swimmer.birthDate)
  else await page.getByLabel('Age').fill(swimmer.age)
  await page.getByLabel('Female').check()
  await page.getByLabel('Swimming Experience').selectOption(swimmer.experience)
  await page.getByLabel('Specialization', { exact: true }).selectOption(swimmer.specialization)
  await page.getByLabel('Academy Name').fill('NA')
  await page.getByLabel('Coach Name').fill('NA')
}

const visible = (page: Page, label: string) => page.getByLabel(label, { exact: true }).isVisible()

/** On /book-slot: the first open date with "Who will swim?" above its times, and its first time. */
async function showFamilyTimes(page: Page) {
  await page.goto('/book-slot')
  const { time } = await firstTimeOn(page)
  await expect.poll(() => page.getByRole('group', { name: 'Who will swim?' }).isVisible()).toBe(true)
  return time
}

describe('a family in the browser', () => {
  /** The second child's edit page, for the desktop checks. */
  let editPath = ''

  it('a parent registers with their child (only the fields that apply) and verifies the address', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/registration')
    await expect.poll(() => page.getByRole('radio', { name: 'Myself' }).isChecked()).toBe(true)
    // With JavaScript, only what applies: no swimmer's name or declaration for "Myself", and the
    // parent's e-mail only once the age says under 18.
    await expect.poll(() => visible(page, "Swimmer's name")).toBe(false)
    expect(await visible(page, "Parent's or guardian's e-mail")).toBe(false)
    await page.getByLabel('Age').fill('15')
    await expect.poll(() => visible(page, "Parent's or guardian's e-mail")).toBe(true)
    await expectNoAxeViolations(page)

    await page.getByLabel('My child / a swimmer I look after').check()
    await expect.poll(() => visible(page, "Swimmer's name")).toBe(true)
    expect(await visible(page, "Parent's or guardian's e-mail")).toBe(false)
    expect(await page.getByText('About the swimmer', { exact: true }).isVisible()).toBe(true)
    expect(await page.getByText('About you, the parent or guardian').isVisible()).toBe(true)
    expect(await page.getByText('Does the swimmer participate in events?').isVisible()).toBe(true)
    const declaration = page.getByRole('checkbox', { name: /I am this swimmer's parent or legal guardian/ })
    expect(await declaration.isChecked()).toBe(false)
    await expectNoAxeViolations(page)

    await page.getByLabel('Full Name').fill(PARENT.name)
    await page.getByLabel('Email').fill(PARENT.email)
    await page.getByLabel('Password', { exact: true }).fill(PARENT.password)
    await page.getByLabel('WhatsApp Number').fill('98450 12345')
    await page.getByLabel('Current Location').fill('Bengaluru')
    await page.getByLabel("Swimmer's name").fill('Anu Menon')
    await fillSwimmer(page, { age: '12', experience: 'intermediate', specialization: 'backstroke' })
    await page.getByLabel('How did you get to know about us?').selectOption('friends_referrals')
    await page.getByRole('button', { name: 'Register' }).click()
    await expect.poll(() => page.getByText("Please confirm that you are the swimmer's parent or guardian and agree to the Privacy Policy").count()).toBe(1)
    expect(await declaration.getAttribute('aria-invalid')).toBe('true')
    await expectNoAxeViolations(page)

    await declaration.check()
    await page.getByRole('button', { name: 'Register' }).click()
    await page.waitForURL('**/verify-email?**')
    await page.getByLabel('Verification code').fill(await codeFromAdminMailbox(admin, PARENT.email, /verification code/))
    await page.getByRole('button', { name: 'Verify and continue' }).click()
    await page.waitForURL('**/book-slot')
    expect(errors).toEqual([])
    await context.close()
  })

  it('the parent finds the child on My Swimmers, adds a second child and edits them', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/login')
    await signInWithForm(page, PARENT, '**/book-slot')
    await page.locator('summary[aria-label="Menu"]').click()
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'My Swimmers' }).click()
    await page.waitForURL('**/swimmers')
    const first = page.getByTestId('swimmer').filter({ hasText: 'Anu Menon' })
    await expect.poll(() => first.textContent()).toContain('12 years')
    expect(await first.textContent()).toContain(`Given by ${PARENT.name}`)
    await expectNoAxeViolations(page)

    await page.getByRole('link', { name: 'Add a swimmer' }).click()
    await page.waitForURL('**/swimmers/new')
    await expectNoAxeViolations(page)
    await page.getByLabel("Swimmer's name").fill('Diya Menon')
    await fillSwimmer(page, { age: '', birthDate: '2018-05-09', experience: 'beginner', specialization: 'freestyle' })
    const secondDeclaration = page.getByRole('checkbox', { name: /I am this swimmer's parent or legal guardian/ })
    await expect.poll(() => secondDeclaration.isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Add swimmer' }).click()
    await expect.poll(() => page.getByText("Please confirm that you are the swimmer's parent or guardian and agree to the Privacy Policy").count()).toBe(1)
    await expectNoAxeViolations(page)
    await secondDeclaration.check()
    await page.getByRole('button', { name: 'Add swimmer' }).click()
    await page.waitForURL('**/swimmers')
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Swimmer added')
    const second = page.getByTestId('swimmer').filter({ hasText: 'Diya Menon' })
    await expect.poll(() => second.textContent()).toContain('born 9 May 2018')

    await page.getByRole('link', { name: 'Edit Diya Menon' }).click()
    await page.waitForURL('**/swimmers/*/edit')
    expect(await page.getByLabel("Swimmer's name").inputValue()).toBe('Diya Menon')
    await expectNoAxeViolations(page)
    const coach = page.getByLabel('Coach Name')
    await coach.fill('')
    await coach.blur()
    await expect.poll(() => page.getByText('Coach name is required (Enter NA if not applicable)').count()).toBe(1)
    await coach.fill('Suresh Kumar')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.waitForURL('**/swimmers')
    await expect.poll(() => second.textContent()).toContain('Suresh Kumar')
    editPath = new URL(await page.getByRole('link', { name: 'Edit Diya Menon' }).evaluate((link: HTMLAnchorElement) => link.href)).pathname
    expect(errors).toEqual([])
    await context.close()
  })

  it("the parent books a session for the second child, registers both children for a camp in one payment, and sees them on My Bookings", async () => {
    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto('/login')
    await signInWithForm(page, PARENT, '**/book-slot')

    const time = await showFamilyTimes(page)
    await expectNoAxeViolations(page)
    await page.getByRole('radio', { name: 'Diya Menon' }).check()
    await time.click()
    await page.waitForURL(/\/slot-payment\?booking=\d+/)
    await page.getByRole('button', { name: /^Pay / }).click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    await page.getByRole('button', { name: /test success/ }).click()
    await page.waitForURL(/\/slot-payment-status\?orderId=SLOT_/)
    await expect.poll(() => page.getByRole('heading', { name: 'Payment Successful!' }).isVisible(), { timeout: 30_000 }).toBe(true)

    await page.goto('/onboarding')
    await page.getByRole('radio', { name: /^Camp 1/ }).check()
    await page.getByRole('radio', { name: /Batch 2/ }).check()
    await page.getByRole('checkbox', { name: /Anu Menon/ }).check()
    await page.getByRole('checkbox', { name: /Diya Menon/ }).check()
    await page.getByRole('button', { name: /Register and Pay/ }).click()
    await page.waitForURL(/\/onboarding\/offer\?registration=CMP-/)
    await page.getByRole('button', { name: /^Pay ₹/ }).click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    await page.getByRole('button', { name: /test success/ }).click()
    await page.waitForURL(/\/payment-status\?orderId=CAMP_/)
    await expect.poll(() => page.getByRole('heading', { name: 'Registration Complete!' }).isVisible(), { timeout: 30_000 }).toBe(true)

    await page.goto('/my-bookings')
    const session = page.getByRole('article', { name: /Diya Menon/ }).filter({ hasText: 'Booking ID' })
    await expect.poll(() => session.getByText('Confirmed', { exact: true }).isVisible()).toBe(true)
    const camps = page.getByRole('region', { name: 'Camp registrations' }).getByRole('article')
    await expect.poll(() => camps.count()).toBe(2)
    for (const child of ['Anu Menon', 'Diya Menon']) {
      const registration = camps.filter({ hasText: `Swimmer: ${child}` })
      expect(await registration.getByRole('heading', { name: 'Camp 1' }).isVisible()).toBe(true)
      expect(await registration.getByText('Confirmed', { exact: true }).isVisible()).toBe(true)
    }
    await expectNoAxeViolations(page)

    // The same two pages at phone size.
    await page.setViewportSize(PHONE)
    await page.reload()
    await expect.poll(() => camps.count()).toBe(2)
    await expectNoAxeViolations(page)
    await showFamilyTimes(page)
    await expectNoAxeViolations(page)
    expect(errors).toEqual([])
    await context.close()
  })

  it('the same pages at desktop size pass axe', async () => {
    const desktop = await browser.context(site.url, DESKTOP)
    const wide = await desktop.newPage()
    await wide.goto('/registration')
    await wide.getByLabel('My child / a swimmer I look after').check()
    await wide.getByLabel('Age').fill('12')
    await expect.poll(() => wide.getByRole('checkbox', { name: /parent or legal guardian/ }).isVisible()).toBe(true)
    await expectNoAxeViolations(wide)
    await wide.goto('/login?redirectTo=%2Fswimmers')
    await signInWithForm(wide, PARENT, '**/swimmers')
    expect(await wide.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Swimmers' }).getAttribute('aria-current')).toBe('page')
    await expectNoAxeViolations(wide)
    for (const path of ['/swimmers/new', editPath]) {
      await wide.goto(path)
      await expectNoAxeViolations(wide)
    }
    await desktop.close()
  })

  it('the forms stay still as their page comes alive on a phone, and a field that stopped applying is not sent', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    // Every shift of the page's layout, as the browser reports it.
    await page.addInitScript(() => {
      const shifts: number[] = []
      Object.assign(window, { layoutShifts: shifts })
      new PerformanceObserver((list) => shifts.push(...list.getEntries().map((entry) => (entry as unknown as { value: number }).value))).observe({ type: 'layout-shift', buffered: true })
    })
    const shifts = () => page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts)

    // Hydrated once the password's Show button is there (it needs the page's script).
    await page.goto('/registration')
    await page.getByRole('button', { name: 'Show password' }).waitFor()
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    expect(await shifts()).toEqual([])

    // Hydrated once the button that asks the server for the date's times (without JavaScript) is gone.
    await page.goto('/booking')
    await page.locator('button[value="times"]').waitFor({ state: 'detached' })
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    expect(await shifts()).toEqual([])

    // A child's name typed, then "Myself" chosen again: the name is no longer part of what is sent.
    await page.goto('/registration')
    await page.getByLabel('My child / a swimmer I look after').check()
    await page.getByLabel("Swimmer's name").fill('Anu Rao')
    await page.getByLabel('Myself').check()
    await expect.poll(() => visible(page, "Swimmer's name")).toBe(false)
    const sent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/registration'))
    await page.getByLabel('Full Name').fill('Kavya Rao')
    await page.getByLabel('Email').fill('kavya.rao@example.com')
    await page.getByLabel('Password', { exact: true }).fill('butterfly-2027')
    await page.getByLabel('WhatsApp Number').fill('98450 54321')
    await page.getByLabel('Current Location').fill('Bengaluru')
    await fillSwimmer(page, { age: '24', experience: 'advanced', specialization: 'butterfly' })
    await page.getByLabel('How did you get to know about us?').selectOption('friends_referrals')
    await page.getByRole('button', { name: 'Register' }).click()
    const form = new URLSearchParams((await sent).postData() ?? '')
    expect(form.get('whoSwims')).toBe('myself')
    expect(form.has('swimmerName')).toBe(false)
    await page.waitForURL('**/verify-email?**')
    expect(errors).toEqual([])
    await context.close()
  })

  it('without JavaScript the same forms show every field, each saying when it applies', async () => {
    const context = await browser.context(site.url, PHONE, { javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/registration')
    expect(await visible(page, "Swimmer's name")).toBe(true)
    expect(await page.getByText('Only when you register your child or a swimmer you look after.').isVisible()).toBe(true)
    expect(await visible(page, "Parent's or guardian's e-mail")).toBe(true)
    expect(await page.getByText('When you register your child, these are your own details as their parent or guardian.').isVisible()).toBe(true)
    expect(await page.getByText('About you as a swimmer').isVisible()).toBe(false)
    await page.goto('/booking')
    expect(await visible(page, "Swimmer's age")).toBe(true)
    expect(await page.getByText('In years. Only when someone else swims.').isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Show available times' }).isVisible()).toBe(true)
    await context.close()
  })
})
