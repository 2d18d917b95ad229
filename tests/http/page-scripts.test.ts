import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { consentRequests } from '~/db/schema'
import { addDays } from '~/lib/lab-time'
import { consentTokenHash } from '~/modules/swimmers/consent-requests.server'
import { accountWithSwimmer, analysedSession, FAMILY_PASSWORD } from '../support/family-analyses'
import { useTestSite } from '../support/site'
import { Visitor } from '../support/visitor'

// What a page asks the browser for before it can paint and run: the stylesheet first (the first
// paint waits for it, not for the scripts), then a few scripts, each a request with its own headers.

/** A family with a swimmer of 14, a published analysis of them and a consent link e-mailed to their parent. */
const FAMILY = { name: 'Meera Script', email: 'meera.script@example.com' }
const family = { swimmerId: 0, analysisId: 0, consentToken: randomBytes(32).toString('base64url') }

const site = useTestSite(
  {},
  {
    async prepare(db) {
      const owner = await accountWithSwimmer(db, FAMILY)
      family.swimmerId = owner.swimmerId
      family.analysisId = (await analysedSession(db, owner, '2026-03-02', { metrics: { final_time: 31.2 }, publishedAt: new Date('2026-03-10T06:00:00Z') })).analysisId
      await db.insert(consentRequests).values({ swimmerId: owner.swimmerId, parentEmail: 'parent.script@example.com', tokenHash: consentTokenHash(family.consentToken), expiresAt: addDays(new Date(), 7) })
    },
  },
)

async function html(pathname: string) {
  const response = await fetch(`${site.url}${pathname}`)
  expect(response.status).toBe(200)
  return response.text()
}

function preloadedScripts(page: string) {
  return new Set([...page.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1]!))
}

/** The scripts' texts, as the browser gets them. */
const textsOf = (scripts: Iterable<string>) => Promise.all([...scripts].map(async (script) => (await fetch(`${site.url}${script}`)).text()))

/** What zod's core and libphonenumber's metadata (the phone fields' rules) leave in a script. */
const VALIDATION_LIBRARIES = { zod: '$ZodObject', libphonenumber: 'country_calling_codes' }

/** Neither zod nor libphonenumber among a page's preloaded scripts. */
async function expectNoValidationLibrary(pathname: string, page: string) {
  const scripts = [...preloadedScripts(page)]
  const texts = await textsOf(scripts)
  expect(texts.length, pathname).toBeGreaterThan(0)
  for (const [index, text] of texts.entries()) {
    for (const [library, marker] of Object.entries(VALIDATION_LIBRARIES)) expect(text.includes(marker), `${pathname} ${scripts[index]} holds ${library}`).toBe(false)
  }
}

const imports = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((match) => `/assets/${match[1]}`)
const DYNAMIC_IMPORT = /import\(["'`]\.\/([\w.-]+\.js)["'`]\)/g
const ANY_IMPORT = /(?:from|import\(?)\s*["'`]\.\/([\w.-]+\.js)["'`]/g

/** The scripts a page's preloaded scripts import on demand, with everything those import in turn. */
async function scriptsLoadedLater(preloaded: Set<string>, preloadedTexts: string[]) {
  const later = new Set<string>()
  const queue = preloadedTexts.flatMap((text) => imports(text, DYNAMIC_IMPORT))
  for (let script = queue.shift(); script; script = queue.shift()) {
    if (preloaded.has(script) || later.has(script)) continue
    later.add(script)
    queue.push(...imports(await (await fetch(`${site.url}${script}`)).text(), ANY_IMPORT))
  }
  return later
}

describe('what a page asks the browser for', () => {
  it.each(['/', '/services', '/terms', '/login', '/registration', '/booking', '/onboarding'])('%s: the stylesheet before any script', async (pathname) => {
    const page = await html(pathname)
    const stylesheet = page.search(/<link rel="stylesheet" href="\/assets\/[\w.-]+\.css"/)
    expect(stylesheet).toBeGreaterThan(0)
    expect(stylesheet).toBeLessThan(page.indexOf('rel="modulepreload"'))
    expect(stylesheet).toBeLessThan(page.indexOf('<script'))
  })

  it('the headings’ typeface: preloaded after the stylesheet, the same file the stylesheet names, cached for a year and swapped in', async () => {
    const page = await html('/')
    const preload = /<link rel="preload" href="(\/assets\/archivo-display-[\w-]+\.woff2)" as="font" type="font\/woff2" crossorigin="anonymous"\/>/.exec(page)
    expect(preload).not.toBeNull()
    expect(page.search(/<link rel="stylesheet"/)).toBeLessThan(preload!.index)
    const stylesheet = /<link rel="stylesheet" href="(\/assets\/[\w.-]+\.css)"/.exec(page)![1]!
    const css = await (await fetch(`${site.url}${stylesheet}`)).text()
    const face = /@font-face\{font-family:"?Archivo Display"?;src:url\(([^)]+)\)[^}]*\}/.exec(css)
    expect(face?.[1]).toBe(preload![1])
    expect(face?.[0]).toContain('font-display:swap')
    const font = await fetch(`${site.url}${preload![1]}`)
    expect(font.headers.get('content-type')).toBe('font/woff2')
    expect(font.headers.get('cache-control')).toContain('immutable')
    expect((await font.arrayBuffer()).byteLength).toBeLessThan(16 * 1024)
  })

  it('the home page: React, the root and the page itself in a handful of scripts', async () => {
    const scripts = preloadedScripts(await html('/'))
    expect(scripts.size).toBeGreaterThan(0)
    expect(scripts.size).toBeLessThanOrEqual(5)
  })

  it('the home page loads no form library: neither zod nor Conform is in its scripts', async () => {
    const home = [...preloadedScripts(await html('/'))]
    const texts = await Promise.all(home.map(async (script) => (await fetch(`${site.url}${script}`)).text()))
    for (const [index, text] of texts.entries()) {
      expect(text.length, home[index]).toBeGreaterThan(0)
      expect(text, home[index]).not.toMatch(/\$ZodObject|__intent__/)
    }
    // The same markers do find them on a page with a form, so their absence above means something:
    // the sign-in page shows its form with Conform, and fetches zod and its rules once it has shown.
    const login = preloadedScripts(await html('/login'))
    const loginTexts = await Promise.all([...login].map(async (script) => (await fetch(`${site.url}${script}`)).text()))
    expect(loginTexts.some((text) => text.includes('__intent__'))).toBe(true)
    expect(loginTexts.some((text) => text.includes('$ZodObject'))).toBe(false)
    const later = await scriptsLoadedLater(login, loginTexts)
    expect(later.size).toBeGreaterThan(0)
    const laterTexts = await Promise.all([...later].map(async (script) => (await fetch(`${site.url}${script}`)).text()))
    expect(laterTexts.some((text) => text.includes('$ZodObject'))).toBe(true)
  })

  it('the marketing pages do not carry the site’s address book: the error page’s sign-in link comes on its own', async () => {
    for (const pathname of ['/', '/services']) {
      const scripts = [...preloadedScripts(await html(pathname))]
      const texts = await Promise.all(scripts.map(async (script) => (await fetch(`${site.url}${script}`)).text()))
      // A path only app/lib/links.ts names: moving a booking.
      for (const [index, text] of texts.entries()) expect(text, `${pathname} ${scripts[index]}`).not.toContain('/bookings/:reference/reschedule')
    }
  })

  it.each(['/registration', '/booking', '/onboarding', '/analysis-days', '/forgot-password', '/forgot-password?email=ana%40example.com', '/verify-email?email=ana%40example.com', `/consent/${family.consentToken}`])(
    '%s: neither zod nor the phone numbers’ rules are among the scripts before the page shows',
    async (pathname) => {
      await expectNoValidationLibrary(pathname, await html(pathname))
    },
  )

  it('the camp form shows before its rules, which come afterwards: zod and the phone numbers’ rules with them', async () => {
    const page = await html('/onboarding')
    expect(page).toContain('name="phone_number"')
    const preloaded = preloadedScripts(page)
    const later = await textsOf(await scriptsLoadedLater(preloaded, await textsOf(preloaded)))
    for (const marker of Object.values(VALIDATION_LIBRARIES)) expect(later.some((text) => text.includes(marker)), marker).toBe(true)
  })

  it('a family’s own pages with a form (camp registration, results to share, consent) load no validation library before they show', async () => {
    const owner = new Visitor(site.url)
    expect((await owner.post('/login', { email: FAMILY.email, password: FAMILY_PASSWORD, website_url: '' })).status).toBe(302)
    const forms = {
      '/onboarding': 'camp-family',
      [`/analyses/${family.analysisId}`]: 'share-link',
      [`/swimmers/${family.swimmerId}/progress`]: 'share-link',
      [`/swimmers/${family.swimmerId}/consent`]: 'consent-resend',
    }
    for (const [pathname, form] of Object.entries(forms)) {
      const page = await owner.get(pathname)
      expect(page.status, pathname).toBe(200)
      expect(page.html, pathname).toContain(`<form id="${form}"`)
      await expectNoValidationLibrary(pathname, page.html)
    }
  })

  it('the signed-in booking screens carry no validation library: their forms are buttons the server checks', async () => {
    const customer = await site.customer('Script Reader', 'scripts@example.com')
    for (const pathname of ['/book-slot', '/my-bookings']) {
      const page = await customer.get(pathname)
      expect(page.status).toBe(200)
      const scripts = [...preloadedScripts(page.html)]
      const texts = await Promise.all(scripts.map(async (script) => (await fetch(`${site.url}${script}`)).text()))
      for (const [index, text] of texts.entries()) expect(text, `${pathname} ${scripts[index]}`).not.toContain('$ZodObject')
    }
  })

  it('a page with a form: its validation adds scripts only to it', async () => {
    const home = preloadedScripts(await html('/'))
    const login = preloadedScripts(await html('/login'))
    expect(login.size).toBeLessThanOrEqual(6)
    // The sign-in page runs the same framework and root files as the home page.
    expect([...home].filter((script) => login.has(script)).length).toBeGreaterThanOrEqual(2)
  })
})
