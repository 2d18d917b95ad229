import { describe, expect, it } from 'vitest'
import { bookAndPay, chooseSlot } from '../support/booking-flow'
import { eventually } from '../support/eventually'
import { emailFor, useTestSite } from '../support/site'
import { withinOneWindow } from '../support/rate-limit-window'
import { LIMITS } from '~/modules/rate-limit/limits.server'
import { codeIn } from '../support/smtp-sink'
import { fieldState, registrationForm, text, Visitor } from '../support/visitor'

const site = useTestSite()

/** Registers through the pages with the given form fields and verifies with the e-mailed code. */
async function register(fields: Record<string, string>) {
  const visitor = new Visitor(site.url)
  const registered = await visitor.post('/registration', registrationForm(fields))
  expect(registered.status).toBe(302)
  const mail = await site.sink.waitForMailTo(fields.email!, /verification code/)
  const verified = await visitor.post(`/verify-email?${new URLSearchParams({ email: fields.email! })}`, { email: fields.email!, code: codeIn(mail.text), website_url: '' })
  expect(verified.location).toBe('/book-slot')
  return visitor
}

/** A swimmer under 18 who registered alone, and the path of the link e-mailed to their parent. */
async function minorAlone(name: string, parentEmail: string) {
  const minor = await register({ whoSwims: 'myself', name, email: emailFor(name), age: '15', parentEmail })
  const mail = await site.sink.waitForMailTo(parentEmail, /asks for your consent/)
  const path = /\/consent\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]
  return { minor, path }
}

/** The id of the account's swimmer called `name`: the first of the ids whose consent page names them. */
async function swimmerIdOf(visitor: Visitor, name: string) {
  for (let id = 1; id < 80; id += 1) {
    const page = await visitor.get(`/swimmers/${id}/consent`)
    if (page.status === 200 && text(page.html).includes(name)) return id
  }
  throw new Error(`no swimmer ${name}`)
}

const agree = (guardianName: string) => ({ intent: 'agree', guardianName, declaration: 'on', website_url: '' })

/** How many consent requests have reached `parentEmail`. */
const requestsTo = (parentEmail: string) => site.sink.messages.filter((message) => message.to.includes(parentEmail) && /asks for your consent/.test(message.raw)).length

/** The parent agrees through `path`, then withdraws through the link in the e-mail confirming it. */
async function agreeThenWithdraw(path: string, parentEmail: string, guardianName: string, firstName: string) {
  const parent = new Visitor(site.url)
  expect((await parent.post(path, agree(guardianName))).status).toBe(200)
  const withdrawal = /\/consent\/withdraw\/\d+\?key=[A-Za-z0-9_-]+/.exec((await site.sink.waitForMailTo(parentEmail, new RegExp(`Your consent for ${firstName}`))).text)![0]
  expect((await parent.post(withdrawal, { intent: 'withdraw', website_url: '' })).status).toBe(200)
}

/** The admin page of the account registered with `email`. */
async function customerPageOf(email: string) {
  const staff = await site.sharedStaff()
  return `/admin/customers/${/href="\/admin\/customers\/(\d+)"/.exec((await staff.get(`/admin/customers?q=${encodeURIComponent(email)}`)).html)![1]!}`
}

/** Whether the account can hold a session on /book-slot now (a hold it makes is released again at once by its next one). */
async function mayHoldASession(visitor: Visitor) {
  const slot = await chooseSlot(visitor, 0, { daysAhead: 5 })
  const held = await visitor.post(slot.href, { date: slot.date, time: slot.time, website_url: '' })
  return held.status === 302 && /^\/slot-payment\?booking=\d+$/.test(held.location ?? '')
}

describe("the parent's consent link", () => {
  it('shows the notice, asks for the name and declaration, records the consent once', async () => {
    const { minor, path } = await minorAlone('Kiran Rao', 'lakshmi.rao@example.com')
    const parent = new Visitor(site.url)
    const page = await parent.get(path)
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toBe('private, no-store')
    expect(page.headers.get('Referrer-Policy')).toBe('same-origin')
    const shown = text(page.html)
    expect(shown).toContain('Consent for Kiran')
    expect(shown).not.toContain('Kiran Rao')
    expect(shown).toMatch(/Privacy notice version \d{4}-\d\d-\d\d/)
    expect(shown).toContain('Analysis videos and reports')
    expect(page.html).toContain('href="/privacy-policy"')
    expect(page.html).not.toMatch(/name="declaration"[^>]*checked/)
    const data = await parent.get(`${path}.data`)
    expect(data.headers.get('Cache-Control')).toBe('private, no-store')
    expect(data.headers.get('Referrer-Policy')).toBe('same-origin')

    const nameless = await parent.post(path, { intent: 'agree', guardianName: '', declaration: 'on', website_url: '' })
    expect(nameless.status).toBe(400)
    expect(fieldState(nameless.html, 'guardianName')).toEqual({ invalid: true, message: 'Please enter your full name' })
    const undeclared = await parent.post(path, { intent: 'agree', guardianName: 'Lakshmi Rao', website_url: '' })
    expect(fieldState(undeclared.html, 'declaration')).toEqual({ invalid: true, message: "Please confirm that you are this swimmer's parent or legal guardian" })

    const agreed = await parent.post(path, agree('Lakshmi Rao'))
    expect(agreed.status).toBe(200)
    expect(agreed.headers.get('Referrer-Policy')).toBe('same-origin')
    expect(text(agreed.html)).toContain('Your consent is recorded')
    await site.sink.waitForMailTo(emailFor('Kiran Rao'), /you can book/)

    const again = await parent.get(path)
    expect(text(again.html)).toContain('This link has already been answered')
    expect(text((await parent.post(path, { intent: 'refuse', website_url: '' })).html)).toContain('This link has already been answered')
    const status = await minor.get(`/swimmers/${await swimmerIdOf(minor, 'Kiran Rao')}/consent`)
    expect(text(status.html)).toContain("Parent's consent given by Lakshmi Rao")

    const staff = await site.sharedStaff()
    const customerId = /href="\/admin\/customers\/(\d+)"/.exec((await staff.get(`/admin/customers?q=${encodeURIComponent(emailFor('Kiran Rao'))}`)).html)![1]!
    const record = text((await staff.get(`/admin/customers/${customerId}`)).html)
    expect(record).toContain('Given by Lakshmi Rao, lakshmi.rao@example.com (verified by the consent link sent to it)')
    expect(record).toMatch(/through the e-mailed consent link .*Privacy notice \d{4}-\d\d-\d\d/)
  })

  it('is withdrawn by the parent through the link in the e-mail that confirmed it, as a plain form: private, once, and with a forged key nothing', async () => {
    const { minor, path } = await minorAlone('Nila Rao', 'uma.rao@example.com')
    const parent = new Visitor(site.url)
    expect((await parent.post(path, agree('Uma Rao'))).status).toBe(200)
    const withdrawal = /\/consent\/withdraw\/\d+\?key=[A-Za-z0-9_-]+/.exec((await site.sink.waitForMailTo('uma.rao@example.com', /Your consent for Nila/)).text)![0]

    const page = await parent.get(withdrawal)
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toBe('private, no-store')
    expect(page.headers.get('Referrer-Policy')).toBe('same-origin')
    expect(text(page.html)).toContain('Your consent for Nila')
    expect(text(page.html)).toContain('Nila has no sessions or camp places to come.')
    expect(text(page.html)).not.toContain('Nila Rao')
    const forged = withdrawal.replace(/key=./, (start) => `key=${start.endsWith('A') ? 'B' : 'A'}`)
    expect((await parent.get(forged)).status).toBe(404)
    expect((await parent.post(forged, { intent: 'withdraw', website_url: '' })).status).toBe(404)

    const withdrawn = await parent.post(withdrawal, { intent: 'withdraw', website_url: '' })
    expect(withdrawn.status).toBe(200)
    expect(text(withdrawn.html)).toContain('Your consent is withdrawn. We will not book anything more for Nila')
    await site.sink.waitForMailTo(emailFor('Nila Rao'), /Your parent has withdrawn their consent/)
    expect(text((await parent.get(withdrawal)).html)).toContain('Your consent for Nila was withdrawn on')
    const status = await minor.get(`/swimmers/${await swimmerIdOf(minor, 'Nila Rao')}/consent`)
    expect(text(status.html)).toContain("We do not have your parent's or guardian's consent yet")
  })

  it('answers 404 for a token it never made', async () => {
    const stranger = new Visitor(site.url)
    expect((await stranger.get(`/consent/${'A'.repeat(43)}`)).status).toBe(404)
    expect((await stranger.get('/consent/not-a-token')).status).toBe(404)
    expect((await stranger.post(`/consent/${'B'.repeat(43)}`, agree('Someone Else'))).status).toBe(404)
  })

  it('stops working when the swimmer sends a new link, and a refusal is recorded', async () => {
    const { minor, path } = await minorAlone('Meera Iyer', 'wrong.parent@example.com')
    const id = await swimmerIdOf(minor, 'Meera Iyer')
    const waiting = await minor.get(`/swimmers/${id}/consent`)
    expect(text(waiting.html)).toContain('we e-mailed wrong.parent@example.com a link')
    const own = await minor.post(`/swimmers/${id}/consent`, { intent: 'resend', parentEmail: emailFor('Meera Iyer'), website_url: '' })
    expect(fieldState(own.html, 'parentEmail').message).toMatch(/own e-mail address/)
    await withinOneWindow(LIMITS.consentRequestPerSwimmer.windowSeconds, 5_000)
    const resent = await minor.post(`/swimmers/${id}/consent`, { intent: 'resend', parentEmail: 'priya.iyer@example.com', website_url: '' })
    expect(resent.status).toBe(302)
    const tooSoon = await minor.post(`/swimmers/${id}/consent`, { intent: 'resend', parentEmail: 'priya.iyer@example.com', website_url: '' })
    expect(tooSoon.status).toBe(429)
    expect(text(tooSoon.html)).toContain('Too many attempts')

    expect(text((await new Visitor(site.url).get(path)).html)).toContain('This link has expired')
    const mail = await site.sink.waitForMailTo('priya.iyer@example.com', /asks for your consent/)
    const newer = /\/consent\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]
    const refused = await new Visitor(site.url).post(newer, { intent: 'refuse', website_url: '' })
    expect(text(refused.html)).toContain('we will erase their account')
    expect(text((await minor.get(`/swimmers/${id}/consent`)).html)).toContain('did not agree')
  })
})

describe("an account's page for its child's consent", () => {
  it('lists the bookings withdrawing would cancel, and withdrawing cancels them until consent is given again', async () => {
    const parent = await register({ whoSwims: 'child', name: 'Anita Das', email: emailFor('Anita Das'), swimmerName: 'Arjun Das', age: '10', guardianDeclaration: 'on' })
    const id = await swimmerIdOf(parent, 'Arjun Das')
    await bookAndPay(parent, site.url, 'success', 0, { daysAhead: 3 })
    await expect.poll(async () => text((await parent.get(`/swimmers/${id}/consent`)).html)).toContain('will be cancelled')
    const shown = text((await parent.get(`/swimmers/${id}/consent`)).html)
    expect(shown).toMatch(/3-Day Biomechanical Analysis, .* SWP-\d+: refunded in full/)
    expect(shown).toContain('cannot be booked until you give it again')

    const stranger = await register({ name: 'Other Parent', email: emailFor('Other Parent') })
    expect((await stranger.get(`/swimmers/${id}/consent`)).status).toBe(404)
    expect((await stranger.post(`/swimmers/${id}/consent`, { intent: 'withdraw', website_url: '' })).status).toBe(404)

    const withdrawn = await parent.post(`/swimmers/${id}/consent`, { intent: 'withdraw', website_url: '' })
    expect(withdrawn.status).toBe(302)
    await site.sink.waitForMailTo(emailFor('Anita Das'), /Consent withdrawn for Arjun Das/)
    const after = text((await parent.get(`/swimmers/${id}/consent`)).html)
    expect(after).toContain("No parent's consent")
    const undeclared = await parent.post(`/swimmers/${id}/consent`, { intent: 'give', website_url: '' })
    expect(fieldState(undeclared.html, 'declaration').invalid).toBe(true)
    expect((await parent.post(`/swimmers/${id}/consent`, { intent: 'give', declaration: 'on', website_url: '' })).status).toBe(302)
    expect(text((await parent.get(`/swimmers/${id}/consent`)).html)).toContain("Parent's consent given by Anita Das")
  })
})

describe('a swimmer under 18 who registers alone', () => {
  it("has their parent asked only once their own address is verified", async () => {
    const email = emailFor('Dev Kulkarni')
    const visitor = new Visitor(site.url)
    expect((await visitor.post('/registration', registrationForm({ whoSwims: 'myself', name: 'Dev Kulkarni', email, age: '15', parentEmail: 'kulkarni.parent@example.com' }))).status).toBe(302)
    const mail = await site.sink.waitForMailTo(email, /verification code/)
    // Everything registering writes is written by then: nothing is waiting for the parent's address.
    const staff = await site.sharedStaff()
    const toParent = text((await staff.get(`/admin/messages?${new URLSearchParams({ to: 'kulkarni.parent@example.com' })}`)).html)
    expect(toParent).not.toContain('asks for your consent')
    expect(requestsTo('kulkarni.parent@example.com')).toBe(0)

    const verified = await visitor.post(`/verify-email?${new URLSearchParams({ email })}`, { email, code: codeIn(mail.text), website_url: '' })
    expect(verified.location).toBe('/book-slot')
    await site.sink.waitForMailTo('kulkarni.parent@example.com', /asks for your consent/)
  })

  it("cannot register for a camp through the camp form's parent-or-guardian declaration, only as the account's swimmer with consent", async () => {
    const { minor } = await minorAlone('Rohan Pillai', 'pillai.parent@example.com')
    const camp = { phone_number: '98450 12345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1', website_url: '' }
    for (const swimmer of [{ name: 'Rohan Pillai', email: emailFor('Rohan Pillai') }, { name: 'Someone Pillai', email: 'someone.pillai@example.com' }]) {
      const refused = await minor.post('/onboarding', { ...camp, ...swimmer, intent: 'register' })
      expect(refused.status).toBe(409)
      expect(fieldState(refused.html, 'guardianDeclaration')).toEqual({ invalid: true, message: expect.stringContaining('cannot declare to be a parent or guardian') })
    }
    const id = await swimmerIdOf(minor, 'Rohan Pillai')
    const asSwimmer = await minor.post('/onboarding', { intent: 'register_swimmers', swimmers: String(id), phone_number: '98450 12345', camp: 'camp1', batch: 'batch1', website_url: '' })
    expect(asSwimmer.status).toBe(409)
    expect(text(asSwimmer.html)).toContain("Rohan Pillai is under 18 and cannot be registered without a parent's or guardian's consent")
  })
})

describe('after a parent withdraws their consent', () => {
  it('a new link goes only to the address that withdrew', async () => {
    const { minor, path } = await minorAlone('Isha Bhat', 'bhat.parent@example.com')
    await agreeThenWithdraw(path, 'bhat.parent@example.com', 'Suma Bhat', 'Isha')
    const id = await swimmerIdOf(minor, 'Isha Bhat')
    const page = await minor.get(`/swimmers/${id}/consent`)
    expect(page.html).toMatch(/name="parentEmail"[^>]*value="bhat.parent@example.com"|value="bhat.parent@example.com"[^>]*name="parentEmail"/)

    const elsewhere = await minor.post(`/swimmers/${id}/consent`, { intent: 'resend', parentEmail: 'isha.other.inbox@example.com', website_url: '' })
    expect(elsewhere.status).toBe(409)
    expect(fieldState(elsewhere.html, 'parentEmail')).toEqual({ invalid: true, message: expect.stringContaining('bhat.parent@example.com') })
    expect(requestsTo('isha.other.inbox@example.com')).toBe(0)

    const before = requestsTo('bhat.parent@example.com')
    expect((await minor.post(`/swimmers/${id}/consent`, { intent: 'resend', parentEmail: 'bhat.parent@example.com', website_url: '' })).status).toBe(302)
    await eventually(() => requestsTo('bhat.parent@example.com'), (count) => count === before + 1)
  })

  it('staff can re-open it from the customer page, and then the swimmer may ask another address', async () => {
    const { minor, path } = await minorAlone('Tanvi Rao', 'tanvi.parent@example.com')
    await agreeThenWithdraw(path, 'tanvi.parent@example.com', 'Geeta Rao', 'Tanvi')
    const id = await swimmerIdOf(minor, 'Tanvi Rao')
    expect((await minor.post(`/swimmers/${id}/consent`, { intent: 'resend', parentEmail: 'tanvi.guardian@example.com', website_url: '' })).status).toBe(409)

    const staff = await site.sharedStaff()
    const customerPage = await customerPageOf(emailFor('Tanvi Rao'))
    expect(text((await staff.get(customerPage)).html)).toContain('Let the swimmer ask another address')
    const reopened = await staff.post(customerPage, { intent: 'reopen-consent', swimmerId: String(id) })
    expect(reopened.status).toBe(302)

    expect((await minor.post(`/swimmers/${id}/consent`, { intent: 'resend', parentEmail: 'tanvi.guardian@example.com', website_url: '' })).status).toBe(302)
    await site.sink.waitForMailTo('tanvi.guardian@example.com', /asks for your consent/)
  })
})

describe("a parent's address that appears together with the swimmer", () => {
  it("registered the same day: the consent it gives leaves the swimmer unbookable until staff confirm it on the overview", async () => {
    // An account with the "parent's" address, made the same day, as a swimmer could make for themself.
    await register({ name: 'Parent Of Neel', email: 'neel.parent@example.com' })
    const { minor, path } = await minorAlone('Neel Joshi', 'neel.parent@example.com')
    expect((await new Visitor(site.url).post(path, agree('Parent Of Neel'))).status).toBe(200)

    expect(await mayHoldASession(minor)).toBe(false)
    const id = await swimmerIdOf(minor, 'Neel Joshi')
    expect(text((await minor.get(`/swimmers/${id}/consent`)).html)).toContain('The lab checks this consent before anything is booked')

    const staff = await site.sharedStaff()
    const overview = await staff.get('/admin')
    const listed = /<li[^>]*>(?:(?!<\/li>)[\s\S])*Neel Joshi(?:(?!<\/li>)[\s\S])*<\/li>/.exec(overview.html)?.[0]
    expect(listed).toBeDefined()
    expect(text(listed!)).toContain('neel.parent@example.com')
    expect(text(listed!)).toContain('has an account registered the same day')
    const consentId = /name="consentId" value="(\d+)"/.exec(listed!)![1]!
    const confirmed = await staff.post('/admin?index', { intent: 'confirm-consent', consentId })
    expect(confirmed.status).toBe(302)
    expect(text((await staff.get('/admin')).html)).not.toContain('Neel Joshi')

    expect(await mayHoldASession(minor)).toBe(true)
  })
})
