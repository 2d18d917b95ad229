import { createHash } from 'node:crypto'
import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PUBLIC_PAGES } from '~/web/public-pages'
import { startTestServer, type TestServer } from '../support/test-server'

const SITE_URL = 'https://lab.example.in'
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ SITE_URL, ALLOW_SANDBOX_PAYMENTS: 'true' })
})
afterAll(async () => {
  await server?.stop()
})

async function get(pathname: string, init?: RequestInit) {
  return fetch(`${server.url}${pathname}`, { redirect: 'manual', ...init })
}

describe('every public page', () => {
  it.each(PUBLIC_PAGES.map((page) => page.path))('%s renders with its title, description and canonical link', async (pathname) => {
    const response = await get(pathname)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/html')
    const html = await response.text()
    expect(html).toMatch(/<title>[^<]{10,}<\/title>/)
    expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/)
    expect(html).toContain(`<link rel="canonical" href="${SITE_URL}${pathname}"/>`)
    expect(html).toContain(`<meta property="og:url" content="${SITE_URL}${pathname}"/>`)
    expect(html).toContain('name="twitter:card"')
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1)
    expect(html).toContain('<html lang="en-IN">')
  })

  it('/analysis-days, with no analysis day planned, says so and points to the lab’s own booking', async () => {
    const html = await (await get('/analysis-days')).text()
    expect(html).toContain(`<link rel="canonical" href="${SITE_URL}/analysis-days"/>`)
    expect(html).toContain('The lab has no analysis day away from Bangalore planned yet.')
    expect(html).toMatch(/<a[^>]*href="\/booking"[^>]*>Book a session in Bangalore<\/a>/)
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1)
  })

  it('the pages have distinct titles', async () => {
    const titles = await Promise.all(PUBLIC_PAGES.map(async (page) => /<title>([^<]*)<\/title>/.exec(await (await get(page.path)).text())?.[1]))
    expect(new Set(titles).size).toBe(PUBLIC_PAGES.length)
  })
})

describe('unknown paths', () => {
  it.each(['/no-such-page', '/services/extra', '/admin-panel.php'])('%s answers 404 with the not-found page and a link home', async (pathname) => {
    const response = await get(pathname)
    expect(response.status).toBe(404)
    const html = await response.text()
    expect(html).toContain('Oops! Page not found')
    expect(html).toMatch(/<a[^>]+href="\/"[^>]*>Return Home<\/a>/)
  })

  it.each(['/%E0%A4%A', '/assets/%E0%A4%A', '/bookings/%ZZ/cancel'])('%s (not a readable address) answers 400, not a server error', async (pathname) => {
    const response = await get(pathname)
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(html).toContain('Bad request')
    // Styled from a file, since the CSP allows no inline style.
    expect(html).not.toContain('style=')
    expect(html).toContain('<link rel="stylesheet" href="/error-page.css">')
    const stylesheet = await get('/error-page.css')
    expect([stylesheet.status, stylesheet.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8'])
  })
})

describe('security headers', () => {
  it('a rendered page carries an enforced CSP whose nonce is the one on its scripts', async () => {
    const response = await get('/login')
    const csp = response.headers.get('content-security-policy')!
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toBeTruthy()
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).not.toContain('unsafe-inline')
    const html = await response.text()
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]!)
    expect(scripts.length).toBeGreaterThan(0)
    for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`)
  })

  it('a cached page allows exactly its own inline scripts, by hash, and no nonce', async () => {
    await get('/')
    const response = await get('/')
    expect(response.headers.get('x-page-cache')).toBe('hit')
    const csp = response.headers.get('content-security-policy')!
    expect(csp).not.toContain('nonce-')
    expect(csp).not.toContain('unsafe-inline')
    const html = await response.text()
    const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!).filter(Boolean)
    expect(inline.length).toBeGreaterThan(0)
    for (const script of inline) expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`)
    expect(csp.match(/'sha256-/g)).toHaveLength(new Set(inline).size)
  })

  it('a fresh nonce for every rendered response', async () => {
    const nonces = await Promise.all([get('/login'), get('/login')].map(async (request) => (await request).headers.get('content-security-policy')))
    expect(nonces[0]).not.toBe(nonces[1])
  })

  it.each(['/', '/pricing', '/no-such-page', '/healthz', '/favicon.svg'])('%s has HSTS (https site), nosniff, framing and referrer rules', async (pathname) => {
    const response = await get(pathname)
    expect(response.headers.get('strict-transport-security')).toContain('max-age=')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(response.headers.get('x-powered-by')).toBeNull()
  })

  it('a request id on every answer rendered for its request, none on the same bytes answered from memory to everyone', async () => {
    for (const pathname of ['/healthz', '/login']) expect((await get(pathname)).headers.get('x-request-id'), pathname).toMatch(/^[0-9a-f-]{36}$/)
    await get('/pricing')
    for (const pathname of ['/pricing', '/no-such-page', '/favicon.svg']) {
      await get(pathname)
      expect((await get(pathname)).headers.get('x-request-id'), pathname).toBeNull()
    }
  })
})

describe('search engines', () => {
  it('sitemap.xml lists every public page on the site URL', async () => {
    const response = await get('/sitemap.xml')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/xml')
    const xml = await response.text()
    for (const page of PUBLIC_PAGES) expect(xml).toContain(`<loc>${SITE_URL}${page.path}</loc>`)
    // The one place to buy a single session.
    expect(xml).toContain(`<loc>${SITE_URL}/booking</loc>`)
    expect(xml).toContain(`<loc>${SITE_URL}/analysis-days</loc>`)
  })

  it('the social card image every page names exists', async () => {
    const html = await (await get('/pricing')).text()
    const image = /<meta property="og:image" content="([^"]+)"/.exec(html)![1]!
    expect(image).toBe(`${SITE_URL}/og-image.png`)
    const response = await get(new URL(image).pathname)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
  })

  it('robots.txt points at the sitemap and keeps private areas out', async () => {
    const text = await (await get('/robots.txt')).text()
    expect(text).toContain(`Sitemap: ${SITE_URL}/sitemap.xml`)
    expect(text).toContain('Disallow: /admin')
    expect(text).toContain('Disallow: /my-bookings')
  })
})

describe('operations', () => {
  it('reports liveness and database readiness', async () => {
    expect(await (await get('/healthz')).json()).toEqual({ status: 'ok' })
    const ready = await get('/readyz')
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ok', database: 'reachable' })
  })

  it('compresses pages and caches fingerprinted assets for a year', async () => {
    const page = await get('/', { headers: { 'accept-encoding': 'gzip, br' } })
    expect(page.headers.get('content-encoding')).toMatch(/gzip|br/)
    const html = await page.text()
    const asset = /\/assets\/[^"]+\.js/.exec(html)![0]
    const assetResponse = await get(asset)
    expect(assetResponse.status).toBe(200)
    expect(assetResponse.headers.get('cache-control')).toContain('immutable')
  })

  it('sends scripts as their brotli or gzip copy made at build time, or as they are', async () => {
    const html = await (await get('/')).text()
    const asset = /\/assets\/entry\.client-[^"]+\.js/.exec(html)![0]
    const raw = async (acceptEncoding: string) => {
      const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => request(`${server.url}${asset}`, { headers: { 'Accept-Encoding': acceptEncoding } }, resolve).on('error', reject).end())
      const chunks: Buffer[] = []
      for await (const chunk of response) chunks.push(chunk as Buffer)
      return { headers: response.headers, body: Buffer.concat(chunks) }
    }
    const plain = await raw('identity')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers['content-type']).toMatch(/javascript/)
    const br = await raw('gzip, deflate, br')
    expect([br.headers['content-encoding'], br.headers['content-type'], br.headers.vary]).toEqual(['br', plain.headers['content-type'], 'Accept-Encoding'])
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true)
    // The strongest compression, made once: smaller than compressing on the fly would be.
    expect(br.body.length).toBeLessThan(plain.body.length / 3)
    const gzip = await raw('gzip')
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true)
  })

  it('finishes a request in flight, then exits cleanly on SIGTERM', async () => {
    const own = await startTestServer()
    // The server has read the request when it answers "100 Continue"; the signal comes after that,
    // whatever the machine's load (a request still in the kernel's queue is not in flight yet).
    const inFlight = request(`${own.url}/pricing`, { headers: { Expect: '100-continue' } })
    const answered = new Promise<import('node:http').IncomingMessage>((resolve, reject) => inFlight.on('response', resolve).on('error', reject))
    await new Promise((resolve) => inFlight.once('continue', resolve).flushHeaders())
    const exited = new Promise<number | null>((resolve) => own.process.once('exit', resolve))
    own.process.kill('SIGTERM')
    inFlight.end()
    const response = await answered
    response.resume()
    expect(response.statusCode).toBe(200)
    expect(await exited).toBe(0)
    expect(own.logs()).toContain('stopped')
    await own.stop()
  })

  it('refuses to start with a wrong setting, naming it', async () => {
    const child = spawn(process.execPath, ['server.js'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH, PORT: 'eighty', DATABASE_URL: 'mysql://nope' },
    })
    let output = ''
    child.stderr.on('data', (chunk) => (output += chunk))
    child.stdout.on('data', (chunk) => (output += chunk))
    const code = await new Promise((resolve) => child.once('exit', resolve))
    expect(code).toBe(1)
    expect(output).toContain('PORT: must be a port number')
    expect(output).toContain('DATABASE_URL: must start with postgres')
  })
})
