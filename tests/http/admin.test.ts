import { describe, expect, it } from 'vitest'
import { addDays, addMonths, isoWeekday, labToday } from '~/lib/lab-time'
import { bookAndPay } from '../support/booking-flow'
import { decodeHtml, text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// The admin console as staff use it without JavaScript: opening hours customers then see, bookings
// made at the desk, the CSV, cancelling with a refund, attendance; and that nobody else gets in.

const site = useTestSite()

/** Mondays to Saturdays of the first two weeks of a month beyond the seeded availability. */
const farMonth = addMonths(labToday().slice(0, 7), 2)
const farDates = Array.from({ length: 14 }, (_, index) => addDays(`${farMonth}-01`, index)).filter((date) => isoWeekday(date) !== 7)

const openDates = async (visitor: Visitor, month: string) => [...decodeHtml((await visitor.get(`/book-slot?month=${month}`)).html).matchAll(/href="\/book-slot\?month=[\d-]+&date=([\d-]+)"/g)].map((match) => match[1])
const times = async (visitor: Visitor, date: string) => [...(await visitor.get(`/book-slot?month=${date.slice(0, 7)}&date=${date}`)).html.matchAll(/<button(?=[^>]*name="time")[^>]*value="(\d\d:\d\d)"/g)].map((match) => match[1])

describe('who gets in', () => {
  const pages = ['/admin', '/admin/availability', '/admin/bookings', '/admin/bookings/new', '/admin/bookings.csv', '/admin/bookings/SWP-0000000000']

  it('guests are sent to sign in, customers are refused, and neither can post to an admin form', async () => {
    const guest = new Visitor(site.url)
    for (const page of pages) {
      const response = await guest.get(page)
      expect(response.status, page).toBe(302)
      expect(response.location, page).toMatch(/^\/login/)
    }
    const swimmer = await site.customer('Curious Swimmer')
    for (const page of pages) expect((await swimmer.get(page)).status, page).toBe(403)
    const form = { intent: 'create', from: farDates[0]!, to: farDates.at(-1)!, weekdays: '1', startTime: '10:00', endTime: '13:00', slotDurationMinutes: '60', capacity: '1' }
    expect((await swimmer.post('/admin/availability', form)).status).toBe(403)
    expect((await guest.post('/admin/availability', form)).status).toBe(302)
    expect(await openDates(swimmer, farMonth)).toEqual([])
  })
})

describe('a page that failed', () => {
  it('says so inside the admin navigation: a booking, customer or camp that does not exist, and a form about one', async () => {
    const admin = await site.staff()
    for (const page of ['/admin/bookings/SWP-0000000000', '/admin/customers/999999999', '/admin/camps/no-such-camp']) {
      const response = await admin.get(page)
      expect(response.status, page).toBe(404)
      expect(response.html, page).toContain('aria-label="Admin"')
      expect(text(response.html), page).toContain('Oops! Page not found')
    }
    const price = await admin.post('/admin/settings', { intent: 'price', code: 'no-such-item', price: '100', regularPrice: '' })
    expect(price.status).toBe(404)
    expect(price.html).toContain('aria-label="Admin"')
    expect(text(price.html)).toContain('Oops! Page not found')
    // The refusal of someone who is not staff shows no admin navigation.
    const refused = await (await site.customer('Nosy Swimmer')).get('/admin')
    expect(refused.status).toBe(403)
    expect(refused.html).not.toContain('aria-label="Admin"')
  })
})

describe('opening hours', () => {
  it('explains bad input next to the field and keeps what was typed', async () => {
    const admin = await site.staff()
    const empty = await admin.post('/admin/availability', { intent: 'create', from: '', startTime: '', endTime: '', slotDurationMinutes: '', capacity: '' })
    expect(empty.status).toBe(400)
    for (const message of ['Choose the first date', 'Choose at least one weekday', 'Enter the opening time as HH:MM', 'Enter the slot length in whole minutes', 'Enter how many people a slot takes']) expect(text(empty.html)).toContain(message)
    const backwards = await admin.post('/admin/availability', { intent: 'create', from: farDates[0]!, to: farDates[0]!, weekdays: '1', startTime: '13:00', endTime: '10:00', slotDurationMinutes: '60', capacity: '0' })
    expect(backwards.status).toBe(400)
    expect(text(backwards.html)).toContain('The closing time must be after the opening time')
    expect(text(backwards.html)).toContain('A slot takes at least 1 person')
    expect(backwards.html).toContain(`value="${farDates[0]}"`)
  })

  it('opens a range of weekdays that customers can book; overlapping hours are refused; a closed time slot disappears', async () => {
    const admin = await site.staff()
    const range = { intent: 'create', from: farDates[0]!, to: farDates.at(-1)!, startTime: '10:00', endTime: '13:00', slotDurationMinutes: '60', capacity: '1' }
    const body = new URLSearchParams(range)
    for (const weekday of ['1', '2', '3', '4', '5', '6']) body.append('weekdays', weekday)
    const response = await admin.post('/admin/availability', body)
    expect([response.status, response.location]).toEqual([302, `/admin/availability?month=${farMonth}`])

    const swimmer = await site.customer('Early Booker')
    // A date is open when a 3-day session starting on it finds its other two days open after it.
    expect(await openDates(swimmer, farMonth)).toEqual(farDates.slice(0, -2))
    const first = farDates[0]!
    expect(await times(swimmer, first)).toEqual(['10:00', '11:00', '12:00'])

    // The same hours again overlap every date.
    const again = await admin.post('/admin/availability', body)
    expect(again.status).toBe(409)
    expect(text(again.html)).toContain(`Other opening hours (or a holiday) already cover part of this time on ${farDates.length} dates: ${farDates.join(', ')}`)

    // Close 11:00 on the first date from its opening-hours page.
    const month = decodeHtml((await admin.get(`/admin/availability?month=${farMonth}`)).html)
    const windowPath = /href="(\/admin\/availability\/\d+)"/.exec(month.slice(month.indexOf('id="month-heading"')))![1]!
    const windowPage = await admin.get(windowPath)
    expect(windowPage.status).toBe(200)
    expect((await admin.post(windowPath, { intent: 'close', start: '11:00' })).status).toBe(302)
    expect(await times(swimmer, first)).toEqual(['10:00', '12:00'])
    expect((await admin.post(windowPath, { intent: 'close', start: 'soon' })).status).toBe(400)

    // A holiday on the last date takes it off the calendar.
    const last = farDates.at(-1)!
    expect((await admin.post('/admin/availability', { intent: 'holiday', from: last, to: last, weekdays: String(isoWeekday(last)) })).status).toBe(302)
    expect(await openDates(swimmer, farMonth)).toEqual(farDates.slice(0, -3))
  })
})

describe('bookings', () => {
  it('staff book a session paid at the lab for a customer, who sees it in My Bookings with its receipt; a full time is refused', async () => {
    const admin = await site.staff()
    const form = await admin.get('/admin/bookings/new')
    expect(form.status).toBe(200)
    const invalid = await admin.post('/admin/bookings/new', { name: 'A', swimmerName: 'K', email: 'nope', product: 'single_race', date: '', time: '9', origin: 'offline', amount: 'thirty', paymentMethod: '' })
    expect(invalid.status).toBe(400)
    for (const message of ['Name must be at least 2 characters', "Swimmer's name must be at least 2 characters", 'Invalid email address', 'Choose the date of the (first) session', 'Enter the start time as HH:MM', 'Enter the amount paid in rupees, for example 30,000', 'Choose how it was paid']) expect(text(invalid.html)).toContain(message)

    const swimmer = await site.customer('Desk Customer')
    const date = farDates[1]!
    const booking = { name: 'Desk Customer', email: 'deskcustomer@example.com', phone: '9845012345', product: 'single_race', date, time: '10:00', origin: 'offline', amount: '2,500', paymentMethod: 'Cash', notes: '' }
    const made = await admin.post('/admin/bookings/new', booking)
    expect(made.status).toBe(302)
    const reference = /^\/admin\/bookings\/(SWP-\d{10})$/.exec(made.location!)![1]!
    const detail = text((await admin.get(made.location!)).html)
    expect(detail).toContain('Desk Customer')
    expect(detail).toContain('₹2,500.00')

    const mine = text((await swimmer.get('/my-bookings')).html)
    expect(mine).toContain(reference)
    const orderId = /href="\/receipts\/(OFFL[^"]+)"/.exec((await swimmer.get('/my-bookings')).html)![1]!
    expect((await swimmer.get(`/receipts/${orderId}`)).headers.get('Content-Type')).toBe('application/pdf')
    await site.sink.waitForMailTo('deskcustomer@example.com', new RegExp(reference))

    // Capacity 1: the time is taken for customers and for staff.
    expect(await times(swimmer, date)).not.toContain('10:00')
    const full = await admin.post('/admin/bookings/new', { ...booking, email: 'someone@example.com' })
    expect(full.status).toBe(409)
    expect(text(full.html)).toContain('There is no free seat at this time on every day of the session.')

    // Attendance, on the booking's page.
    expect((await admin.post(`/admin/bookings/${reference}`, { intent: 'attendance', attendance: 'attended' })).status).toBe(302)
    expect((await admin.get(`/admin/bookings/${reference}`)).html).toMatch(/aria-pressed="true"[^>]*>\s*Mark attended/)

    // The list and its CSV share filters.
    const listed = text((await admin.get(`/admin/bookings?q=${encodeURIComponent('deskcustomer@')}`)).html)
    expect(listed).toContain(reference)
    const csv = await admin.get(`/admin/bookings.csv?q=${encodeURIComponent('deskcustomer@')}&status=confirmed`)
    expect(csv.status).toBe(200)
    expect(csv.headers.get('Content-Type')).toMatch(/^text\/csv/)
    expect(csv.headers.get('Content-Disposition')).toMatch(/attachment; filename="bookings-\d{4}-\d\d-\d\d\.csv"/)
    const lines = csv.html.replace(/^\uFEFF/, '').trim().split(/\r?\n/)
    expect(lines[0]).toBe('Booking ID,Swimmer,Customer,E-mail,Phone,Product,Days,First day,Time,Status,Amount (₹),Booked on')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain(`${reference},Desk Customer,Desk Customer,deskcustomer@example.com,'+919845012345,`)
    expect(lines[1]).toContain(',2500.00,')
    const none = await admin.get(`/admin/bookings.csv?q=${encodeURIComponent('deskcustomer@')}&status=cancelled`)
    expect(none.html.replace(/^\uFEFF/, '').trim().split(/\r?\n/)).toHaveLength(1)

    // The overview counts the money, in charts whose labels and figures are text (only the bars are drawn).
    const overview = (await admin.get('/admin')).html
    expect(overview).toMatch(/<svg aria-hidden="true"/)
    expect(text(overview)).toContain('Revenue by product, this financial year Race Analysis Session ₹2,500')
    expect(text(overview)).toMatch(/Camp seats left Camp 1 .*? Batch 1 ?: 30 of 30 left/)
  })

  it('staff cancel a paid online booking with a full refund, and the customer is told', async () => {
    const swimmer = await site.customer('Refund Customer')
    await bookAndPay(swimmer, site.url, 'success', 0, { daysAhead: 2 })
    const reference = /Booking ID (SWP-\d{10})/.exec(text((await swimmer.get('/my-bookings')).html))![1]!
    const admin = await site.staff()
    // The first press asks; nothing is cancelled until staff confirm.
    const asked = await admin.post(`/admin/bookings/${reference}`, { intent: 'cancel', refund: 'yes' })
    expect(asked.status).toBe(200)
    expect(text(asked.html)).toContain(`Cancel booking ${reference} and refund ₹30,000.00 to the customer? The customer is e-mailed, and this cannot be undone.`)
    expect(text((await swimmer.get('/my-bookings')).html)).toContain('Confirmed')
    const cancelled = await admin.post(`/admin/bookings/${reference}`, { intent: 'cancel', refund: 'yes', confirm: 'yes' })
    expect(cancelled.status).toBe(302)
    const mail = await site.sink.waitForMailTo('refundcustomer@example.com', /Refund completed/, 30_000)
    expect(mail.text).toContain('₹30,000.00')
    expect(text((await swimmer.get('/my-bookings')).html)).toContain('Refunded')
    // A second cancel is refused, not repeated.
    expect((await admin.post(`/admin/bookings/${reference}`, { intent: 'cancel', refund: 'yes', confirm: 'yes' })).status).toBe(409)
  })
})
