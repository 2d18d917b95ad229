import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { analysisDayLine, analysisDays } from '~/db/schema'
import { addDays, addMinutes, labToday } from '~/lib/lab-time'
import { ANALYSIS_DAY_LINE_LINK, privateLinkPath } from '~/lib/private-links.server'
import { publishedDay, releasedDay, seedAnalysisDays } from '../support/analysis-days'
import { textOf } from '../support/page-text'
import { decodeHtml, lettersFor, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// The line of analysis day bookings over HTTP, as browsers without JavaScript use it: a release's
// rush of parents all sending the form at once (each answered, each slot sold once, never a 5xx,
// whichever way the site answers each: directly, or through their place in line), and the page of a
// place (a seat to pay for, another slot to choose, refusals of what the page does not offer, links
// that do not check out).

const RUSH_DAY = addDays(labToday(), 9)
const PLACES_DAY = addDays(labToday(), 10)
const FULL = 'Every slot of this day is taken.'
/** The rush day's 24 slots. */
const SLOTS = Array.from({ length: 24 }, (_, index) => `${String(9 + Math.floor(index / 3)).padStart(2, '0')}:${['00', '20', '40'][index % 3]}`)
const RUSH_PARENTS = 120

const ids = { rush: 0, places: 0 }
/** The pages of places made before the site started: one waiting for a free slot, one whose slot was taken. */
const links = { waiting: '', taken: '' }

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      await seedAnalysisDays(db, installation, async (organiser) => {
        // 09:00 to 17:00 in 20-minute slots with one kit: 24 seats, released a minute ago.
        ids.rush = (await publishedDay(organiser, RUSH_DAY, new Date(), { startTime: '09:00', endTime: '17:00', slotMinutes: 20, hostSeats: 0 }, 'Balewadi Aquatics')).dayId
        await db.update(analysisDays).set({ releaseAt: addMinutes(new Date(), -1) }).where(eq(analysisDays.id, ids.rush))
        ids.places = (await releasedDay(organiser, db, { venue: 'Kothrud Pool', date: PLACES_DAY })).dayId
        const place = (slot: string, email: string, settled: Partial<typeof analysisDayLine.$inferInsert> = {}) => ({
          analysisDayId: ids.places,
          details: { name: `Parent ${lettersFor(email.length)}`, email, whoSwims: 'myself', slot: `${PLACES_DAY}|${slot}`, notes: '' },
          email,
          holderNetwork: '198.51.100.77',
          ...settled,
        })
        // The first in line holds 09:00 when the site settles it; the second was told it was taken.
        const [waiting, taken] = await db
          .insert(analysisDayLine)
          .values([place('09:00', 'first@example.com'), place('09:00', 'second@example.com', { outcome: 'taken', message: 'Sorry, that slot was taken while you were deciding. Please choose another.', field: 'slot', settledAt: new Date() })])
          .returning({ id: analysisDayLine.id })
        links.waiting = await privateLinkPath(ANALYSIS_DAY_LINE_LINK, waiting!.id)
        links.taken = await privateLinkPath(ANALYSIS_DAY_LINE_LINK, taken!.id)
      })
    },
  },
)

let parents = 0
function bookingForm(slot: string) {
  parents += 1
  return { name: `Parent ${lettersFor(parents)}`, email: `rush${parents}@example.com`, phone: '', whoSwims: 'myself', slot: `${RUSH_DAY}|${slot}`, intent: 'book', website_url: '' }
}

/** The slots a page offers: its radio buttons named "slot" that are not disabled. */
function freeSlots(html: string) {
  return [...html.matchAll(/<input\b[^>]*\bname="slot"[^>]*>/g)].filter(([input]) => !/\sdisabled(=|\s|>|\/)/.test(input)).map(([input]) => decodeHtml(/\bvalue="([^"]+)"/.exec(input)![1]!))
}

type Answer = Awaited<ReturnType<Visitor['get']>>

/**
 * Where a parent's answer leads, followed as a browser does: a seat (paid for, to the gateway), the
 * day full (its page, with the waitlist), or another slot chosen from the page that says theirs was
 * taken (the day's page with their form, or their place's). The statuses of every answer on the way.
 */
async function outcomeOf(visitor: Visitor, first: Answer, dayPath: string) {
  const statuses: number[] = []
  let answer = first
  // The address of the page the parent's browser shows, whose form they send.
  let page = dayPath
  for (let step = 0; step < 40; step += 1) {
    statuses.push(answer.status)
    if (answer.status === 302 && answer.location?.includes('/sandbox-gateway/')) return { outcome: 'seat', statuses }
    if ((answer.status === 302 || answer.status === 303) && answer.location) {
      page = answer.location
      answer = await visitor.get(page)
      continue
    }
    const text = answer.status === 200 || answer.status === 409 ? answer.html : ''
    if (text.includes(FULL)) return { outcome: text.includes('Join the waitlist') ? 'full' : 'full without the waitlist', statuses }
    if (text.includes('A slot is held for you')) answer = await visitor.post(page, { intent: 'pay', website_url: '' })
    else if (text.includes('You are in line')) answer = await visitor.get(page)
    else if (text.includes('Choose another slot') || answer.status === 409) {
      const slot = freeSlots(text)[0]
      if (!slot) return { outcome: 'no slot offered', statuses }
      answer = page.startsWith('/analysis-days/line') ? await visitor.post(page, { intent: 'book', slot, website_url: '' }) : await visitor.post(page, { ...bookingForm('09:00'), slot })
    } else return { outcome: `unexpected ${answer.status}: ${textOf(answer.html).slice(0, 200)}`, statuses }
  }
  return { outcome: 'unanswered', statuses }
}

describe('a release rush on an analysis day', () => {
  it('sells each slot once, answers every parent with a seat or the day full (and its waitlist), never a 5xx', async () => {
    const dayPath = `/analysis-days/${ids.rush}`
    const visitors = Array.from({ length: RUSH_PARENTS }, () => new Visitor(site.url))
    // All at once, for the slots in turn: five parents for each.
    const answers = await Promise.all(visitors.map((visitor, index) => visitor.post(dayPath, bookingForm(SLOTS[index % SLOTS.length]!))))
    const outcomes = await Promise.all(visitors.map((visitor, index) => outcomeOf(visitor, answers[index]!, dayPath)))
    expect(outcomes.flatMap((outcome) => outcome.statuses).filter((status) => status >= 500)).toEqual([])
    const counts = outcomes.reduce<Record<string, number>>((sum, { outcome }) => ({ ...sum, [outcome]: (sum[outcome] ?? 0) + 1 }), {})
    expect(counts).toEqual({ seat: SLOTS.length, full: RUSH_PARENTS - SLOTS.length })
    // So many at once are answered with their place in line (the page of which told them the outcome).
    expect(answers.filter((answer) => answer.status === 303 && answer.location?.startsWith('/analysis-days/line?')).length).toBeGreaterThan(0)
    // The day's page says it is full to everyone now.
    expect(textOf((await new Visitor(site.url).get(dayPath)).html)).toContain(FULL)
  })
})

describe('the page of a place in line', () => {
  it('shows the seat held for the first in line and sends the parent to pay it', async () => {
    const visitor = new Visitor(site.url)
    const page = await visitor.get(links.waiting)
    expect(page.status).toBe(200)
    const text = textOf(page.html)
    expect(text).toContain('A slot is held for you')
    expect(text).toContain('Kothrud Pool')
    expect(text).toMatch(/9:00\s*(AM|am)/)
    expect(page.headers.get('Cache-Control')).toMatch(/no-store/)
    expect(page.html).toContain('name="robots" content="noindex"')
    const paying = await visitor.post(links.waiting, { intent: 'pay', website_url: '' })
    expect(paying.status).toBe(302)
    expect(paying.location).toContain('/sandbox-gateway/')
    // Another slot cannot be booked from a place that holds one: back to its page.
    const again = await visitor.post(links.waiting, { intent: 'book', slot: `${PLACES_DAY}|09:20`, website_url: '' })
    expect(again.status).toBe(303)
    expect(textOf((await visitor.get(again.location!)).html)).toContain('A slot is held for you')
  })

  it('offers the other slots to a parent whose slot was taken, with the details kept, and books the one chosen', async () => {
    const visitor = new Visitor(site.url)
    // Settled first, so that 09:00 is held by the first in line.
    await visitor.get(links.waiting)
    const page = await visitor.get(links.taken)
    expect(page.status).toBe(200)
    const text = textOf(page.html)
    expect(text).toContain('Choose another slot')
    expect(text).toContain('Sorry, that slot was taken while you were deciding. Please choose another.')
    expect(freeSlots(page.html)).toEqual([`${PLACES_DAY}|09:20`, `${PLACES_DAY}|09:40`])
    // Paying is not what this page offers: back to it.
    expect((await visitor.post(links.taken, { intent: 'pay', website_url: '' })).status).toBe(303)
    // A slot no page offers is refused next to the slots, nothing joined.
    const bad = await visitor.post(links.taken, { intent: 'book', slot: '09:20; DROP TABLE bookings', website_url: '' })
    expect(bad.status).toBe(400)
    expect(textOf(bad.html)).toContain('Please choose a time slot.')

    const chosen = await visitor.post(links.taken, { intent: 'book', slot: `${PLACES_DAY}|09:20`, website_url: '' })
    expect(chosen.status).toBe(303)
    expect(chosen.location).toMatch(/^\/analysis-days\/line\?place=\d+&key=/)
    const held = textOf((await visitor.get(chosen.location!)).html)
    expect(held).toContain('A slot is held for you')
    expect(held).toMatch(/9:20\s*(AM|am)/)
    expect(held).toContain('Parent')
  })

  it('is not found for a link that does not check out, nor for an address that is not one', async () => {
    const visitor = new Visitor(site.url)
    const place = new URL(links.waiting, 'http://x').searchParams.get('place')!
    for (const path of [`/analysis-days/line?place=${place}&key=wrong`, `/analysis-days/line?place=${Number(place) + 1000}&key=${'a'.repeat(43)}`, '/analysis-days/line?place=abc&key=x', '/analysis-days/line']) {
      const answer = await visitor.get(path)
      expect(answer.status, path).toBe(404)
      expect(textOf(answer.html)).toContain('Page not found')
    }
    const posted = await visitor.post(`/analysis-days/line?place=${place}&key=wrong`, { intent: 'book', slot: `${PLACES_DAY}|09:40`, website_url: '' })
    expect(posted.status).toBe(404)
  })
})
