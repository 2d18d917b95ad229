import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { codeIn, startSmtpSink } from '../support/smtp-sink'
import { startTestServer, type TestServer } from '../support/test-server'
import { fieldState, registrationForm, text, Visitor } from '../support/visitor'

// The account pages as a browser without JavaScript uses them: plain form posts, redirects and
// cookies, against the real server, with e-mail delivered over SMTP to a local server.

let server: TestServer
let sink: Awaited<ReturnType<typeof startSmtpSink>>
const ADMIN = { email: 'staff@lab.example', password: 'staff-password-1' }

beforeAll(async () => {
  sink = await startSmtpSink()
  server = await startTestServer({ SMTP_URL: sink.url, MAIL_FROM: 'Lab <no-reply@lab.example>', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: 'true' })
})
afterAll(async () => {
  await server?.stop()
  await sink?.close()
})

const newVisitor = () => new Visitor(server.url)
const registration = registrationForm



async function registerAndVerify(visitor: Visitor, email: string, name = 'Asha Rao') {
  const registered = await visitor.post('/registration', registration({ email, name }))
  expect(registered.status).toBe(302)
  const mail = await sink.waitForMailTo(email)
  const verified = await visitor.post(`/verify-email?${new URLSearchParams({ email })}`, { email, code: codeIn(mail.text), website_url: '' })
  expect(verified.location).toBe('/book-slot')
  return verified
}

describe('registration without JavaScript', () => {
  it('/register redirects permanently to /registration', async () => {
    const response = await newVisitor().get('/register?ref=flyer')
    expect(response.status).toBe(301)
    expect(response.location).toBe('/registration?ref=flyer')
  })

  it('shows each error next to its field, tied with aria-describedby and aria-invalid', async () => {
    const visitor = newVisitor()
    const page = await visitor.get('/registration')
    expect(page.html).toMatch(/<form[^>]*method="post"/)
    const response = await visitor.post('/registration', registration({ name: 'A', email: 'not-an-email', password: '123', phone: '12345', age: '', academyName: '' }))
    expect(response.status).toBe(400)
    expect(fieldState(response.html, 'name')).toEqual({ invalid: true, message: 'Name must be at least 2 characters' })
    expect(fieldState(response.html, 'email')).toEqual({ invalid: true, message: 'Invalid email address' })
    expect(fieldState(response.html, 'password')).toEqual({ invalid: true, message: 'Password must be at least 6 characters' })
    expect(fieldState(response.html, 'phone')).toEqual({ invalid: true, message: 'WhatsApp number must be at least 10 digits' })
    expect(fieldState(response.html, 'age')).toEqual({ invalid: true, message: 'Age is required' })
    expect(fieldState(response.html, 'academyName')).toEqual({ invalid: true, message: 'Academy name is required (Enter NA if not applicable)' })
    expect(fieldState(response.html, 'currentLocation')).toEqual({ invalid: false, message: undefined })
    // What was typed is kept, except the password.
    expect(response.html).toMatch(/name="currentLocation"[^>]*value="Bengaluru"|value="Bengaluru"[^>]*name="currentLocation"/)
    expect(response.html).not.toContain('value="123"')
  })

  it('register → code by e-mail → verify → /book-slot, signed in, with the welcome toast', async () => {
    const visitor = newVisitor()
    const registered = await visitor.post('/registration', registration({ email: 'Meera@Example.com', name: 'Meera Iyer' }))
    expect(registered.status).toBe(302)
    expect(registered.location).toBe('/verify-email?email=meera%40example.com')
    const verifyPage = await visitor.get(registered.location!)
    expect(text(verifyPage.html)).toContain('We sent a 6-digit code to meera@example.com')

    const mail = await sink.waitForMailTo('meera@example.com')
    const code = codeIn(mail.text)
    // The form posts back to the page's own URL (its action keeps the query).
    expect(verifyPage.html).toContain('action="/verify-email?email=meera%40example.com"')
    const wrong = await visitor.post(registered.location!, { email: 'meera@example.com', code: code === '000000' ? '111111' : '000000', website_url: '' })
    expect([wrong.status, wrong.location]).toEqual([400, null])
    expect(fieldState(wrong.html, 'code')).toEqual({ invalid: true, message: 'That code is not right. You have 4 attempts left.' })

    const verified = await visitor.post(registered.location!, { email: 'meera@example.com', code, website_url: '' })
    expect(verified.status).toBe(302)
    expect(verified.location).toBe('/book-slot')
    const sessionCookie = verified.setCookies.find((cookie) => cookie.startsWith('swimlab_session='))!
    expect(sessionCookie).toMatch(/HttpOnly/)
    expect(sessionCookie).toMatch(/SameSite=Lax/)
    expect(sessionCookie).toMatch(/Max-Age=604800/)
    expect(sessionCookie).not.toMatch(/Secure/) // http://, not production

    const bookSlot = await visitor.get('/book-slot')
    expect(bookSlot.status).toBe(200)
    expect(text(bookSlot.html)).toContain('Registration successful! Welcome to Swimming Sport Science Lab, Meera Iyer!')
    expect(bookSlot.html).toMatch(/role="status"/)
    expect(text(bookSlot.html)).toContain('Welcome, Meera Iyer')
    expect(text(bookSlot.html)).toContain('Book Analysis')
    expect(text(bookSlot.html)).toContain('My Bookings')
    // The toast is shown once.
    expect(text((await visitor.get('/book-slot')).html)).not.toContain('Registration successful!')
  })

  it('the one-click link in the e-mail verifies and signs in', async () => {
    const visitor = newVisitor()
    await visitor.post('/registration', registration({ email: 'link@example.com' }))
    const mail = await sink.waitForMailTo('link@example.com')
    const link = new URL(/https?:\/\/\S+\/verify-email\?\S+/.exec(mail.text)![0])
    const response = await newVisitor().get(`${link.pathname}${link.search}`)
    expect(response.status).toBe(302)
    expect(response.location).toBe('/book-slot')
    expect(response.setCookies.some((cookie) => cookie.startsWith('swimlab_session='))).toBe(true)
  })

  it('refuses a taken address, in any letter case', async () => {
    const visitor = newVisitor()
    await registerAndVerify(visitor, 'taken@example.com')
    const again = await newVisitor().post('/registration', registration({ email: 'TAKEN@example.com' }))
    expect(again.status).toBe(409)
    expect(fieldState(again.html, 'email')).toEqual({ invalid: true, message: 'User with this email already exists' })
  })

  it('a filled-in honeypot is refused and nothing is created', async () => {
    const bot = await newVisitor().post('/registration', registration({ email: 'bot@example.com', website_url: 'http://spam.example' }))
    expect(bot.status).toBe(400)
    const human = await newVisitor().post('/registration', registration({ email: 'bot@example.com' }))
    expect(human.status).toBe(302)
  })
})

describe('signing in and out without JavaScript', () => {
  it('marketing and guest pages send a signed-in user to /book-slot; logout returns to / and ends the session', async () => {
    const visitor = newVisitor()
    await registerAndVerify(visitor, 'pages@example.com')
    for (const path of ['/', '/about', '/pricing', '/login', '/registration', '/forgot-password']) {
      const response = await visitor.get(path)
      expect([path, response.status, response.location]).toEqual([path, 302, '/book-slot'])
    }
    const session = visitor.cookies.get('swimlab_session')!
    const loggedOut = await visitor.post('/logout', {})
    expect(loggedOut.status).toBe(302)
    expect(loggedOut.location).toBe('/')
    expect(visitor.cookies.has('swimlab_session')).toBe(false)
    expect((await visitor.get('/')).status).toBe(200)

    // The old cookie is worthless now: the session was revoked on the server.
    const replay = newVisitor()
    replay.cookies.set('swimlab_session', session)
    expect((await replay.get('/my-bookings')).location).toBe('/login?redirectTo=%2Fmy-bookings')
  })

  it('returns to the requested page after sign-in, with a new session id and the toast', async () => {
    const visitor = newVisitor()
    await registerAndVerify(visitor, 'return@example.com', 'Ravi Kumar')
    const before = visitor.cookies.get('swimlab_session')
    await visitor.post('/logout', {})

    const guarded = await visitor.get('/my-bookings')
    expect(guarded.location).toBe('/login?redirectTo=%2Fmy-bookings')
    const login = await visitor.get(guarded.location!)
    expect(text(login.html)).toContain('Welcome Back')
    expect(login.html).toContain('name="redirectTo" value="/my-bookings"')

    const signedIn = await visitor.post('/login', { email: 'return@example.com', password: 'butterfly-2027', redirectTo: '/my-bookings', website_url: '' })
    expect(signedIn.status).toBe(302)
    expect(signedIn.location).toBe('/my-bookings')
    expect(visitor.cookies.get('swimlab_session')).not.toBe(before)
    const page = text((await visitor.get('/my-bookings')).html)
    expect(page).toContain('Login successful!')
    expect(page).toContain('Welcome back, Ravi Kumar!')
    expect(page).toContain('Account Information')
    expect(page).toContain('return@example.com')
    expect(page).toContain('9845012345')
    expect(page).toContain('Advanced')
    expect(page).toContain('No bookings yet')
  })

  it('ignores a redirectTo that points to another site', async () => {
    const visitor = newVisitor()
    await registerAndVerify(visitor, 'evil-redirect@example.com')
    await visitor.post('/logout', {})
    for (const redirectTo of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const response = await visitor.post('/login', { email: 'evil-redirect@example.com', password: 'butterfly-2027', redirectTo, website_url: '' })
      expect(response.location).toBe('/book-slot')
      await visitor.post('/logout', {})
    }
  })

  it('answers a wrong password and an unknown address with the same message', async () => {
    const visitor = newVisitor()
    await registerAndVerify(visitor, 'same@example.com')
    await visitor.post('/logout', {})
    const wrong = await visitor.post('/login', { email: 'same@example.com', password: 'wrong-password', website_url: '' })
    const unknown = await visitor.post('/login', { email: 'nobody-here@example.com', password: 'wrong-password', website_url: '' })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(text(wrong.html)).toContain('Invalid email or password. Please try again.')
    const alert = (html: string) => /role="alert"[^>]*>(.*?)<\/div>/.exec(html)?.[1]
    expect(alert(unknown.html)).toBe(alert(wrong.html))
  })

  it('tells an unverified user to verify, and offers a new code', async () => {
    const visitor = newVisitor()
    await visitor.post('/registration', registration({ email: 'unverified@example.com' }))
    await sink.waitForMailTo('unverified@example.com')
    const before = sink.messages.length
    const response = await visitor.post('/login', { email: 'unverified@example.com', password: 'butterfly-2027', website_url: '' })
    expect(response.status).toBe(403)
    expect(text(response.html)).toContain('Please verify your account before logging in')
    expect(response.html).toMatch(/<form[^>]*action="\/verify-email"/)
    const resend = await visitor.post('/verify-email', { intent: 'resend', email: 'unverified@example.com', website_url: '' })
    expect(resend.location).toBe('/verify-email?email=unverified%40example.com')
    await expect.poll(() => sink.messages.length, { timeout: 15_000 }).toBe(before + 1)
  })

  it('limits sign-in attempts with a clear message', async () => {
    const victim = newVisitor()
    await registerAndVerify(victim, 'limited@example.com')
    let last
    for (let i = 0; i < 11; i += 1) last = await newVisitor().post('/login', { email: 'limited@example.com', password: 'guess-number-' + i, website_url: '' })
    expect(last!.status).toBe(429)
    expect(text(last!.html)).toMatch(/Too many attempts\. Please wait \d+ minutes? and try again\./)
  })
})

describe('forgot password without JavaScript', () => {
  it('answers the same for any address, resets with the e-mailed code, and signs out every other session', async () => {
    const owner = newVisitor()
    await registerAndVerify(owner, 'reset@example.com')
    expect((await owner.get('/book-slot')).status).toBe(200)

    const visitor = newVisitor()
    const known = await visitor.post('/forgot-password', { intent: 'request', email: 'reset@example.com', website_url: '' })
    const unknown = await visitor.post('/forgot-password', { intent: 'request', email: 'ghost@example.com', website_url: '' })
    expect(known.status).toBe(302)
    expect(unknown.status).toBe(302)
    expect(known.location).toBe('/forgot-password?email=reset%40example.com')
    const knownPage = text((await visitor.get(known.location!)).html)
    const unknownPage = text((await visitor.get(unknown.location!)).html)
    expect(knownPage.replaceAll('reset@example.com', 'X')).toBe(unknownPage.replaceAll('ghost@example.com', 'X'))

    const mail = await sink.waitForMailTo('reset@example.com', /^Subject: Your password reset code/m)
    const code = codeIn(mail.text)

    const stepTwo = known.location!
    expect((await visitor.get(stepTwo)).html).toContain(`action="${stepTwo}"`)
    const mismatch = await visitor.post(stepTwo, { intent: 'reset', email: 'reset@example.com', code, password: 'new-password-1', confirmPassword: 'new-password-2', website_url: '' })
    expect(mismatch.status).toBe(400)
    expect(fieldState(mismatch.html, 'confirmPassword')).toEqual({ invalid: true, message: "Passwords don't match" })

    const done = await visitor.post(stepTwo, { intent: 'reset', email: 'reset@example.com', code, password: 'new-password-1', confirmPassword: 'new-password-1', website_url: '' })
    expect(done.location).toBe('/forgot-password?done=1')
    const panel = await visitor.get('/forgot-password?done=1')
    expect(text(panel.html)).toContain('Password reset successful!')
    expect(text(panel.html)).toContain('Your password has been updated successfully.')
    expect(panel.headers.get('Refresh')).toBe('2;url=/login')

    // The same code cannot be used twice.
    const reuse = await visitor.post(stepTwo, { intent: 'reset', email: 'reset@example.com', code, password: 'new-password-3', confirmPassword: 'new-password-3', website_url: '' })
    expect(reuse.status).toBe(400)
    expect(fieldState(reuse.html, 'code').message).toBe('This code is not valid. Please request a new code.')

    // The owner's browser was signed out.
    expect((await owner.get('/book-slot')).location).toBe('/login?redirectTo=%2Fbook-slot')
    const signedIn = await owner.post('/login', { email: 'reset@example.com', password: 'new-password-1', website_url: '' })
    expect(signedIn.location).toBe('/book-slot')
  })
})

describe('request checks', () => {
  it('refuses a form post from another site (Origin check)', async () => {
    const visitor = newVisitor()
    const crossSite = await visitor.post('/login', { email: 'a@example.com', password: 'whatever-1' }, { Origin: 'https://evil.example' })
    expect(crossSite.status).toBe(403)
    const byReferer = await visitor.request('/logout', { method: 'POST', headers: { Referer: 'https://evil.example/page' } })
    expect(byReferer.status).toBe(403)
    const sameSite = await visitor.post('/login', { email: 'a@example.com', password: 'whatever-1', website_url: '' })
    expect(sameSite.status).toBe(401)
  })

  it('a filled-in honeypot on the login form is refused', async () => {
    const response = await newVisitor().post('/login', { email: 'a@example.com', password: 'whatever-1', website_url: 'http://spam.example' })
    expect(response.status).toBe(400)
  })
})

describe('admin', () => {
  it('a customer opening /admin gets 403; an admin signs in at /login and lands on /admin; /admin/mail lists mail', async () => {
    const customer = newVisitor()
    await registerAndVerify(customer, 'customer@example.com')
    const forbidden = await customer.get('/admin')
    expect(forbidden.status).toBe(403)
    expect(text(forbidden.html)).toContain('Access denied')
    expect((await customer.get('/admin/mail')).status).toBe(403)

    expect((await newVisitor().get('/admin')).location).toBe('/login?redirectTo=%2Fadmin')

    const admin = newVisitor()
    const signedIn = await admin.post('/login', { ...ADMIN, website_url: '' })
    expect(signedIn.location).toBe('/admin')
    expect((await admin.get('/admin')).status).toBe(200)
    const mailbox = await admin.get('/admin/mail')
    expect(mailbox.status).toBe(200)
    expect(text(mailbox.html)).toContain('customer@example.com')
    expect(text(mailbox.html)).toContain('Your verification code for Swimming Sport Science Lab')
    expect(text(mailbox.html)).toMatch(/\bsent\b/)
    // With real SMTP, staff see that it went, not the code in it.
    const code = codeIn((await sink.waitForMailTo('customer@example.com')).text)
    expect(mailbox.html).not.toContain(code)
    expect(text(mailbox.html)).not.toContain('Show message')
  })
})
