import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { codeIn } from '../support/smtp-sink'
import { startTestServer, type TestServer } from '../support/test-server'
import { fieldState, registrationForm, text, Visitor } from '../support/visitor'
import { paySummary } from '../support/camp-summary'
import { CODE_REFUSED } from '~/modules/accounts/codes.server'
import { withinOneWindow } from '../support/rate-limit-window'
import { LIMITS } from '~/modules/rate-limit/limits.server'
import { STAFF, useTestSite } from '../support/site'

// The account pages as a browser without JavaScript uses them: plain form posts, redirects and
// cookies, against the real server, with e-mail delivered over SMTP to a local server.

const site = useTestSite({ MAIL_FROM: 'Lab <no-reply@lab.example>' })

const newVisitor = () => new Visitor(site.url)
const registration = registrationForm
/** The path and query of the verification link in an e-mail. */
const linkIn = (mail: string) => {
  const link = new URL(/https?:\/\/\S+\/verify-email\?\S+/.exec(mail)![0])
  return `${link.pathname}${link.search}`
}

async function registerAndVerify(visitor: Visitor, email: string, name = 'Asha Rao') {
  const registered = await visitor.post('/registration', registration({ email, name }))
  expect(registered.status).toBe(302)
  const mail = await site.sink.waitForMailTo(email)
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

    const mail = await site.sink.waitForMailTo('meera@example.com')
    const code = codeIn(mail.text)
    // The form posts back to the page's own URL (its action keeps the query).
    expect(verifyPage.html).toContain('action="/verify-email?email=meera%40example.com"')
    const wrong = await visitor.post(registered.location!, { email: 'meera@example.com', code: code === '000000' ? '111111' : '000000', website_url: '' })
    expect([wrong.status, wrong.location]).toEqual([400, null])
    expect(fieldState(wrong.html, 'code')).toEqual({ invalid: true, message: CODE_REFUSED })

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

  it('the link in the e-mail only fills in the code; pressing the button signs in the browser that registered', async () => {
    const visitor = newVisitor()
    await visitor.post('/registration', registration({ email: 'link@example.com' }))
    const link = linkIn((await site.sink.waitForMailTo('link@example.com')).text)
    // Opening the link (as a mail scanner does) uses nothing up and signs nobody in.
    const opened = await visitor.get(link)
    expect(opened.status).toBe(200)
    expect(opened.setCookies).toEqual([])
    const code = new URL(link, site.url).searchParams.get('code')!
    expect(opened.html).toMatch(new RegExp(`name="code"[^>]*value="${code}"|value="${code}"[^>]*name="code"`))
    expect(opened.html).toContain(`action="${link.replaceAll('&', '&amp;')}"`)

    const verified = await visitor.post(link, { email: 'link@example.com', code, website_url: '' })
    expect(verified.location).toBe('/book-slot')
    expect((await visitor.get('/book-slot')).status).toBe(200)
  })

  it('another browser following the link must choose a password there: it is signed in, and the registrant\'s password no longer works', async () => {
    const registrant = newVisitor()
    await registrant.post('/registration', registration({ email: 'not-theirs@example.com', name: 'Not The Owner', password: 'registrant-pass-1' }))
    const link = linkIn((await site.sink.waitForMailTo('not-theirs@example.com')).text)
    const code = new URL(link, site.url).searchParams.get('code')!

    // The address's owner opens the link in their own browser.
    const owner = newVisitor()
    const page = await owner.get(link)
    expect(page.status).toBe(200)
    expect(text(page.html)).toContain('Choose a password')
    expect(fieldState(page.html, 'password')).toEqual({ invalid: false, message: undefined })
    const without = await owner.post(link, { email: 'not-theirs@example.com', code, website_url: '' })
    expect(without.status).toBe(400)
    expect(fieldState(without.html, 'password')).toEqual({ invalid: true, message: 'Please choose a password for your account' })
    const common = await owner.post(link, { email: 'not-theirs@example.com', code, password: 'Password123', website_url: '' })
    expect(common.status).toBe(400)
    expect(fieldState(common.html, 'password')).toEqual({ invalid: true, message: 'This password is too common and easy to guess. Please choose another one.' })
    expect(common.html).not.toContain('value="Password123"')

    const chosen = await owner.post(link, { email: 'not-theirs@example.com', code, password: 'owners-own-2027', website_url: '' })
    expect(chosen.status).toBe(302)
    expect(chosen.location).toBe('/book-slot')
    expect((await owner.get('/book-slot')).status).toBe(200)

    // The registrant's password is void; only the owner's signs in.
    const refused = await registrant.post('/login', { email: 'not-theirs@example.com', password: 'registrant-pass-1', website_url: '' })
    expect(refused.status).toBe(401)
    expect((await registrant.get('/my-bookings')).location).toBe('/login?redirectTo=%2Fmy-bookings')
    expect((await newVisitor().post('/login', { email: 'not-theirs@example.com', password: 'owners-own-2027', website_url: '' })).location).toBe('/book-slot')
  })

  it('a browser that typed the right password of an unverified account is signed in by the new code it asks for', async () => {
    await newVisitor().post('/registration', registration({ email: 'phone-first@example.com' }))
    await site.sink.waitForMailTo('phone-first@example.com')
    const laptop = newVisitor()
    expect((await laptop.post('/login', { email: 'phone-first@example.com', password: 'butterfly-2027', website_url: '' })).status).toBe(403)
    const count = site.sink.messages.length
    await laptop.post('/verify-email', { intent: 'resend', email: 'phone-first@example.com', website_url: '' })
    await expect.poll(() => site.sink.messages.length, { timeout: 15_000 }).toBeGreaterThan(count)
    const code = codeIn(site.sink.messages.filter((message) => message.to.includes('phone-first@example.com')).at(-1)!.text)
    const verified = await laptop.post('/verify-email?email=phone-first%40example.com', { email: 'phone-first@example.com', code, website_url: '' })
    expect(verified.location).toBe('/book-slot')
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

describe("registering someone else's address", () => {
  it('shows the registrant nothing of the guest records made under it, and once the owner verifies in their own browser the registrant is locked out and the owner sees them', async () => {
    const email = 'nandini.menon@example.com'
    // The owner of the address registered her daughter for a camp as a guest, without an account.
    const guest = newVisitor()
    const registered = await guest.post('/onboarding', { name: 'Tara Menon', email, phone_number: '98450 12345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1', website_url: '' })
    const pay = await paySummary(guest, registered.location!)
    expect(pay.location).toMatch(new RegExp(`^${site.url}/sandbox-gateway/checkout/`))
    await guest.post(pay.location!, { outcome: 'success' })
    await site.sink.waitForMailTo(email, /Camp registration confirmed/)

    // Someone else registers an account with her address and a password of their own.
    const registrant = newVisitor()
    expect((await registrant.post('/registration', registration({ email, name: 'Not Nandini', password: 'registrant-pass-1' }))).status).toBe(302)
    const link = linkIn((await site.sink.waitForMailTo(email, /verification code/)).text)
    expect((await registrant.post('/login', { email, password: 'registrant-pass-1', website_url: '' })).status).toBe(403)
    expect((await registrant.get('/my-bookings')).location).toBe('/login?redirectTo=%2Fmy-bookings')

    // She follows the link in her own browser and has to choose her own password.
    const owner = newVisitor()
    const code = new URL(link, site.url).searchParams.get('code')!
    const verified = await owner.post(link, { email, code, password: 'nandini-own-2027', website_url: '' })
    expect(verified.location).toBe('/book-slot')
    expect(text((await owner.get('/my-bookings')).html)).toContain('Tara Menon')

    // The registrant's password opens nothing, and their browser is signed in to nothing.
    expect((await registrant.post('/login', { email, password: 'registrant-pass-1', website_url: '' })).status).toBe(401)
    expect((await registrant.get('/my-bookings')).location).toBe('/login?redirectTo=%2Fmy-bookings')
    expect((await registrant.get('/account/data')).location).toBe('/login?redirectTo=%2Faccount%2Fdata')
  })
})

describe('signing in and out without JavaScript', () => {
  it('the home page and guest pages send a signed-in user to /book-slot, the other marketing pages are theirs to read; logout returns to / and ends the session', async () => {
    const visitor = newVisitor()
    await registerAndVerify(visitor, 'pages@example.com')
    for (const path of ['/', '/login', '/registration', '/forgot-password']) {
      const response = await visitor.get(path)
      expect([path, response.status, response.location]).toEqual([path, 302, '/book-slot'])
    }
    for (const path of ['/about', '/services', '/how-it-works', '/pricing', '/contact']) {
      const response = await visitor.get(path)
      expect([path, response.status]).toEqual([path, 200])
      // With the signed-in header: their bookings are a click away.
      expect(response.html, path).toContain('href="/my-bookings"')
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
    expect(page).toContain('+91 98450 12345')
    expect(page).toContain('Swimmers Ravi Kumar')
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
    expect(text(wrong.html)).toContain('Login failed Invalid email or password. Please try again.')
    const alert = (html: string) => /role="alert"[^>]*>(.*?)<\/div>/.exec(html)?.[1]
    expect(alert(unknown.html)).toBe(alert(wrong.html))
  })

  it('tells an unverified user to verify, and offers a new code', async () => {
    const visitor = newVisitor()
    await visitor.post('/registration', registration({ email: 'unverified@example.com' }))
    await site.sink.waitForMailTo('unverified@example.com')
    const before = site.sink.messages.length
    const response = await visitor.post('/login', { email: 'unverified@example.com', password: 'butterfly-2027', website_url: '' })
    expect(response.status).toBe(403)
    expect(text(response.html)).toContain('Please verify your account before logging in')
    expect(response.html).toMatch(/<form[^>]*action="\/verify-email"/)
    const resend = await visitor.post('/verify-email', { intent: 'resend', email: 'unverified@example.com', website_url: '' })
    expect(resend.location).toBe('/verify-email?email=unverified%40example.com')
    await expect.poll(() => site.sink.messages.length, { timeout: 15_000 }).toBe(before + 1)
  })

  it('limits sign-in attempts with a clear message', async () => {
    const victim = newVisitor()
    await registerAndVerify(victim, 'limited@example.com')
    await withinOneWindow(LIMITS.signInPerAccount.windowSeconds)
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

    const mail = await site.sink.waitForMailTo('reset@example.com', /^Subject: Your password reset code/m)
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
    expect(fieldState(reuse.html, 'code').message).toBe(CODE_REFUSED)

    // The owner's browser was signed out.
    expect((await owner.get('/book-slot')).location).toBe('/login?redirectTo=%2Fbook-slot')
    const signedIn = await owner.post('/login', { email: 'reset@example.com', password: 'new-password-1', website_url: '' })
    expect(signedIn.location).toBe('/book-slot')
  })
})

describe('nothing tells which addresses have accounts', () => {
  /** What a visitor sees, with the address typed written as X. */
  const seen = (response: { status: number; location: string | null; html: string }, email: string) => ({
    status: response.status,
    location: response.location,
    text: text(response.html).replaceAll(email, 'X').replaceAll(encodeURIComponent(email), 'X'),
  })

  it('the verification page: a verified, an unverified and an unknown address get the same page and the same answer', async () => {
    await registerAndVerify(newVisitor(), 'enum-verified@example.com')
    await newVisitor().post('/registration', registration({ email: 'enum-pending@example.com' }))
    const pendingCode = codeIn((await site.sink.waitForMailTo('enum-pending@example.com')).text)
    const guess = pendingCode === '123456' ? '654321' : '123456'
    const answers = []
    for (const email of ['enum-verified@example.com', 'enum-pending@example.com', 'enum-nobody@example.com']) {
      const visitor = newVisitor()
      const page = await visitor.get(`/verify-email?${new URLSearchParams({ email, code: guess })}`)
      const answer = await visitor.post(`/verify-email?${new URLSearchParams({ email, code: guess })}`, { email, code: guess, password: 'owners-own-2027', website_url: '' })
      expect(fieldState(answer.html, 'code')).toEqual({ invalid: true, message: CODE_REFUSED })
      answers.push({ page: seen(page, email), answer: seen(answer, email) })
    }
    expect(answers[0]!.answer.status).toBe(400)
    expect(answers[1]).toEqual(answers[0])
    expect(answers[2]).toEqual(answers[0])
  })

  it('the password-reset step: a registered address with a code waiting and an unknown one get the same answer', async () => {
    await registerAndVerify(newVisitor(), 'enum-reset@example.com')
    const emails = ['enum-reset@example.com', 'enum-ghost@example.com']
    const steps = []
    for (const email of emails) {
      const visitor = newVisitor()
      const requested = await visitor.post('/forgot-password', { intent: 'request', email, website_url: '' })
      expect(requested.status).toBe(302)
      steps.push({ visitor, email, location: requested.location! })
    }
    const sent = codeIn((await site.sink.waitForMailTo('enum-reset@example.com', /password reset code/)).text)
    const guess = sent === '123456' ? '654321' : '123456'
    const answers = []
    for (const { visitor, email, location } of steps) {
      const answer = await visitor.post(location, { intent: 'reset', email, code: guess, password: 'new-password-1', confirmPassword: 'new-password-1', website_url: '' })
      expect(fieldState(answer.html, 'code')).toEqual({ invalid: true, message: CODE_REFUSED })
      answers.push(seen(answer, email))
    }
    expect(answers[0]!.status).toBe(400)
    expect(answers[1]).toEqual(answers[0])
  })
})

describe('password rules', () => {
  it('registration refuses a common password next to the field; six characters stay enough for a customer', async () => {
    const refused = await newVisitor().post('/registration', registration({ email: 'common@example.com', password: 'Password123' }))
    expect(refused.status).toBe(400)
    expect(fieldState(refused.html, 'password')).toEqual({ invalid: true, message: 'This password is too common and easy to guess. Please choose another one.' })
    expect(fieldState(refused.html, 'email')).toEqual({ invalid: false, message: undefined })
    expect(refused.html).not.toContain('value="Password123"')
    expect((await newVisitor().post('/registration', registration({ email: 'common@example.com', password: 'kp7-wz' }))).status).toBe(302)
  })

  it('a new password from a reset is checked too, and a staff member needs 12 characters', async () => {
    /** Asks for a reset code, and returns the reset step's post with a new password. */
    const resetStep = async (email: string) => {
      const visitor = newVisitor()
      const mails = () => site.sink.messages.filter((message) => message.to.includes(email)).length
      const before = mails()
      const requested = await visitor.post('/forgot-password', { intent: 'request', email, website_url: '' })
      await expect.poll(mails, { timeout: 15_000 }).toBeGreaterThan(before)
      const code = codeIn((await site.sink.waitForMailTo(email, /password reset code/)).text)
      return (password: string) => visitor.post(requested.location!, { intent: 'reset', email, code, password, confirmPassword: password, website_url: '' })
    }
    await registerAndVerify(newVisitor(), 'common-reset@example.com')
    const customer = await resetStep('common-reset@example.com')
    const common = await customer('iloveyou')
    expect(common.status).toBe(400)
    expect(fieldState(common.html, 'password')).toEqual({ invalid: true, message: 'This password is too common and easy to guess. Please choose another one.' })
    expect((await customer('kp7-wz')).location).toBe('/forgot-password?done=1')

    const staff = await resetStep(STAFF.email)
    const short = await staff('eleven-char')
    expect(short.status).toBe(400)
    expect(fieldState(short.html, 'password')).toEqual({ invalid: true, message: 'Staff passwords must be at least 12 characters' })
    // The code still works for a long enough password; the staff password is then set back.
    expect((await staff('a-new-staff-password')).location).toBe('/forgot-password?done=1')
    expect((await (await resetStep(STAFF.email))(STAFF.password)).location).toBe('/forgot-password?done=1')
    expect((await newVisitor().post('/login', { ...STAFF, website_url: '' })).location).toBe('/admin')
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
  it('a customer opening /admin gets 403; an admin signs in at /login and lands on /admin; /admin/messages lists mail', async () => {
    const customer = newVisitor()
    await registerAndVerify(customer, 'customer@example.com')
    const forbidden = await customer.get('/admin')
    expect(forbidden.status).toBe(403)
    expect(text(forbidden.html)).toContain('Access denied')
    expect((await customer.get('/admin/messages')).status).toBe(403)

    expect((await newVisitor().get('/admin')).location).toBe('/login?redirectTo=%2Fadmin')

    const admin = newVisitor()
    const signedIn = await admin.post('/login', { ...STAFF, website_url: '' })
    expect(signedIn.location).toBe('/admin')
    expect((await admin.get('/admin')).status).toBe(200)
    const mailbox = await admin.get('/admin/messages')
    expect(mailbox.status).toBe(200)
    expect(text(mailbox.html)).toContain('customer@example.com')
    expect(text(mailbox.html)).toContain('Your verification code for Swimming Sport Science Lab')
    expect(text(mailbox.html)).toMatch(/\bsent\b/)
    // With real SMTP, staff see that it went, not the code in it.
    const code = codeIn((await site.sink.waitForMailTo('customer@example.com')).text)
    expect(mailbox.html).not.toContain(code)
    expect(text(mailbox.html)).not.toContain('Show message')
  })
})

describe('the admin of ADMIN_EMAIL', { timeout: 180_000 }, () => {
  /** `npm run admin:create -- …` against a stopped server's installation. */
  const adminCreate = (installation: TestServer, args: string[]) => {
    const run = spawnSync(process.execPath, ['server.js', 'admin:create', ...args], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH, DATA_DIR: installation.dataDir, ...(installation.databaseUrl ? { DATABASE_URL: installation.databaseUrl } : {}) },
      encoding: 'utf8',
      timeout: 60_000,
    })
    return { status: run.status, output: `${run.stdout}${run.stderr}` }
  }

  it('an account someone registered before ADMIN_EMAIL was set is not made the admin; the log says what to do, the site runs, and admin:create --existing takes the account back', async () => {
    const before = await startTestServer({ SMTP_URL: site.sink.url, TRUST_PROXY: 'true' })
    const squatter = new Visitor(before.url)
    expect((await squatter.post('/registration', registration({ email: 'owner@lab.example', password: 'squatters-password' }))).status).toBe(302)
    // The same installation, restarted by the operator with the admin's address and password set.
    await before.kill()
    const after = await startTestServer({ SMTP_URL: site.sink.url, TRUST_PROXY: 'true', ADMIN_EMAIL: 'owner@lab.example', ADMIN_PASSWORD: 'the-operators-password' }, { restartOf: before })
    expect(after.logs()).toMatch(/"level":50[^\n]*owner@lab\.example \(ADMIN_EMAIL\) already has a customer account whose password is not ADMIN_PASSWORD, so it was NOT made an admin[^\n]*admin:create[^\n]*--existing/)
    expect((await new Visitor(after.url).post('/login', { email: 'owner@lab.example', password: 'the-operators-password', website_url: '' })).status).toBe(401)
    const again = new Visitor(after.url)
    expect((await again.post('/login', { email: 'owner@lab.example', password: 'squatters-password', website_url: '' })).status).toBe(403)
    expect((await again.get('/admin')).location).toBe('/login?redirectTo=%2Fadmin')
    expect((await again.get('/')).status).toBe(200)
    await after.kill()

    // The operator's command: refused for an existing account without --existing, then takes it over.
    const weak = adminCreate(after, ['--email', 'owner@lab.example', '--password', 'short-one'])
    expect([weak.status, weak.output]).toEqual([2, expect.stringContaining('Staff passwords must be at least 12 characters')])
    const refused = adminCreate(after, ['--email', 'owner@lab.example', '--password', 'the-new-operator-password'])
    expect([refused.status, refused.output]).toEqual([1, expect.stringContaining('owner@lab.example already has an account, which was left as it is')])
    const taken = adminCreate(after, ['--email', 'owner@lab.example', '--password', 'the-new-operator-password', '--existing'])
    expect([taken.status, taken.output]).toEqual([0, expect.stringContaining('owner@lab.example is now an admin, with the password given, and signed out everywhere.')])

    const restarted = await startTestServer({ SMTP_URL: site.sink.url, TRUST_PROXY: 'true' }, { restartOf: after })
    try {
      expect((await new Visitor(restarted.url).post('/login', { email: 'owner@lab.example', password: 'squatters-password', website_url: '' })).status).toBe(401)
      expect((await new Visitor(restarted.url).post('/login', { email: 'owner@lab.example', password: 'the-new-operator-password', website_url: '' })).location).toBe('/admin')
    } finally {
      await restarted.stop()
    }
  })
})
