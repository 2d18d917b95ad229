import { describe, expect, it } from 'vitest'
import { bookAndPay } from '../support/booking-flow'
import { codeIn } from '../support/smtp-sink'
import { registrationForm, text, Visitor } from '../support/visitor'
import { paySummary } from '../support/camp-summary'
import { STAFF, useTestSite } from '../support/site'

// The customers section as staff use it in a browser without JavaScript: search, a customer's
// bookings and camp registrations, resending a verification code, disabling an account.

const site = useTestSite()

const staff = site.sharedStaff

/** The admin page of the customer found by `query` (the only match). */
async function customerPage(query: string) {
  const results = await (await staff()).get(`/admin/customers?${new URLSearchParams({ q: query })}`)
  const links = [...results.html.matchAll(/href="(\/admin\/customers\/\d+)"/g)].map((match) => match[1]!)
  expect(links).toHaveLength(1)
  return links[0]!
}

/** Registers through the pages and verifies with the e-mailed code, signed in afterwards. */
async function customer(name: string, email: string, phone = '9845012345') {
  const visitor = new Visitor(site.url)
  expect((await visitor.post('/registration', registrationForm({ name, email, phone }))).status).toBe(302)
  const code = codeIn((await site.sink.waitForMailTo(email.toLowerCase(), /verification code/)).text)
  const verified = await visitor.post(`/verify-email?${new URLSearchParams({ email: email.toLowerCase() })}`, { email, code, website_url: '' })
  expect(verified.location).toBe('/book-slot')
  return visitor
}

describe('who reaches the customers', () => {
  it('guests are sent to sign in, customers get 403, for the pages and the actions', async () => {
    const asha = await customer('Asha Rao', 'asha@example.com')
    const page = await customerPage('asha@example.com')
    const guest = new Visitor(site.url)
    expect((await guest.get('/admin/customers')).location).toBe('/login?redirectTo=%2Fadmin%2Fcustomers')
    expect((await guest.get(page)).location).toBe(`/login?redirectTo=${encodeURIComponent(page)}`)
    expect((await guest.post(page, { intent: 'disable' })).location).toBe(`/login?redirectTo=${encodeURIComponent(page)}`)
    expect((await asha.get('/admin/customers')).status).toBe(403)
    expect((await asha.get(page)).status).toBe(403)
    expect((await asha.post(page, { intent: 'disable' })).status).toBe(403)
    expect((await asha.get('/my-bookings')).status).toBe(200)
  })
})

describe('search', () => {
  it('finds a customer by e-mail and by phone however it is typed, in any letter case', async () => {
    await customer('Ravi Kumar', 'Ravi.Kumar@example.com', '+91 99000 11122')
    await customer('Meera Iyer', 'meera@example.com', '9886012345')
    const find = async (query: string) => text((await (await staff()).get(`/admin/customers?${new URLSearchParams({ q: query })}`)).html)

    const byEmail = await find('RAVI.KUMAR@EXAMPLE')
    expect(byEmail).toContain('1 customer matches')
    expect(byEmail).toContain('Ravi Kumar ravi.kumar@example.com +91 99000 11122 Active')
    expect(byEmail).not.toContain('Meera Iyer')

    for (const phone of ['9900011122', '99000 11122', '+919900011122']) {
      const byPhone = await find(phone)
      expect([phone, byPhone.includes('Ravi Kumar'), byPhone.includes('Meera Iyer')]).toEqual([phone, true, false])
    }
    expect(await find('nobody-like-this')).toContain('No customers match.')
    expect(await find(STAFF.email)).toContain('No customers match.')
  })
})

describe("a customer's page", () => {
  it('shows their details, bookings and camp registrations under their e-mail', async () => {
    const kiran = await customer('Kiran Das', 'kiran@example.com')
    const { statusUrl } = await bookAndPay(kiran, site.url, 'success', 0, { daysAhead: 2 })
    // Back from the gateway, as the customer is: the status page settles the payment, so no unpaid
    // hold of this address is left for the camp registration below to run into.
    expect(text((await kiran.get(statusUrl)).html)).toContain('Payment Successful!')
    const reference = /Booking ID (SWP-\d{10})/.exec(text((await kiran.get('/my-bookings')).html))![1]!
    // Parents register for camps without an account; the same address ties it to the customer.
    const campParent = new Visitor(site.url)
    const camp = await campParent.post('/onboarding', { name: 'Arjun Das', email: 'KIRAN@example.com', phone_number: '98450 12345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch2', website_url: '' })
    expect(camp.status).toBe(302)
    await campParent.post((await paySummary(campParent, camp.location!)).location!, { outcome: 'success' })

    const page = await (await staff()).get(await customerPage('kiran@example.com'))
    expect(page.status).toBe(200)
    const content = text(page.html)
    expect(content).toContain('Kiran Das')
    expect(content).toContain('Status Active')
    expect(content).toContain('Specialization Butterfly')
    expect(page.html).toContain(`href="/admin/bookings/${reference}"`)
    expect(content).toMatch(new RegExp(`${reference} 3-Day Biomechanical Analysis for Kiran Das, Confirmed, ₹30,000.00`))
    expect(content).toMatch(/CMP-\d{10} Arjun Das: Camp 1, .*, Batch 2, (Confirmed|Awaiting payment), ₹35,000.00/)
  })

  it('is a 404 for an unknown customer and for a staff account', async () => {
    const admin = await staff()
    expect((await admin.get('/admin/customers/999999')).status).toBe(404)
    expect((await admin.get('/admin/customers/not-a-number')).status).toBe(404)
    expect((await admin.get('/admin/customers/1')).status).toBe(404)
  })
})

describe('disabling an account', () => {
  it('asks first; then the customer cannot sign in and their open session stops working, until it is enabled again', async () => {
    const neha = await customer('Neha Singh', 'neha@example.com')
    expect((await neha.get('/my-bookings')).status).toBe(200)
    const session = neha.cookies.get('swimlab_session')!
    const page = await customerPage('neha@example.com')
    const admin = await staff()

    const asking = await admin.get(`${page}?confirm=disable`)
    expect(asking.html).toMatch(/<dialog[^>]*open/)
    expect(text(asking.html)).toContain("Disable Neha Singh's account?")

    const disabled = await admin.post(page, { intent: 'disable' })
    expect([disabled.status, disabled.location]).toEqual([302, page])
    const after = text((await admin.get(page)).html)
    expect(after).toContain('Account disabled')
    expect(after).toMatch(/Status Disabled since \d{1,2}:\d\d [AP]M IST/)
    expect(after).toContain('Enable the account')

    expect((await neha.get('/my-bookings')).location).toBe('/login?redirectTo=%2Fmy-bookings')
    const again = await new Visitor(site.url).post('/login', { email: 'neha@example.com', password: registrationForm().password, website_url: '' })
    expect([again.status, again.location]).toEqual([401, null])
    expect(text(again.html)).toContain('Invalid email or password. Please try again.')
    expect(text((await (await staff()).get('/admin/customers?q=neha')).html)).toContain('Disabled')

    expect((await admin.post(page, { intent: 'enable' })).location).toBe(page)
    // The sessions were revoked, not just refused while disabled: the old one stays dead.
    const replay = new Visitor(site.url)
    replay.cookies.set('swimlab_session', session)
    expect((await replay.get('/my-bookings')).location).toBe('/login?redirectTo=%2Fmy-bookings')
    const back = await new Visitor(site.url).post('/login', { email: 'neha@example.com', password: registrationForm().password, website_url: '' })
    expect(back.location).toBe('/book-slot')
  })

  it('refuses staff their own account', async () => {
    // The staff account from ADMIN_EMAIL is the first account of this installation.
    const response = await (await staff()).post('/admin/customers/1', { intent: 'disable' })
    expect(response.status).toBe(409)
    expect((await (await staff()).get('/admin')).status).toBe(200)
  })

  it('explains a request it does not understand', async () => {
    const page = await customerPage('asha@example.com')
    const response = await (await staff()).post(page, { intent: 'delete' })
    expect(response.status).toBe(400)
    expect(response.html).toMatch(/role="alert"[^>]*>.*Choose what to do with this account\./)
  })
})

describe('resending the verification code', () => {
  it('e-mails a new code that verifies the address', async () => {
    const visitor = new Visitor(site.url)
    expect((await visitor.post('/registration', registrationForm({ email: 'late@example.com', name: 'Late Verifier' }))).status).toBe(302)
    await site.sink.waitForMailTo('late@example.com')
    const page = await customerPage('late@example.com')
    const admin = await staff()
    expect(text((await admin.get(page)).html)).toContain('Status E-mail address not verified yet')

    const sent = await admin.post(page, { intent: 'resend-verification' })
    expect(sent.location).toBe(page)
    expect(text((await admin.get(page)).html)).toContain('Verification code sent')
    // Queued inside the staff action's transaction, the message goes at the outbox's next round (each second).
    await expect.poll(() => site.sink.messages.filter((message) => message.to.includes('late@example.com')).length, { timeout: 10_000 }).toBe(2)
    const code = codeIn(site.sink.messages.filter((message) => message.to.includes('late@example.com')).at(-1)!.text)
    const verified = await visitor.post('/verify-email?email=late%40example.com', { email: 'late@example.com', code, website_url: '' })
    expect(verified.location).toBe('/book-slot')

    const refused = await admin.post(page, { intent: 'resend-verification' })
    expect(refused.status).toBe(409)
    expect(text(refused.html)).toContain('This address is already verified; the customer can sign in.')
  })
})

describe('the audit log', () => {
  it('lists the account changes with a link to the customer', async () => {
    const page = await customerPage('neha@example.com')
    const log = await (await staff()).get('/admin/audit?type=customer')
    const content = text(log.html)
    expect(content).toContain('Re-enabled the account of Neha Singh (neha@example.com)')
    expect(content).toContain('Disabled the account of Neha Singh (neha@example.com) and signed them out everywhere')
    expect(content).toMatch(/Signed in sessions 1 → changed to 0/)
    expect(content).toContain('E-mailed a new verification code to late@example.com')
    expect(log.html).toContain(`href="${page}"`)
    expect(content).not.toContain('Changed the price')
  })
})
