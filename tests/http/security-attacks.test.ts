import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bookAndPay } from '../support/booking-flow'
import { codeIn } from '../support/smtp-sink'
import { startTestServer, type TestServer } from '../support/test-server'
import { lettersFor, registrationForm, signUp, text, Visitor } from '../support/visitor'
import { CODE_REFUSED } from '~/modules/accounts/codes.server'
import { useTestSite } from '../support/site'
import { withinOneWindow } from '../support/rate-limit-window'
import { LIMITS } from '~/modules/rate-limit/limits.server'

/** Sign-in and code entry count in windows of this length (code sending in hours, which start on one of them). */
const SIGN_IN_WINDOW_SECONDS = LIMITS.signInPerAccount.windowSeconds

// Each attack is a test that fails if the attack works: open redirects, session fixation,
// cross-site form posts, and guessing passwords and codes. (Attacks on payments are in
// security-payments.test.ts.)

const site = useTestSite()
const PASSWORD = registrationForm().password


let people = 0
/** A new verified customer, signed in. */
async function customer(server = site.server) {
  people += 1
  const email = `swimmer${people}.${server.port}@example.com`
  return Object.assign(await signUp(new Visitor(server.url), site.sink, { email, name: `Swimmer ${lettersFor(people)}` }), { email })
}

const staff = site.staff

/** A POST as another site's page makes the victim's browser send it: the victim's cookies, no Origin of ours. */
async function crossSitePost(visitor: Visitor, path: string, form: Record<string, string>, headers: Record<string, string>) {
  const response = await fetch(`${site.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': visitor.ip, Cookie: [...visitor.cookies].map(([name, value]) => `${name}=${value}`).join('; '), ...headers },
    body: new URLSearchParams(form),
    redirect: 'manual',
  })
  return { status: response.status, setCookies: response.headers.getSetCookie(), body: await response.text() }
}

describe('open redirects', () => {
  const hostile = [
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example',
    'http:evil.example',
    '%2F%2Fevil.example',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%5C%5Cevil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/\t/evil.example',
    '/\n/evil.example',
    '\t//evil.example',
    ' //evil.example',
    '/.//evil.example',
    '/..//evil.example',
    '/a/..//evil.example',
    '/./\\evil.example',
    '/%2e//evil.example',
    '///evil.example',
    '/\\/evil.example',
  ]

  /** A Location the browser resolves on our origin, not on another host. */
  function staysHome(location: string | null) {
    expect(location).not.toBeNull()
    expect(location).toMatch(/^\/(?![/\\])/)
    expect(location).not.toMatch(/[\u0000-\u001f\u007f]/)
    expect(new URL(location!, site.url).origin).toBe(site.url)
  }

  it('sign-in never sends the browser to another site, whatever redirectTo says', async () => {
    // Sign-ins per account are limited (10 in 15 minutes): a few accounts share the list.
    for (let from = 0; from < hostile.length; from += 8) {
      const visitor = await customer()
      await visitor.post('/logout', {})
      for (const redirectTo of hostile.slice(from, from + 8)) {
        // The form carries the loader's cleaned value; a hand-made post carries anything.
        const form = await visitor.get(`/login?${new URLSearchParams({ redirectTo })}`)
        const carried = /name="redirectTo" value="([^"]*)"/.exec(form.html)?.[1]
        if (carried) staysHome(carried.replaceAll('&amp;', '&'))
        const signedIn = await visitor.post('/login', { email: visitor.email, password: PASSWORD, redirectTo, website_url: '' })
        expect(signedIn.status, redirectTo).toBe(302)
        staysHome(signedIn.location)
        await visitor.post('/logout', {})
      }
    }
    const visitor = new Visitor(site.url)
    // The raw query string, encoded as an attacker would put it in a link.
    for (const query of ['redirectTo=%2F%2Fevil.example', 'redirectTo=%2F%5Cevil.example', 'redirectTo=%2F.%2F%2Fevil.example', 'redirectTo=%09%2F%2Fevil.example']) {
      const form = await visitor.get(`/login?${query}`)
      const carried = /name="redirectTo" value="([^"]*)"/.exec(form.html)?.[1]
      if (carried) staysHome(carried)
    }
  })

  it('a guard that sends a guest to sign in remembers only a path on this site', async () => {
    for (const path of ['//evil.example/my-bookings', '/my-bookings?next=https://evil.example']) {
      const response = await new Visitor(site.url).get(path)
      if (response.status === 302) staysHome(new URL(response.location!, site.url).searchParams.get('redirectTo') ?? response.location)
    }
  })
})

describe('reflected script', () => {
  const payload = `"><script>alert(1)</script><img src=x onerror=alert(2)>`

  it('no page echoes a query parameter as markup', async () => {
    const guest = new Visitor(site.url)
    const signedIn = await customer()
    const admin = await staff()
    const probes: Array<[Visitor, string]> = [
      [guest, `/login?redirectTo=${encodeURIComponent(`/${payload}`)}`],
      [guest, `/verify-email?email=${encodeURIComponent(`a${payload}@example.com`)}`],
      [guest, `/forgot-password?email=${encodeURIComponent(`a${payload}@example.com`)}`],
      [guest, `/onboarding?email=${encodeURIComponent(payload)}&name=${encodeURIComponent(payload)}`],
      [guest, `/booking/view?ref=${encodeURIComponent(payload)}&key=${encodeURIComponent(payload)}`],
      [guest, `/payment-status?orderId=${encodeURIComponent(payload)}&key=x`],
      [guest, `/no-such-page/${encodeURIComponent(payload)}`],
      [signedIn, `/slot-payment-status?orderId=${encodeURIComponent(payload)}`],
      [signedIn, `/book-slot?month=${encodeURIComponent(payload)}&time=${encodeURIComponent(payload)}`],
      [admin, `/admin/bookings?q=${encodeURIComponent(payload)}`],
      [admin, `/admin/customers?q=${encodeURIComponent(payload)}`],
    ]
    for (const [visitor, path] of probes) {
      const page = await visitor.get(path)
      expect(page.status, path).toBeLessThan(500)
      expect(page.html, path).not.toContain('<script>alert(1)')
      expect(page.html, path).not.toMatch(/<img src=x onerror/i)
    }
  })
})

describe('session fixation', () => {
  const COOKIE = 'swimlab_session'

  it('a session id planted before sign-in is never the one used after it, and is worth nothing', async () => {
    const visitor = await customer()
    await visitor.post('/logout', {})
    const planted = 'attacker-chosen-session-id-0123456789abcdef'
    visitor.cookies.set(COOKIE, planted)
    expect((await visitor.get('/my-bookings')).location).toBe('/login?redirectTo=%2Fmy-bookings')
    const signedIn = await visitor.post('/login', { email: visitor.email, password: PASSWORD, website_url: '' })
    expect(signedIn.location).toBe('/book-slot')
    const issued = visitor.cookies.get(COOKIE)
    expect(issued).toBeDefined()
    expect(issued).not.toBe(planted)
    expect(signedIn.setCookies.find((cookie) => cookie.startsWith(`${COOKIE}=`))).toMatch(/HttpOnly/i)
    expect(signedIn.setCookies.find((cookie) => cookie.startsWith(`${COOKIE}=`))).toMatch(/SameSite=Lax/i)
    const attacker = new Visitor(site.url)
    attacker.cookies.set(COOKIE, planted)
    expect((await attacker.get('/my-bookings')).status).toBe(302)
  })

  it('each sign-in gets a new session id; one signed out stays dead', async () => {
    const visitor = await customer()
    const first = visitor.cookies.get(COOKIE)!
    await visitor.post('/logout', {})
    await visitor.post('/login', { email: visitor.email, password: PASSWORD, website_url: '' })
    const second = visitor.cookies.get(COOKIE)!
    expect(second).not.toBe(first)
    const replay = new Visitor(site.url)
    replay.cookies.set(COOKIE, first)
    expect((await replay.get('/my-bookings')).location).toBe('/login?redirectTo=%2Fmy-bookings')
    replay.cookies.set(COOKIE, second)
    expect((await replay.get('/my-bookings')).status).toBe(200)
  })

  it('a password reset signs out every session of the account', async () => {
    const owner = await customer()
    const laptop = new Visitor(site.url)
    await laptop.post('/login', { email: owner.email, password: PASSWORD, website_url: '' })
    const stolen = owner.cookies.get(COOKIE)!
    const requested = await new Visitor(site.url).post('/forgot-password', { intent: 'request', email: owner.email, website_url: '' })
    const code = codeIn((await site.sink.waitForMailTo(owner.email, /password reset code/)).text)
    const reset = await new Visitor(site.url).post(requested.location!, { intent: 'reset', email: owner.email, code, password: 'new-password-9', confirmPassword: 'new-password-9', website_url: '' })
    expect(reset.location).toBe('/forgot-password?done=1')
    for (const browser of [owner, laptop]) expect((await browser.get('/my-bookings')).status).toBe(302)
    const thief = new Visitor(site.url)
    thief.cookies.set(COOKIE, stolen)
    expect((await thief.get('/my-bookings')).status).toBe(302)
  })
})

/** A request with headers fetch would not send as they are (a Host of the asker's choosing). */
function rawRequest(method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const sent = httpRequest(`${site.url}${path}`, { method, headers }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }))
    })
    sent.on('error', reject)
    sent.end(body)
  })
}

describe('cross-site form posts', () => {
  const fromElsewhere: Array<Record<string, string>> = [{ Origin: 'https://evil.example' }, { Origin: 'null' }, { Referer: 'https://evil.example/page' }, { 'Sec-Fetch-Site': 'cross-site' }, { 'Sec-Fetch-Site': 'same-site' }]

  it('refuses sign-in, registration, booking, cancelling, signing out and staff settings posted from another site, and nothing changes', async () => {
    const victim = await customer()
    await bookAndPay(victim, site.url, 'success', 2, { daysAhead: 2 })
    const reference = /Booking ID (SWP-\d{10})/.exec(text((await victim.get('/my-bookings')).html))![1]!
    const admin = await staff()
    const price = async () => /₹[\d,]+/.exec(text((await new Visitor(site.url).get('/pricing')).html).split('Biomechanical')[1] ?? '')?.[0]
    const priceBefore = await price()
    const stranger = new Visitor(site.url)
    const newcomer = `csrf.newcomer.${site.server.port}@example.com`

    for (const headers of fromElsewhere) {
      const label = JSON.stringify(headers)
      const attempts = [
        await crossSitePost(stranger, '/login', { email: victim.email, password: PASSWORD, website_url: '' }, headers),
        await crossSitePost(stranger, '/registration', registrationForm({ email: newcomer }), headers),
        await crossSitePost(stranger, '/booking', { name: 'Forged', email: newcomer, phone: '', service: 'race', date: '2099-01-05', time: '10:00', notes: '', intent: 'details', website_url: '' }, headers),
        await crossSitePost(stranger, '/onboarding', { name: 'Forged Swimmer', email: newcomer, phone_number: '98450 12345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1', website_url: '' }, headers),
        await crossSitePost(victim, `/bookings/${reference}/cancel`, { website_url: '' }, headers),
        await crossSitePost(victim, '/logout', {}, headers),
        await crossSitePost(admin, '/admin/settings', { intent: 'price', code: 'biomechanical_package', price: '1', regularPrice: '2' }, headers),
        await crossSitePost(admin, `/admin/bookings/${reference}`, { intent: 'cancel', refund: 'yes', confirm: 'yes' }, headers),
      ]
      for (const attempt of attempts) {
        expect(attempt.status, label).toBe(403)
        expect(attempt.setCookies, label).toEqual([])
      }
    }
    expect(text((await victim.get('/my-bookings')).html)).toMatch(new RegExp(`${reference} Confirmed`))
    expect((await admin.get('/admin')).status).toBe(200)
    expect(await price()).toBe(priceBefore)
    expect(site.sink.messages.some((message) => message.to.includes(newcomer))).toBe(false)
    // A page of another site the request was addressed to (another name for this server, a rebound DNS name) is another site.
    for (const host of ['evil.example', `localhost:${site.server.port}`]) {
      const label = `Origin and Host ${host}`
      const forged = await rawRequest('POST', '/login', { Host: host, Origin: `http://${host}`, 'Content-Type': 'application/x-www-form-urlencoded' }, new URLSearchParams({ email: victim.email, password: PASSWORD, website_url: '' }).toString())
      expect(forged.status, label).toBe(403)
      expect(forged.headers['set-cookie'], label).toBeUndefined()
    }
    // The same posts from our own pages are served: the check is not a blanket refusal.
    expect((await crossSitePost(stranger, '/login', { email: victim.email, password: 'wrong-password-1', website_url: '' }, { 'Sec-Fetch-Site': 'same-origin' })).status).toBe(401)
    expect((await crossSitePost(stranger, '/login', { email: victim.email, password: 'wrong-password-1', website_url: '' }, { Origin: site.url })).status).toBe(401)
  })
})

describe('guessing passwords and codes', { timeout: 60_000 }, () => {
  const tooMany = /Too many attempts\. Please wait \d+ minutes? and try again\./

  it('after 10 wrong passwords for an account (from anywhere), even the right one is refused for a while, except from the owner\'s own browser', async () => {
    await withinOneWindow(SIGN_IN_WINDOW_SECONDS)
    const victim = await customer()
    await victim.post('/logout', {})
    for (let guess = 0; guess < 10; guess += 1) expect((await new Visitor(site.url).post('/login', { email: victim.email, password: `guess-${guess}-xyz`, website_url: '' })).status).toBe(401)
    const stranger = new Visitor(site.url)
    const right = await stranger.post('/login', { email: victim.email, password: PASSWORD, website_url: '' })
    expect(right.status).toBe(429)
    expect(text(right.html)).toMatch(tooMany)
    expect(right.setCookies.some((cookie) => cookie.startsWith('swimlab_session='))).toBe(false)

    // The browser the owner registered and signed in with is not locked out by strangers.
    const owner = await victim.post('/login', { email: victim.email, password: PASSWORD, website_url: '' })
    expect(owner.location).toBe('/book-slot')
    expect((await victim.get('/my-bookings')).status).toBe(200)
    // A stranger still cannot, with a browser cookie of their own account or a forged one.
    const other = await customer()
    await other.post('/logout', {})
    other.cookies.set('swimlab_session_browser', victim.cookies.get('swimlab_session_browser')!.replace(/\.[^.]*$/, '.forged'))
    expect((await other.post('/login', { email: victim.email, password: PASSWORD, website_url: '' })).status).toBe(429)
    const own = await customer()
    await own.post('/logout', {})
    expect((await own.post('/login', { email: victim.email, password: PASSWORD, website_url: '' })).status).toBe(429)
    expect((await stranger.post('/login', { email: victim.email, password: PASSWORD, website_url: '' })).status).toBe(429)
  })

  it('the owner\'s browser has a limit of its own', async () => {
    await withinOneWindow(SIGN_IN_WINDOW_SECONDS)
    const owner = await customer()
    await owner.post('/logout', {})
    for (let guess = 0; guess < 10; guess += 1) expect((await owner.post('/login', { email: owner.email, password: `typo-${guess}-xyz`, website_url: '' })).status).toBe(401)
    const right = await owner.post('/login', { email: owner.email, password: PASSWORD, website_url: '' })
    expect(right.status).toBe(429)
    expect(text(right.html)).toMatch(tooMany)
  })

  it('after 30 sign-in attempts from one address, that address is refused even with a right password', async () => {
    await withinOneWindow(SIGN_IN_WINDOW_SECONDS)
    const victim = await customer()
    await victim.post('/logout', {})
    const sprayer = new Visitor(site.url)
    for (let guess = 0; guess < 30; guess += 1) expect((await sprayer.post('/login', { email: `spray${guess}@example.com`, password: 'password-123', website_url: '' })).status).toBe(401)
    const right = await sprayer.post('/login', { email: victim.email, password: PASSWORD, website_url: '' })
    expect(right.status).toBe(429)
    expect(text(right.html)).toMatch(tooMany)
    // Another address is not affected.
    expect((await new Visitor(site.url).post('/login', { email: victim.email, password: PASSWORD, website_url: '' })).location).toBe('/book-slot')
  })

  it('a verification code dies after 5 wrong tries, and after 10 tries in all even a right new code is refused', async () => {
    await withinOneWindow(SIGN_IN_WINDOW_SECONDS)
    const email = `guess.verify.${site.server.port}@example.com`
    await new Visitor(site.url).post('/registration', registrationForm({ email }))
    const first = codeIn((await site.sink.waitForMailTo(email, /verification code/)).text)
    // Each guess from a browser of its own, which also chooses the password (the registering browser need not).
    const verify = (code: string) => new Visitor(site.url).post(`/verify-email?${new URLSearchParams({ email })}`, { email, code, password: 'guessers-own-2027', website_url: '' })
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    for (let guess = 0; guess < 5; guess += 1) expect((await verify(wrong(first))).status).toBe(400)
    const dead = await verify(first)
    expect(dead.location).toBeNull()
    expect(text(dead.html)).toContain(CODE_REFUSED)

    const count = site.sink.messages.length
    await new Visitor(site.url).post('/verify-email', { intent: 'resend', email, website_url: '' })
    await expect.poll(() => site.sink.messages.length, { timeout: 10_000 }).toBeGreaterThan(count)
    const second = codeIn((await site.sink.waitForMailTo(email, /verification code/)).text)
    expect(second).not.toBe(first)
    for (let guess = 0; guess < 4; guess += 1) await verify(wrong(second))
    const limited = await verify(second)
    expect(limited.status).toBe(429)
    expect(text(limited.html)).toMatch(tooMany)
    expect(limited.setCookies.some((cookie) => cookie.startsWith('swimlab_session='))).toBe(false)
    expect((await new Visitor(site.url).post('/login', { email, password: PASSWORD, website_url: '' })).status).toBe(403)
  })

  it('a password reset code dies after 5 wrong tries, and after 10 tries in all even a right new code is refused', async () => {
    await withinOneWindow(SIGN_IN_WINDOW_SECONDS)
    const owner = await customer()
    const email = owner.email
    const reset = (code: string, password = 'taken-over-1') => new Visitor(site.url).post(`/forgot-password?${new URLSearchParams({ email })}`, { intent: 'reset', email, code, password, confirmPassword: password, website_url: '' })
    const request = async () => {
      const count = site.sink.messages.length
      await new Visitor(site.url).post('/forgot-password', { intent: 'request', email, website_url: '' })
      await expect.poll(() => site.sink.messages.length, { timeout: 10_000 }).toBeGreaterThan(count)
      return codeIn((await site.sink.waitForMailTo(email, /password reset code/)).text)
    }
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    const first = await request()
    for (let guess = 0; guess < 5; guess += 1) expect((await reset(wrong(first))).status).toBe(400)
    expect((await reset(first)).location).not.toBe('/forgot-password?done=1')
    const second = await request()
    for (let guess = 0; guess < 4; guess += 1) await reset(wrong(second))
    const limited = await reset(second)
    expect(limited.status).toBe(429)
    expect(text(limited.html)).toMatch(tooMany)
    // The password is still the owner's, and the owner is still signed in.
    expect((await owner.get('/my-bookings')).status).toBe(200)
    expect((await new Visitor(site.url).post('/login', { email, password: 'taken-over-1', website_url: '' })).status).toBe(401)
  })
})

describe('a client address made up in X-Forwarded-For', { timeout: 60_000 }, () => {
  let direct: TestServer
  beforeAll(async () => {
    direct = await startTestServer({ SMTP_URL: site.sink.url })
  })
  afterAll(async () => {
    await direct?.stop()
  })

  it('does not reset the limit when the server is not behind a trusted proxy', async () => {
    await withinOneWindow(SIGN_IN_WINDOW_SECONDS)
    const victim = await customer(direct)
    await victim.post('/logout', {})
    const sprayer = new Visitor(direct.url)
    for (let guess = 0; guess < 30; guess += 1) {
      const attempt = await sprayer.request('/login', { form: { email: `spray${guess}@example.com`, password: 'password-123', website_url: '' }, headers: { 'X-Forwarded-For': `198.51.100.${guess + 1}` } })
      expect(attempt.status).toBe(401)
    }
    const right = await sprayer.request('/login', { form: { email: victim.email, password: PASSWORD, website_url: '' }, headers: { 'X-Forwarded-For': '198.51.100.200' } })
    expect(right.status).toBe(429)
    expect(text(right.html)).toMatch(/Too many attempts/)
  })

  it('behind one trusted proxy, addresses the client put before the one the proxy added do not reset the limit', async () => {
    await withinOneWindow(SIGN_IN_WINDOW_SECONDS)
    const victim = await customer()
    await victim.post('/logout', {})
    // The proxy appends the address it sees (127.0.0.9); everything before it is the client's say.
    const sprayer = new Visitor(site.url)
    const through = (madeUp: string) => ({ 'X-Forwarded-For': `${madeUp}, 127.0.0.9` })
    for (let guess = 0; guess < 30; guess += 1) {
      const attempt = await sprayer.request('/login', { form: { email: `spray.proxy${guess}@example.com`, password: 'password-123', website_url: '' }, headers: through(`192.0.2.${guess + 1}, 10.0.0.${guess + 1}`) })
      expect(attempt.status).toBe(401)
    }
    const right = await sprayer.request('/login', { form: { email: victim.email, password: PASSWORD, website_url: '' }, headers: through('192.0.2.200') })
    expect(right.status).toBe(429)
    expect(text(right.html)).toMatch(/Too many attempts/)
    // A visitor the proxy saw at another address is not affected.
    expect((await new Visitor(site.url).post('/login', { email: victim.email, password: PASSWORD, website_url: '' }, { 'X-Forwarded-For': '192.0.2.200, 127.0.0.10' })).location).toBe('/book-slot')
  })
})

describe('the server log', () => {
  const rawGet = async (path: string, headers: Record<string, string>) => (await rawRequest('GET', path, headers)).status

  it('never holds the key or code of a private link, in request lines or in error lines', async () => {
    const secret = (name: string) => `S3cr3t${name}Xq9`
    const visitor = new Visitor(site.url)
    const paths = [
      `/booking?step=3&orderId=ord_logged&key=${secret('Booking')}`,
      `/receipts/ord_logged?key=${secret('Receipt')}`,
      `/onboarding/offer?registration=CMP-LOGGED&key=${secret('Offer')}`,
      `/reports/files/1?key=${secret('Report')}`,
      `/booking/view?ref=BK-LOGGED&key=${secret('View')}`,
      `/payment-status?orderId=ord_logged&key=${secret('Status')}`,
      `/verify-email?email=logged%40example.com&code=${secret('Verify')}`,
      `/forgot-password?email=logged%40example.com&code=${secret('Reset')}`,
      `/login?${new URLSearchParams({ redirectTo: `/booking/view?ref=BK-LOGGED&key=${secret('Redirect')}` })}`,
      `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${secret('Hub')}&hub.challenge=42`,
      `/sandbox-gateway/checkout/ord_logged?key=${secret('Sandbox')}`,
    ]
    for (const path of paths) await visitor.get(path)
    // No address can be made of this Host: the site's own is used, and the answer is the usual one.
    expect(await rawGet(`/receipts/ord_logged?key=${secret('Error')}`, { Host: 'bad host' })).toBe(404)

    // The last request's line is the second for /receipts/ord_logged (the first is the Receipt's):
    // once it is written, so are the lines of every request before it.
    await expect.poll(() => site.server.logs().split('"url":"/receipts/ord_logged?key=[redacted]"').length - 1).toBe(2)
    const log = site.server.logs()
    for (const name of ['Booking', 'Receipt', 'Offer', 'Report', 'View', 'Status', 'Verify', 'Reset', 'Redirect', 'Error', 'Hub', 'Sandbox']) expect(log).not.toContain(secret(name))
    expect(log).toContain('"url":"/onboarding/offer?registration=CMP-LOGGED&key=[redacted]"')
    // Addresses answered by a part of the server mounted on a path (the webhooks, the sandbox gateway) are logged whole.
    expect(log).toContain('"url":"/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=42"')
    expect(log).toContain('"url":"/sandbox-gateway/checkout/ord_logged?key=[redacted]"')
    expect(log).toContain('"url":"/login?redirectTo=%2Fbooking%2Fview%3Fref%3DBK-LOGGED%26key%3D[redacted]"')
    // Nor any real one, from the bookings and payments the other tests of this file made.
    expect(log).not.toMatch(/[?&](key|code)=(?!\[redacted\])/)
  })

  it('a post to a page or file that takes none is answered 405 with the methods it takes, and is no error in the log', async () => {
    const logged = site.server.logs().length
    const visitor = new Visitor(site.url)
    for (const path of ['/pricing', '/terms', '/analyses/clips/1/video', '/sitemap.xml']) {
      const response = await visitor.post(path, { website_url: '' })
      expect(response.status, path).toBe(405)
      expect(response.headers.get('Allow'), path).toBe('GET, HEAD')
    }
    await expect.poll(() => site.server.logs().slice(logged)).toContain('"url":"/sitemap.xml"')
    const lines = site.server.logs().slice(logged).split('\n').filter(Boolean)
    expect(lines.filter((line) => /"level":(50|60)/.test(line))).toEqual([])
    expect(lines.join('\n')).not.toContain('did not provide an `action`')
  })
})
