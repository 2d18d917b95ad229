import { describe, expect, it } from 'vitest'
import { text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// The anonymous marketing pages come from the server's page cache; everyone else gets their own page.

const site = useTestSite()

describe('the page cache, on the real site', () => {
  it('serves every public page to anonymous visitors with an ETag, and 304 when the copy is current', async () => {
    const visitor = new Visitor(site.url)
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

  it('answers every missing address with one copy of the missing page for anonymous visitors, and each signed-in visitor with their own', async () => {
    const anonymous = new Visitor(site.url)
    const first = await anonymous.get('/no-such-page')
    for (const path of ['/no-such-page', '/admin/nothing/here', '/pricing/more?x=1', '/Ab%63']) {
      const page = await anonymous.get(path)
      expect([page.status, page.headers.get('X-Page-Cache'), page.headers.get('Cache-Control')], path).toEqual([404, 'hit', 'no-store'])
      expect(page.html).toBe(first.html)
      expect(text(page.html)).toContain('Oops! Page not found')
    }
    // What the server answers itself, and what React Router answers with a page, are never the missing page.
    expect((await anonymous.get('/healthz')).status).toBe(200)
    expect((await anonymous.get('/HEALTHZ')).status).toBe(200)
    expect((await anonymous.get('/pricing')).status).toBe(200)
    expect((await anonymous.get('/%E0%A4%A')).status).toBe(400)
    const member = await site.customer('Lost Member', 'lost@example.com')
    const theirs = await member.get('/no-such-page')
    expect([theirs.status, theirs.headers.get('X-Page-Cache')]).toEqual([404, null])
    expect(text(theirs.html)).toContain('Lost Member')
    expect(text((await anonymous.get('/no-such-page')).html)).not.toContain('Lost Member')
  })

  it('renders signed-in pages for their visitor, never from the cache and never stored', async () => {
    const visitor = await site.customer('Cache Tester', 'cached@example.com')
    // The home page sends a signed-in visitor on to booking, rather than the anonymous copy; the
    // other marketing pages are rendered for them, with their header.
    const home = await visitor.get('/')
    expect([home.status, home.location, home.headers.get('X-Page-Cache')]).toEqual([302, '/book-slot', null])
    const pricing = await visitor.get('/pricing')
    expect([pricing.status, pricing.headers.get('X-Page-Cache'), pricing.headers.get('Cache-Control')]).toEqual([200, null, 'private, no-store'])
    expect(text(pricing.html)).toContain('My Bookings')
    const mine = await visitor.get('/my-bookings')
    expect(mine.status).toBe(200)
    expect(mine.headers.get('Cache-Control')).toBe('private, no-store')
    expect(mine.headers.get('Content-Security-Policy')).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/)
    expect(text(mine.html)).toContain('Cache Tester')
    // And the anonymous copy never shows them.
    expect(text((await new Visitor(site.url).get('/pricing')).html)).not.toContain('Cache Tester')
  })

  it('shows a change staff make at once: the cached pages are dropped when the catalogue or settings change', async () => {
    const anonymous = new Visitor(site.url)
    await anonymous.get('/pricing')
    expect((await anonymous.get('/pricing')).headers.get('X-Page-Cache')).toBe('hit')
    expect(text((await anonymous.get('/pricing')).html)).not.toContain('₹27,500')
    const admin = await site.staff()
    const saved = await admin.post('/admin/settings', { intent: 'price', code: 'biomechanical_package', price: '27,500', regularPrice: '' })
    expect(saved.status).toBe(302)
    // The database announces the change; the next anonymous visitor gets a fresh page.
    await expect.poll(async () => text((await anonymous.get('/pricing')).html), { timeout: 5_000, interval: 100 }).toContain('₹27,500')
    expect((await anonymous.get('/')).html).toContain('Limited slots available')
    const banner = await admin.post('/admin/settings', { intent: 'banner', visible: 'false' })
    expect(banner.status).toBe(302)
    await expect.poll(async () => (await anonymous.get('/')).html.includes('Limited slots available'), { timeout: 5_000, interval: 100 }).toBe(false)
  })
})
