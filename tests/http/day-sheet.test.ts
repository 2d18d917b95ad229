import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { availabilityWindows, bookings } from '~/db/schema'
import { addDays, formatWeekdayDate, labToday } from '~/lib/lab-time'
import { recordBookingDeclaration } from '~/modules/swimmers/consent.server'
import { publishedDay, seedAnalysisDays } from '../support/analysis-days'
import { insertedBooking } from '../support/booking'
import { between, textOf } from '../support/page-text'
import { expectStaffOnly, useTestSite } from '../support/site'
import { Visitor } from '../support/visitor'

// The day sheet as staff use it at the poolside in a browser without JavaScript: everyone coming to a
// venue that date with what staff need to know of each, checking in and no-shows marked from it, each
// refusal told in the row's alert, other days a link away; and nobody else let in.

const DAY = addDays(labToday(), 10)
const OTHER_DAY = addDays(labToday(), 11)

const ids = { venue: 0, otherVenue: 0, day: 0, confirmed: 0, held: 0, minor: 0, elsewhere: 0 }
const refs = { confirmed: '', held: '', minor: '', cancelled: '', elsewhere: '' }

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      const now = new Date()
      // The site's own functions, on its database before it starts.
      await seedAnalysisDays(db, installation, async (coach) => {
        const balewadi = await publishedDay(coach, DAY, now)
        const deccan = await publishedDay(coach, OTHER_DAY, now, {}, 'Deccan Gymkhana pool')
        Object.assign(ids, { venue: balewadi.venueId, day: balewadi.dayId, otherVenue: deccan.venueId })
        const windowOf = async (dayId: number) => (await db.select({ id: availabilityWindows.id, date: availabilityWindows.date }).from(availabilityWindows).where(eq(availabilityWindows.analysisDayId, dayId)))[0]!
        const window = await windowOf(balewadi.dayId)
        let serial = 0
        const book = (start: string, end: string, over: Partial<typeof bookings.$inferInsert>, on = window) => insertedBooking(db, [{ windowId: on.id, date: on.date }], { start, end, now }, { reference: `SWP-80000000${String((serial += 1)).padStart(2, '0')}`, ...over })
        const confirmed = await book('09:20', '09:40', { swimmerName: 'Pavan Public', customerName: 'Pavan Public' })
        const held = await book('09:00', '09:20', { status: 'pending' })
        const minor = await book('09:40', '10:00', { swimmerName: 'Kavya Kumar', swimmerAge: 12, customerName: 'Ravi Kumar', customerPhone: '+919845099999' })
        await recordBookingDeclaration(db, { bookingId: minor.id, guardianName: 'Ravi Kumar', email: 'ravi@example.com', now })
        const cancelled = await book('10:00', '10:20', { status: 'cancelled', swimmerName: 'Gone Away' })
        const elsewhere = await book('09:00', '09:20', { swimmerName: 'Deccan Swimmer' }, await windowOf(deccan.dayId))
        Object.assign(ids, { confirmed: confirmed.id, held: held.id, minor: minor.id, elsewhere: elsewhere.id })
        Object.assign(refs, { confirmed: confirmed.reference, held: held.reference, minor: minor.reference, cancelled: cancelled.reference, elsewhere: elsewhere.reference })
      })
    },
  },
)
const staff = site.sharedStaff

const sheetPath = (venueId = ids.venue, date = DAY) => `/admin/venues/${venueId}/day/${date}`

/** The sheet's rows, as text. */
function rowsOf(html: string) {
  return [...html.matchAll(/<tr class="border-t[^"]*"[^>]*>([\s\S]*?)<\/tr>/g)].map((match) => match[1]!)
}

/** The text of the alert whose element has this id. */
const alertText = (html: string, id: string) => textOf(between(html, `id="${id}"`, '</div>').replace(/^[^>]*>/, ''))

const mark = (bookingId: number, attendance: string) => ({ intent: 'attendance', booking: String(bookingId), attendance })

describe('the day sheet', () => {
  it('lists everyone coming to the venue that date by time: the swimmer and age, the booking, the parent and their number, paid or due, attendance and consent', async () => {
    const html = (await (await staff()).get(sheetPath())).html
    expect(textOf(between(html, '<h1', '</h1>'))).toBe(`Day sheet: Balewadi Aquatics, ${formatWeekdayDate(DAY)}`)
    const rows = rowsOf(html)
    expect(rows.map(textOf)).toEqual([
      expect.stringMatching(new RegExp(`^Time 9:00 AM - 9:20 AM Swimmer Hema Host Age not asked Adult: their own Booking ${refs.held} Not paid: ₹1,500.00 due Held unpaid until \\d+:\\d\\d [AP]M Parent Hema Host \\+91 98450 12345 Attendance Not yet$`)),
      `Time 9:20 AM - 9:40 AM Swimmer Pavan Public Age not asked Adult: their own Booking ${refs.confirmed} Paid Parent Pavan Public +91 98450 12345 Attendance Not yet Check in Pavan Public No-show Pavan Public`,
      `Time 9:40 AM - 10:00 AM Swimmer Kavya Kumar 12 years Parent’s consent given (Ravi Kumar) Booking ${refs.minor} Paid Parent Ravi Kumar +91 98450 99999 Attendance Not yet Check in Kavya Kumar No-show Kavya Kumar`,
    ])
    expect(rows[1]).toContain(`href="/admin/bookings/${refs.confirmed}"`)
    expect(rows[2]).toContain('href="tel:+919845099999"')
    // A seat held while its customer pays cannot be marked yet; a cancelled booking and another venue's are not on the sheet.
    expect(rows[0]).not.toContain('name="attendance"')
    expect(html).not.toContain(refs.cancelled)
    expect(html).not.toContain(refs.elsewhere)
    expect(textOf(html)).toContain('3 booked, 0 checked in, 1 held unpaid.')
  })

  it('goes to another day by the links and the date picker, which works without JavaScript', async () => {
    const admin = await staff()
    const html = (await admin.get(sheetPath())).html
    expect(html).toContain(`href="${sheetPath(ids.venue, addDays(DAY, -1))}"`)
    expect(html).toContain(`href="${sheetPath(ids.venue, addDays(DAY, 1))}"`)
    const picked = await admin.get(`${sheetPath()}?date=${OTHER_DAY}`)
    expect([picked.status, picked.location]).toEqual([302, sheetPath(ids.venue, OTHER_DAY)])
    expect(textOf((await admin.get(sheetPath(ids.venue, OTHER_DAY))).html)).toContain('Nobody is booked at Balewadi Aquatics on this date.')
    expect(rowsOf((await admin.get(sheetPath(ids.otherVenue, OTHER_DAY))).html).map(textOf)).toEqual([expect.stringContaining(refs.elsewhere)])
    expect((await admin.get(`${sheetPath()}?date=2026-02-30`)).status).toBe(404)
  })

  it('is linked from the analysis day’s page, one per date, the venue’s page, its calendar, and the bookings (the lab today)', async () => {
    const admin = await staff()
    expect((await admin.get(`/admin/analysis-days/${ids.day}`)).html).toContain(`href="${sheetPath()}"`)
    expect((await admin.get(`/admin/venues/${ids.venue}`)).html).toContain(`href="${sheetPath(ids.venue, labToday())}"`)
    expect((await admin.get(`/admin/availability?venue=${ids.venue}&month=${DAY.slice(0, 7)}`)).html).toContain(`href="${sheetPath()}"`)
    const home = /href="\/admin\/venues\/(\d+)\/day\/([\d-]+)"/.exec((await admin.get('/admin/bookings')).html)
    expect(home?.[2]).toBe(labToday())
    expect(textOf((await admin.get(sheetPath(Number(home![1]), labToday()))).html)).toContain('Day sheet: ')
  })

  it('checks a swimmer in and marks a no-show through the booking’s attendance, with its audit entry, and takes the mark off', async () => {
    const admin = await staff()
    const checkedIn = await admin.post(sheetPath(), mark(ids.confirmed, 'attended'))
    expect([checkedIn.status, checkedIn.location]).toEqual([302, sheetPath()])
    let html = (await admin.get(sheetPath())).html
    expect(textOf(html)).toContain('Pavan Public checked in')
    expect(textOf(rowsOf(html)[1]!)).toContain('Attendance Checked in No-show Pavan Public Not yet Pavan Public')
    expect(textOf(html)).toContain('3 booked, 1 checked in, 1 held unpaid.')
    expect(textOf((await admin.get(`/admin/bookings/${refs.confirmed}`)).html)).toContain('Attendance Attended')
    expect(textOf((await admin.get('/admin/audit')).html)).toContain(`Marked ${refs.confirmed} as attended`)

    expect((await admin.post(sheetPath(), mark(ids.minor, 'no_show'))).status).toBe(302)
    html = (await admin.get(sheetPath())).html
    expect(textOf(rowsOf(html)[2]!)).toContain('Attendance No-show Check in Kavya Kumar Not yet Kavya Kumar')

    expect((await admin.post(sheetPath(), mark(ids.minor, 'none'))).status).toBe(302)
    expect(textOf(rowsOf((await admin.get(sheetPath())).html)[2]!)).toContain('Attendance Not yet Check in')
  })

  it('refuses a held booking, another venue’s or date’s, and a mark it does not know, in the row’s alert, changing nothing', async () => {
    const admin = await staff()
    const held = await admin.post(sheetPath(), mark(ids.held, 'attended'))
    expect(held.status).toBe(409)
    expect(alertText(held.html, `booking-${ids.held}-alert`)).toBe('This booking is still awaiting payment: take the payment before marking whether they came.')

    const elsewhere = await admin.post(sheetPath(), mark(ids.elsewhere, 'attended'))
    expect(elsewhere.status).toBe(404)
    expect(textOf((await admin.get(sheetPath(ids.otherVenue, OTHER_DAY))).html)).toContain('Attendance Not yet')
    expect((await admin.post(sheetPath(ids.venue, OTHER_DAY), mark(ids.confirmed, 'no_show'))).status).toBe(404)

    const unknown = await admin.post(sheetPath(), mark(ids.minor, 'present'))
    expect(unknown.status).toBe(400)
    expect(alertText(unknown.html, `booking-${ids.minor}-alert`)).toBe('Choose checked in, no-show or not yet')
    for (const booking of ['', 'x', '0', '2147483648']) expect((await admin.post(sheetPath(), { intent: 'attendance', booking, attendance: 'attended' })).status, booking).toBe(404)
    expect((await admin.post(sheetPath(), { intent: 'cancel', booking: String(ids.minor) })).status).toBe(400)
    expect(textOf(rowsOf((await admin.get(sheetPath())).html)[2]!)).toContain('Attendance Not yet')
  })

  it('answers a venue or a date that cannot be, with the 404 page inside the admin, never a 500', async () => {
    const admin = await staff()
    for (const path of [sheetPath(999999), sheetPath(0), '/admin/venues/pune/day/2030-01-01', sheetPath(ids.venue, '2030-02-30'), sheetPath(ids.venue, '9999-12-31'), sheetPath(ids.venue, 'today'), sheetPath(ids.venue, '%00')]) {
      const missing = await admin.get(path)
      expect(missing.status, path).toBe(404)
      expect((await admin.post(path, mark(ids.confirmed, 'attended'))).status, path).toBe(404)
    }
  })
})

describe('who may use it', () => {
  it('guests are sent to sign in; a customer is refused the sheet and its form, and nothing changes', async () => {
    const customer = await site.customer('Curious Parent')
    await expectStaffOnly(site.url, customer, [sheetPath()], 'Pavan Public')
    const guest = new Visitor(site.url)
    expect((await customer.post(sheetPath(), mark(ids.confirmed, 'no_show'))).status).toBe(403)
    expect((await guest.post(sheetPath(), mark(ids.confirmed, 'no_show'))).location).toMatch(/^\/login\?/)
    expect(textOf(rowsOf((await (await staff()).get(sheetPath())).html)[1]!)).toContain('Attendance Checked in')
  })
})
