import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { siteSettings } from '~/db/schema'
import { addDays, isoWeekday, labDateParts, labToday } from '~/lib/lab-time'
import { analysisDayFields } from '../support/analysis-days'
import { eventually } from '../support/eventually'
import { between, textOf } from '../support/page-text'
import { pdfText } from '../support/pdf-text'
import { useTestSite } from '../support/site'
import { attachedFile } from '../support/smtp-sink'
import { decodeHtml, fieldState, Visitor } from '../support/visitor'

// An analysis day away from the lab from start to end, as staff and families use the site without
// JavaScript: staff add a venue in Pune, move the kit there for a Saturday and publish a 24-slot day
// with seats kept for the host club; a visitor who asked to be told when the lab comes to Pune is told
// once; the club books three swimmers through its private link; at the release a parent books and
// pays; the lab's own calendar has nothing that Saturday; the e-mail, calendar file and receipt name
// the venue and charge IGST (Maharashtra is another state than the lab's); the day sheet lists all
// four; and a capacity below the seats sold is refused.

const LAB_GSTIN = '29AAGCB7383J1Z4'

const site = useTestSite(
  {},
  {
    async prepare(db) {
      // The lab is registered for GST in Karnataka: its receipts are tax invoices.
      await db.update(siteSettings).set({ gstin: LAB_GSTIN, gstRateBasisPoints: 1800 }).where(eq(siteSettings.id, 1))
    },
  },
)
const staff = site.sharedStaff

/** A Saturday at least ten days away, within the lab's seeded opening hours (Monday to Saturday, 28 days). */
const SATURDAY = (() => {
  for (let date = addDays(labToday(), 10); ; date = addDays(date, 1)) if (isoWeekday(date) === 6) return date
})()

const VENUE = {
  name: 'Balewadi Aquatics',
  address: 'Shree Shiv Chhatrapati Sports Complex, Balewadi',
  city: 'Pune',
  stateCode: '27',
  mapUrl: 'https://maps.example/balewadi',
  photoId: '',
  hostName: 'Pune Swim Club',
  hostEmail: 'secretary@puneswim.example',
  hostPhone: '9822012345',
  travelMinutes: '60',
  gstin: '',
  invoiceSeries: '',
}
const VENUE_LINE = 'Balewadi Aquatics, Shree Shiv Chhatrapati Sports Complex, Balewadi, Pune'

/**
 * The public release, a couple of minutes after the day is published: time for the host's club to
 * book first. (The release is a moment on the clock; nothing else opens it.)
 */
const RELEASE = labDateParts(new Date(Math.ceil((Date.now() + 150_000) / 60_000) * 60_000))

/** The analysis day's form: 9 AM to 5 PM in 20-minute slots with one rig, three seats kept for the host, released at RELEASE. */
const dayForm = (venueId: number, values: Record<string, string> = {}) => analysisDayFields(venueId, SATURDAY, { releaseDate: RELEASE.date, releaseTime: RELEASE.time, ...values })

const bookingDates = async () => [...(await new Visitor(site.url).get('/booking')).html.matchAll(/<option value="(\d{4}-\d\d-\d\d)"/g)].map((match) => match[1]!)

/** The newest link of `pattern` in the newest e-mail to `email` that matches `subject`. */
async function linkIn(email: string, subject: RegExp, pattern: RegExp) {
  const mail = await site.sink.waitForMailTo(email, subject)
  const link = pattern.exec(mail.text)?.[0]
  expect(link, `a link in the e-mail to ${email}`).toBeDefined()
  return new URL(link!).pathname + new URL(link!).search
}

/** A family books `start` on the day's page at `path` and pays at the sandbox gateway; returns the status page. */
async function bookAndPay(path: string, start: string, name: string) {
  const family = new Visitor(site.url)
  const email = `${name.toLowerCase().replace(' ', '.')}@example.com`
  const booked = await family.post(path, { name, email, phone: '', whoSwims: 'myself', slot: `${SATURDAY}|${start}`, intent: 'book', website_url: '' })
  expect([booked.status, name]).toEqual([302, name])
  const paid = await family.post(booked.location!, { outcome: 'success' })
  const status = await family.get(paid.location!)
  expect(textOf(status.html)).toContain('Booking Confirmed!')
  return { family, email, status }
}

const ids = { venue: 0, day: 0, kit: '', staffMember: '' }

describe('an analysis day in Pune, from the staff who plan it to the families who come', () => {
  it('is planned by staff: a venue in another city, the kit moved there for a Saturday, and the lab’s calendar closed that day', async () => {
    const admin = await staff()
    expect(await bookingDates()).toContain(SATURDAY)
    const added = await admin.post('/admin/venues', VENUE)
    expect(added.status).toBe(302)
    ids.venue = Number(/\/admin\/venues\/(\d+)/.exec(added.location!)![1])

    // The venue's opening hours that Saturday.
    const hours = new URLSearchParams({ intent: 'create', venue: String(ids.venue), from: SATURDAY, to: SATURDAY, weekdays: '6', startTime: '06:00', endTime: '20:00', slotDurationMinutes: '60', capacity: '1' })
    expect((await admin.post('/admin/availability', hours)).status).toBe(302)

    // The kit goes to Pune for the day (with its hour's travel each way), and so does a staff member.
    const kits = (await admin.get('/admin/kits')).html
    ids.kit = /name="id" value="(\d+)"/.exec(between(kits, 'id="kit-', '</form>'))![1]!
    const placed = await admin.post('/admin/kits', { intent: 'place', kitId: ids.kit, venueId: String(ids.venue), fromDate: SATURDAY, fromTime: '08:00', toDate: SATURDAY, toTime: '18:00', note: 'Pune race analysis' })
    expect(placed.status).toBe(302)
    ids.staffMember = /<option value="(\d+)">[^<]*\(staff@lab\.example\)<\/option>/.exec((await admin.get(`/admin/venues/${ids.venue}`)).html)![1]!
    const sent = await admin.post(`/admin/venues/${ids.venue}`, { intent: 'assign', userId: ids.staffMember, fromDate: SATURDAY, fromTime: '08:00', toDate: SATURDAY, toTime: '18:00', note: '' })
    expect(sent.status).toBe(302)

    // Bangalore has no kit that Saturday: no session starts there.
    await eventually(bookingDates, (dates) => !dates.includes(SATURDAY))
  })

  it('tells a visitor who asked for Pune once, when the day is published with its capacity and the host’s seats', async () => {
    const visitor = new Visitor(site.url)
    const asked = await visitor.post('/analysis-days', { email: 'waiting.parent@example.com', city: 'pune', website_url: '' })
    expect(asked.status).toBeLessThan(400)
    const confirm = await linkIn('waiting.parent@example.com', /./, /http:\/\/[^\s]+\/city-alerts\/[A-Za-z0-9_-]{43}/)
    expect((await visitor.post(confirm, { website_url: '' })).status).toBe(200)

    const admin = await staff()
    const created = await admin.post('/admin/analysis-days', dayForm(ids.venue))
    expect(created.status).toBe(302)
    ids.day = Number(/\/admin\/analysis-days\/(\d+)/.exec(created.location!)![1])
    const page = textOf((await admin.get(`/admin/analysis-days/${ids.day}`)).html)
    expect(page).toContain('1 rig × 8 h ÷ 20-minute slots = 24 swimmers')
    expect((await admin.post(`/admin/analysis-days/${ids.day}`, { intent: 'publish' })).status).toBe(302)

    const alert = await site.sink.waitForMailTo('waiting.parent@example.com', /Pune/)
    expect(alert.text).toContain('Balewadi Aquatics')
    expect(alert.text).toContain(`/analysis-days/${ids.day}`)
    // An edit after publishing tells nobody again.
    expect((await admin.post(`/admin/analysis-days/${ids.day}`, { intent: 'edit', ...dayForm(ids.venue, { whatToBring: 'Racing suit, cap, goggles and a towel' }) })).status).toBe(302)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(site.sink.messages.filter((mail) => mail.to.includes('waiting.parent@example.com') && /^Subject: .*Pune/m.test(mail.raw))).toHaveLength(1)
  })

  it('books three of the host club’s swimmers through its private link, then everyone at the release, and a parent pays', { timeout: 300_000 }, async () => {
    const admin = await staff()
    const hostLink = new URL(decodeHtml(/<input id="host-link"[^>]*value="([^"]+)"/.exec((await admin.get(`/admin/analysis-days/${ids.day}`)).html)![1]!))
    const hostPath = `${hostLink.pathname}${hostLink.search}`
    for (const [start, name] of [
      ['09:00', 'Aditi Kulkarni'],
      ['09:20', 'Rohan Joshi'],
      ['09:40', 'Sana Shaikh'],
    ] as const)
      await bookAndPay(hostPath, start, name)
    // The host's three seats are taken: a fourth through the link waits for the release, said next to the slot.
    const fourth = await new Visitor(site.url).post(hostPath, { name: 'Extra Swimmer', email: 'extra@example.com', phone: '', whoSwims: 'myself', slot: `${SATURDAY}|10:00`, intent: 'book', website_url: '' })
    expect(fourth.status).toBe(409)
    expect(textOf(fourth.html)).toContain('The seats kept for the host are all taken.')

    // The release comes: the day's page opens its form to everyone.
    await eventually(async () => textOf((await new Visitor(site.url).get(`/analysis-days/${ids.day}`)).html), (page) => !page.includes('Booking opens to everyone at'), { timeoutMs: 240_000, everyMs: 2_000 })
    const { email, status } = await bookAndPay(`/analysis-days/${ids.day}`, '11:00', 'Kavya Nair')
    expect(textOf(status.html)).toContain(`Location ${VENUE_LINE}`)

    // The e-mail and its calendar file name the venue.
    const mail = await site.sink.waitForMailTo(email, /Booking confirmed/)
    expect(mail.text).toMatch(/Location:\s+Balewadi Aquatics, Shree Shiv Chhatrapati Sports Complex, Balewadi, Pune/)
    const ics = attachedFile(mail, /\.ics/, /text\/calendar/i).toString('utf8').replace(/\r\n /g, '')
    expect(ics).toContain(`LOCATION:${VENUE_LINE.replaceAll(',', '\\,')}\r\n`)

    // The receipt: a tax invoice with the place of supply in Maharashtra and IGST on ₹1,500.
    const receiptPath = decodeHtml(/href="(\/receipts\/[^"]+)"/.exec(status.html)![1]!)
    const receipt = await new Visitor(site.url).get(receiptPath)
    expect(receipt.headers.get('Content-Type')).toBe('application/pdf')
    const lines = (await pdfText(receipt.bytes)).lines
    expect(lines).toEqual(expect.arrayContaining(['Tax Invoice', 'Place of supply: Maharashtra (27)', 'IGST @ 18% ₹228.81']))
    expect(lines.join('\n')).toContain('Balewadi Aquatics')
    expect(lines.filter((line) => /^(CGST|SGST)/.test(line))).toEqual([])
  })

  it('lists the four swimmers on the venue’s day sheet, and refuses a capacity below the seats sold', async () => {
    const admin = await staff()
    const sheet = textOf((await admin.get(`/admin/venues/${ids.venue}/day/${SATURDAY}`)).html)
    for (const name of ['Aditi Kulkarni', 'Rohan Joshi', 'Sana Shaikh', 'Kavya Nair']) expect(sheet).toContain(name)
    expect(sheet.indexOf('Aditi Kulkarni')).toBeLessThan(sheet.indexOf('Kavya Nair'))

    // One slot of eight hours cannot seat four swimmers: refused next to the rigs, nothing saved.
    const shrunk = await admin.post(`/admin/analysis-days/${ids.day}`, { intent: 'edit', ...dayForm(ids.venue, { slotMinutes: '480', hostSeats: '0' }) })
    expect(shrunk.status).toBe(409)
    expect(fieldState(shrunk.html, 'rigs')).toMatchObject({ invalid: true, message: 'A capacity of 1 swimmer is below the 4 seats already sold.' })
    expect(textOf((await admin.get(`/admin/analysis-days/${ids.day}`)).html)).toContain('1 rig × 8 h ÷ 20-minute slots = 24 swimmers')
  })
})
