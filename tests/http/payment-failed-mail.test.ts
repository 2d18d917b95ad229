import { describe, expect, it } from 'vitest'
import { bookableDate, bookAndPay } from '../support/booking-flow'
import { CAMP_SUMMARY, paySummary } from '../support/camp-summary'
import { emailFor, useTestSite } from '../support/site'
import { text, Visitor } from '../support/visitor'

// A payment declined at the gateway is e-mailed to the customer, with a link to try again, for
// every product; WhatsApp is off here, as it is by default, so the e-mail is all they hear.

const site = useTestSite()

/** The subject of a message as received, and the link under its "Try Again" line, made relative to the site. */
function failedMail(mail: { raw: string; text: string }) {
  // A long header is folded onto more lines, each going on with a space.
  const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(mail.raw)![1]!.replace(/\r?\n(?=[ \t])/g, '').trim()
  const link = /^Try Again:\r?\n(\S+)/m.exec(mail.text)![1]!
  expect(link.startsWith(`${site.url}/`)).toBe(true)
  return { subject, retry: link.slice(site.url.length) }
}

describe('a declined payment is e-mailed with where to try again', () => {
  it('for a 3-day session booked on /book-slot: the link opens the calendar at its date, for the account', async () => {
    const parent = await site.customer('Declined Parent')
    const { slot } = await bookAndPay(parent, site.url, 'failure', 0, { daysAhead: 2 })
    const mail = await site.sink.waitForMailTo(emailFor('Declined Parent'), /^Subject: Payment failed/m)
    const reference = /Booking ID:\s+(SWP-\d{10})/.exec(mail.text)![1]
    const { subject, retry } = failedMail(mail)
    expect(subject).toBe(`Payment failed: 3-Day Biomechanical Analysis (${reference})`)
    expect(retry).toMatch(new RegExp(`^/book-slot\\?date=${slot.date}&swimmer=\\d+$`))
    const again = await parent.get(retry)
    expect(again.status).toBe(200)
    expect(text(again.html)).toContain('Book Your Analysis Session')
    // Signed out, the same link asks them to sign in and brings them back to it.
    expect((await new Visitor(site.url).get(retry)).location).toBe(`/login?${new URLSearchParams({ redirectTo: retry })}`)
  })

  it('for a single session booked on /booking without an account: the link opens the form with the service chosen', async () => {
    const guest = new Visitor(site.url)
    const details = { name: 'Guest Declined', email: 'guest.declined@example.com', phone: '', service: 'race', date: bookableDate(4), time: '11:00', notes: '', intent: 'details', website_url: '' }
    expect((await guest.post('/booking', details)).location).toBe('/booking?step=2')
    const pay = await guest.post('/booking?step=2', { intent: 'pay', website_url: '' })
    await guest.post(pay.location!, { outcome: 'failure' })
    const mail = await site.sink.waitForMailTo('guest.declined@example.com', /^Subject: Payment failed/m)
    const reference = /Booking ID:\s+(SWP-\d{10})/.exec(mail.text)![1]
    const { subject, retry } = failedMail(mail)
    expect(subject).toBe(`Payment failed: Race Analysis Session (${reference})`)
    expect(retry).toBe('/booking?service=race')
    const again = await new Visitor(site.url).get(retry)
    expect(again.status).toBe(200)
    expect(again.html).toMatch(/<input[^>]*value="race"[^>]*checked=""|<input[^>]*checked=""[^>]*value="race"/)
  })

  it('for a camp: the link opens the registration form with the e-mail address and phone number filled in', async () => {
    const parent = new Visitor(site.url)
    const values = { name: 'Camp Declined', email: 'camp.declined@example.com', phone_number: '98450 12399', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1', website_url: '' }
    const submitted = await parent.post('/onboarding', values)
    expect(submitted.location).toMatch(CAMP_SUMMARY)
    const paying = await paySummary(parent, submitted.location!)
    expect(paying.location).toMatch(new RegExp(`^${site.url}/sandbox-gateway/checkout/`))
    await parent.post(paying.location!, { outcome: 'failure' })
    const mail = await site.sink.waitForMailTo('camp.declined@example.com', /^Subject: Payment failed/m)
    const reference = /Registration ID:\s+(CMP-\d{10})/.exec(mail.text)![1]
    const { subject, retry } = failedMail(mail)
    expect(subject).toBe(`Payment failed: Camp 1 for Camp Declined (${reference})`)
    const again = await new Visitor(site.url).get(retry)
    expect(again.status).toBe(200)
    expect(again.html).toMatch(/name="email"[^>]*value="camp.declined@example.com"|value="camp.declined@example.com"[^>]*name="email"/)
    expect(again.html).toMatch(/value="\+91 98450 12399"/)
    expect(text(again.html)).toContain('Camp Registration Form')
  })
})
