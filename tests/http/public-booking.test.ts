import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { decodeHtml, fieldState, signUp, text, Visitor } from '../support/visitor'
import { eventually } from '../support/eventually'
import { bookableDate } from '../support/booking-flow'
import { contactForm } from '../support/settings-forms'
import { SITE_SETTINGS_SEED } from '~/db/seed.server'
import { addDays, addHours, formatWeekdayDayMonth, isoWeekday, labInstant, labToday } from '~/lib/lab-time'
import { useTestSite } from '../support/site'

// The public /booking as a browser without JavaScript uses it: three steps, each a page that
// survives a reload, the gateway in between, e-mail over SMTP.

const site = useTestSite()

const details = (overrides: Record<string, string> = {}) => ({
  name: 'Kavya Nair',
  email: 'kavya@example.com',
  phone: '',
  service: 'race',
  date: bookableDate(3),
  time: '10:00',
  notes: '',
  intent: 'details',
  website_url: '',
  ...overrides,
})

/** Steps 1 and 2 and the gateway; returns where the gateway sends the customer back. */
async function bookAndPay(visitor: Visitor, values: Record<string, string>, outcome: 'success' | 'failure' | 'pending') {
  const step1 = await visitor.post('/booking', values)
  expect(step1.status).toBe(302)
  expect(step1.location).toBe('/booking?step=2')
  const pay = await visitor.post('/booking?step=2', { intent: 'pay', website_url: '' })
  expect(pay.status).toBe(302)
  expect(pay.location).toMatch(new RegExp(`^${site.url}/sandbox-gateway/checkout/`))
  const back = await visitor.post(pay.location!, { outcome })
  return back.location!
}

/** The dates step 1 offers, as its date list has them. */
const offeredDates = (html: string) => [...html.matchAll(/<option value="(\d{4}-\d\d-\d\d)"/g)].map((match) => match[1]!)

/** Staff, signed in once for the file. */
const staff = site.sharedStaff

describe('step 2: payment', () => {
  it('says before payment when the session starts within 24 hours and could then never be cancelled or moved', async () => {
    const soon = bookableDate(1)
    const late = new Visitor(site.url)
    expect((await late.post('/booking', details({ email: 'soon@example.com', date: soon, time: '17:00' }))).location).toBe('/booking?step=2')
    const withinDay = new Date() >= addHours(labInstant(soon, '17:00'), -24)
    expect(text((await late.get('/booking?step=2')).html).includes('This session starts within 24 hours: once you pay, it cannot be cancelled or moved.')).toBe(withinDay)
    const later = new Visitor(site.url)
    expect((await later.post('/booking', details({ email: 'later@example.com', date: bookableDate(4) }))).location).toBe('/booking?step=2')
    expect(text((await later.get('/booking?step=2')).html)).not.toContain('within 24 hours')
  })
})

describe('step 1: details', () => {
  it('says "Missing information" and puts a message next to each missing field', async () => {
    const response = await new Visitor(site.url).post('/booking', { intent: 'details', name: '', email: '', website_url: '' })
    expect(response.status).toBe(400)
    expect(text(response.html)).toContain('Missing information - Please fill in all required fields.')
    expect(fieldState(response.html, 'name').invalid).toBe(true)
    expect(fieldState(response.html, 'email').invalid).toBe(true)
    expect(text(response.html)).toContain('Please choose a service')
    expect(text(response.html)).toContain('Please choose a date')
    expect(text(response.html)).toContain('Please choose a time')
  })

  it('"Show available times" comes back with what was typed and the free times of the date', async () => {
    const response = await new Visitor(site.url).post('/booking', { ...details({ time: '' }), intent: 'times' })
    expect(response.status).toBe(200)
    expect(response.html).toMatch(/value="Kavya Nair"/)
    const page = text(response.html)
    expect(page).toMatch(/9:00 AM .*10:00 AM .*5:00 PM/)
    expect(response.html.match(/name="time"/g)).toHaveLength(9)
    expect(page).not.toContain('Missing information')
  })

  it('calls a time whose seats are all taken "Full", as /book-slot does', async () => {
    const date = bookableDate(6)
    // Two guests reach the gateway for the same time: its two seats are held for them.
    for (const email of ['first.full@example.com', 'second.full@example.com']) {
      const guest = new Visitor(site.url)
      expect((await guest.post('/booking', details({ email, date, time: '12:00' }))).location).toBe('/booking?step=2')
      expect((await guest.post('/booking?step=2', { intent: 'pay', website_url: '' })).location).toMatch(/\/sandbox-gateway\/checkout\//)
    }
    const page = text((await new Visitor(site.url).post('/booking', { ...details({ date, time: '' }), intent: 'times' })).html)
    expect(page).toMatch(/12:00 PM Full 1:00 PM/)
    expect(page).not.toContain('Booked')
  })

  it('refuses a time that is not free', async () => {
    const date = bookableDate(7)
    for (const email of ['first.taken@example.com', 'second.taken@example.com']) {
      const guest = new Visitor(site.url)
      expect((await guest.post('/booking', details({ email, date, time: '16:00' }))).location).toBe('/booking?step=2')
      expect((await guest.post('/booking?step=2', { intent: 'pay', website_url: '' })).location).toMatch(/\/sandbox-gateway\/checkout\//)
    }
    const response = await new Visitor(site.url).post('/booking', details({ date, time: '16:00' }))
    expect(response.status).toBe(409)
    expect(text(response.html)).toContain('This time is not available. Please choose another time.')
  })

  it('offers only the dates with open times, and says on which of them the lab is closed', async () => {
    const page = await new Visitor(site.url).get('/booking')
    expect(page.status).toBe(200)
    const offered = offeredDates(page.html)
    // The lab's hours are set for four weeks from tomorrow, Sundays closed; nothing later is offered.
    const today = labToday()
    expect(offered.length).toBeGreaterThanOrEqual(20)
    expect(offered.every((date) => date >= today && date <= addDays(today, 29) && isoWeekday(date) !== 7)).toBe(true)
    expect(offered).toContain(bookableDate(3))
    expect(page.html).not.toContain('type="date"')
    expect(page.html).toMatch(/<label for="([^"]+)"[^>]*>Date<\/label><select id="\1"/)
    const firstSunday = (() => {
      for (let date = offered[0]!; ; date = addDays(date, 1)) if (isoWeekday(date) === 7) return date
    })()
    expect(text(page.html)).toContain('Only dates with open times are listed.')
    expect(text(page.html)).toMatch(new RegExp(`The lab is closed on [^.]*${formatWeekdayDayMonth(firstSunday)}`))

    // A holiday staff mark leaves the list and is said to be closed.
    const holiday = offered[offered.length - 2]!
    const marked = await (await staff()).post('/admin/availability', { intent: 'holiday', from: holiday, to: holiday, weekdays: String(isoWeekday(holiday)) })
    expect(marked.status).toBe(302)
    // Signed in, the page is rendered afresh rather than from the copy kept for visitors.
    const after = await (await staff()).get('/booking')
    expect(offeredDates(after.html)).toEqual(offered.filter((date) => date !== holiday))
    expect(text(after.html)).toMatch(new RegExp(`The lab is closed on [^.]*${formatWeekdayDayMonth(holiday)}`))
    // The copy kept for visitors is dropped too, as soon as the database announces the change.
    const visitorSees = await eventually(
      async () => offeredDates((await new Visitor(site.url).get('/booking')).html),
      (dates) => !dates.includes(holiday),
      { everyMs: 50 },
    )
    expect(visitorSees).toEqual(offered.filter((date) => date !== holiday))
  })

  it('refuses a date without times with a message next to the date, never an error page', async () => {
    const sunday = (() => {
      for (let offset = 2; ; offset += 1) {
        const date = addDays(labToday(), offset)
        if (isoWeekday(date) === 7) return date
      }
    })()
    const message = 'There are no open times on this date. Please choose another date.'
    // A closed day, and a day past the dates the lab has opened.
    for (const date of [sunday, addDays(labToday(), 60)]) {
      const response = await new Visitor(site.url).post('/booking', details({ date }))
      expect([date, response.status]).toEqual([date, 400])
      expect(fieldState(response.html, 'date')).toEqual({ invalid: true, message })
      expect(text(response.html)).not.toContain('This time is not available')
      const times = await new Visitor(site.url).post('/booking', { ...details({ date, time: '' }), intent: 'times' })
      expect([date, times.status]).toEqual([date, 400])
      expect(fieldState(times.html, 'date')).toEqual({ invalid: true, message })
      expect(times.html).not.toMatch(/name="time"/)
    }
  })
})

describe('steps 2 and 3', () => {
  it('details → summary (kept on reload) → gateway → Booking Confirmed! with an SWP- id, and the e-mail with its .ics and private link', async () => {
    const guest = new Visitor(site.url)
    const values = details({ name: 'Kavya Nair', email: 'kavya@example.com', service: 'both', time: '11:00', notes: 'Coach will attend' })
    const step1 = await guest.post('/booking', values)
    for (let reload = 0; reload < 2; reload += 1) {
      const summary = text((await guest.get(step1.location!)).html)
      expect(summary).toMatch(/Service Race \+ Biomechanical Analysis Session Date and time \w+day, .* at 11:00 AM/)
      expect(summary).toContain('Total ₹5,999.00')
      expect(summary).toContain('Complete Booking')
      expect(summary).not.toMatch(/card number|CVV|expiry/i)
    }
    const pay = await guest.post('/booking?step=2', { intent: 'pay', website_url: '' })
    const back = await guest.post(pay.location!, { outcome: 'success' })
    expect(back.location).toMatch(new RegExp(`^${site.url}/booking\\?step=3&orderId=SLOT_[\\w-]+&key=[\\w-]{32}$`))
    for (let reload = 0; reload < 2; reload += 1) {
      const confirmation = text((await guest.get(back.location!)).html)
      expect(confirmation).toContain('Booking Confirmed!')
      expect(confirmation).toContain('Service Race + Biomechanical Analysis Session')
      expect(confirmation).toContain('Location PDCSE, Bangalore')
      expect(confirmation).toMatch(/Booking ID SWP-\d{10}/)
      expect(confirmation).toContain('has been sent to kavya@example.com')
      expect(confirmation).toContain('Return to Home')
    }
    // The draft is gone once the booking is made: /booking starts afresh.
    expect((await guest.get('/booking?step=2')).location).toBe('/booking')

    const mail = await site.sink.waitForMailTo('kavya@example.com', /Booking confirmed/)
    expect(mail.raw).toMatch(/Content-Type: text\/calendar/)
    const link = /(http:\/\/[^\s]+\/booking\/view\?ref=SWP-\d+&key=[\w-]+)/.exec(mail.text)?.[1]
    expect(link).toBeDefined()
    const view = text((await new Visitor(site.url).get(link!)).html)
    expect(view).toContain('Race + Biomechanical Analysis Session')
    expect(view).toContain('Status Confirmed')
    expect((await new Visitor(site.url).get(link!.replace(/key=[\w-]+/, `key=${'b'.repeat(32)}`))).status).toBe(404)

    // Registering an account with the same address later: the booking is in My Bookings.
    const account = await signUp(new Visitor(site.url), site.sink, { email: 'kavya@example.com', name: 'Kavya Nair' })
    const mine = text((await account.get('/my-bookings')).html)
    expect(mine).toContain('Race + Biomechanical Analysis Session')
    expect(mine).toContain('₹5,999.00')
  })

  it('a declined payment returns to step 2 with a clear message and the details kept', async () => {
    const guest = new Visitor(site.url)
    const back = await bookAndPay(guest, details({ name: 'Ravi Kumar', email: 'ravi@example.com', time: '12:00' }), 'failure')
    const step3 = await guest.get(back)
    expect(step3.status).toBe(302)
    expect(step3.location).toBe('/booking?step=2&payment=failed')
    const step2 = text((await guest.get(step3.location!)).html)
    expect(step2).toContain('Your payment did not go through, and nothing was charged. Your details are kept')
    expect(step2).toContain('Ravi Kumar')
    expect(step2).toContain('Complete Booking')
    // And trying again works.
    const retry = await guest.post('/booking?step=2', { intent: 'pay', website_url: '' })
    expect(retry.location).toMatch(/\/sandbox-gateway\/checkout\//)
  })

  it('a payment the gateway does not confirm in time says to contact support, and Contact Support leads to the lab’s e-mail and phone', async () => {
    const saved = await (await staff()).post('/admin/settings', contactForm({ phone: '+91 80 4123 4567', supportEmail: 'support@lab.example' }))
    expect(saved.status).toBe(302)
    const guest = new Visitor(site.url)
    const back = await bookAndPay(guest, details({ name: 'Meera Iyer', email: 'meera@example.com', date: bookableDate(8), time: '09:00' }), 'pending')
    const waiting = await guest.get(back)
    expect(text(waiting.html)).toContain('Verifying Payment')
    expect(text(waiting.html)).not.toContain('Contact Support')
    const refresh = /<noscript><meta http-equiv="refresh" content="3;url=([^"]+)">/.exec(waiting.html)
    expect(decodeHtml(refresh![1]!)).toMatch(/key=[\w-]{32}&since=\d+/)

    const timedOut = await guest.get(decodeHtml(refresh![1]!).replace(/since=\d+/, `since=${Date.now() - 121_000}`))
    const page = text(timedOut.html)
    expect(page).toContain('Payment verification timeout. Please contact support.')
    expect(timedOut.html).toMatch(/<a href="#support"[^>]*>Contact Support<\/a>/)
    expect(timedOut.html).toMatch(/<section id="support"/)
    expect(page).toContain(`Phone +91 80 4123 4567 (${SITE_SETTINGS_SEED.phoneHours})`)
    expect(timedOut.html).toMatch(/<a href="mailto:support@lab.example"/)
    expect(timedOut.html).not.toContain('http-equiv="refresh"')
  })

  it('a guest reschedules and cancels through the private link, each confirmed from the mailbox, and gets a refund', async () => {
    const guest = new Visitor(site.url)
    await bookAndPay(guest, details({ name: 'Guest Swimmer', email: 'guest.swimmer@example.com', date: bookableDate(4), time: '15:00' }), 'success')
    const mail = await site.sink.waitForMailTo('guest.swimmer@example.com', /Booking confirmed/)
    const link = /http:\/\/[^\s]+(\/booking\/view\?ref=(SWP-\d+)&key=([\w-]+))/.exec(mail.text)!
    const [, viewPath, reference, key] = link
    const stranger = new Visitor(site.url)
    const view = decodeHtml((await stranger.get(viewPath!)).html)
    expect(view).toContain(`href="/bookings/${reference}/reschedule?key=${key}"`)
    expect(view).toContain(`href="/bookings/${reference}/cancel?key=${key}"`)
    expect(view).toMatch(/href="\/receipts\/SLOT_[\w-]+\?key=[\w-]{32}"/)
    // Without the key, or with another, the change pages are closed.
    expect((await stranger.get(`/bookings/${reference}/cancel`)).status).toBe(302)
    expect((await stranger.get(`/bookings/${reference}/cancel?key=${'z'.repeat(32)}`)).status).toBe(404)

    expect(decodeHtml((await stranger.get(`/bookings/${reference}/reschedule?key=${key}`)).html)).toMatch(/href="\/bookings\/SWP-\d+\/reschedule\?key=[\w-]+&month=[\d-]+&date=[\d-]+"/)
    // Moved to a date far enough ahead that the booking can still be cancelled after (24 hours before it), whatever the time of day.
    const target = bookableDate(6)
    const reschedule = decodeHtml((await stranger.get(`/bookings/${reference}/reschedule?key=${key}&month=${target.slice(0, 7)}`)).html)
    const dateHref = [...reschedule.matchAll(/href="(\/bookings\/SWP-\d+\/reschedule\?key=[\w-]+&month=[\d-]+&date=([\d-]+))"/g)].find((match) => match[2] === target)!
    const day = decodeHtml((await stranger.get(dateHref[1]!)).html)
    const time = /href="(\/bookings\/SWP-\d+\/reschedule\?key=[\w-]+&month=[\d-]+&date=[\d-]+&time=(\d\d)%3A(\d\d))"/.exec(day)!
    expect(text(day)).not.toContain('Move my booking to')
    const chosen = decodeHtml((await stranger.get(time[1]!)).html)
    expect(text(chosen)).toContain('E-mail me a link to confirm the new time')
    expect(text(chosen)).not.toContain('Move my booking to')
    const before = text((await stranger.get(viewPath!)).html)

    // The private link alone does not move the booking either: it e-mails the booking's address a link to confirm the new time.
    const askedToMove = await stranger.post(time[1]!, { date: dateHref[2]!, time: `${time[2]}:${time[3]}`, website_url: '' })
    expect(askedToMove.status).toBe(200)
    expect(text(askedToMove.html)).toContain("We have e-mailed a confirmation link to the booking's e-mail address.")
    expect(text((await stranger.get(viewPath!)).html)).toBe(before)
    const moveMail = await site.sink.waitForMailTo('guest.swimmer@example.com', /Confirm the new time/)
    const movePath = decodeHtml(/http:\/\/[^\s]+(\/bookings\/SWP-\d+\/reschedule\?key=[\w-]+&date=[\d-]+&time=[\d%A]+&until=\d+&confirm=[\w-]+)/.exec(moveMail.text)![1]!)
    expect(movePath.startsWith(`/bookings/${reference}/reschedule?key=${key}&date=${dateHref[2]}&time=${time[2]}%3A${time[3]}&`)).toBe(true)

    // Opening the e-mailed link changes nothing; its button moves the booking to the time it names, once.
    const movePage = await stranger.get(movePath)
    expect(text(movePage.html)).toContain('Move my booking to')
    expect(decodeHtml(movePage.html)).toContain(`action="${movePath}"`)
    expect(text((await stranger.get(viewPath!)).html)).toBe(before)
    const otherTime = movePath.replace(/time=(\d\d)/, (_, hour: string) => `time=${String(Number(hour) === 9 ? 10 : 9).padStart(2, '0')}`)
    expect((await stranger.post(otherTime, { date: dateHref[2]!, time: '09:00', website_url: '' })).status).toBe(400)
    expect(text((await stranger.get(viewPath!)).html)).toBe(before)
    const moved = await stranger.post(movePath, { date: dateHref[2]!, time: `${time[2]}:${time[3]}`, website_url: '' })
    expect(moved.location).toBe(viewPath)
    await site.sink.waitForMailTo('guest.swimmer@example.com', /Booking rescheduled/)
    expect(text((await stranger.get(viewPath!)).html)).not.toBe(before)
    const movedAgain = await stranger.post(movePath, { date: dateHref[2]!, time: `${time[2]}:${time[3]}`, website_url: '' })
    expect(movedAgain.status).toBe(400)
    expect(text(movedAgain.html)).toContain('This confirmation link has expired or has already been used.')

    // The private link alone does not cancel: it e-mails the booking's address a link to confirm.
    const cancelPage = text((await stranger.get(`/bookings/${reference}/cancel?key=${key}`)).html)
    expect(cancelPage).toContain('E-mail me a link to confirm the cancellation')
    expect(cancelPage).not.toContain('Cancel my booking')
    const asked = await stranger.post(`/bookings/${reference}/cancel?key=${key}`, { website_url: '' })
    expect(asked.status).toBe(200)
    expect(text(asked.html)).toContain("We have e-mailed a confirmation link to the booking's e-mail address.")
    expect(text((await stranger.get(viewPath!)).html)).toContain('Status Confirmed')
    const confirmation = await site.sink.waitForMailTo('guest.swimmer@example.com', /Confirm the cancellation/)
    const confirmPath = decodeHtml(/http:\/\/[^\s]+(\/bookings\/SWP-\d+\/cancel\?key=[\w-]+&until=\d+&confirm=[\w-]+)/.exec(confirmation.text)![1]!)
    expect(confirmPath.startsWith(`/bookings/${reference}/cancel?key=${key}&`)).toBe(true)

    // Opening the e-mailed link (as a mail scanner would) cancels nothing; its button does, once.
    const confirmPage = await stranger.get(confirmPath)
    expect(text(confirmPage.html)).toContain('Cancel my booking')
    expect(decodeHtml(confirmPage.html)).toContain(`action="${confirmPath}"`)
    expect(text((await stranger.get(viewPath!)).html)).toContain('Status Confirmed')
    const altered = confirmPath.replace(/confirm=([\w-])/, (_, first: string) => `confirm=${first === 'A' ? 'B' : 'A'}`)
    const refused = await stranger.post(altered, { website_url: '' })
    expect(refused.status).toBe(400)
    expect(text(refused.html)).toContain('This confirmation link has expired or has already been used.')
    expect(text((await stranger.get(viewPath!)).html)).toContain('Status Confirmed')

    const cancelled = await stranger.post(confirmPath, { website_url: '' })
    expect(cancelled.location).toBe(viewPath)
    expect(text((await stranger.get(viewPath!)).html)).toMatch(/Status (Cancelled|Refund in progress|Refunded)/)
    await site.sink.waitForMailTo('guest.swimmer@example.com', /Refund completed/, 30_000)
    const again = await stranger.post(confirmPath, { website_url: '' })
    expect(again.status).toBe(400)
    expect(site.sink.messages.filter((message) => message.to.includes('guest.swimmer@example.com') && /Booking cancelled/.test(message.raw))).toHaveLength(1)
    expect(site.sink.messages.filter((message) => message.to.includes('guest.swimmer@example.com') && /Refund completed/.test(message.raw))).toHaveLength(1)
  })

  it("a guest link ends 90 days after the session: the booking, its receipt and its change pages say so, and how to see it", async () => {
    const guest = new Visitor(site.url)
    await bookAndPay(guest, details({ name: 'Old Guest', email: 'old.guest@example.com', date: bookableDate(5), time: '11:00' }), 'success')
    const mail = await site.sink.waitForMailTo('old.guest@example.com', /Booking confirmed/)
    const [, viewPath, reference, key] = /http:\/\/[^\s]+(\/booking\/view\?ref=(SWP-\d+)&key=([\w-]+))/.exec(mail.text)!
    const stranger = new Visitor(site.url)
    const fresh = await stranger.get(viewPath!)
    expect(fresh.status).toBe(200)
    expect(text(fresh.html)).toMatch(/It works until \d+ \w+ \d{4}/)
    const receiptPath = /href="(\/receipts\/[^"]+\?key=[^"]+)"/.exec(decodeHtml(fresh.html))![1]!
    expect((await stranger.get(receiptPath)).status).toBe(200)
    // Moving the session into the past needs the server's database, reachable on a PostgreSQL run;
    // the rule itself is proved on both in guest-links.server.test.ts.
    if (!site.server.databaseUrl) return
    const client = new pg.Client({ connectionString: site.server.databaseUrl })
    await client.connect()
    try {
      await client.query(`UPDATE booking_days SET date = date - 200 WHERE booking_id = (SELECT id FROM bookings WHERE reference = $1)`, [reference])
      await client.query(`UPDATE bookings SET created_at = created_at - interval '200 days', confirmed_at = confirmed_at - interval '200 days' WHERE reference = $1`, [reference])
    } finally {
      await client.end()
    }
    const expired = await stranger.get(viewPath!)
    expect(expired.status).toBe(410)
    expect(text(expired.html)).toContain('This link has expired')
    expect(text(expired.html)).toContain('sign in, or create an account, with the e-mail address you booked with')
    expect(text(expired.html)).not.toContain('Old Guest')
    const expiredReceipt = await stranger.get(receiptPath)
    expect(expiredReceipt.status).toBe(410)
    expect(expiredReceipt.headers.get('Cache-Control')).toBe('private, no-store')
    expect((await stranger.get(`/bookings/${reference}/cancel?key=${key}`)).status).toBe(410)
    expect((await stranger.post(`/bookings/${reference}/cancel?key=${key}`, { website_url: '' })).status).toBe(410)
    expect((await stranger.get(`/bookings/${reference}/reschedule?key=${key}`)).status).toBe(410)
    // A wrong key still answers 404, as for a booking that does not exist.
    expect((await stranger.get(`/booking/view?ref=${reference}&key=${'q'.repeat(32)}`)).status).toBe(404)
  })

  it('step 2 without details goes back to step 1; step 3 without a valid key shows nothing', async () => {
    const visitor = new Visitor(site.url)
    expect((await visitor.get('/booking?step=2')).location).toBe('/booking')
    expect((await visitor.get('/booking?step=3&orderId=SLOT_1_1_x&key=nope')).location).toBe('/booking')
  })
})
