import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Db } from '~/db/client.server'
import { analysisDays, promoCodes, venues } from '~/db/schema'
import { addDays, addMinutes, formatLabDateTime, labInstant, labToday } from '~/lib/lab-time'
import { closeAnalysisDay, createAnalysisDay } from '~/modules/booking/analysis-days.server'
import { analysisDayForm, publishedDay, readyVenue, seedAnalysisDays } from '../support/analysis-days'
import { between, textOf } from '../support/page-text'
import { decodeHtml, fieldState, groupState, lettersFor, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// The public pages of analysis days, over HTTP as a browser without JavaScript uses them: the list
// by city and each day's page as the database has them, its schema.org Event, and the booking form
// with every refusal next to its field: before the release, the host's seats, a slot sold once, a
// day sold out, input no form sends; a seat leads to the payment gateway.

const PUNE_DAY = addDays(labToday(), 9)
const MYSURU_DAY = addDays(labToday(), 10)
const HOSTED_DAY = addDays(labToday(), 11)
const UNPUBLISHED_DAY = addDays(labToday(), 12)
const CLOSED_DAY = addDays(labToday(), 13)
const KEPT_DAY = addDays(labToday(), 14)
/** The hosted day opens to everyone at 7 AM on its own date. */
const HOSTED_RELEASE = labInstant(HOSTED_DAY, '07:00')

const ids = { pune: 0, mysuru: 0, hosted: 0, unpublished: 0, closed: 0, kept: 0 }

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      const now = new Date()
      await seedAnalysisDays(db, installation, async (organiser) => {
        ids.pune = (await publishedDay(organiser, PUNE_DAY, now, {}, 'Balewadi Aquatics')).dayId
        // One slot only, at a pool in another city.
        ids.mysuru = (await publishedDay(organiser, MYSURU_DAY, now, { startTime: '09:00', endTime: '09:30', slotMinutes: 30, hostSeats: 0, price: 1_200_00 }, 'Chamundi Pool')).dayId
        ids.hosted = (await publishedDay(organiser, HOSTED_DAY, now, { hostSeats: 2 }, 'Kothrud Pool')).dayId
        ids.unpublished = await createAnalysisDay(organiser, analysisDayForm(await readyVenue(organiser, UNPUBLISHED_DAY, now, 'Baner Pool'), UNPUBLISHED_DAY), now)
        ids.closed = (await publishedDay(organiser, CLOSED_DAY, now, {}, 'Aundh Pool')).dayId
        await closeAnalysisDay(organiser, ids.closed, now)
        ids.kept = (await publishedDay(organiser, KEPT_DAY, now, {}, 'Kharadi Pool')).dayId
      })
      await db.update(venues).set({ city: 'Mysuru', address: 'Chamundi Vihar Stadium' }).where(eq(venues.name, 'Chamundi Pool'))
      // Released a minute ago: everyone books.
      await released(db, [ids.pune, ids.mysuru, ids.kept], addMinutes(now, -1))
      await db.insert(promoCodes).values([
        { code: 'SINGLE500', discountKind: 'amount', discountValue: 500_00, products: ['single'] },
        { code: 'ONUS', discountKind: 'percent', discountValue: 100_00, products: ['three_day'] },
      ])
    },
  },
)

async function released(db: Db, dayIds: number[], at: Date) {
  for (const id of dayIds) await db.update(analysisDays).set({ releaseAt: at }).where(eq(analysisDays.id, id))
}

const dayPath = (id: number) => `/analysis-days/${id}`

/**
 * The host's link of a day, as staff copy it from the day's admin page to send to the club (its key
 * is signed with the site's own secret, which only the site's process holds).
 */
async function hostLinkOf(dayId: number) {
  const page = decodeHtml((await (await site.sharedStaff()).get(`/admin/analysis-days/${dayId}`)).html)
  const link = /<input id="host-link"[^>]*value="([^"]+)"/.exec(page)?.[1]
  expect(link, 'the host’s link on the admin page').toBeDefined()
  const url = new URL(link!)
  return `${url.pathname}${url.search}`
}

let parents = 0
/** The booking form as a family fills it in, each time another parent's name and address. */
function bookingForm(slot: string, over: Record<string, string> = {}) {
  parents += 1
  return { name: `Parent ${lettersFor(parents)}`, email: `parent${parents}@example.com`, phone: '', whoSwims: 'myself', slot, intent: 'book', website_url: '', ...over }
}

/** The schema.org data of a page, parsed. */
function structuredData(html: string) {
  const json = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1]
  expect(json, 'the JSON-LD script').toBeDefined()
  return JSON.parse(json!) as Record<string, any>
}

/** The radio of a slot, and whether it can be chosen. */
function slotRadio(html: string, value: string) {
  const tag = new RegExp(`<input[^>]*value="${value.replace('|', '\\|')}"[^>]*>`).exec(decodeHtml(html))?.[0]
  return tag ? { disabled: /\sdisabled=""/.test(tag) } : null
}

/** The label around a slot's radio, as text. */
function slotLabel(html: string, value: string) {
  const decoded = decodeHtml(html)
  const at = decoded.indexOf(`value="${value}"`)
  expect(at, value).toBeGreaterThan(0)
  return textOf(decoded.slice(decoded.lastIndexOf('<label', at), decoded.indexOf('</label>', at)))
}

/** The card of a day on the list, as text. */
function card(html: string, heading: string) {
  const found = html.split('<li').find((part) => part.includes(`>${heading}</h3>`))
  expect(found, heading).toBeDefined()
  return textOf(`<li${found!.split('</li>')[0]}`)
}

describe('the list of analysis days', () => {
  it('shows the days to come by city, each with its dates, hours, venue, price and seats, and links to its page', async () => {
    const page = await new Visitor(site.url).get('/analysis-days')
    expect(page.status).toBe(200)
    expect(page.html).toMatch(/<title>Analysis Days Near You \| Swimming Sport Science Lab<\/title>/)
    expect(page.html).toMatch(/<meta name="description" content="The lab takes its underwater cameras to pools away from Bangalore/)
    expect(page.html).toMatch(/<link rel="canonical" href="[^"]+\/analysis-days"/)
    const text = textOf(page.html)
    expect(text).toContain('Analysis days near you')
    // Mysuru before Pune, each under its own heading.
    const headings = [...page.html.matchAll(/<h2[^>]*>([^<]+)<\/h2>/g)].map((match) => match[1])
    expect(headings.filter((heading) => heading === 'Mysuru' || heading === 'Pune')).toEqual(['Mysuru', 'Pune'])
    expect(card(page.html, 'Competition Race Analysis at Balewadi Aquatics')).toMatch(/Dates \w+, \d+ \w+ Hours 9:00 AM - 5:00 PM Venue Balewadi Aquatics, Shree Shiv Chhatrapati Sports Complex, Balewadi Price ₹1,500\.00 Seats 24 seats left/)
    expect(card(page.html, 'Competition Race Analysis at Chamundi Pool')).toContain('Price ₹1,200.00')
    // Before its release: when it opens to everyone.
    expect(card(page.html, 'Competition Race Analysis at Kothrud Pool')).toContain(`Opens to everyone at ${formatLabDateTime(HOSTED_RELEASE)}`)
    for (const id of [ids.pune, ids.mysuru, ids.hosted]) expect(page.html).toContain(`href="${dayPath(id)}"`)
    // Never an unpublished or a closed day.
    expect(text).not.toContain('Baner Pool')
    expect(text).not.toContain('Aundh Pool')
  })

  it('is in the sitemap with each day’s page, and linked from the footer, /book and /services', async () => {
    const visitor = new Visitor(site.url)
    const sitemap = (await visitor.get('/sitemap.xml')).html
    expect(sitemap).toMatch(/<loc>[^<]+\/analysis-days<\/loc>/)
    for (const id of [ids.pune, ids.mysuru, ids.hosted]) expect(sitemap).toMatch(new RegExp(`<loc>[^<]+/analysis-days/${id}</loc>`))
    for (const id of [ids.unpublished, ids.closed]) expect(sitemap).not.toContain(`/analysis-days/${id}<`)
    expect(sitemap).not.toContain('host=')
    for (const path of ['/', '/book', '/services']) expect((await visitor.get(path)).html, path).toContain('href="/analysis-days"')
  })
})

describe('an analysis day’s page', () => {
  it('shows the product at the venue, its dates, hours, address and map, what to bring, price, seats and slots', async () => {
    const page = await new Visitor(site.url).get(dayPath(ids.pune))
    expect(page.status).toBe(200)
    expect(page.html).toMatch(/<h1[^>]*>Competition Race Analysis at Balewadi Aquatics<\/h1>/)
    expect(page.html).toMatch(/<title>Competition Race Analysis at Balewadi Aquatics, Pune \| Swimming Sport Science Lab<\/title>/)
    expect(page.html).toMatch(new RegExp(`<link rel="canonical" href="[^"]+/analysis-days/${ids.pune}"`))
    const text = textOf(page.html)
    expect(text).toMatch(/Dates \w+, \d+ \w+ Hours 9:00 AM - 5:00 PM Venue Balewadi Aquatics Shree Shiv Chhatrapati Sports Complex, Balewadi, Pune Open the map/)
    expect(text).toContain('What to bring Racing suit, cap and goggles Price ₹1,500.00 a swimmer Seats left 24 seats left')
    expect(decodeHtml(page.html)).toMatch(/<a href="https:\/\/maps\.example\/balewadi" target="_blank" rel="noopener noreferrer"/)
    // Every slot of the date, each one a radio of the form.
    expect(page.html.match(new RegExp(`name="slot" value="${PUNE_DAY}\\|`, 'g'))).toHaveLength(24)
    expect(slotLabel(page.html, `${PUNE_DAY}|16:40`)).toBe('4:40 PM to 5:00 PM')
    expect(slotRadio(page.html, `${PUNE_DAY}|09:00`)).toEqual({ disabled: false })
    // Nothing private about the public page, and nothing keeps it hidden from search engines.
    expect(page.html).not.toContain('noindex')
  })

  it('carries a schema.org Event with its dates at the lab’s offset, the venue, the price in rupees and whether seats are left', async () => {
    const page = await new Visitor(site.url).get(dayPath(ids.pune))
    const event = structuredData(page.html)
    expect(event).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Competition Race Analysis at Balewadi Aquatics',
      startDate: `${PUNE_DAY}T09:00:00+05:30`,
      endDate: `${PUNE_DAY}T17:00:00+05:30`,
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: 'Balewadi Aquatics', address: { '@type': 'PostalAddress', addressLocality: 'Pune', addressCountry: 'IN' } },
      offers: { '@type': 'Offer', price: '1500.00', priceCurrency: 'INR', availability: 'https://schema.org/InStock' },
      organizer: { '@type': 'Organization', name: 'Swimming Sport Science Lab' },
    })
    expect(event.offers.url).toMatch(new RegExp(`/analysis-days/${ids.pune}$`))
    // The script is allowed by the page's policy: the page is kept for every visitor, so by its hash.
    const json = /<script type="application\/ld\+json"[^>]*>([^<]+)<\/script>/.exec(page.html)?.[1]
    expect(page.headers.get('Content-Security-Policy')).toContain(`'sha256-${createHash('sha256').update(json!).digest('base64')}'`)
  })

  it('is kept a moment for anonymous visitors and dropped when a seat is taken; the host’s link never is', async () => {
    const visitor = new Visitor(site.url)
    await visitor.get(dayPath(ids.kept))
    const again = await visitor.get(dayPath(ids.kept))
    expect([again.status, again.headers.get('X-Page-Cache'), again.headers.get('Cache-Control')]).toEqual([200, 'hit', 'public, no-cache'])
    expect(slotRadio(again.html, `${KEPT_DAY}|16:40`)).toEqual({ disabled: false })
    // A family takes the last slot of the day: the kept copy goes at once, well before it would run out.
    expect((await new Visitor(site.url).post(dayPath(ids.kept), bookingForm(`${KEPT_DAY}|16:40`))).status).toBe(302)
    await expect.poll(async () => slotRadio((await visitor.get(dayPath(ids.kept))).html, `${KEPT_DAY}|16:40`), { timeout: 1000 }).toEqual({ disabled: true })
    const host = await visitor.get(await hostLinkOf(ids.hosted))
    expect([host.status, host.headers.get('X-Page-Cache'), host.headers.get('Cache-Control')]).toEqual([200, null, 'private, no-store'])
    // Signed in, the form is filled in with the customer's details: rendered for them.
    const customer = await (await site.customer('Kiran Shetty')).get(dayPath(ids.kept))
    expect(customer.headers.get('X-Page-Cache')).toBeNull()
  })

  it('is not found for a day unknown, unpublished or closed, or an address that is not one', async () => {
    const visitor = new Visitor(site.url)
    for (const path of [dayPath(999_999), dayPath(ids.unpublished), dayPath(ids.closed), '/analysis-days/pune', '/analysis-days/99999999999', '/analysis-days/0']) {
      const missing = await visitor.get(path)
      expect(missing.status, path).toBe(404)
      expect(missing.html, path).toContain('Oops! Page not found')
    }
    expect((await visitor.post(dayPath(ids.closed), bookingForm(`${CLOSED_DAY}|09:00`))).status).toBe(404)
    expect((await visitor.post(dayPath(ids.unpublished), bookingForm(`${UNPUBLISHED_DAY}|09:00`))).status).toBe(404)
  })
})

describe('booking a slot', () => {
  it('holds the seat and sends the family to the gateway, which confirms the booking on the status page', async () => {
    const parent = new Visitor(site.url)
    const booked = await parent.post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|11:00`, { name: 'Kavya Nair', email: 'kavya@example.com', phone: '9845012345', whoSwims: 'someone_else', swimmerName: 'Anika Nair', swimmerAge: '11', guardianDeclaration: 'on', notes: 'Backstroke starts, please.' }))
    expect(booked.status).toBe(302)
    expect(booked.location).toMatch(/\/sandbox-gateway\/checkout\//)
    expect(textOf((await parent.get(booked.location!)).html)).toContain('₹1,500.00')
    const back = await parent.post(booked.location!, { outcome: 'success' })
    const status = textOf((await parent.get(back.location!)).html)
    expect(status).toContain('Booking Confirmed!')
    expect(status).toContain('Anika Nair')
    // The seat is sold: the slot is full for everyone.
    const page = (await new Visitor(site.url).get(dayPath(ids.pune))).html
    expect(slotRadio(page, `${PUNE_DAY}|11:00`)).toEqual({ disabled: true })
    expect(slotLabel(page, `${PUNE_DAY}|11:00`)).toBe('11:00 AM to 11:20 AM Full')
    expect(textOf(page)).toContain('Seats left 23 seats left')
  })

  it('fills in a signed-in customer’s details and offers their swimmers, and books for the one chosen', async () => {
    const customer = await site.customer('Deepa Menon')
    const page = await customer.get(dayPath(ids.pune))
    expect(decodeHtml(page.html)).toMatch(/<input[^>]*name="name"[^>]*value="Deepa Menon"/)
    expect(decodeHtml(page.html)).toMatch(/<input[^>]*name="email"[^>]*value="deepamenon@example.com"/)
    const swimmer = /<input[^>]*name="whoSwims" checked="" value="(\d+)"/.exec(page.html)?.[1]
    expect(swimmer, 'the account’s swimmer, chosen for them').toBeDefined()
    const booked = await customer.post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|14:00`, { name: 'Deepa Menon', email: 'deepamenon@example.com', whoSwims: swimmer! }))
    expect(booked.status).toBe(302)
    expect(textOf((await customer.get('/my-bookings')).html)).toContain('Competition Race Analysis')
  })

  it('sells a slot once: the second family is told next to the slot, with the form as they sent it and the slot shown Full', async () => {
    const first = await new Visitor(site.url).post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|09:00`))
    expect(first.status).toBe(302)
    const second = await new Visitor(site.url).post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|09:00`, { name: 'Ravi Menon', email: 'ravi.menon@example.com' }))
    expect(second.status).toBe(409)
    expect(groupState(second.html, 'Time slot')).toEqual({ invalid: true, message: 'Sorry, that slot was taken while you were deciding. Please choose another.' })
    expect(decodeHtml(second.html)).toContain('value="Ravi Menon"')
    expect(decodeHtml(second.html)).toContain('value="ravi.menon@example.com"')
    expect(slotLabel(second.html, `${PUNE_DAY}|09:00`)).toBe('9:00 AM to 9:20 AM Full')
    expect(slotRadio(second.html, `${PUNE_DAY}|09:20`)).toEqual({ disabled: false })
  })

  it('says every slot is taken, instead of the form, once the day is sold out; the list and the Event say so too', async () => {
    const last = await new Visitor(site.url).post(dayPath(ids.mysuru), bookingForm(`${MYSURU_DAY}|09:00`))
    expect(last.status).toBe(302)
    // A booking sent too late is sent back to the day's page, which says why.
    const late = await new Visitor(site.url).post(dayPath(ids.mysuru), bookingForm(`${MYSURU_DAY}|09:00`))
    expect(late.status).toBe(303)
    expect(late.location).toBe(dayPath(ids.mysuru))
    // Whatever the form says once nothing is left, even nothing at all: the page that says so.
    const empty = await new Visitor(site.url).post(dayPath(ids.mysuru), { website_url: '' })
    expect([empty.status, empty.location]).toEqual([303, dayPath(ids.mysuru)])
    const page = await new Visitor(site.url).get(late.location!)
    expect(textOf(page.html)).toContain('Every slot of this day is taken.')
    expect(textOf(page.html)).toContain('Seats left Full')
    // No booking form: the waitlist's instead.
    expect(page.html).not.toContain('name="slot"')
    expect(textOf(page.html)).not.toContain('Book and pay')
    expect(textOf(page.html)).toContain('Join the waitlist')
    expect(structuredData(page.html).offers.availability).toBe('https://schema.org/SoldOut')
    expect(card((await new Visitor(site.url).get('/analysis-days')).html, 'Competition Race Analysis at Chamundi Pool')).toContain('Seats Full')
  })

  it('refuses input no form sends with 400 and the messages next to the fields, never a 500', async () => {
    const visitor = new Visitor(site.url)
    const noSlot = await visitor.post(dayPath(ids.pune), bookingForm('', {}))
    expect(noSlot.status).toBe(400)
    expect(groupState(noSlot.html, 'Time slot')).toEqual({ invalid: true, message: 'Please choose a time slot.' })
    expect(textOf(noSlot.html)).toContain('Missing information - Please fill in all required fields.')
    for (const slot of [`${PUNE_DAY}|09:10`, `${addDays(PUNE_DAY, 1)}|09:00`, '2030-02-31|09:00', `${PUNE_DAY}|08:40`]) {
      const refused = await visitor.post(dayPath(ids.pune), bookingForm(slot))
      expect(refused.status, slot).toBe(400)
      expect(groupState(refused.html, 'Time slot'), slot).toEqual({ invalid: true, message: 'Please choose one of the time slots listed.' })
    }
    for (const slot of ['tomorrow', `${PUNE_DAY}|25:00`, `${PUNE_DAY}`]) {
      const refused = await visitor.post(dayPath(ids.pune), bookingForm(slot))
      expect(refused.status, slot).toBe(400)
      expect(groupState(refused.html, 'Time slot'), slot).toEqual({ invalid: true, message: 'Please choose a time slot.' })
    }
    const nameless = await visitor.post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|09:40`, { name: '', email: '' }))
    expect(nameless.status).toBe(400)
    expect(fieldState(nameless.html, 'name')).toEqual({ invalid: true, message: 'Please enter your full name' })
    expect(fieldState(nameless.html, 'email')).toEqual({ invalid: true, message: 'Please enter your email address' })
    expect(textOf(nameless.html)).toContain('Missing information - Please fill in all required fields.')
    const long = await visitor.post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|09:40`, { name: 'A'.repeat(10_000), notes: 'x'.repeat(10_000) }))
    expect(long.status).toBe(400)
    expect(fieldState(long.html, 'name').invalid).toBe(true)
    expect(textOf(long.html)).toContain('Please keep notes under 1,000 characters')
    const minor = await visitor.post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|09:40`, { whoSwims: 'someone_else', swimmerName: 'Diya Menon', swimmerAge: '9' }))
    expect(minor.status).toBe(400)
    expect(textOf(minor.html)).toContain("Please confirm that you are the swimmer's parent or guardian")
    // The slot was never held by any of these.
    expect(slotRadio((await visitor.get(dayPath(ids.pune))).html, `${PUNE_DAY}|09:40`)).toEqual({ disabled: false })
    // A form of another page, or a bot that fills in every field.
    expect((await visitor.post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|09:40`, { intent: 'pay' }))).status).toBe(400)
    expect((await visitor.post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|09:40`, { website_url: 'https://spam.example' }))).status).toBe(400)
  })

  it('takes a promo code with the booking, and gives the seat up when the code does not apply, saying why next to it', async () => {
    const refusedParent = new Visitor(site.url)
    const refused = await refusedParent.post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|12:00`, { promoCode: 'onus' }))
    expect(refused.status).toBe(400)
    expect(decodeHtml(/<p id="promo-code-error"[^>]*>([^<]*)<\/p>/.exec(refused.html)?.[1] ?? '')).toBe('This promo code is only for 3-day analysis sessions.')
    expect(refused.html).toMatch(/<input[^>]*id="promo-code"[^>]*value="onus"/)
    expect(slotRadio(refused.html, `${PUNE_DAY}|12:00`)).toEqual({ disabled: false })
    const discounted = await new Visitor(site.url).post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|12:00`, { promoCode: 'single500' }))
    expect(discounted.status).toBe(302)
    expect(textOf((await new Visitor(site.url).get(discounted.location!)).html)).toContain('₹1,000.00')
  })

  it('tells a second unpaid booking for the same address, from another browser, at the top of the form', async () => {
    expect((await new Visitor(site.url).post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|13:00`, { email: 'twice@example.com' }))).status).toBe(302)
    const again = await new Visitor(site.url).post(dayPath(ids.pune), bookingForm(`${PUNE_DAY}|13:20`, { email: 'twice@example.com' }))
    expect(again.status).toBe(409)
    expect(textOf(between(again.html, 'role="alert"', '</div>'))).toContain('A booking for this e-mail address is already waiting for payment.')
    expect(decodeHtml(again.html)).toContain('value="twice@example.com"')
  })
})

describe('before the public release', () => {
  const opens = `Booking opens to everyone at ${formatLabDateTime(HOSTED_RELEASE)}.`

  it('shows everyone when booking opens, with the form to fill in, and refuses a booking sent before then next to the slot', async () => {
    const visitor = new Visitor(site.url)
    const page = await visitor.get(dayPath(ids.hosted))
    expect(page.status).toBe(200)
    expect(textOf(page.html)).toContain(`${opens} Choose a slot and fill in your details now: from then on, the button books.`)
    expect(page.html).toContain('name="slot"')
    const refused = await visitor.post(dayPath(ids.hosted), bookingForm(`${HOSTED_DAY}|09:00`, { name: 'Early Parent' }))
    expect(refused.status).toBe(409)
    expect(groupState(refused.html, 'Time slot')).toEqual({ invalid: true, message: opens })
    expect(decodeHtml(refused.html)).toContain('value="Early Parent"')
    expect(structuredData(page.html).offers.validFrom).toBe(`${HOSTED_DAY}T07:00:00+05:30`)
  })

  it('books the host club through its link up to its seats, then refuses a stranger reusing the link next to the slot', async () => {
    const hostLink = await hostLinkOf(ids.hosted)
    const host = await new Visitor(site.url).get(hostLink)
    expect(host.status).toBe(200)
    expect(textOf(host.html)).toContain('Booking for Pune Swim Club: 2 of 2 seats kept for you are left.')
    // The club's own: no shared cache keeps it, no search engine lists it, its key goes nowhere else.
    expect(host.headers.get('Cache-Control')).toBe('private, no-store')
    expect(host.headers.get('Referrer-Policy')).toBe('same-origin')
    expect(host.html).toContain('<meta name="robots" content="noindex"/>')
    // The form is sent to the link itself, so the key comes with it.
    const action = decodeHtml(/<form[^>]*action="(\/analysis-days\/[^"]+)" method="post"/.exec(host.html)?.[1] ?? '')
    expect(action).toBe(hostLink)

    for (const start of ['09:00', '09:20']) {
      const booked = await new Visitor(site.url).post(action, bookingForm(`${HOSTED_DAY}|${start}`))
      expect(booked.status, start).toBe(302)
      expect(booked.location).toMatch(/\/sandbox-gateway\/checkout\//)
    }
    const used = textOf((await new Visitor(site.url).get(hostLink)).html)
    expect(used).toContain(`Booking for Pune Swim Club: 0 of 2 seats kept for you are left. The rest open to everyone at ${formatLabDateTime(HOSTED_RELEASE)}.`)
    const stranger = await new Visitor(site.url).post(hostLink, bookingForm(`${HOSTED_DAY}|10:00`, { name: 'Forwarded Link' }))
    expect(stranger.status).toBe(409)
    expect(groupState(stranger.html, 'Time slot')).toEqual({ invalid: true, message: 'The seats kept for the host are all taken. The rest open to everyone at the public release.' })
    expect(decodeHtml(stranger.html)).toContain('value="Forwarded Link"')
  })

  it('says a link whose key does not check out is not valid', async () => {
    const forged = `${dayPath(ids.hosted)}?host=not-the-key`
    const visitor = new Visitor(site.url)
    const page = await visitor.get(forged)
    expect(page.status).toBe(404)
    expect(page.html).toMatch(/<h1[^>]*>This link is not valid\.<\/h1>/)
    const posted = await visitor.post(forged, bookingForm(`${HOSTED_DAY}|10:00`))
    expect(posted.status).toBe(404)
    expect(posted.html).toContain('This link is not valid.')
    // A day's key opens no other day.
    expect((await visitor.get(`${dayPath(ids.pune)}?${new URL(await hostLinkOf(ids.hosted), site.url).searchParams}`)).status).toBe(404)
  })
})
