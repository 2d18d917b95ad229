import { describe, expect, it } from 'vitest'
import { SITE_SETTINGS_SEED } from '~/db/seed.server'
import { between } from '../support/page-text'
import { text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// The camp banner: on the marketing pages, never on paying, status and account pages, and
// closable for the rest of the visit by a plain form post.

const site = useTestSite()
const BANNER = 'aria-label="Swimming camps"'
const CLOSE = 'aria-label="Close the camp banner"'

describe('where the banner shows', () => {
  it('is on the marketing pages, with its close form posting back to the page', async () => {
    for (const path of ['/', '/services', '/pricing', '/about', '/how-it-works', '/contact', '/terms', '/refund', '/no-such-page']) {
      const page = await new Visitor(site.url).get(path)
      expect(page.html, path).toContain(BANNER)
      expect(page.html, path).toContain(CLOSE)
      const form = /<form\b[^>]*action="\/banner\/close"[^>]*>/.exec(page.html)?.[0]
      expect(form, path).toMatch(/method="post"/)
      expect(page.html, path).toContain(`name="returnTo" value="${path}"`)
      // One line that opens for the details, without a script.
      expect(page.html, path).toMatch(/<details[^>]*><summary[^>]*>[\s\S]*?Details[\s\S]*?<\/summary>[\s\S]*?Limited slots available/)
    }
  })

  it('while the coach is still the lab’s placeholder, speaks of the camps alone: no bracketed name, no portrait', async () => {
    const html = (await new Visitor(site.url).get('/pricing')).html
    const banner = between(html, BANNER, '</aside>')
    expect(SITE_SETTINGS_SEED.coach.placeholder).toBe(true)
    expect(text(between(banner, '<summary', '</summary>')).trim()).toMatch(/^Swimming camps · \d+–\d+ August \d{4} ₹35,000 Save ₹5,000 Details$/)
    expect(text(banner)).not.toContain('Swimming camps with')
    expect(text(banner)).not.toContain('[')
    expect(banner).not.toMatch(/<svg[^>]*role="img"|<img|<picture/)
    // Nor in the data the page carries for the banner.
    expect(html).not.toContain(SITE_SETTINGS_SEED.coach.name)
    expect(html).not.toContain(SITE_SETTINGS_SEED.coach.credentials)
  })

  it('is not on the paying, status and account pages', async () => {
    const guest = new Visitor(site.url)
    for (const path of [
      '/booking',
      '/slot-payment',
      '/slot-payment-status?order=nothing',
      '/payment-status?order=nothing',
      '/onboarding',
      '/onboarding/line?place=1&key=x',
      '/login',
      '/registration',
      '/forgot-password',
      '/verify-email',
    ]) {
      const page = await guest.get(path)
      expect(page.status, path).toBeLessThan(500)
      expect(page.html, path).not.toContain(BANNER)
    }
    const admin = await site.staff()
    for (const path of ['/my-bookings', '/book-slot', '/admin', '/admin/settings']) {
      const page = await admin.get(path)
      expect(page.status, path).toBe(200)
      expect(page.html, path).not.toContain(BANNER)
    }
    // A signed-in visitor still sees it on the marketing pages.
    expect((await admin.get('/pricing')).html).toContain(BANNER)
  })
})

describe('closing the banner', () => {
  it('sets a cookie for the visit (no Max-Age) and goes back to the page; no page shows the banner after', async () => {
    const visitor = new Visitor(site.url)
    expect((await visitor.get('/pricing')).html).toContain(BANNER)
    const closed = await visitor.post('/banner/close', { returnTo: '/pricing?from=banner' })
    expect(closed.status).toBe(302)
    expect(closed.location).toBe('/pricing?from=banner')
    expect(closed.setCookies).toHaveLength(1)
    const [cookie] = closed.setCookies
    expect(cookie).toMatch(/^banner_closed=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/)
    expect(cookie).not.toMatch(/Max-Age|Expires/i)
    for (const path of ['/pricing', '/', '/services', '/about', '/no-such-page']) {
      const page = await visitor.get(path)
      expect(page.html, path).not.toContain(BANNER)
      // Rendered for this visitor: the cached copy, with the banner, is for everyone else.
      expect(page.headers.get('X-Page-Cache'), path).toBeNull()
    }
    const other = new Visitor(site.url)
    await other.get('/')
    const cached = await other.get('/')
    expect(cached.headers.get('X-Page-Cache')).toBe('hit')
    expect(cached.html).toContain(BANNER)
  })

  it('answers the page script with data, and no redirect, so the page stays', async () => {
    const visitor = new Visitor(site.url)
    const closed = await visitor.post('/banner/close.data', { returnTo: '/about', inPlace: '1' })
    expect(closed.status).toBe(200)
    expect(closed.location).toBeNull()
    expect(closed.setCookies.join()).toMatch(/^banner_closed=/)
    expect((await visitor.get('/about')).html).not.toContain(BANNER)
  })

  it('a hostile return address leads home', async () => {
    for (const returnTo of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/.//evil.example',
      'javascript:alert(1)',
      ' /pricing',
      '/pricing\r\nSet-Cookie: x=1',
      'http:/evil.example',
      '',
    ]) {
      const closed = await new Visitor(site.url).post('/banner/close', { returnTo })
      expect(closed.status, returnTo).toBe(302)
      expect(closed.location, returnTo).toBe('/')
    }
    expect((await new Visitor(site.url).post('/banner/close', {})).location).toBe('/')
  })

  it('refuses cross-site posts, and sets nothing', async () => {
    const fromElsewhere: Array<Record<string, string>> = [{ Origin: 'https://evil.example' }, { Origin: 'null' }, { Referer: 'https://evil.example/page' }, { 'Sec-Fetch-Site': 'cross-site' }, { 'Sec-Fetch-Site': 'same-site' }]
    for (const headers of fromElsewhere) {
      // As another site's page makes a browser send it: no Origin of ours.
      const refused = await fetch(`${site.url}/banner/close`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ returnTo: '/pricing' }),
        redirect: 'manual',
      })
      expect(refused.status, JSON.stringify(headers)).toBe(403)
      expect(refused.headers.getSetCookie(), JSON.stringify(headers)).toEqual([])
    }
  })

  it('a plain visit to the address leads home and closes nothing', async () => {
    const visitor = new Visitor(site.url)
    const opened = await visitor.get('/banner/close')
    expect(opened.status).toBe(302)
    expect(opened.location).toBe('/')
    expect(opened.setCookies).toEqual([])
  })
})
