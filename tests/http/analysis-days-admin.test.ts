import { inArray } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { useDatabase } from '~/db/client.server'
import { bookings, users } from '~/db/schema'
import { addDays, formatLabDateTime, formatWeekdayDayMonth, labInstant, labToday } from '~/lib/lab-time'
import { ANALYSIS_DAY_HOST_LINK, privateLinkPath } from '~/lib/private-links.server'
import { holdAnalysisDaySlot } from '~/modules/booking/analysis-day-booking.server'
import type { AnalysisDayBookingInput } from '~/modules/booking/analysis-day-schemas'
import { analysisDayFields, publishedDay, readyVenue } from '../support/analysis-days'
import { visitor } from '../support/holders'
import { between, section, textOf } from '../support/page-text'
import { decodeHtml, fieldState, Visitor } from '../support/visitor'
import { expectStaffOnly, useTestSite } from '../support/site'

// The staff's analysis days, as staff use them in a browser without JavaScript: a day added at a
// venue that is ready for it, its capacity told as a sentence, each refusal next to its field (or
// above the buttons) with nothing saved, published with the host's link shown, closed once nobody
// holds a seat; and nobody else let in.

/** The day a swimmer booked through the host's link and another after the release, at Balewadi. */
const BOOKED_ON = addDays(labToday(), 10)
const RELEASED_ON = addDays(labToday(), 7)
/** The date Deccan Gymkhana is ready for (open 6 AM to 8 PM, the kit and a coach there 8 AM to 6 PM). */
const FREE_ON = addDays(labToday(), 12)
const YESTERDAY = addDays(labToday(), -1)

const ids = { booked: 0, deccan: 0, balewadi: 0, added: 0, home: 0 }
const references: string[] = []

const site = useTestSite(
  {},
  {
    async prepare(db, { database }) {
      useDatabase(database)
      try {
        const [coach] = await db.insert(users).values({ name: 'Field Coach', email: 'coach@lab.example', passwordHash: 'x', isAdmin: true, isVerified: true }).returning({ id: users.id, email: users.email })
        const now = new Date()
        const { venueId, dayId } = await publishedDay(coach!, BOOKED_ON, now, { releaseDate: RELEASED_ON, releaseTime: '07:00', hostSeats: 3 })
        Object.assign(ids, { booked: dayId, balewadi: venueId })
        const hostKey = new URL(await privateLinkPath(ANALYSIS_DAY_HOST_LINK, dayId), 'http://site').searchParams.get('host')!
        const details = (name: string, start: string) => ({ name, email: `${name.toLowerCase().replace(' ', '.')}@example.com`, whoSwims: 'myself', notes: '', slot: `${BOOKED_ON}|${start}` }) as AnalysisDayBookingInput
        const host = await holdAnalysisDaySlot(dayId, details('Hema Host', '09:00'), visitor(), { hostKey, now })
        const everyone = await holdAnalysisDaySlot(dayId, details('Pavan Public', '09:20'), visitor(), { now: labInstant(RELEASED_ON, '08:00') })
        await db.update(bookings).set({ status: 'confirmed', confirmedAt: now }).where(inArray(bookings.id, [host.bookingId, everyone.bookingId]))
        references.push(host.reference, everyone.reference)
        ids.deccan = await readyVenue(coach!, FREE_ON, now, 'Deccan Gymkhana pool')
      } finally {
        useDatabase(undefined)
      }
    },
  },
)
const staff = site.sharedStaff

const dayPath = (id: number) => `/admin/analysis-days/${id}`

/** The add form filled in for a day at Deccan Gymkhana: 9 AM to 5 PM in 20-minute slots with one kit, released three days before. */
const dayForm = (values: Record<string, string> = {}) => analysisDayFields(ids.deccan, FREE_ON, values)

/** The booked day's form as its page fills it in. */
const bookedForm = (values: Record<string, string> = {}) => ({ intent: 'edit', ...dayForm({ venueId: String(ids.balewadi), firstDate: BOOKED_ON, lastDate: BOOKED_ON, releaseDate: RELEASED_ON }), ...values })

/** The list's rows, as text. */
async function listed() {
  const html = (await (await staff()).get('/admin/analysis-days')).html
  return [...html.matchAll(/<tr class="border-t[^"]*"[^>]*>([\s\S]*?)<\/tr>/g)].map((match) => textOf(match[1]!))
}

/** A day's page as text: its heading and facts, above its panels. */
async function facts(id: number) {
  const html = (await (await staff()).get(dayPath(id))).html
  return textOf(between(html, '<h1', '</dl>'))
}

/** The text of the alert whose element has this id. */
const alertText = (html: string, id: string) => textOf(between(html, `id="${id}"`, '</div>').replace(/^[^>]*>/, ''))

/** The capacity sentence under the form's numbers. */
const capacityShown = (html: string) => textOf(between(html, '<output', '</output>').replace(/^[^>]*>/, ''))

const booked = formatWeekdayDayMonth(BOOKED_ON)
const free = formatWeekdayDayMonth(FREE_ON)

describe('the list and adding a day', () => {
  it('lists the day to come with its capacity, seats held and state', async () => {
    expect(await listed()).toEqual([`${booked} 9:00 AM–5:00 PM Pune Balewadi Aquatics Competition Race Analysis 1 rig × 8 h ÷ 20-minute slots = 24 swimmers 2 of 24 Published, opens to everyone at 7:00 AM IST on ${formatLabDateTime(labInstant(RELEASED_ON, '07:00')).replace('7:00 AM IST on ', '')}`])
  })

  it('refuses hours outside the venue’s, a release past and more seats for the host than the day has, next to each field, and saves nothing', async () => {
    const admin = await staff()
    const early = await admin.post('/admin/analysis-days', dayForm({ startTime: '05:00' }))
    expect(early.status).toBe(400)
    expect(fieldState(early.html, 'startTime')).toEqual({ invalid: true, message: `Deccan Gymkhana pool is open 6:00 AM–8:00 PM on ${free}: the day’s hours must lie within them.` })
    // The form comes back as it was sent, with the capacity it makes.
    expect(decodeHtml(early.html)).toContain('>Racing suit, cap and goggles</textarea>')
    expect(capacityShown(early.html)).toBe('1 rig × 12 h ÷ 20-minute slots = 36 swimmers')

    const late = await admin.post('/admin/analysis-days', dayForm({ releaseDate: YESTERDAY }))
    expect(late.status).toBe(400)
    expect(fieldState(late.html, 'releaseDate')).toEqual({ invalid: true, message: 'The release time has passed: choose a time to come.' })

    const greedy = await admin.post('/admin/analysis-days', dayForm({ hostSeats: '25' }))
    expect(greedy.status).toBe(400)
    expect(fieldState(greedy.html, 'hostSeats')).toEqual({ invalid: true, message: 'Keep at most 24 seats for the host: the day has 24.' })

    const home = await admin.post('/admin/analysis-days', dayForm({ venueId: String(await homeVenueId()) }))
    expect(home.status).toBe(400)
    expect(fieldState(home.html, 'venueId').message).toBe('An analysis day is away from the lab: choose another venue. The lab’s own slots are its opening hours.')
    expect(await listed()).toHaveLength(1)
  })

  it('refuses missing fields, huge numbers, ids out of range and things that do not exist, with a message each, never a 500', async () => {
    const admin = await staff()
    const empty = await admin.post('/admin/analysis-days', {})
    expect(empty.status).toBe(400)
    expect(fieldState(empty.html, 'venueId').message).toBe('Choose the venue')
    expect(fieldState(empty.html, 'slotMinutes').message).toBe('Enter the slot length in whole minutes')
    expect(fieldState(empty.html, 'price').message).toBe('Enter the price in rupees, such as 1,500')

    const huge = await admin.post('/admin/analysis-days', dayForm({ venueId: '2147483648', rigs: '99999999999999999999', price: '1,00,00,000', hostSeats: '1e309', slotMinutes: '-20' }))
    expect(huge.status).toBe(400)
    expect(fieldState(huge.html, 'venueId').message).toBe('Choose the venue')
    expect(fieldState(huge.html, 'rigs').message).toBe('Enter how many kits film at once')
    expect(fieldState(huge.html, 'price').message).toBe('The price cannot be more than ₹10,00,000')
    expect(fieldState(huge.html, 'hostSeats').message).toBe('Enter the host’s seats as a whole number (0 for none)')
    expect(fieldState(huge.html, 'slotMinutes').message).toBe('Enter the slot length in whole minutes')
    expect(capacityShown(huge.html)).toBe('Fill in the dates, the hours, the slot length and the rigs to see how many swimmers the day takes.')

    const unknown = await admin.post('/admin/analysis-days', dayForm({ venueId: '999999', productCode: 'not_sold' }))
    expect(unknown.status).toBe(400)
    expect(fieldState(unknown.html, 'venueId').message).toBe('Choose an open venue from the list')
    const product = await admin.post('/admin/analysis-days', dayForm({ productCode: 'not_sold' }))
    expect(product.status).toBe(400)
    expect(fieldState(product.html, 'productCode').message).toBe('Choose what is sold')
    expect(await listed()).toHaveLength(1)
  })

  it('adds a day and goes to its page with a toast: a draft, its capacity, and every date ready', async () => {
    const admin = await staff()
    const added = await admin.post('/admin/analysis-days', dayForm())
    expect(added.status).toBe(302)
    ids.added = Number(/^\/admin\/analysis-days\/(\d+)$/.exec(added.location!)![1])
    const html = (await admin.get(added.location!)).html
    expect(textOf(html)).toContain('Analysis day added')
    expect(await facts(ids.added)).toBe(
      `${free} at Deccan Gymkhana pool Draft · Pune What Competition Race Analysis, ₹1,500.00 Hours 9:00 AM–5:00 PM IST, in 20-minute slots Capacity 1 rig × 8 h ÷ 20-minute slots = 24 swimmers Seats held 0 of 24 Kept for the host 3 seats Opens to everyone ${formatLabDateTime(labInstant(addDays(FREE_ON, -3), '07:00'))} What to bring Racing suit, cap and goggles`,
    )
    expect(textOf(section(html, 'readiness-heading'))).toContain(`${free}: ready Yes · Venue’s hours: open 6:00 AM–8:00 PM, which covers 9:00 AM–5:00 PM Yes · Kits placed: 1 of 1 needed Yes · Staff there: 1`)
    expect(section(html, 'readiness-heading')).toContain(`href="/admin/venues/${ids.deccan}"`)
    expect(section(html, 'readiness-heading')).toContain('href="/admin/kits"')
    // The form starts with the day's values.
    expect(html).toMatch(/name="price"[^>]*value="1,500"/)
    expect(capacityShown(html)).toBe('1 rig × 8 h ÷ 20-minute slots = 24 swimmers')
    expect(await listed()).toHaveLength(2)
  })
})

describe('a day’s page', () => {
  it('refuses to publish without the kits the day needs, saying so above the buttons, then publishes and shows the host’s link', async () => {
    const admin = await staff()
    const edit = { intent: 'edit', ...dayForm({ rigs: '2' }) }
    expect((await admin.post(dayPath(ids.added), edit)).status).toBe(302)
    expect(textOf(section((await admin.get(dayPath(ids.added))).html, 'readiness-heading'))).toContain(`${free}: not ready`)
    const refused = await admin.post(dayPath(ids.added), { intent: 'publish' })
    expect(refused.status).toBe(409)
    expect(alertText(refused.html, 'publish-alert')).toBe(`Not published 2 kits are needed at Deccan Gymkhana pool on ${free} for all the day’s hours, and only 1 is placed there. Place them under Kits first.`)
    expect(await facts(ids.added)).toContain('Draft')

    expect((await admin.post(dayPath(ids.added), { intent: 'edit', ...dayForm() })).status).toBe(302)
    const published = await admin.post(dayPath(ids.added), { intent: 'publish' })
    expect([published.status, published.location]).toEqual([302, dayPath(ids.added)])
    const html = (await admin.get(dayPath(ids.added))).html
    const release = formatLabDateTime(labInstant(addDays(FREE_ON, -3), '07:00'))
    expect(textOf(html)).toContain(`Until booking opens to everyone at ${release}, only the host’s link books.`)
    expect(await facts(ids.added)).toContain(`Published, opens to everyone at ${release} · Pune`)
    const host = section(html, 'host-heading')
    expect(textOf(host)).toContain(`Host’s link: books up to 3 seats before ${release}`)
    const field = /<input id="host-link"[^>]*>/.exec(decodeHtml(host))![0]
    expect(field).toContain('readOnly=""')
    expect(field).toMatch(new RegExp(`value="${site.url}/analysis-days/${ids.added}\\?host=[\\w-]{32}"`))
    expect(html).not.toContain('name="intent" value="publish"')
  })

  it('refuses changes that would strand a booked swimmer or break the rules, next to each field, and saves nothing', async () => {
    const admin = await staff()
    const before = await facts(ids.booked)
    const cases: Array<[Record<string, string>, number, string, string]> = [
      [{ slotMinutes: '480', hostSeats: '0' }, 409, 'rigs', 'A capacity of 1 swimmer is below the 2 seats already sold.'],
      [{ venueId: String(ids.deccan) }, 409, 'venueId', 'Bookings were made for this day: its venue stays. Close it and create another.'],
      [{ startTime: '05:00' }, 400, 'startTime', `Balewadi Aquatics is open 6:00 AM–8:00 PM on ${booked}: the day’s hours must lie within them.`],
      [{ startTime: '09:10' }, 409, 'startTime', `A swimmer is booked at 9:00 AM on ${booked}: keep that slot, or cancel the booking first.`],
      [{ releaseDate: YESTERDAY }, 400, 'releaseDate', 'The release time has passed: choose a time to come.'],
      [{ hostSeats: '25' }, 400, 'hostSeats', 'Keep at most 24 seats for the host: the day has 24.'],
    ]
    for (const [values, status, field, message] of cases) {
      const refused = await admin.post(dayPath(ids.booked), bookedForm(values))
      expect(refused.status, field).toBe(status)
      expect(fieldState(refused.html, field), field).toEqual({ invalid: true, message })
    }
    expect(await facts(ids.booked)).toBe(before)
    expect(before).toContain('Capacity 1 rig × 8 h ÷ 20-minute slots = 24 swimmers Seats held 2 of 24 Kept for the host 3 seats')
  })

  it('lists the day’s bookings by slot, each linking to its booking, and refuses to close while they hold seats', async () => {
    const admin = await staff()
    const html = (await admin.get(dayPath(ids.booked))).html
    const rows = [...section(html, 'bookings-heading').matchAll(/<tr class="border-t[^"]*"[^>]*>([\s\S]*?)<\/tr>/g)].map((match) => textOf(match[1]!))
    expect(rows).toEqual([`${references[0]} Hema Host ${booked}, 9:00 AM Confirmed Yes`, `${references[1]} Pavan Public ${booked}, 9:20 AM Confirmed No`])
    expect(section(html, 'bookings-heading')).toContain(`href="/admin/bookings/${references[0]}"`)

    const refused = await admin.post(dayPath(ids.booked), { intent: 'close' })
    expect(refused.status).toBe(409)
    expect(alertText(refused.html, 'close-alert')).toBe('Not closed 2 bookings hold seats on this day: cancel them first.')
    expect(await facts(ids.booked)).toContain('Published, opens to everyone')
  })

  it('closes a day nobody holds a seat of: no form, no host’s link, and the list says so', async () => {
    const admin = await staff()
    const closed = await admin.post(dayPath(ids.added), { intent: 'close' })
    expect([closed.status, closed.location]).toEqual([302, dayPath(ids.added)])
    const html = (await admin.get(dayPath(ids.added))).html
    expect(textOf(html)).toContain('Analysis day closed')
    expect(textOf(html)).toContain('This day is closed: it can no longer be changed.')
    expect(html).not.toContain('id="host-link"')
    expect(html).not.toContain('name="intent" value="close"')
    expect((await listed()).find((row) => row.startsWith(free))).toMatch(/Closed$/)
    const edit = await admin.post(dayPath(ids.added), { intent: 'edit', ...dayForm() })
    expect(edit.status).toBe(409)
  })

  it('answers a day that does not exist, or an id that cannot be one, with the 404 page, never a 500', async () => {
    const admin = await staff()
    for (const id of ['999999', '0', '-1', 'pune', '2147483648', '99999999999', '1e3']) {
      const missing = await admin.get(`/admin/analysis-days/${id}`)
      expect(missing.status, id).toBe(404)
      expect(missing.html, id).toContain('aria-label="Admin"')
      expect((await admin.post(`/admin/analysis-days/${id}`, { intent: 'close' })).status, id).toBe(404)
      expect((await admin.post(`/admin/analysis-days/${id}`, { intent: 'edit', ...dayForm() })).status, id).toBe(404)
    }
    expect((await admin.post(dayPath(ids.booked), { intent: 'delete' })).status).toBe(400)
  })
})

describe('who may use them', () => {
  it('guests are sent to sign in; a customer is refused every page and every form, and nothing changes', async () => {
    const pages = ['/admin/analysis-days', dayPath(ids.booked)]
    const customer = await site.customer('Curious Parent')
    await expectStaffOnly(site.url, customer, pages, 'Balewadi')
    const guest = new Visitor(site.url)
    const before = await listed()
    const posts: Array<[string, Record<string, string>]> = [
      ['/admin/analysis-days', dayForm()],
      [dayPath(ids.booked), bookedForm({ hostSeats: '0' })],
      [dayPath(ids.booked), { intent: 'publish' }],
      [dayPath(ids.booked), { intent: 'close' }],
    ]
    for (const [path, form] of posts) {
      expect((await customer.post(path, form)).status, `${path} ${form.intent ?? 'add'}`).toBe(403)
      expect((await guest.post(path, form)).location, `${path} ${form.intent ?? 'add'}`).toMatch(/^\/login\?/)
    }
    expect(await listed()).toEqual(before)
    expect(await facts(ids.booked)).toContain('Kept for the host 3 seats')
  })
})

/** The lab's own room, which the venues page lists first. */
async function homeVenueId() {
  ids.home ||= Number(/href="\/admin\/venues\/(\d+)"/.exec((await (await staff()).get('/admin/venues')).html)![1])
  return ids.home
}
