import { describe, expect, it } from 'vitest'
import { addDays, formatLongDate, isoWeekday, labToday } from '~/lib/lab-time'
import { eventually } from '../support/eventually'
import { between, section, textOf } from '../support/page-text'
import { decodeHtml, fieldState, Visitor } from '../support/visitor'
import { expectStaffOnly, useTestSite } from '../support/site'

// The staff's venues, kits and who goes where, as staff use them in a browser without JavaScript:
// venues added and closed, staff sent to one, a kit checked and moved there, each refusal told next to
// its field with nothing saved, the lab's time slots a move closes, and nobody else let in.

const site = useTestSite()
const staff = site.sharedStaff

/** The first date at least `daysAhead` days from today in Bangalore that falls on an ISO weekday. */
function nextOn(weekday: number, daysAhead: number) {
  for (let date = addDays(labToday(), daysAhead); ; date = addDays(date, 1)) if (isoWeekday(date) === weekday) return date
}

// Within the seeded opening hours (09:00 to 18:00, Monday to Saturday, for 28 days from tomorrow).
const PLACED_ON = nextOn(2, 3) // a Tuesday: the kit goes to Pune
const BOOKED_ON = nextOn(4, 3) // a Thursday: a session is booked at the lab
const STAFF_ON = nextOn(5, 3) // a Friday: a staff member goes to Pune
const WHOLE_DAY = nextOn(3, 3) // a Wednesday: the kit is away all the lab's day
const YESTERDAY = addDays(labToday(), -1)

const PUNE = {
  name: 'Balewadi Sports Complex pool',
  address: 'Balewadi High Street, Baner',
  city: 'Pune',
  stateCode: '27',
  mapUrl: 'https://maps.example.com/balewadi',
  photoId: '',
  hostName: 'Meera Kulkarni',
  hostEmail: 'meera@example.com',
  hostPhone: '9822012345',
  travelMinutes: '180',
}

const ids = { pune: 0, home: 0, kit: 0 }

const venuePath = (id: number) => `/admin/venues/${id}`
const placement = (values: Record<string, string>) => ({ intent: 'place', kitId: String(ids.kit), venueId: String(ids.pune), fromDate: PLACED_ON, fromTime: '09:00', toDate: PLACED_ON, toTime: '12:00', note: '', ...values })

/** The dates /booking offers a visitor (its copy kept for visitors, which a change must drop). */
const bookingDates = async () => [...(await new Visitor(site.url).get('/booking')).html.matchAll(/<option value="(\d{4}-\d\d-\d\d)"/g)].map((match) => match[1]!)

/** The text of the alert whose element has this id (`id="…"`). */
const alertText = (html: string, id: string) => textOf(between(html, id, '</div>').slice(id.length).replace(/^[^>]*>/, ''))

/** The list's row of a venue, as text. */
async function venueRow(name: string) {
  const html = (await (await staff()).get('/admin/venues')).html
  const row = html.split('<tr').find((part) => part.includes(`>${name}</a>`))
  return row ? textOf(`<tr${row.split('</tr>')[0]}`) : null
}

/** The placements listed on the kits page, as text. */
async function placementsListed() {
  const html = (await (await staff()).get('/admin/kits')).html
  return [...section(html, 'list-heading').matchAll(/<tr class="border-t[^"]*"[^>]*>([\s\S]*?)<\/tr>/g)].map((match) => textOf(match[1]!))
}

describe('venues', () => {
  it('refuses a venue with a state, map link or e-mail that is not one, next to each field, and saves nothing', async () => {
    const admin = await staff()
    const refused = await admin.post('/admin/venues', { ...PUNE, stateCode: '99', mapUrl: 'http://maps.example.com/x', hostEmail: 'meera@', hostPhone: '12', travelMinutes: 'three hours' })
    expect(refused.status).toBe(400)
    expect(fieldState(refused.html, 'stateCode')).toEqual({ invalid: true, message: 'Choose the state' })
    expect(fieldState(refused.html, 'mapUrl')).toEqual({ invalid: true, message: 'Enter the map link in full, starting with https://, or leave it empty' })
    expect(fieldState(refused.html, 'hostEmail')).toEqual({ invalid: true, message: 'Invalid email address' })
    expect(fieldState(refused.html, 'hostPhone')).toEqual({ invalid: true, message: 'Enter the host’s mobile number: at least 10 digits' })
    expect(fieldState(refused.html, 'travelMinutes')).toEqual({ invalid: true, message: 'Enter the travel time from the lab in whole minutes (0 for the lab itself)' })
    // What was typed stays in the form.
    expect(decodeHtml(refused.html)).toContain(`>${PUNE.address}</textarea>`)
    expect(decodeHtml(refused.html)).toContain(`value="${PUNE.hostName}"`)
    expect(await venueRow(PUNE.name)).toBeNull()
  })

  it('adds a venue and goes to its page with a toast; the list shows it beside the lab’s own room', async () => {
    const admin = await staff()
    const added = await admin.post('/admin/venues', PUNE)
    expect(added.status).toBe(302)
    ids.pune = Number(/^\/admin\/venues\/(\d+)$/.exec(added.location!)![1])
    const page = textOf((await admin.get(added.location!)).html)
    expect(page).toContain('Venue added')
    expect(page).toContain('Balewadi Sports Complex pool')
    expect(page).toContain('180 minutes from the lab, each way')
    expect(page).toContain('Meera Kulkarni, meera@example.com, +91 98220 12345')
    expect(await venueRow(PUNE.name)).toBe('Balewadi Sports Complex pool Pune Maharashtra Open')

    const list = (await admin.get('/admin/venues')).html
    const homeRow = textOf(list.split('<tr').find((part) => part.includes('>Home</td>'))!)
    expect(homeRow).toContain('Bengaluru Karnataka Home')
    ids.home = Number(/href="\/admin\/venues\/(\d+)"/.exec(list)![1])
    expect(ids.home).not.toBe(ids.pune)
    // The same name again, in any letter case, is another venue's.
    const again = await admin.post('/admin/venues', { ...PUNE, name: PUNE.name.toUpperCase() })
    expect(again.status).toBe(409)
    expect(fieldState(again.html, 'name')).toEqual({ invalid: true, message: 'Another venue already has this name' })
  })

  it('edits a venue; an unknown venue is not found', async () => {
    const admin = await staff()
    const saved = await admin.post(venuePath(ids.pune), { intent: 'edit', ...PUNE, travelMinutes: '150' })
    expect([saved.status, saved.location]).toEqual([302, venuePath(ids.pune)])
    expect(textOf((await admin.get(venuePath(ids.pune))).html)).toContain('150 minutes from the lab, each way')
    const refused = await admin.post(venuePath(ids.pune), { intent: 'edit', ...PUNE, mapUrl: 'maps' })
    expect(refused.status).toBe(400)
    expect(fieldState(refused.html, 'mapUrl').message).toBe('Enter the map link in full, starting with https://, or leave it empty')
    for (const path of ['/admin/venues/999999', '/admin/venues/pune', '/admin/venues/99999999999']) {
      const missing = await admin.get(path)
      expect(missing.status, path).toBe(404)
      expect(missing.html, path).toContain('aria-label="Admin"')
    }
    expect((await admin.post('/admin/venues/999999', { intent: 'close' })).status).toBe(404)
    // Back to the travel time the kit's range below counts on.
    expect((await admin.post(venuePath(ids.pune), { intent: 'edit', ...PUNE })).status).toBe(302)
  })

  it('refuses to close the lab’s own room, saying why; a venue closes and reopens', async () => {
    const admin = await staff()
    const home = await admin.post(venuePath(ids.home), { intent: 'close' })
    expect(home.status).toBe(409)
    expect(alertText(home.html, 'id="venue-status-alert"')).toBe('The lab’s own room cannot be closed.')
    expect(textOf((await admin.get(venuePath(ids.home))).html)).toContain('Home: the lab’s own room')

    const chennai = await admin.post('/admin/venues', { ...PUNE, name: 'Velachery Aquatic Complex', city: 'Chennai', stateCode: '33', travelMinutes: '360' })
    const chennaiPath = chennai.location!
    expect((await admin.post(chennaiPath, { intent: 'close' })).status).toBe(302)
    expect(await venueRow('Velachery Aquatic Complex')).toBe('Velachery Aquatic Complex Chennai Tamil Nadu Closed')
    // A closed venue is not offered for a kit, and nobody can be sent there.
    expect(textOf(between((await admin.get('/admin/kits')).html, 'name="venueId"', '</select>'))).not.toContain('Velachery')
    expect(textOf((await admin.get(chennaiPath)).html)).toContain('Reopen the venue to send staff here.')
    expect((await admin.post(chennaiPath, { intent: 'reopen' })).status).toBe(302)
    expect(await venueRow('Velachery Aquatic Complex')).toMatch(/Open$/)
  })
})

describe('staff sent to a venue', () => {
  /** The staff member's value in the page's list of who can be sent. */
  const staffId = async () => /<option value="(\d+)">[^<]*\(staff@lab\.example\)<\/option>/.exec((await (await staff()).get(venuePath(ids.pune))).html)![1]!
  const assignment = async (values: Record<string, string>) => ({ intent: 'assign', userId: await staffId(), fromDate: STAFF_ON, fromTime: '08:00', toDate: STAFF_ON, toTime: '17:00', note: 'Timing the state trials', ...values })
  const listed = async (venueId: number) => [...section((await (await staff()).get(venuePath(venueId))).html, 'staff-heading').matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((match) => textOf(match[1]!))

  it('refuses a period that has passed or ends before it starts, next to its field, saving nothing', async () => {
    const admin = await staff()
    const passed = await admin.post(venuePath(ids.pune), await assignment({ fromDate: YESTERDAY, toDate: YESTERDAY }))
    expect(passed.status).toBe(400)
    expect(fieldState(passed.html, 'toDate')).toEqual({ invalid: true, message: 'This time has already passed: choose one to come' })
    const backwards = await admin.post(venuePath(ids.pune), await assignment({ fromTime: '17:00', toTime: '08:00' }))
    expect(backwards.status).toBe(400)
    expect(fieldState(backwards.html, 'toTime')).toEqual({ invalid: true, message: 'The end must come after the start' })
    expect(await listed(ids.pune)).toEqual([])
  })

  it('sends a staff member, and refuses them anywhere else at an overlapping time, travel included', async () => {
    const admin = await staff()
    const sent = await admin.post(venuePath(ids.pune), await assignment({}))
    expect([sent.status, sent.location]).toEqual([302, venuePath(ids.pune)])
    const [row] = await listed(ids.pune)
    expect(row).toContain(`Admin (staff@lab.example) 8:00 AM IST on ${formatLongDate(STAFF_ON)} to 5:00 PM IST on ${formatLongDate(STAFF_ON)} Timing the state trials Remove`)

    // At the lab at 7 PM: still travelling back from Pune (three hours each way).
    const clash = await admin.post(venuePath(ids.home), await assignment({ fromTime: '19:00', toTime: '21:00', note: '' }))
    expect(clash.status).toBe(409)
    expect(fieldState(clash.html, 'fromDate')).toEqual({
      invalid: true,
      message: `They are at ${PUNE.name} from 8:00 AM IST on ${formatLongDate(STAFF_ON)} to 5:00 PM IST on ${formatLongDate(STAFF_ON)} (with the travel, that overlaps). Choose another time or another person.`,
    })
    expect(await listed(ids.home)).toEqual([])

    // A venue someone is due at cannot close.
    const closing = await admin.post(venuePath(ids.pune), { intent: 'close' })
    expect(closing.status).toBe(409)
    expect(alertText(closing.html, 'id="venue-status-alert"')).toBe(`A staff member is still due at ${PUNE.name}. Remove what is planned there first.`)

    // Taken off, and then free to go to the lab.
    const id = /name="id" value="(\d+)"/.exec(section((await admin.get(venuePath(ids.pune))).html, 'staff-heading'))![1]!
    expect((await admin.post(venuePath(ids.pune), { intent: 'unassign', id })).status).toBe(302)
    expect(await listed(ids.pune)).toEqual([])
    expect((await admin.post(venuePath(ids.home), await assignment({ fromTime: '19:00', toTime: '21:00' }))).status).toBe(302)
    expect(await listed(ids.home)).toHaveLength(1)
  })
})

describe('kits', () => {
  it('refuses to retire the last kit in service, next to its form; a kit is added, renamed and retired', async () => {
    const admin = await staff()
    const page = (await admin.get('/admin/kits')).html
    ids.kit = Number(/name="id" value="(\d+)"/.exec(between(page, 'id="kit-', '</form>'))![1])
    const last = await admin.post('/admin/kits', { intent: 'retire', id: String(ids.kit) })
    expect(last.status).toBe(409)
    expect(alertText(last.html, `id="kit-${ids.kit}-alert"`)).toBe('This is the last kit in service: sessions at the lab need one. Add another kit before retiring this one.')
    expect(textOf(section((await admin.get('/admin/kits')).html, 'list-heading'))).toContain('Underwater rig 1 60 minutes to set up, as long again to pack · In service')

    const invalid = await admin.post('/admin/kits', { intent: 'add', name: '', setupMinutes: '800' })
    expect(invalid.status).toBe(400)
    const form = between(invalid.html, 'id="kit-new"', '</form>')
    expect(fieldState(form, 'name')).toEqual({ invalid: true, message: 'Enter the kit’s name' })
    expect(fieldState(form, 'setupMinutes')).toEqual({ invalid: true, message: 'Enter a set-up time of at most 12 hours (720 minutes)' })
    const taken = await admin.post('/admin/kits', { intent: 'add', name: 'underwater RIG 1', setupMinutes: '45' })
    expect(taken.status).toBe(409)
    expect(fieldState(between(taken.html, 'id="kit-new"', '</form>'), 'name').message).toBe('Another kit already has this name')

    expect((await admin.post('/admin/kits', { intent: 'add', name: 'Spare rig', setupMinutes: '45' })).status).toBe(302)
    const spare = /id="kit-(\d+)-name"[^>]*>Spare rig</.exec((await admin.get('/admin/kits')).html)![1]!
    expect((await admin.post('/admin/kits', { intent: 'edit', id: spare, name: 'Spare rig 2', setupMinutes: '30' })).status).toBe(302)
    expect(textOf(section((await admin.get('/admin/kits')).html, 'list-heading'))).toContain('Spare rig 2 30 minutes to set up')
    // With two in service, one retires; the lab is back to one kit.
    expect((await admin.post('/admin/kits', { intent: 'retire', id: spare })).status).toBe(302)
    expect(textOf(section((await admin.get('/admin/kits')).html, 'list-heading'))).toContain('Spare rig 2 30 minutes to set up, as long again to pack · Retired')
    expect((await admin.post('/admin/kits', { intent: 'edit', id: '999999', name: 'Ghost', setupMinutes: '10' })).status).toBe(404)
  })

  it('refuses to place a kit at the lab itself, for a time passed, or ending before it starts, next to its field, saving nothing', async () => {
    const admin = await staff()
    const home = await admin.post('/admin/kits', placement({ venueId: String(ids.home) }))
    expect(home.status).toBe(400)
    expect(fieldState(home.html, 'venueId')).toEqual({ invalid: true, message: 'A kit is at the lab unless it is placed elsewhere: choose another venue' })
    const passed = await admin.post('/admin/kits', placement({ fromDate: YESTERDAY, toDate: YESTERDAY }))
    expect(passed.status).toBe(400)
    expect(fieldState(passed.html, 'toDate')).toEqual({ invalid: true, message: 'This time has already passed: choose one to come' })
    const backwards = await admin.post('/admin/kits', placement({ fromTime: '12:00', toTime: '09:00' }))
    expect(backwards.status).toBe(400)
    expect(fieldState(backwards.html, 'toTime')).toEqual({ invalid: true, message: 'The end must come after the start' })
    // Checking refuses the same.
    expect(fieldState((await admin.post('/admin/kits', placement({ intent: 'review', venueId: String(ids.home) }))).html, 'venueId').invalid).toBe(true)
    expect(await placementsListed()).toEqual([])
  })

  it('checks a move without saving it, then places the kit: the lab’s time slots while it is away close', async () => {
    const admin = await staff()
    expect(await bookingDates()).toContain(PLACED_ON)
    const checked = await admin.post('/admin/kits', placement({ intent: 'review' }))
    expect(checked.status).toBe(200)
    const review = textOf(section(checked.html, 'review-heading'))
    const day = formatLongDate(PLACED_ON)
    // Three hours' travel and an hour to set up on either side of 9 AM to 12 noon.
    expect(review).toContain(`Underwater rig 1 would be in use at ${PUNE.name} from 9:00 AM IST on ${day} to 12:00 PM IST on ${day}, and away from the lab from 5:00 AM IST on ${day} to 4:00 PM IST on ${day}`)
    expect(review).toContain('7 time slots at the lab would close, as no kit would be there:')
    expect(review).toContain('9:00 AM, 10:00 AM, 11:00 AM, 12:00 PM, 1:00 PM, 2:00 PM, 3:00 PM')
    expect(review).not.toContain('Bookings in the way')
    // The form comes back as it was sent.
    expect(checked.html).toMatch(new RegExp(`name="fromDate"[^>]*value="${PLACED_ON}"`))
    expect(await placementsListed()).toEqual([])

    const placed = await admin.post('/admin/kits', placement({ note: 'State trials' }))
    expect([placed.status, placed.location]).toEqual([302, '/admin/kits'])
    expect(await placementsListed()).toEqual([
      `${PUNE.name} Pune State trials 9:00 AM IST on ${day} to 12:00 PM IST on ${day} 5:00 AM IST on ${day} to 4:00 PM IST on ${day} Remove Underwater rig 1 at ${PUNE.name}`,
    ])
    expect(textOf(section((await admin.get(venuePath(ids.pune))).html, 'kits-heading'))).toContain(`Underwater rig 1 9:00 AM IST on ${day} to 12:00 PM IST on ${day} 5:00 AM IST on ${day} to 4:00 PM IST on ${day}`)

    // The lab's calendar shows those time slots closed for want of a kit; customers are offered the rest.
    const month = textOf((await admin.get(`/admin/availability?month=${PLACED_ON.slice(0, 7)}`)).html)
    expect(month).toContain('No kit at the lab: 7 time slots closed')
    const times = await (await site.customer('Kit Watcher')).get(`/book-slot?month=${PLACED_ON.slice(0, 7)}&date=${PLACED_ON}`)
    const offered = [...times.html.matchAll(/<button(?=[^>]*name="time")[^>]*value="(\d\d:\d\d)"/g)].map((match) => match[1])
    expect(offered).toContain('16:00')
    expect(offered).not.toContain('10:00')
    // /booking offers nine times from 9 AM to 5 PM: with seven of them gone, 4 PM and 5 PM are left.
    expect(await bookingDates()).toContain(PLACED_ON)
  })

  it('refuses a second placement of the kit that overlaps, travel and set-up included, next to the first date', async () => {
    const admin = await staff()
    const day = formatLongDate(PLACED_ON)
    const overlapping = await admin.post('/admin/kits', placement({ fromTime: '15:00', toTime: '17:00' }))
    expect(overlapping.status).toBe(409)
    expect(fieldState(overlapping.html, 'fromDate')).toEqual({
      invalid: true,
      message: `Underwater rig 1 is away at ${PUNE.name} from 5:00 AM IST on ${day} to 4:00 PM IST on ${day} (travel and set-up included), which overlaps. Choose other times or another kit.`,
    })
    // The check says so too, without saving.
    const checked = await admin.post('/admin/kits', placement({ intent: 'review', fromTime: '15:00', toTime: '17:00' }))
    expect(textOf(section(checked.html, 'review-heading'))).toContain(`It is already away at ${PUNE.name} from 5:00 AM IST on ${day} to 4:00 PM IST on ${day}, which overlaps.`)
    expect(await placementsListed()).toHaveLength(1)
  })

  it('refuses a placement that would leave a booked session at the lab without a kit, listing the booking', async () => {
    const admin = await staff()
    const booked = await admin.post('/admin/bookings/new', { name: 'Rohan Desai', swimmerName: '', email: 'rohan.desai@example.com', phone: '9845012345', product: 'single_race', date: BOOKED_ON, time: '10:00', origin: 'complimentary', amount: '', notes: '' })
    expect(booked.status).toBe(302)
    const reference = /SWP-\d{10}/.exec(booked.location!)![0]

    const checked = await admin.post('/admin/kits', placement({ intent: 'review', fromDate: BOOKED_ON, toDate: BOOKED_ON }))
    expect(checked.status).toBe(200)
    expect(textOf(section(checked.html, 'review-heading'))).toContain(`The kit cannot be placed while these bookings hold their seats: reschedule or cancel them first. Bookings in the way: ${reference} (Rohan Desai), ${BOOKED_ON} at 10:00`)

    const refused = await admin.post('/admin/kits', placement({ fromDate: BOOKED_ON, toDate: BOOKED_ON }))
    expect(refused.status).toBe(409)
    const form = between(refused.html, 'id="kit-move"', '</form>')
    expect(textOf(form)).toContain(`This change would leave a booking without a seat. Reschedule or cancel it first. Bookings in the way: ${reference} (Rohan Desai), ${BOOKED_ON} at 10:00`)
    expect(form).toContain(`href="/admin/bookings/${reference}"`)
    expect(await placementsListed()).toHaveLength(1)
  })

  it('away all the lab’s day, the kit takes the date off /booking, for visitors too, until its placement is removed', async () => {
    const admin = await staff()
    // The visitors' copy of /booking is kept with the date on it.
    expect(await bookingDates()).toContain(WHOLE_DAY)
    // Three hours' travel and an hour's set-up each side of 10 AM to 3 PM: away from 6 AM to 7 PM.
    expect((await admin.post('/admin/kits', placement({ fromDate: WHOLE_DAY, toDate: WHOLE_DAY, fromTime: '10:00', toTime: '15:00' }))).status).toBe(302)
    await eventually(bookingDates, (dates) => !dates.includes(WHOLE_DAY))
    const row = (await admin.get('/admin/kits')).html.split('<tr').find((part) => part.includes(formatLongDate(WHOLE_DAY)))!
    const id = /name="id" value="(\d+)"/.exec(row)![1]!
    expect((await admin.post('/admin/kits', { intent: 'unplace', id })).status).toBe(302)
    await eventually(bookingDates, (dates) => dates.includes(WHOLE_DAY))
    expect(await placementsListed()).toHaveLength(1)
  })

  it('removes a placement: the lab’s time slots open again', async () => {
    const admin = await staff()
    const id = /name="id" value="(\d+)"/.exec(between((await admin.get('/admin/kits')).html, 'name="intent" value="unplace"', '</form>'))![1]!
    expect((await admin.post('/admin/kits', { intent: 'unplace', id })).status).toBe(302)
    expect(await placementsListed()).toEqual([])
    expect(textOf((await admin.get(`/admin/availability?month=${PLACED_ON.slice(0, 7)}`)).html)).not.toContain('No kit at the lab')
    expect((await admin.post('/admin/kits', { intent: 'unplace', id })).status).toBe(404)
  })
})

describe('each venue’s opening hours', () => {
  it('are shown and changed for the venue chosen, never for another; an unknown venue is not found', async () => {
    const admin = await staff()
    const month = PLACED_ON.slice(0, 7)
    const pune = await admin.get(`/admin/availability?venue=${ids.pune}&month=${month}`)
    expect(pune.status).toBe(200)
    expect(textOf(pune.html)).toContain(`Opening hours at ${PUNE.name} in`)
    expect(textOf(pune.html)).toContain('No opening hours this month.')

    const opened = await admin.post(`/admin/availability?venue=${ids.pune}&month=${month}`, { intent: 'create', venue: String(ids.pune), from: PLACED_ON, to: PLACED_ON, weekdays: String(isoWeekday(PLACED_ON)), startTime: '07:00', endTime: '09:00', slotDurationMinutes: '60', capacity: '4' })
    expect([opened.status, opened.location]).toEqual([302, `/admin/availability?month=${month}&venue=${ids.pune}`])
    expect(textOf((await admin.get(opened.location!)).html)).toContain('7:00 AM - 9:00 AM 60-minute slots, 4 per slot; 0 of 8 seats taken')
    // The lab's own hours that day are as they were: 9 to 6, no 7 AM.
    expect(textOf((await admin.get(`/admin/availability?month=${month}`)).html)).not.toContain('7:00 AM - 9:00 AM')

    expect((await admin.get('/admin/availability?venue=999999')).status).toBe(404)
    expect((await admin.post('/admin/availability', { intent: 'holiday', venue: '999999', from: PLACED_ON, to: PLACED_ON, weekdays: String(isoWeekday(PLACED_ON)) })).status).toBe(404)
    expect(textOf((await admin.get(`/admin/availability?month=${month}`)).html)).not.toContain('Remove holiday')

    // A holiday at Pune closes Pune's day only.
    const holiday = await admin.post(`/admin/availability?venue=${ids.pune}&month=${month}`, { intent: 'holiday', venue: String(ids.pune), from: PLACED_ON, to: PLACED_ON, weekdays: String(isoWeekday(PLACED_ON)) })
    expect(holiday.status).toBe(302)
    expect(textOf((await admin.get(holiday.location!)).html)).toContain('Remove holiday')
    expect(textOf((await admin.get(`/admin/availability?month=${month}`)).html)).not.toContain('Remove holiday')
    expect((await admin.post(`/admin/availability?venue=${ids.pune}&month=${month}`, { intent: 'unholiday', venue: String(ids.pune), date: PLACED_ON })).status).toBe(302)
    expect(textOf((await admin.get(`/admin/availability?venue=${ids.pune}&month=${month}`)).html)).not.toContain('Remove holiday')
  })
})

describe('who may use them', () => {
  it('guests are sent to sign in; a customer is refused every page and every form, and nothing changes', async () => {
    const pages = ['/admin/venues', venuePath(ids.pune), '/admin/kits', `/admin/availability?venue=${ids.pune}`]
    const customer = await site.customer('Curious Parent')
    await expectStaffOnly(site.url, customer, pages, PUNE.name)
    const posts: Array<[string, Record<string, string>]> = [
      ['/admin/venues', { ...PUNE, name: 'Sneaky pool' }],
      [venuePath(ids.pune), { intent: 'edit', ...PUNE, name: 'Sneaky pool' }],
      [venuePath(ids.pune), { intent: 'close' }],
      [venuePath(ids.pune), { intent: 'reopen' }],
      [venuePath(ids.pune), { intent: 'assign', userId: '1', fromDate: STAFF_ON, fromTime: '08:00', toDate: STAFF_ON, toTime: '09:00', note: '' }],
      [venuePath(ids.home), { intent: 'unassign', id: '1' }],
      ['/admin/kits', { intent: 'add', name: 'Sneaky rig', setupMinutes: '10' }],
      ['/admin/kits', { intent: 'edit', id: String(ids.kit), name: 'Sneaky rig', setupMinutes: '10' }],
      ['/admin/kits', { intent: 'retire', id: String(ids.kit) }],
      ['/admin/kits', placement({ intent: 'review' })],
      ['/admin/kits', placement({})],
      ['/admin/kits', { intent: 'unplace', id: '1' }],
      ['/admin/availability', { intent: 'holiday', venue: String(ids.pune), from: PLACED_ON, to: PLACED_ON, weekdays: String(isoWeekday(PLACED_ON)) }],
    ]
    for (const [path, form] of posts) expect((await customer.post(path, form)).status, `${path} ${form.intent ?? 'add'}`).toBe(403)
    const admin = await staff()
    expect(textOf((await admin.get('/admin/venues')).html)).not.toContain('Sneaky')
    expect(await venueRow(PUNE.name)).toMatch(/Open$/)
    const kits = textOf(section((await admin.get('/admin/kits')).html, 'list-heading'))
    expect(kits).not.toContain('Sneaky')
    expect(kits).toContain('Underwater rig 1 60 minutes to set up, as long again to pack · In service')
    expect(await placementsListed()).toEqual([])
    expect(textOf((await admin.get(venuePath(ids.home))).html)).toContain('Admin (staff@lab.example)')
  })
})
