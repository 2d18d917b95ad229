import { describe, expect, it } from 'vitest'
import { bookableDate, bookAndPay } from '../support/booking-flow'
import { pdfText } from '../support/pdf-text'
import { attachedFile } from '../support/smtp-sink'
import { decodeHtml, text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// A refund staff make completes through the gateway: the customer's "Refund completed" e-mail
// carries the credit note, My Bookings and the admin booking page link it, and it downloads like
// the receipt: for its customer, staff and a guest's private link, a 404 for anyone else.

const site = useTestSite()
const staff = site.sharedStaff

const CREDIT_NOTE_FILE = /filename="?credit-note-SSL-CN\d\d-\d\d-\d{4}\.pdf"?/

describe('a credit note for a refund staff make', () => {
  it('goes with the Refund completed e-mail, is linked on My Bookings and the admin booking page, and downloads only for its customer and staff', { timeout: 90_000 }, async () => {
    const customer = await site.customer('Nisha Credit')
    const { orderId } = await bookAndPay(customer, site.url, 'success', 1, { daysAhead: 2 })
    const reference = /Booking ID (SWP-\d{10})/.exec(text((await customer.get('/my-bookings')).html))![1]!
    const admin = await staff()
    expect((await admin.post(`/admin/bookings/${reference}`, { intent: 'cancel', refund: 'yes', confirm: 'yes' })).status).toBe(302)

    const told = await site.sink.waitForMailTo('nishacredit@example.com', /^Subject: Refund completed/m, 30_000)
    expect(told.raw).toMatch(CREDIT_NOTE_FILE)
    const attached = (await pdfText(attachedFile(told, CREDIT_NOTE_FILE))).lines.join('\n')
    expect(attached).toContain('Refund Note')
    expect(attached).toMatch(/Against receipt SSL\/\d\d-\d\d\/\d{6} dated \d+ \w+ \d{4}/)
    expect(attached).toContain(`Booking ID: ${reference}`)
    expect(attached).toContain('Amount refunded ₹30,000.00')
    const number = /SSL\/CN\d\d-\d\d\/\d{4}/.exec(attached)![0]

    const mine = decodeHtml((await customer.get('/my-bookings')).html)
    const path = /href="(\/credit-notes\/RFND_[^"?]+)"/.exec(mine)![1]!
    expect(text(mine)).toContain(`Credit note ${number} (₹30,000.00 refunded,`)
    const adminPage = decodeHtml((await admin.get(`/admin/bookings/${reference}`)).html)
    expect(adminPage).toContain(`href="${path}"`)
    expect(text(adminPage)).toContain(`Credit notes Credit note ${number}`)

    const download = await customer.get(path)
    expect(download.status).toBe(200)
    expect(download.headers.get('Content-Type')).toBe('application/pdf')
    expect(download.headers.get('Cache-Control')).toBe('private, no-store')
    expect(download.headers.get('Content-Disposition')).toBe(`attachment; filename="credit-note-${number.replaceAll('/', '-')}.pdf"`)
    expect((await pdfText(download.bytes)).lines).toContain(number)
    expect((await admin.get(path)).status).toBe(200)
    // The receipt it is against still downloads, and says the money went back.
    expect((await pdfText((await customer.get(`/receipts/${orderId}`)).bytes)).lines.join('\n')).toContain('Refunded')

    const other = await site.customer('Other Family')
    expect((await other.get(path)).status).toBe(404)
    expect((await new Visitor(site.url).get(path)).status).toBe(404)
    expect((await new Visitor(site.url).get(`${path}?key=${'k'.repeat(43)}`)).status).toBe(404)
    expect((await customer.get('/credit-notes/RFND_0_0_nothing')).status).toBe(404)
  })

  it('for a guest’s booking opens from the private link on the guest’s booking page', { timeout: 90_000 }, async () => {
    const guest = new Visitor(site.url)
    const details = { name: 'Guest Credit', email: 'guest.credit@example.com', phone: '', service: 'race', date: bookableDate(4), time: '11:00', notes: '', intent: 'details', website_url: '' }
    expect((await guest.post('/booking', details)).location).toBe('/booking?step=2')
    const pay = await guest.post('/booking?step=2', { intent: 'pay', website_url: '' })
    await guest.post(pay.location!, { outcome: 'success' })
    const confirmed = await site.sink.waitForMailTo('guest.credit@example.com', /Booking confirmed/)
    const [, viewPath, reference] = /http:\/\/[^\s]+(\/booking\/view\?ref=(SWP-\d+)&key=[\w-]+)/.exec(confirmed.text)!

    expect((await (await staff()).post(`/admin/bookings/${reference}`, { intent: 'cancel', refund: 'yes', confirm: 'yes' })).status).toBe(302)
    const told = await site.sink.waitForMailTo('guest.credit@example.com', /^Subject: Refund completed/m, 30_000)
    expect(told.raw).toMatch(CREDIT_NOTE_FILE)

    const stranger = new Visitor(site.url)
    const page = decodeHtml((await stranger.get(viewPath!)).html)
    const keyed = /href="(\/credit-notes\/RFND_[^"?]+\?key=[^"]+)"/.exec(page)![1]!
    const download = await stranger.get(keyed)
    expect(download.status).toBe(200)
    expect((await pdfText(download.bytes)).lines.join('\n')).toContain(`Booking ID: ${reference}`)
    // Without its key, or with the key of the booking's receipt link, the note is a 404.
    const note = keyed.replace(/\?.*$/, '')
    expect((await stranger.get(note)).status).toBe(404)
    const receiptKey = new URLSearchParams(/href="\/receipts\/[^"?]+\?([^"]+)"/.exec(page)![1]!).get('key')!
    expect((await stranger.get(`${note}?key=${receiptKey}`)).status).toBe(404)
  })
})
