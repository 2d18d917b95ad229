import { describe, expect, it } from 'vitest'
import { bookAndPay } from '../support/booking-flow'
import { pdfText } from '../support/pdf-text'
import { decodeHtml, text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// After the booking, as a browser without JavaScript uses it: the receipt, rescheduling,
// cancelling with a refund, and a report delivered by staff, with who may see what.

const site = useTestSite()

/** A customer with a paid, confirmed 3-day booking; returns its reference and order id. */
async function paidBooking(name: string, skip: number) {
  const visitor = await site.customer(name)
  // Two days ahead at least, so the 24-hour rule lets the customer change it.
  const { orderId, statusUrl, slot } = await bookAndPay(visitor, site.url, 'success', skip, { daysAhead: 2 })
  expect(text((await visitor.get(statusUrl)).html)).toContain('Payment Successful!')
  const mine = (await visitor.get('/my-bookings')).html
  const reference = /Booking ID (SWP-\d{10})/.exec(text(mine))![1]!
  return { visitor, orderId, reference, slot }
}

describe('the receipt', () => {
  it('downloads as a PDF for its customer and staff, and is a 404 for anyone else', async () => {
    const { visitor, orderId, reference } = await paidBooking('Asha Rao', 0)
    const mine = (await visitor.get('/my-bookings')).html
    expect(decodeHtml(mine)).toContain(`href="/receipts/${orderId}"`)
    expect(text((await visitor.get(`/slot-payment-status?orderId=${orderId}`)).html)).toContain('Download Receipt')

    const receipt = await visitor.get(`/receipts/${orderId}`)
    expect(receipt.status).toBe(200)
    expect(receipt.headers.get('Content-Type')).toBe('application/pdf')
    expect(receipt.headers.get('Content-Disposition')).toMatch(/attachment; filename="receipt-SSL-\d\d-\d\d-\d{6}\.pdf"/)
    const content = (await pdfText(receipt.bytes)).lines.join('\n')
    expect(content).toMatch(/SSL\/\d\d-\d\d\/\d{6}/)
    expect(content).toContain('Asha Rao')
    expect(content).toContain(reference)
    expect(content).toContain('₹30,000.00')

    expect((await (await site.staff()).get(`/receipts/${orderId}`)).status).toBe(200)
    const other = await site.customer('Other Customer')
    expect((await other.get(`/receipts/${orderId}`)).status).toBe(404)
    expect((await new Visitor(site.url).get(`/receipts/${orderId}`)).status).toBe(404)
    expect((await new Visitor(site.url).get(`/receipts/${orderId}?key=${'k'.repeat(32)}`)).status).toBe(404)
  })
})

describe('rescheduling and cancelling', () => {
  it('reschedules to another available start, without paying again', async () => {
    const { visitor, reference } = await paidBooking('Ravi Kumar', 1)
    const before = text((await visitor.get('/my-bookings')).html)
    expect(before).toMatch(/You can reschedule or cancel until \d+:\d\d [AP]M IST on/)
    const page = await visitor.get(`/bookings/${reference}/reschedule`)
    expect(page.status).toBe(200)
    const dates = [...decodeHtml(page.html).matchAll(/href="(\/bookings\/SWP-\d+\/reschedule\?month=[\d-]+&date=([\d-]+))"/g)]
    const [, dateHref, date] = dates.at(-1)!
    const day = await visitor.get(dateHref!)
    const time = /href="(\/bookings\/SWP-\d+\/reschedule\?month=[\d-]+&date=[\d-]+&time=(\d\d)%3A(\d\d))"/.exec(decodeHtml(day.html))!
    const chosen = await visitor.get(time[1]!)
    expect(text(chosen.html)).toContain('Move my booking to')
    const moved = await visitor.post(time[1]!, { date: date!, time: `${time[2]}:${time[3]}`, website_url: '' })
    expect(moved.status).toBe(302)
    expect(moved.location).toBe('/my-bookings')
    const after = text((await visitor.get('/my-bookings')).html)
    expect(after).toContain('Booking rescheduled')
    expect(after).not.toEqual(before)
    await site.sink.waitForMailTo('ravikumar@example.com', /Booking rescheduled/)

    const other = await site.customer('Nosy Neighbour')
    expect((await other.get(`/bookings/${reference}/reschedule`)).status).toBe(404)
    expect((await other.post(`/bookings/${reference}/cancel`, { website_url: '' })).status).toBe(404)
  })

  it('does not offer the time the booking already has, and refuses a move to it', async () => {
    const { visitor, reference, slot } = await paidBooking('Kiran Shetty', 3)
    const here = `/bookings/${reference}/reschedule?month=${slot.date.slice(0, 7)}&date=${slot.date}`
    const day = decodeHtml((await visitor.get(here)).html)
    expect(day).not.toContain(`date=${slot.date}&time=${encodeURIComponent(slot.time)}"`)
    const before = text((await visitor.get('/my-bookings')).html)
    const refused = await visitor.post(`${here}&time=${encodeURIComponent(slot.time)}`, { date: slot.date, time: slot.time, website_url: '' })
    expect(refused.status).toBe(302)
    expect(text((await visitor.get(refused.location!)).html)).toContain('Your booking is already at this time. Please choose another date or time.')
    expect(text((await visitor.get('/my-bookings')).html)).toEqual(before)
  })

  it('cancels with a full refund through the gateway; the booking ends Refunded and the customer is told', async () => {
    const { visitor, reference } = await paidBooking('Meera Iyer', 2)
    const page = text((await visitor.get(`/bookings/${reference}/cancel`)).html)
    expect(page).toContain('You will get your ₹30,000.00 back, within 7 business days, to the original payment method.')
    const cancelled = await visitor.post(`/bookings/${reference}/cancel`, { website_url: '' })
    expect(cancelled.location).toBe('/my-bookings')
    expect(text((await visitor.get('/my-bookings')).html)).toMatch(/Booking cancelled|Refund in progress/)
    await site.sink.waitForMailTo('meeraiyer@example.com', /Booking cancelled/)
    const refunded = await site.sink.waitForMailTo('meeraiyer@example.com', /Refund completed/, 30_000)
    expect(refunded.text).toContain('₹30,000.00')
    expect(text((await visitor.get('/my-bookings')).html)).toContain('Refunded')
  })
})

describe('report delivery', () => {
  it('staff attach a PDF and a video link; the customer is e-mailed and finds Report ready; no one else can open it', async () => {
    const { visitor, reference } = await paidBooking('Kiran Das', 3)
    const admin = await site.staff()
    expect(text((await admin.get(`/admin/bookings?q=kirandas`)).html)).toContain(reference)
    const pdf = new TextEncoder().encode('%PDF-1.4\n% the analysis\n%%EOF\n')
    const form = new FormData()
    form.append('files', new Blob([pdf], { type: 'application/pdf' }), 'Kiran - stroke analysis.pdf')
    form.append('videoLinks', 'Underwater, Day 1 | https://video.example/kiran-1')
    form.append('note', 'Lovely rotation. Work on your kick timing.')
    const delivered = await admin.upload(`/admin/bookings/${reference}`, form)
    expect(delivered.status).toBe(302)
    await site.sink.waitForMailTo('kirandas@example.com', /Your personalised report is ready/)

    const mine = await visitor.get('/my-bookings')
    expect(text(mine.html)).toContain('Report ready')
    expect(text(mine.html)).toContain('Lovely rotation. Work on your kick timing.')
    expect(decodeHtml(mine.html)).toContain('href="https://video.example/kiran-1"')
    const fileUrl = /href="(\/reports\/files\/\d+)"/.exec(mine.html)![1]!
    const file = await visitor.get(fileUrl)
    expect(file.status).toBe(200)
    expect(file.headers.get('Content-Type')).toBe('application/pdf')
    expect(Buffer.from(file.bytes).equals(Buffer.from(pdf))).toBe(true)

    const other = await site.customer('Other Swimmer')
    expect((await other.get(fileUrl)).status).toBe(404)
    expect((await new Visitor(site.url).get(fileUrl)).status).toBe(404)
    expect((await other.get('/admin/bookings')).status).toBe(403)
    expect((await other.upload(`/admin/bookings/${reference}`, form)).status).toBe(403)
  })

  it('refuses a file that is not a PDF, with a message', async () => {
    const { reference } = await paidBooking('Dev Patel', 4)
    const form = new FormData()
    form.append('files', new Blob(['<script>alert(1)</script>'], { type: 'application/pdf' }), 'report.pdf')
    const refused = await (await site.staff()).upload(`/admin/bookings/${reference}`, form)
    expect(refused.status).toBe(400)
    expect(text(refused.html)).toContain('report.pdf is not a PDF file.')
  })
})
