import { existsSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { STAFF } from './site'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const PHONE = { width: 360, height: 740 }
export const DESKTOP = { width: 1440, height: 900 }
export const LAPTOP = { width: 1280, height: 800 }

/** Debian's Chromium, headless; never a browser downloaded by a tool. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`)
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
  return browser
}

/** What a visitor's browser may say of itself: no script, a request for less motion, headers such as `Save-Data`. */
type VisitorOptions = Pick<BrowserContextOptions, 'javaScriptEnabled' | 'reducedMotion' | 'extraHTTPHeaders'>

export async function newContext(browser: Browser, baseURL: string, viewport = DESKTOP, options: VisitorOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport, locale: 'en-IN', timezoneId: 'Asia/Kolkata', ...options, javaScriptEnabled: options.javaScriptEnabled ?? true })
}

/**
 * Chromium for a test file: launched before its tests, closed after them. Its launch is not awaited
 * by the hook, so it goes on while the hooks declared after it start the site; the first page waits.
 */
export function useBrowser() {
  let launched: Promise<Browser> | undefined
  beforeAll(() => {
    launched = launchBrowser()
  })
  afterAll(async () => {
    await (await launched)?.close()
  })
  const browser = () => {
    if (!launched) throw new Error('The browser launches before the tests (beforeAll)')
    return launched
  }
  return {
    /** A new browser context on the site at `url` (a visitor with no cookies yet), at phone or desktop size. */
    context: async (url: string, viewport = DESKTOP, options: VisitorOptions = {}) => newContext(await browser(), url, viewport, options),
    /** A desktop browser context with staff signed in through the login form. */
    async staff(url: string) {
      const context = await newContext(await browser(), url, DESKTOP)
      const page = await context.newPage()
      await page.goto('/login')
      await signInWithForm(page, STAFF, '**/admin')
      await page.close()
      return context
    },
    /** A family signed in through the login form, on the camp registration page, with the page's errors watched. */
    async familyOnCampForm(url: string, family: { email: string; password: string }, viewport = PHONE) {
      const context = await newContext(await browser(), url, viewport)
      const page = await context.newPage()
      const errors = watchPageErrors(page)
      await page.goto('/login')
      await signInWithForm(page, family, /\/book-slot/)
      await page.goto('/onboarding')
      return { context, page, errors }
    },
  }
}

/** Signs in through the login form on `page`, and waits for the page it lands on. */
export async function signInWithForm(page: Page, { email, password }: { email: string; password: string }, landing: string | RegExp) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await page.waitForURL(landing)
}

/** The newest six-digit code e-mailed to `to` whose text matches `subject`, as staff read it at /admin/messages. */
export async function codeFromAdminMailbox(admin: BrowserContext, to: string, subject: RegExp) {
  const page = await admin.newPage()
  try {
    let code: string | undefined
    await expect
      .poll(
        async () => {
          await page.goto('/admin/messages')
          const mail = page.getByTestId('mail').filter({ hasText: to }).filter({ hasText: subject }).first()
          if ((await mail.count()) === 0) return undefined
          code = /^\s+(\d{6})$/m.exec((await mail.getByTestId('mail-text').textContent()) ?? '')?.[1]
          return code
        },
        { timeout: 15_000 },
      )
      .toMatch(/^\d{6}$/)
    return code!
  } finally {
    await page.close()
  }
}

/**
 * Chooses in a select a value its list does not offer, as a page opened before the list changed would
 * send it. Waits first for React to have hydrated the select (it carries React's props): an option
 * added before that is a difference from the server's HTML, which React answers by rendering the
 * page again without it, so the form would send the value the list had chosen.
 */
export async function chooseUnlisted(select: Locator, value: string | number) {
  await expect.poll(() => select.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps$')))).toBe(true)
  await select.evaluate((element: HTMLSelectElement, chosen) => {
    const option = document.createElement('option')
    option.value = chosen
    element.append(option)
    element.value = chosen
  }, String(value))
}

/**
 * On /book-slot: chooses the `nth` open date and returns its first available time, a button that
 * holds the seats when tapped, with the time as it reads ("9:00 AM - 10:00 AM").
 */
export async function firstTimeOn(page: Page, nth = 0) {
  await showOpenDates(page, nth + 1)
  await page.locator('table a[data-date]').nth(nth).click()
  await page.waitForURL(/date=/)
  const time = page.locator('button[name="time"]').first()
  const label = (await time.evaluate((button) => button.querySelector('span')?.firstChild?.textContent ?? ''))!.trim()
  return { time, label }
}

/**
 * Runs axe (WCAG 2.x A/AA rules, including 2.2) and fails with a readable list of violations. The
 * page is read scrolled to its top (and put back after): scrolled, whatever passes under the site's
 * sticky header (a link of the admin navigation, say) counts for axe as a target covered by it, so
 * the verdict would hang on where the test's last action left the page.
 */
export async function expectNoAxeViolations(page: Page) {
  const scrolled = await page.evaluate(() => {
    const y = window.scrollY
    window.scrollTo(0, 0)
    return y
  })
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze()
  await page.evaluate((y) => window.scrollTo(0, y), scrolled)
  const violations = results.violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.help}\n    ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 5).join('\n    ')}`,
  )
  expect(violations, `axe violations on ${page.url()}`).toEqual([])
}

/**
 * Collects console errors and failed requests so a journey can assert the page ran cleanly. A form
 * posted before its rules have loaded in the browser is checked by the server, whose answer to
 * invalid input is a 400 with the messages next to the fields. The browser logs that status, for
 * the action's fetch (`….data`) or, when the form was sent before the page's scripts ran, for the
 * document itself: both are the form working, not a fault. Any other 400 is recorded.
 */
export function watchPageErrors(page: Page) {
  const errors: string[] = []
  const formAnswers = new Set<string>()
  page.on('response', (response) => {
    if (response.status() === 400 && response.request().method() === 'POST') formAnswers.add(response.url())
  })
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    const url = message.location().url || 'about:blank'
    const invalidFormAnswer = message.text().includes('status of 400') && (new URL(url).pathname.endsWith('.data') || formAnswers.has(url))
    if (!invalidFormAnswer) errors.push(`console: ${message.text()}`)
  })
  return errors
}

/**
 * On /book-slot: near a month's end the month on show has fewer open dates than a test may need (a
 * 3-day session must fit before the month is over), so this moves on to the next month until it has
 * `count`.
 */
export async function showOpenDates(page: Page, count: number) {
  for (let months = 0; months < 3 && (await page.locator('table a[data-date]').count()) < count; months += 1) {
    const next = await page.getByRole('link', { name: 'Next month' }).getAttribute('href')
    await page.goto(next!)
  }
}

/** Fails when the page scrolls sideways: its content is wider than the window. */
export async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, clientWidth: document.scrollingElement!.clientWidth }))
  expect(scrollWidth, `${page.url()} scrolls sideways at ${clientWidth} px`).toBeLessThanOrEqual(clientWidth)
}

/**
 * Each piece of visible text inside the elements `selector` finds, with its size as drawn on the
 * screen in CSS pixels: the text of an SVG that a viewBox scales counts at its scaled size.
 */
export async function drawnTextSizes(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((roots) =>
    roots.flatMap((root) => {
      const sizes: Array<{ text: string; px: number }> = []
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const element = node.parentElement
        const text = node.textContent?.trim()
        if (!element || !text || element.closest('desc, title, .sr-only') || element.getClientRects().length === 0) continue
        const size = parseFloat(getComputedStyle(element).fontSize)
        const scale = element instanceof SVGGraphicsElement ? (element.getScreenCTM()?.a ?? 1) : 1
        sizes.push({ text, px: Math.round(size * scale * 10) / 10 })
      }
      return sizes
    }),
  )
}

/** Fails when any text inside `selector` is drawn smaller than `px` (12 by default). */
export async function expectReadableText(page: Page, selector: string, px = 12) {
  const sizes = await drawnTextSizes(page, selector)
  expect(sizes.length, `text in ${selector} on ${page.url()}`).toBeGreaterThan(0)
  expect(sizes.filter((size) => size.px < px), `text smaller than ${px} px in ${selector} on ${page.url()}`).toEqual([])
}
