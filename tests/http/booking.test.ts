import { describe, expect, it } from 'vitest'
import { bookAndPay as bookAndPayFlow, chooseSlot } from '../support/booking-flow'
import { decodeHtml, text, Visitor } from '../support/visitor'
import { addDays, addHours, isoWeekday, labInstant, labToday } from '~/lib/lab-time'
import { useTestSite } from '../support/site'

// Booking and paying for a 3-day session as a browser without JavaScript does it: links, plain
// form posts and redirects, through the real server and its sandbox gateway, e-mail over SMTP.

const site = useTestSite()

const bookAndPay = (visitor: Visitor, outcome: 'success' | 'failure' | 'pending', skip = 0) => bookAndPayFlow(visitor, site.url, outcome, skip)

describe('booking and paying without JavaScript', () => {
  it('says on the payment page when the session starts within 24 hours and could then never be cancelled or moved', async () => {
    const notice = 'This session starts within 24 hours: once you pay, it cannot be cancelled or moved.'
    for (const [name, daysAhead] of [['Soon Swimmer', 0], ['Later Swimmer', 4]] as const) {
      const visitor = await site.customer(name)
      const slot = await chooseSlot(visitor, 0, { daysAhead })
      const held = await visitor.post(slot.href, { date: slot.date, time: slot.time, website_url: '' })
      expect(held.location).toMatch(/^\/slot-payment\?booking=\d+$/)
      const withinDay = new Date() >= addHours(labInstant(slot.date, slot.time), -24)
      expect([name, text((await visitor.get(held.location!)).html).includes(notice)]).toEqual([name, withinDay])
    }
  })

  it('date → time → confirm → pay on the gateway → Payment Successful! → My Bookings, with an e-mail and its .ics', async () => {
    const asha = await site.customer('Asha Rao')
    const { paymentPage, statusUrl } = await bookAndPay(asha, 'success')

    const summary = text(paymentPage.html)
    for (const line of ['Complete Your Payment', 'Booking Summary', 'Asha Rao', 'asharao@example.com', 'Advanced', '3 days', '3-Day Biomechanical Analysis', '₹30,000.00', 'Platform Fee ₹0.00', 'Pay ₹30,000.00']) {
      expect(summary).toContain(line)
    }

    expect(statusUrl).toMatch(new RegExp(`^${site.url}/slot-payment-status\\?orderId=SLOT_`))
    const status = await asha.get(statusUrl)
    expect(status.status).toBe(200)
    const result = text(status.html)
    expect(result).toContain('Payment Successful!')
    expect(result).toMatch(/Booking Confirmed! Your analysis session has been booked for \w+day, \d+ \w+ at \d+:\d\d [AP]M - \d+:\d\d [AP]M/)
    expect(result).toMatch(/Transaction ID SBXT/)
    expect(result).toContain('View My Bookings')
    expect(status.html).not.toContain('http-equiv="refresh"')

    const mine = text((await asha.get('/my-bookings')).html)
    expect(mine).toContain('3-Day Biomechanical Analysis')
    expect(mine).toContain('Confirmed')
    expect(mine).toContain('₹30,000.00')
    expect(mine).toMatch(/Day 1 ?: \w+day, .*Day 2 ?: .*Day 3 ?: /)
    expect(mine).not.toContain('3000000')

    const mail = await site.sink.waitForMailTo('asharao@example.com', /Booking confirmed/)
    expect(mail.raw).toMatch(/Content-Type: text\/calendar/)
    const ics = Buffer.from(/Content-Type: text\/calendar[^]*?\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n(?:\r\n|--)/.exec(mail.raw)![1]!.replace(/\s/g, ''), 'base64').toString('utf8')
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(3)
  })

  it('a declined payment says Payment Failed, offers Try Again, and frees the slot; no booking appears', async () => {
    const ravi = await site.customer('Ravi Kumar')
    const { slot, statusUrl } = await bookAndPay(ravi, 'failure', 1)
    const status = text((await ravi.get(statusUrl)).html)
    expect(status).toContain('Payment Failed')
    expect(status).toContain('Try Again')
    expect(status).toContain('Contact Support')
    expect(text((await ravi.get('/my-bookings')).html)).toContain('No bookings yet')
    const again = await ravi.get(slot.href)
    expect(decodeHtml(again.html)).toContain(`href="${slot.href}"`)
  })

  it('while the gateway has not decided, the page refreshes itself, then gives up after 120 seconds', async () => {
    const meera = await site.customer('Meera Iyer')
    const { statusUrl } = await bookAndPay(meera, 'pending', 2)
    const waiting = await meera.get(statusUrl)
    expect(text(waiting.html)).toContain('Verifying Payment')
    expect(text(waiting.html)).toContain('Auto-refreshing every 3 seconds...')
    const refresh = /<noscript><meta http-equiv="refresh" content="3;url=([^"]+)">/.exec(waiting.html)
    expect(refresh).not.toBeNull()
    const next = decodeHtml(refresh![1]!)
    expect(next).toMatch(/since=\d+/)

    const startedLongAgo = next.replace(/since=\d+/, `since=${Date.now() - 121_000}`)
    const timedOut = await meera.get(startedLongAgo)
    expect(text(timedOut.html)).toContain('Verification Error')
    expect(text(timedOut.html)).toContain('Payment verification timeout. Please contact support.')
    expect(text(timedOut.html)).toContain('Refresh Status')
    expect(timedOut.html).not.toContain('http-equiv="refresh"')
  })

  it('explains a missing or unknown order', async () => {
    const visitor = await site.customer('Kiran Das')
    const missing = await visitor.get('/slot-payment-status')
    expect(missing.status).toBe(400)
    expect(text(missing.html)).toContain('No transaction ID found in URL')
    const unknown = await visitor.get('/slot-payment-status?orderId=SLOT_1_1_nothere')
    expect(unknown.status).toBe(404)
    expect(text(unknown.html)).toContain('Slot booking payment record not found')
  })
})

describe('the calendar of /book-slot', () => {
  it('links only dates on which a 3-day session fits; a time that cannot start one says why', async () => {
    const visitor = await site.customer('Nisha Rao')
    const first = await visitor.get('/book-slot')
    const next = /href="([^"]+)"[^>]*aria-label="Next month"|aria-label="Next month"[^>]*href="([^"]+)"/.exec(decodeHtml(first.html))
    const second = next ? await visitor.get(next[1] ?? next[2]!) : null
    const linked = [...new Set([first, second].flatMap((page) => (page ? [...decodeHtml(page.html).matchAll(/href="\/book-slot\?month=[\d-]+&date=([\d-]+)"/g)].map((link) => link[1]!) : [])))]
    expect(linked.length).toBeGreaterThan(10)
    for (const date of linked) {
      const day = decodeHtml((await visitor.get(`/book-slot?date=${date}`)).html)
      expect([date, /<button[^>]*name="time"/.test(day)]).toEqual([date, true])
    }
    // The lab's hours run four weeks from tomorrow, Sundays closed: from its last day no 3-day session fits.
    let last = addDays(labToday(), 28)
    while (isoWeekday(last) === 7) last = addDays(last, -1)
    expect(linked).not.toContain(last)
    const lastDay = decodeHtml((await visitor.get(`/book-slot?date=${last}`)).html)
    expect(text(lastDay)).toContain('9:00 AM - 10:00 AM Not available: not enough open days after this date')
    expect(lastDay).not.toMatch(/<button[^>]*name="time"/)
  })
})

describe('one customer can never see or act on another customer’s booking', () => {
  it('the payment page, the status page, its JSON and My Bookings are closed to another customer', async () => {
    const owner = await site.customer('Owner Person')
    const { bookingPath, statusUrl } = await bookAndPay(owner, 'success', 3)
    const orderId = new URL(statusUrl).searchParams.get('orderId')!
    const intruder = await site.customer('Other Person')

    // Named by its order id as the transaction id (as the lab's first site's links do), it is the owner's alone too.
    const asTransaction = await owner.get(`/slot-payment-status?transactionId=${orderId}`)
    expect([asTransaction.status, text(asTransaction.html).includes('Owner Person')]).toEqual([200, true])
    expect((await intruder.get(`/slot-payment-status?transactionId=${orderId}`)).status).toBe(404)
    const statusPage = await intruder.get(`/slot-payment-status?orderId=${orderId}`)
    expect(statusPage.status).toBe(404)
    expect(statusPage.html).not.toContain('Owner Person')
    expect(statusPage.html).not.toContain('ownerperson@example.com')
    const json = await intruder.get(`/slot-payment-status/check?orderId=${orderId}`)
    expect(json.status).toBe(404)
    expect(json.html).not.toContain('completed')

    const payPage = await intruder.get(bookingPath)
    expect(payPage.status).toBe(302)
    expect(payPage.location).toBe('/book-slot')
    const payAttempt = await intruder.post(bookingPath, { website_url: '' })
    expect(payAttempt.location).toBe('/book-slot')

    const theirs = text((await intruder.get('/my-bookings')).html)
    expect(theirs).toContain('No bookings yet')
    expect(theirs).not.toContain('Owner Person')

    const guest = new Visitor(site.url)
    expect((await guest.get(`/slot-payment-status?orderId=${orderId}`)).location).toBe(`/login?redirectTo=${encodeURIComponent(`/slot-payment-status?orderId=${orderId}`)}`)
    expect((await guest.get(`/slot-payment-status/check?orderId=${orderId}`)).status).toBe(401)
  })

  it('a guest posting a booking is sent to sign in, told to log in to book a slot', async () => {
    const guest = new Visitor(site.url)
    const response = await guest.post('/book-slot', { date: '2030-01-01', time: '09:00', website_url: '' })
    expect(response.status).toBe(302)
    expect(response.location).toBe('/login?redirectTo=%2Fbook-slot')
    const login = await guest.get(response.location!)
    expect(text(login.html)).toContain('Authentication Required')
    expect(text(login.html)).toContain('Please log in to book a slot')
  })
})

describe('the payment webhook', () => {
  it('refuses a notification that is not signed by the gateway', async () => {
    const response = await fetch(`${site.url}/api/payments/webhook/sandbox`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': 'f'.repeat(64) },
      body: JSON.stringify({ eventId: 'x', event: 'order.completed', merchantOrderId: 'SLOT_1', state: 'COMPLETED', amountPaise: 100, transactionId: 'T' }),
    })
    expect(response.status).toBe(401)
    const other = await fetch(`${site.url}/api/payments/webhook/phonepe`, { method: 'POST', body: '{}' })
    expect(other.status).toBe(404)
  })
})
