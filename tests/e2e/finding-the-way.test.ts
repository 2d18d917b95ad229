import { createServer, request, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { codeIn } from '../support/smtp-sink'
import { DESKTOP, expectNoAxeViolations, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { STAFF, useTestSite } from '../support/site'

// How a parent finds their way to a first booking, counted in taps, and what the pages on the way
// must not get wrong: a toast over the calendar, a declaration found only after the button, a Pay
// button two screens down, a header that wraps, a live banner that keeps a hidden phone busy.

const browser = useBrowser()
const site = useTestSite()

/**
 * A person's taps on a phone, counted as they would count them. A tap is a tap on the page: a link,
 * a button, a radio or a checkbox, tapping a field to start typing in it, and opening a list and
 * tapping the option chosen from it (two); a form sent with the keyboard's Go key counts as one
 * too. Typing is not a tap, nor is the keyboard's Next key, which moves to the next field that
 * takes typing (checked here: the field must be the next one in the page's order). Every click
 * this journey makes goes through `tap`.
 */
class Taps {
  count = 0
  constructor(private readonly page: Page) {}

  async tap(target: Locator) {
    this.count += 1
    await target.click()
  }

  /** Taps a field and types into it. */
  async typeInto(field: Locator, value: string) {
    await this.tap(field)
    await field.fill(value)
  }

  /** The keyboard's Next key, then typing (nothing, for a field passed over). */
  async next(field: Locator, value = '') {
    const isNext = await field.evaluate((target) => {
      const typing = [...document.querySelectorAll<HTMLInputElement>('input, textarea')].filter(
        (input) => ['text', 'email', 'password', 'tel', 'number', 'date', 'textarea'].includes(input.type) && input.offsetParent !== null,
      )
      return typing[typing.indexOf(document.activeElement as HTMLInputElement) + 1] === target
    })
    expect(isNext, `Next reaches ${await field.getAttribute('name')}`).toBe(true)
    await field.focus()
    if (value) await field.fill(value)
  }

  /** Opens a list and taps one of its options. */
  async choose(select: Locator, value: string) {
    this.count += 2
    await select.selectOption(value)
  }

  /** The keyboard's Go key sends the form. */
  async go() {
    this.count += 1
    await this.page.keyboard.press('Enter')
  }
}

/** Whether two boxes share any area. */
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
type Box = { x: number; y: number; width: number; height: number }

/** Asserts the toast on screen covers none of the calendar's bookable days. */
async function expectToastClearOfCalendar(page: Page) {
  const toast = page.locator('[data-toast]')
  await expect.poll(() => toast.isVisible()).toBe(true)
  const toastBox = (await toast.boundingBox())!
  const days = await page.locator('table a[data-date]').evaluateAll((links) => links.map((link) => link.getBoundingClientRect().toJSON() as Box))
  expect(days.length).toBeGreaterThan(0)
  expect(days.filter((day) => overlap(toastBox, day))).toEqual([])
}

/** Asserts the Pay button ends within the first two screens of a phone's page. */
async function expectPayWithinTwoScreens(page: Page) {
  const pay = page.getByRole('button', { name: /^Pay ₹/ })
  const bottom = await pay.evaluate((button) => button.getBoundingClientRect().bottom + window.scrollY)
  expect(bottom).toBeLessThanOrEqual(2 * PHONE.height)
}

describe('the first booking in taps', () => {
  it('a parent registers their child, books the 3-day analysis and reaches the gateway in at most 12 taps', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    const taps = new Taps(page)

    await page.goto('/')
    await taps.tap(page.getByRole('main').getByRole('link', { name: 'Book a Session' }).first())
    await page.waitForURL('**/book')
    await expectNoAxeViolations(page)
    await taps.tap(page.getByRole('link', { name: 'New here? Register' }))
    await page.waitForURL('**/registration')

    await taps.tap(page.getByLabel('My child / a swimmer I look after'))
    // The declaration shows as soon as a child is chosen, before the age and above the button.
    const declaration = page.getByRole('checkbox', { name: /parent or legal guardian/ })
    await expect.poll(() => declaration.isVisible()).toBe(true)
    const register = page.getByRole('button', { name: 'Register' })
    expect((await declaration.boundingBox())!.y).toBeLessThan((await register.boundingBox())!.y)
    await expectNoAxeViolations(page)

    await taps.typeInto(page.getByLabel('Full Name'), 'Kavitha Rao')
    await taps.next(page.getByLabel('Email'), 'kavitha.rao@example.com')
    await taps.next(page.getByLabel('Password', { exact: true }), 'butterfly-2027')
    await taps.next(page.getByLabel('WhatsApp Number'), '98450 12345')
    await taps.next(page.getByLabel('Current Location'), 'Bengaluru')
    await taps.next(page.getByLabel("Swimmer's name"), 'Ishaan Rao')
    await taps.next(page.getByLabel('Age'), '11')
    await taps.next(page.getByLabel('Date of birth'))
    await taps.next(page.getByLabel('Academy Name'), 'NA')
    await taps.next(page.getByLabel('Coach Name'), 'NA')
    await taps.tap(page.getByLabel('Male', { exact: true }))
    await taps.tap(declaration)
    await taps.choose(page.getByLabel('How did you get to know about us?'), 'friends_referrals')
    await taps.tap(register)

    await page.waitForURL('**/verify-email?**')
    const code = page.getByLabel('Verification code')
    // The code's field has the focus: the keyboard is up for the code just e-mailed.
    await expect.poll(() => code.evaluate((field) => field === document.activeElement)).toBe(true)
    await page.keyboard.type(codeIn((await site.sink.waitForMailTo('kavitha.rao@example.com', /verification code/)).text))
    await taps.go()

    await page.waitForURL('**/book-slot')
    await expectToastClearOfCalendar(page)
    await expectNoAxeViolations(page)
    // The calendar opens on the first date that can be booked, with its times.
    await taps.tap(page.locator('button[name="time"]').first())

    await page.waitForURL(/\/slot-payment\?booking=\d+/)
    await expectPayWithinTwoScreens(page)
    await expectNoAxeViolations(page)
    await taps.tap(page.getByRole('button', { name: /^Pay ₹/ }))
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)

    expect(taps.count).toBeLessThanOrEqual(12)
    expect(errors).toEqual([])
    await context.close()
  })

  it('a returning parent reaches the gateway in at most 5 taps, already signed in or signing in from the header', async () => {
    const email = 'returning.parent@example.com'
    await site.customer('Returning Parent', email)

    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.context(site.url, viewport)
      const page = await context.newPage()
      const errors = watchPageErrors(page)
      const taps = new Taps(page)
      await page.goto('/')
      if (viewport === DESKTOP) {
        await taps.tap(page.getByRole('banner').getByRole('link', { name: 'Sign in' }))
        await page.waitForURL('**/login')
        await taps.typeInto(page.getByLabel('Email'), email)
        await taps.next(page.getByLabel('Password', { exact: true }), 'butterfly-2027')
        await taps.go()
        await page.waitForURL('**/book-slot')
        await expectToastClearOfCalendar(page)
        await expectNoAxeViolations(page)
      } else {
        await context.addCookies(await signedInCookies(page, email))
        await page.goto('/')
        await page.waitForURL('**/book-slot')
      }
      await taps.tap(page.locator('button[name="time"]').first())
      await page.waitForURL(/\/slot-payment\?booking=\d+/)
      await taps.tap(page.getByRole('button', { name: /^Pay ₹/ }))
      await page.waitForURL(/\/sandbox-gateway\/checkout\//)
      expect([viewport.width, taps.count <= 5]).toEqual([viewport.width, true])
      expect(errors).toEqual([])
      await context.close()
    }
  })
})

/** The cookies of a browser that signed in earlier (its own form, outside the count). */
async function signedInCookies(page: Page, email: string) {
  const other = await page.context().browser()!.newContext({ baseURL: site.url })
  const signIn = await other.newPage()
  await signIn.goto('/login')
  await signIn.getByLabel('Email').fill(email)
  await signIn.getByLabel('Password', { exact: true }).fill('butterfly-2027')
  await signIn.getByRole('button', { name: 'Sign In' }).click()
  await signIn.waitForURL('**/book-slot')
  const cookies = await other.cookies()
  await other.close()
  return cookies
}

describe('the header', () => {
  it('keeps its items on one line at 1280 px, for a visitor, a customer and staff; staff see no customer items', async () => {
    await site.customer('Header Customer With A Long Name', 'header.customer@example.com')
    const people: Array<{ who: string; signIn?: { email: string; password: string } }> = [
      { who: 'visitor' },
      { who: 'customer', signIn: { email: 'header.customer@example.com', password: 'butterfly-2027' } },
      { who: 'staff', signIn: STAFF },
    ]
    for (const { who, signIn } of people) {
      const context = await browser.context(site.url, { width: 1280, height: 800 })
      const page = await context.newPage()
      if (signIn) {
        await page.goto('/login')
        await page.getByLabel('Email').fill(signIn.email)
        await page.getByLabel('Password', { exact: true }).fill(signIn.password)
        await page.getByRole('button', { name: 'Sign In' }).click()
        await page.waitForURL(who === 'staff' ? '**/admin' : '**/book-slot')
      }
      await page.goto(who === 'staff' ? '/admin' : '/pricing')
      const items = page.getByRole('banner').locator('nav[aria-label="Main"] li, nav[aria-label="Main"] ~ div > *')
      const tops = await items.evaluateAll((elements) => elements.filter((element) => (element as HTMLElement).offsetParent !== null).map((element) => Math.round(element.getBoundingClientRect().top + element.getBoundingClientRect().height / 2)))
      expect(tops.length, who).toBeGreaterThan(3)
      expect(new Set(tops).size, `${who}: ${tops.join(', ')}`).toBe(1)
      const row = await page.getByRole('banner').evaluate((header) => ({ height: header.getBoundingClientRect().height, overflows: header.scrollWidth > header.clientWidth }))
      expect([who, row]).toEqual([who, { height: 64, overflows: false }])
      const labels = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts()
      if (who === 'staff') {
        expect(labels).toContain('Admin')
        expect(labels).not.toContain('Book Analysis')
        expect(labels).not.toContain('My Swimmers')
        expect(labels).not.toContain('My Bookings')
      }
      for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
        await page.setViewportSize(viewport)
        await expectNoAxeViolations(page)
      }
      await context.close()
    }
  })
})

describe('the live banner', () => {
  /** An HTTP relay in front of the site that knows which /events streams are open. */
  let relay: Server
  let relayUrl = ''
  const openStreams = new Set<IncomingMessage>()

  beforeAll(async () => {
    const target = new URL(site.url)
    relay = createServer((incoming, outgoing) => {
      const forwarded = request({ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.on('error', () => outgoing.destroy())
        answer.pipe(outgoing)
      })
      // A stream the relay ends itself (below), even before the site has answered, ends the forwarded
      // request with "socket hang up" or its answer with "aborted": that ends the browser's side too.
      forwarded.on('error', () => outgoing.destroy())
      if (incoming.url?.startsWith('/events')) {
        openStreams.add(incoming)
        outgoing.on('close', () => {
          openStreams.delete(incoming)
          forwarded.destroy()
        })
      }
      incoming.pipe(forwarded)
    })
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
    relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    relay?.closeAllConnections()
    await new Promise((resolve) => relay?.close(resolve))
  })

  /** Makes the page hidden or visible, as a phone does when its tab is left or taken up again. */
  const setVisibility = (page: Page, state: 'hidden' | 'visible') =>
    page.evaluate((visibility) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility })
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => visibility === 'hidden' })
      document.dispatchEvent(new Event('visibilitychange'))
    }, state)

  it('has its stream open only while the page is visible and shows the banner, and catches up when shown again', async () => {
    const context = await browser.context(relayUrl, PHONE)
    const page = await context.newPage()
    await page.goto('/pricing')
    const banner = page.getByRole('complementary', { name: 'Swimming camps' })
    await expect.poll(() => banner.isVisible()).toBe(true)
    await expect.poll(() => openStreams.size).toBe(1)

    await setVisibility(page, 'hidden')
    // The server's side of the stream closes.
    await expect.poll(() => openStreams.size).toBe(0)

    // Staff switch the banner off while the tab is hidden; on coming back the page learns it.
    const staff = await site.sharedStaff()
    expect((await staff.post('/admin/settings', { intent: 'banner', visible: 'false' })).status).toBe(302)
    await setVisibility(page, 'visible')
    await expect.poll(() => openStreams.size).toBe(1)
    await expect.poll(() => banner.count()).toBe(0)
    expect((await staff.post('/admin/settings', { intent: 'banner', visible: 'true' })).status).toBe(302)
    await expect.poll(() => banner.isVisible()).toBe(true)

    // A page without the banner opens no stream.
    await page.goto('/login')
    await expect.poll(() => page.getByRole('button', { name: 'Sign In' }).isVisible()).toBe(true)
    await expect.poll(() => openStreams.size).toBe(0)
    await context.close()
  })
})
