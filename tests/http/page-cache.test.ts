import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpSink } from '../support/smtp-sink'
import { startTestServer, type TestServer } from '../support/test-server'
import { signUp, text, Visitor } from '../support/visitor'

// The anonymous marketing pages come from the server's page cache; everyone else gets their own page.

let server: TestServer
let sink: Awaited<ReturnType<typeof startSmtpSink>>

beforeAll(async () => {
  sink = await startSmtpSink()
  server = await startTestServer({ SMTP_URL: sink.url, TRUST_PROXY: 'true' })
})
afterAll(async () => {
  await server?.stop()
  await sink?.close()
})

describe('the page cache, on the real site', () => {
  it('serves every public page to anonymous visitors with an ETag, and 304 when the copy is current', async () => {
    const visitor = new Visitor(server.url)
    for (const path of ['/', '/services', '/pricing', '/how-it-works', '/about', '/contact', '/terms', '/privacy-policy', '/refund']) {
      const first = await visitor.get(path)
      expect(first.status, path).toBe(200)
      const again = await visitor.get(path)
      expect(again.headers.get('X-Page-Cache'), path).toBe('hit')
      expect(again.html).toBe(first.html)
      const etag = again.headers.get('ETag')!
      expect(again.headers.get('Cache-Control')).toBe('public, no-cache')
      expect(again.headers.get('Content-Security-Policy')).toMatch(/script-src 'sha256-[^']+'( 'sha256-[^']+')* 'strict-dynamic'/)
      const current = await visitor.request(path, { headers: { 'If-None-Match': etag } })
      expect(current.status, path).toBe(304)
    }
  })

  it('renders signed-in pages for their visitor, never from the cache and never stored', async () => {
    const visitor = await signUp(new Visitor(server.url), sink, { email: 'cached@example.com', name: 'Cache Tester' })
    // The marketing pages send a signed-in visitor on to booking, rather than the anonymous copy.
    for (const path of ['/', '/pricing']) {
      const page = await visitor.get(path)
      expect([page.status, page.location, page.headers.get('X-Page-Cache')]).toEqual([302, '/book-slot', null])
    }
    const mine = await visitor.get('/my-bookings')
    expect(mine.status).toBe(200)
    expect(mine.headers.get('Cache-Control')).toBe('private, no-store')
    expect(mine.headers.get('Content-Security-Policy')).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/)
    expect(text(mine.html)).toContain('Cache Tester')
    // And the anonymous copy never shows them.
    expect(text((await new Visitor(server.url).get('/pricing')).html)).not.toContain('Cache Tester')
  })
})
