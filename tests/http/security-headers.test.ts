import { createHash } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, labToday } from '~/lib/lab-time'
import { bookAndPay } from '../support/booking-flow'
import { startTestServer, type TestServer } from '../support/test-server'
import { Visitor } from '../support/visitor'
import { STAFF, useTestSite } from '../support/site'

// The security headers on every kind of response the site sends, from pages (cached, rendered,
// signed in, staff) to redirects, errors, JSON, files and the webhook, and on scripts and
// stylesheets those that apply to them; and in production (an https SITE_URL) the HSTS header
// and Secure cookies.

type Response = Awaited<ReturnType<Visitor['request']>>
type Kind = { name: string; as: 'guest' | 'customer' | 'admin'; path: () => string; init?: Parameters<Visitor['request']>[1]; status: number; html?: boolean; personal?: boolean; subresource?: boolean; noReferrer?: boolean }

const site = useTestSite()
const visitors = {} as Record<Kind['as'], Visitor>
const the = { orderId: '', reportFile: '', script: '', stylesheet: '', reference: '' }

beforeAll(async () => {
  visitors.guest = new Visitor(site.url)
  visitors.customer = await site.customer('Hema Customer', 'headers.customer@example.com')
  visitors.admin = await site.staff()
  the.orderId = (await bookAndPay(visitors.customer, site.url, 'success', 0, { daysAhead: 2 })).orderId
  the.reference = /Booking ID (SWP-\d{10})/.exec((await visitors.customer.get('/my-bookings')).html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '))![1]!
  const report = new FormData()
  report.append('files', new Blob([new TextEncoder().encode('%PDF-1.4\n% report\n%%EOF\n')], { type: 'application/pdf' }), 'report.pdf')
  expect((await visitors.admin.upload(`/admin/bookings/${the.reference}`, report)).status).toBe(302)
  the.reportFile = /href="(\/reports\/files\/\d+)"/.exec((await visitors.customer.get('/my-bookings')).html)![1]!
  const home = (await visitors.guest.get('/')).html
  the.script = /"(\/assets\/[\w.-]+\.js)"/.exec(home)![1]!
  the.stylesheet = /href="(\/assets\/[\w.-]+\.css)"/.exec(home)![1]!
}, 90_000)


const kinds: Kind[] = [
  { name: 'a cached public page', as: 'guest', path: () => '/pricing', status: 200, html: true },
  { name: 'a public page rendered for this request (query string)', as: 'guest', path: () => '/?utm_source=test', status: 200, html: true },
  { name: 'a form page', as: 'guest', path: () => '/onboarding', status: 200, html: true },
  { name: 'the sign-in page', as: 'guest', path: () => '/login', status: 200, html: true, personal: true },
  { name: 'a signed-in page', as: 'customer', path: () => '/my-bookings', status: 200, html: true, personal: true },
  { name: 'a public page, signed in', as: 'customer', path: () => '/terms', status: 200, html: true, personal: true },
  { name: 'the payment status page', as: 'customer', path: () => `/slot-payment-status?orderId=${the.orderId}`, status: 200, html: true, personal: true },
  { name: 'an admin page', as: 'admin', path: () => '/admin', status: 200, html: true, personal: true },
  { name: 'the admin settings', as: 'admin', path: () => '/admin/settings', status: 200, html: true, personal: true },
  { name: 'a CSV export', as: 'admin', path: () => '/admin/bookings.csv', status: 200, personal: true },
  { name: 'a permanent redirect', as: 'guest', path: () => '/register', status: 301 },
  { name: 'a redirect to sign in', as: 'guest', path: () => '/my-bookings', status: 302 },
  { name: 'a refused admin page', as: 'customer', path: () => '/admin', status: 403, html: true, personal: true },
  { name: 'a page that does not exist', as: 'guest', path: () => '/no-such-page', status: 404, html: true },
  { name: 'an asset that does not exist', as: 'guest', path: () => '/assets/no-such-file.js', status: 404 },
  { name: 'a malformed address', as: 'guest', path: () => '/%E0%A4%A', status: 400 },
  { name: 'JSON: health', as: 'guest', path: () => '/healthz', status: 200 },
  { name: 'JSON: a payment check', as: 'customer', path: () => `/slot-payment-status/check?orderId=${the.orderId}`, status: 200, personal: true },
  { name: 'JSON: a refused payment check', as: 'guest', path: () => `/slot-payment-status/check?orderId=${the.orderId}`, status: 401 },
  { name: 'JSON: free times', as: 'guest', path: () => `/booking/times?date=${addDays(labToday(), 30)}`, status: 200 },
  { name: 'a PDF receipt', as: 'customer', path: () => `/receipts/${the.orderId}`, status: 200, personal: true },
  // A refused file is as private as the file: no copy of the refusal is kept either.
  { name: 'a refused receipt', as: 'guest', path: () => `/receipts/${the.orderId}?key=${'k'.repeat(32)}`, status: 404, personal: true },
  { name: 'a refused credit note', as: 'guest', path: () => `/credit-notes/RFND_1234567890123_1_abcdefgh?key=${'k'.repeat(32)}`, status: 404, personal: true },
  { name: 'a refused report file', as: 'guest', path: () => `${the.reportFile}?key=${'k'.repeat(32)}`, status: 404, personal: true },
  // A results file's address may hold a coach's token: it and its refusal are sent on with no referrer.
  { name: 'a refused clip video', as: 'guest', path: () => '/analyses/clips/999999/video', status: 404, personal: true, noReferrer: true },
  { name: 'a refused clip poster', as: 'customer', path: () => '/analyses/clips/999999/poster', status: 404, personal: true, noReferrer: true },
  { name: 'a refused CSV export', as: 'customer', path: () => '/admin/bookings.csv', status: 403, personal: true },
  { name: 'a report file', as: 'customer', path: () => the.reportFile, status: 200, personal: true },
  { name: 'a script', as: 'guest', path: () => the.script, status: 200, subresource: true },
  { name: 'a stylesheet', as: 'guest', path: () => the.stylesheet, status: 200, subresource: true },
  { name: 'robots.txt', as: 'guest', path: () => '/robots.txt', status: 200 },
  { name: 'sitemap.xml', as: 'guest', path: () => '/sitemap.xml', status: 200 },
  { name: 'a refused webhook', as: 'guest', path: () => '/api/payments/webhook/sandbox', init: { method: 'POST', headers: { 'Content-Type': 'application/json' } }, status: 401 },
  { name: 'a webhook for another gateway', as: 'guest', path: () => '/api/payments/webhook/phonepe', init: { method: 'POST', headers: { 'Content-Type': 'application/json' } }, status: 404 },
  { name: 'a cross-site post', as: 'guest', path: () => '/login', init: { form: { email: 'a@example.com', password: 'x' }, headers: { Origin: 'https://evil.example' } }, status: 403 },
]

const fetchKind = (kind: Kind) => visitors[kind.as].request(kind.path(), kind.init)

/** The directives of a Content-Security-Policy, by name. */
function directives(policy: string) {
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0]).map(([name, ...values]) => [name!, values]))
}

function expectCommonHeaders(response: Pick<Response, 'headers'>, label: string, production: boolean, { noReferrer = false } = {}) {
  const headers = response.headers
  expect(headers.get('X-Content-Type-Options'), label).toBe('nosniff')
  expect(headers.get('Referrer-Policy'), label).toBe(noReferrer ? 'no-referrer' : 'strict-origin-when-cross-origin')
  expect(headers.get('X-Frame-Options'), label).toBe('DENY')
  expect(headers.get('X-Powered-By'), label).toBeNull()
  expect(headers.get('Content-Security-Policy'), label).toBeTruthy()
  expect(headers.get('Content-Security-Policy-Report-Only'), label).toBeNull()
  const policy = directives(headers.get('Content-Security-Policy')!)
  expect(policy.get('frame-ancestors'), label).toEqual(["'none'"])
  expect(policy.get('object-src'), label).toEqual(["'none'"])
  if (production) expect(headers.get('Strict-Transport-Security'), label).toMatch(/^max-age=(\d{8,}|3153[6-9]\d{3})/)
  else expect(headers.get('Strict-Transport-Security'), label).toBeNull()
}

/** A script or a stylesheet is never shown as a page: nosniff, no other site may load it, and none of the documents' policies. */
function expectSubresourceHeaders(response: Response, label: string) {
  const headers = response.headers
  expect(headers.get('X-Content-Type-Options'), label).toBe('nosniff')
  expect(headers.get('Cross-Origin-Resource-Policy'), label).toBe('same-origin')
  expect(headers.get('Cache-Control'), label).toBe('public, max-age=31536000, immutable')
  expect(headers.get('Content-Type'), label).toMatch(/^text\/(javascript|css)/)
  for (const name of ['Content-Security-Policy', 'X-Frame-Options', 'Referrer-Policy', 'Permissions-Policy', 'Cross-Origin-Opener-Policy', 'X-Powered-By']) expect(headers.get(name), `${label}: ${name}`).toBeNull()
}

/** Scripts run only by this response's nonce or by the hash of exactly their text; nothing else. */
function expectScriptsAllowedOnlyByPolicy(response: Response, label: string) {
  const policy = directives(response.headers.get('Content-Security-Policy')!)
  const scriptSources = policy.get('script-src') ?? policy.get('default-src')!
  expect(scriptSources, label).not.toContain("'unsafe-inline'")
  expect(scriptSources, label).not.toContain("'unsafe-eval'")
  expect(policy.get('base-uri'), label).toBeDefined()
  expect(policy.get('base-uri')!.every((value) => value === "'none'" || value === "'self'"), label).toBe(true)
  const nonce = scriptSources.map((source) => /^'nonce-(.+)'$/.exec(source)?.[1]).find(Boolean)
  const hashes = scriptSources.filter((source) => source.startsWith("'sha256-"))
  expect(Boolean(nonce) || hashes.length > 0, `${label}: a nonce or hashes`).toBe(true)
  const scripts = [...response.html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
  for (const [tag, attributes, body] of scripts) {
    const given = /\bnonce="([^"]*)"/.exec(attributes!)?.[1]
    const hash = `'sha256-${createHash('sha256').update(body!).digest('base64')}'`
    const allowed = (nonce !== undefined && given === nonce) || (!/\bsrc=/.test(attributes!) && hashes.includes(hash))
    expect(allowed, `${label}: ${tag!.slice(0, 120)}`).toBe(true)
  }
  // Event-handler attributes and javascript: links run inline code no nonce can allow.
  expect(response.html, label).not.toMatch(/<[^>]+\son[a-z]+="/i)
  expect(response.html, label).not.toMatch(/href="javascript:/i)
}

describe('security headers', () => {
  for (const kind of kinds) {
    it(kind.name, async () => {
      const response = await fetchKind(kind)
      expect(response.status, kind.name).toBe(kind.status)
      if (kind.subresource) return expectSubresourceHeaders(response, kind.name)
      expectCommonHeaders(response, kind.name, false, { noReferrer: kind.noReferrer })
      if (kind.html) {
        expect(response.headers.get('Content-Type')).toMatch(/^text\/html/)
        expectScriptsAllowedOnlyByPolicy(response, kind.name)
      }
      if (kind.personal) expect(response.headers.get('Cache-Control'), kind.name).toMatch(kind.status >= 400 ? /^private, no-store$/ : /private|no-store/)
    })
  }

  it('a cached page carries hashes of its own scripts, and keeps its policy on a 304', async () => {
    await visitors.guest.get('/')
    const cached = await visitors.guest.get('/')
    expect(cached.headers.get('X-Page-Cache')).toBe('hit')
    expect(cached.headers.get('Cache-Control')).toBe('public, no-cache')
    expect(directives(cached.headers.get('Content-Security-Policy')!).get('script-src')!.some((source) => source.startsWith("'sha256-"))).toBe(true)
    expectScriptsAllowedOnlyByPolicy(cached, 'cached home page')
    const revalidated = await visitors.guest.request('/', { headers: { 'If-None-Match': cached.headers.get('ETag')! } })
    expect(revalidated.status).toBe(304)
    expect(revalidated.headers.get('Content-Security-Policy')).toBe(cached.headers.get('Content-Security-Policy'))
    expectCommonHeaders(revalidated, '304', false)
  })

  it('each rendered page gets a nonce of its own', async () => {
    const nonces = await Promise.all([1, 2, 3].map(async () => /'nonce-([^']+)'/.exec((await visitors.customer.get('/my-bookings')).headers.get('Content-Security-Policy')!)![1]))
    expect(new Set(nonces).size).toBe(3)
    for (const nonce of nonces) expect(Buffer.from(nonce!, 'base64').length).toBeGreaterThanOrEqual(16)
  })

  it('files a browser might render are sent with their own type and nosniff', async () => {
    const report = await visitors.customer.get(the.reportFile)
    expect(report.headers.get('Content-Type')).toBe('application/pdf')
    expect(report.headers.get('Content-Disposition')).toMatch(/^inline; filename="[\x20-\x7e]+"$/)
    const receipt = await visitors.customer.get(`/receipts/${the.orderId}`)
    expect(receipt.headers.get('Content-Disposition')).toMatch(/^attachment;/)
  })
})

/** A form posted from a page of https://localhost, as the TLS proxy in front of `server` forwards it. */
function proxiedPost(server: TestServer, path: string, form: Record<string, string>) {
  const body = new URLSearchParams(form).toString()
  return new Promise<{ status: number; headers: Headers }>((resolve, reject) => {
    const headers = { Host: 'localhost', 'X-Forwarded-Proto': 'https', Origin: 'https://localhost', 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(Buffer.byteLength(body)) }
    const sent = httpRequest(`${server.url}${path}`, { method: 'POST', headers }, (response) => {
      response.resume()
      response.on('end', () => {
        const received = new Headers()
        for (const [name, value] of Object.entries(response.headers)) for (const one of [value ?? []].flat()) received.append(name, one)
        resolve({ status: response.statusCode ?? 0, headers: received })
      })
    })
    sent.on('error', reject)
    sent.end(body)
  })
}

describe('in production (an https SITE_URL)', () => {
  let production: TestServer
  beforeAll(async () => {
    // Behind the proxy that ends TLS, as in production.
    production = await startTestServer({ SITE_URL: 'https://localhost', TRUST_PROXY: 'true', SMTP_URL: site.sink.url, ADMIN_EMAIL: STAFF.email, ADMIN_PASSWORD: STAFF.password })
  })
  afterAll(async () => {
    await production?.stop()
  })

  it('sends HSTS on every response but scripts and stylesheets, upgrades insecure requests, and marks the session cookie Secure', async () => {
    const guest = new Visitor(production.url)
    const home = (await guest.get('/')).html
    const script = /"(\/assets\/[\w.-]+\.js)"/.exec(home)![1]!
    expectSubresourceHeaders(await guest.get(script), script)
    for (const [path, status] of [['/', 200], ['/pricing', 200], ['/?q=1', 200], ['/login', 200], ['/my-bookings', 302], ['/no-such-page', 404], ['/%E0%A4%A', 400], ['/healthz', 200], ['/robots.txt', 200]] as const) {
      const response = await guest.get(path)
      expect(response.status, path).toBe(status)
      expectCommonHeaders(response, path, true)
      expect(directives(response.headers.get('Content-Security-Policy')!).has('upgrade-insecure-requests'), path).toBe(true)
    }
    const admin = new Visitor(production.url)
    // A post names the site's own origin: as the proxy forwards a browser's from a page of https://localhost.
    const signedIn = await proxiedPost(production, '/login', { ...STAFF, website_url: '' })
    expect(signedIn.headers.get('Location')).toBe('/admin')
    expectCommonHeaders(signedIn, 'sign-in', true)
    const session = signedIn.headers.getSetCookie().find((cookie) => cookie.startsWith('swimlab_session='))!
    admin.cookies.set('swimlab_session', session.split(';')[0]!.slice('swimlab_session='.length))
    expect(session).toMatch(/;\s*Secure/i)
    expect(session).toMatch(/;\s*HttpOnly/i)
    expect(session).toMatch(/;\s*SameSite=Lax/i)
    const page = await admin.get('/admin')
    expect(page.status).toBe(200)
    expectCommonHeaders(page, '/admin', true)
    expectScriptsAllowedOnlyByPolicy(page, '/admin')
  })
})
