import { describe, expect, it } from 'vitest'
import { bookAndPay } from '../support/booking-flow'
import { emailFor, useTestSite } from '../support/site'
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

describe("the parent's consent link", () => {
  it('shows the notice, asks for the name and declaration, records the consent once', async () => {
    const { minor, path } = await minorAlone('Kiran Rao', 'lakshmi.rao@example.com')
    const parent = new Visitor(site.url)
    const page = await parent.get(path)
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toBe('private, no-store')
    expect(page.headers.get('Referrer-Policy')).toBe('no-referrer')
    const shown = text(page.html)
    expect(shown).toContain('Consent for Kiran')
    expect(shown).not.toContain('Kiran Rao')
    expect(shown).toMatch(/Privacy notice version \d{4}-\d\d-\d\d/)
    expect(shown).toContain('Analysis videos and reports')
    expect(page.html).toContain('href="/privacy-policy"')
    expect(page.html).not.toMatch(/name="declaration"[^>]*checked/)
    const data = await parent.get(`${path}.data`)
    expect(data.headers.get('Cache-Control')).toBe('private, no-store')
    expect(data.headers.get('Referrer-Policy')).toBe('no-referrer')

    const nameless = await parent.post(path, { intent: 'agree', guardianName: '', declaration: 'on', website_url: '' })
    expect(nameless.status).toBe(400)
    expect(fieldState(nameless.html, 'guardianName')).toEqual({ invalid: true, message: 'Please enter your full name' })
    const undeclared = await parent.post(path, { intent: 'agree', guardianName: 'Lakshmi Rao', website_url: '' })
    expect(fieldState(undeclared.html, 'declaration')).toEqual({ invalid: true, message: "Please confirm that you are this swimmer's parent or legal guardian" })

    const agreed = await parent.post(path, agree('Lakshmi Rao'))
    expect(agreed.status).toBe(200)
    expect(agreed.headers.get('Referrer-Policy')).toBe('no-referrer')
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
    expect(page.headers.get('Referrer-Policy')).toBe('no-referrer')
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
