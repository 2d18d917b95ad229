import type { Page } from 'playwright-core'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Db } from '~/db/client.server'
import { analysisDayLine, analysisDays } from '~/db/schema'
import { addDays, addMinutes, formatWeekdayDate, labToday } from '~/lib/lab-time'
import { ANALYSIS_DAY_LINE_LINK, privateLinkPath } from '~/lib/private-links.server'
import { SLOT_TAKEN } from '~/modules/booking/analysis-day-line.server'
import { analysisDayWindows } from '~/modules/booking/availability.server'
import { publishedDay, releasedDay, seedAnalysisDays } from '../support/analysis-days'
import { insertedBooking } from '../support/booking'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { useTestSite } from '../support/site'

// A booking's place in the line of analysis day bookings, opened from its private link (where the
// day's page sends a parent in a release's rush), in a real browser at a phone's and a desktop's
// size: a slot held for the place, paid through the sandbox gateway and confirmed; a slot taken by
// someone who came first, another chosen from the day's slots (with and without JavaScript) and
// paid; a day that turned out full (its page, with the waitlist); a refusal; a link that does not
// check out. The places are written to the line before the site starts, unsettled: the site
// settles them when their page is first opened.

const browser = useBrowser()

/** Days a week and more ahead: nothing here depends on the time of day. */
const OPEN_DAY = addDays(labToday(), 8)
const FULL_DAY = addDays(labToday(), 10)

/** The slot a confirmed booking takes before the site starts: the places that wanted it find it taken. */
const TAKEN_SLOT = `${OPEN_DAY}|10:00`

type Details = { name: string; email: string; slot: string }

/** The journeys' places in line, each with its link (made as the site makes it). */
const places = {
  seat: { phone: '', desktop: '' },
  taken: { phone: '', desktop: '', plain: '' },
  full: { phone: '', desktop: '' },
  refused: '',
  /** A place whose link is given a key the site did not make. */
  wrongKey: 0,
}
const ids = { open: 0, full: 0 }

/** What the booking form of a day's page puts in line (AnalysisDayBookingSchema's output, empty fields left out). */
const detailsOf = ({ name, email, slot }: Details) => ({ name, email, whoSwims: 'myself', slot })

/** Puts a booking in line for `dayId` as the day's page would (unsettled, unless `settled` says how), and returns its link. */
async function placeInLine(db: Db, dayId: number, details: Details, settled?: { outcome: 'refused' | 'taken' | 'full'; message: string | null; field: string | null }) {
  const [place] = await db
    .insert(analysisDayLine)
    .values({ analysisDayId: dayId, details: detailsOf(details), email: details.email.toLowerCase(), holderNetwork: '127.0.0.1', holderBrowser: null, ...(settled && { ...settled, settledAt: new Date() }) })
    .returning({ id: analysisDayLine.id })
  return { id: place!.id, link: await privateLinkPath(ANALYSIS_DAY_LINE_LINK, place!.id) }
}

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      const now = new Date()
      await seedAnalysisDays(db, installation, async (organiser) => {
        // 09:00-17:00 in 20-minute slots with one kit: a seat per slot, none kept for the host.
        ids.open = (await publishedDay(organiser, OPEN_DAY, now, { hostSeats: 0 })).dayId
        const [window] = await analysisDayWindows(ids.open)
        await insertedBooking(db, [{ windowId: window!.id, date: OPEN_DAY }], { start: '10:00', end: '10:20', now }, { reference: 'SWP-1700000000' })
        // Every slot booked and paid.
        ids.full = (await releasedDay(organiser, db, { venue: 'Chamundi Pool', date: FULL_DAY, booked: 3 })).dayId

        // Waiting for their turn: free slots each, and three for the slot booked meanwhile.
        places.seat.phone = (await placeInLine(db, ids.open, { name: 'Asha Rao', email: 'Asha.Rao@example.com', slot: `${OPEN_DAY}|09:00` })).link
        places.seat.desktop = (await placeInLine(db, ids.open, { name: 'Vikram Iyer', email: 'vikram.iyer@example.com', slot: `${OPEN_DAY}|09:20` })).link
        places.taken.phone = (await placeInLine(db, ids.open, { name: 'Meera Kulkarni', email: 'meera.k@example.com', slot: TAKEN_SLOT })).link
        places.taken.desktop = (await placeInLine(db, ids.open, { name: 'Rohan Das', email: 'rohan.das@example.com', slot: TAKEN_SLOT })).link
        places.taken.plain = (await placeInLine(db, ids.open, { name: 'Kavya Nair', email: 'kavya.nair@example.com', slot: TAKEN_SLOT })).link
        places.full.phone = (await placeInLine(db, ids.full, { name: 'Nikhil Patil', email: 'nikhil.patil@example.com', slot: `${FULL_DAY}|09:00` })).link
        places.full.desktop = (await placeInLine(db, ids.full, { name: 'Ravi Menon', email: 'ravi.menon@example.com', slot: `${FULL_DAY}|09:20` })).link
        // Settled already: refused.
        places.refused = (await placeInLine(db, ids.open, { name: 'Hema Shah', email: 'hema.shah@example.com', slot: `${OPEN_DAY}|12:00` }, { outcome: 'refused', message: 'You have already booked this time slot.', field: 'slot' })).link
        places.wrongKey = (await placeInLine(db, ids.open, { name: 'Anil Kumar', email: 'anil.kumar@example.com', slot: `${OPEN_DAY}|12:20` }, { outcome: 'taken', message: SLOT_TAKEN, field: 'slot' })).id
      })
      // Released a minute ago.
      await db.update(analysisDays).set({ releaseAt: addMinutes(now, -1) }).where(eq(analysisDays.id, ids.open))
    },
  },
)

const SIZES = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const

/** The page's card title. */
const title = (page: Page) => page.getByRole('heading', { level: 1 }).innerText()

/** Checks the page as it stands reads well: no axe violations, nothing wider than the screen. */
async function readsWell(page: Page) {
  await expectNoAxeViolations(page)
  await expectNoSidewaysScroll(page)
}

/** The held slot's page: its title and details (the swimmer, the analysis, when, where, the price, the booking ID). */
async function expectHeldSlot(page: Page, { swimmer, start, end }: { swimmer: string; start: string; end: string }) {
  await expect.poll(() => title(page), { timeout: 30_000 }).toBe('A slot is held for you')
  const text = await page.locator('main').innerText()
  expect(text).toMatch(new RegExp(`Swimmer\\s+${swimmer}`))
  expect(text).toMatch(/Analysis\s+Competition Race Analysis/)
  expect(text).toMatch(new RegExp(`When\\s+${formatWeekdayDate(OPEN_DAY)}, ${start} - ${end}`))
  expect(text).toMatch(/Where\s+Balewadi Aquatics, Shree Shiv Chhatrapati Sports Complex, Balewadi, Pune/)
  expect(text).toMatch(/Price\s+₹1,500\.00/)
  expect(text).toMatch(/Booking ID\s+SWP-\d+/)
  expect(text).toMatch(/The slot is yours if you pay by /)
}

/**
 * Pays on the sandbox gateway's page and comes back to the booking's status page, the booking
 * confirmed. Every journey here pays: the browsers share one address, whose unpaid holds the site limits.
 */
async function pay(page: Page) {
  await page.getByRole('button', { name: 'Pay ₹1,500.00' }).click()
  await page.waitForURL(/\/sandbox-gateway\/checkout\//)
  expect(await page.locator('body').innerText()).toContain('₹1,500.00')
  await page.getByRole('button', { name: /test success/ }).click()
  await page.waitForURL(/\/booking\?step=3/)
}

async function payAndConfirm(page: Page) {
  await pay(page)
  await expect.poll(() => page.getByRole('heading', { name: 'Booking Confirmed!' }).isVisible(), { timeout: 20_000 }).toBe(true)
}

/** The "Choose another slot" page of a place whose slot was taken: the other slots, the taken one Full. */
async function expectChooseAnother(page: Page, swimmer: string) {
  await expect.poll(() => title(page), { timeout: 30_000 }).toBe('Choose another slot')
  expect(await page.getByText(SLOT_TAKEN).isVisible()).toBe(true)
  expect(await page.locator('main').innerText()).toContain(`Competition Race Analysis at Balewadi Aquatics, for ${swimmer}.`)
  expect(await page.getByRole('group', { name: formatWeekdayDate(OPEN_DAY) }).isVisible()).toBe(true)
  const taken = page.getByRole('radio', { name: /^10:00 AM to 10:20 AM Full/ })
  expect(await taken.isDisabled()).toBe(true)
  expect(await page.getByRole('radio', { name: /^4:40 PM to 5:00 PM$/ }).isEnabled()).toBe(true)
}

describe('a place in the line of analysis day bookings, in the browser', () => {
  it('a place waiting for a free slot shows the slot held with its details; Pay goes to the gateway and the booking is confirmed', async () => {
    for (const [size, viewport] of SIZES) {
      const context = await browser.context(site.url, viewport)
      const page = await context.newPage()
      const errors = watchPageErrors(page)
      await page.goto(places.seat[size])
      const [swimmer, start, end] = size === 'phone' ? ['Asha Rao', '9:00 AM', '9:20 AM'] : ['Vikram Iyer', '9:20 AM', '9:40 AM']
      await expectHeldSlot(page, { swimmer, start, end })
      await readsWell(page)
      await payAndConfirm(page)
      expect(await page.locator('main').innerText()).toMatch(new RegExp(`Swimmer\\s+${swimmer}[^]*${start} - ${end}`))
      await readsWell(page)
      // The place's link, opened again, says the slot is booked.
      await page.goto(places.seat[size])
      expect(await title(page)).toBe('Already booked')
      expect(await page.locator('main').innerText()).toContain(`${swimmer} is booked. The confirmation is in your e-mail.`)
      expect(await page.getByRole('button', { name: /^Pay/ }).count()).toBe(0)
      await readsWell(page)
      expect(errors, size).toEqual([])
      await context.close()
    }
  })

  it('a place whose slot was taken offers the other slots, the taken one Full; another is booked, held and paid', async () => {
    const chosen = { phone: ['10:20 AM', '10:40 AM', 'Meera Kulkarni'], desktop: ['10:40 AM', '11:00 AM', 'Rohan Das'] } as const
    for (const [size, viewport] of SIZES) {
      const [start, end, swimmer] = chosen[size]
      const context = await browser.context(site.url, viewport)
      const page = await context.newPage()
      const errors = watchPageErrors(page)
      await page.goto(places.taken[size])
      await expectChooseAnother(page, swimmer)
      await readsWell(page)
      await page.getByRole('radio', { name: new RegExp(`^${start} to ${end}$`) }).check()
      await page.getByRole('button', { name: 'Book this slot' }).click()
      // The new place's own page, the slot held for it.
      await page.waitForURL((url) => url.pathname === '/analysis-days/line' && url.search !== new URL(places.taken[size], site.url).search)
      await expectHeldSlot(page, { swimmer, start, end })
      await readsWell(page)
      await payAndConfirm(page)
      expect(errors, size).toEqual([])
      await context.close()
    }
  })

  it('without JavaScript, another slot is chosen for a place whose slot was taken, and paid', async () => {
    const context = await browser.context(site.url, PHONE, { javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(places.taken.plain)
    // No axe nor width here: they run script in the page, which this browser does not (the same
    // states are read at both sizes with JavaScript above).
    await expectChooseAnother(page, 'Kavya Nair')
    await page.getByRole('radio', { name: /^11:20 AM to 11:40 AM$/ }).check()
    await page.getByRole('button', { name: 'Book this slot' }).click()
    await page.waitForURL((url) => url.pathname === '/analysis-days/line' && url.search !== new URL(places.taken.plain, site.url).search)
    await expectHeldSlot(page, { swimmer: 'Kavya Nair', start: '11:20 AM', end: '11:40 AM' })
    await payAndConfirm(page)
    await context.close()
  })

  it('a full day’s place goes to the day’s page and its waitlist; a refusal says why; a wrong key is not found', async () => {
    for (const [size, viewport] of SIZES) {
      const context = await browser.context(site.url, viewport)
      const page = await context.newPage()
      const errors = watchPageErrors(page)

      // Sent on from the place's page (303 once settled; the first opening settles it on the way).
      const opened = await page.goto(places.full[size])
      expect(new URL(opened!.url()).pathname).toBe(`/analysis-days/${ids.full}`)
      expect(opened!.request().redirectedFrom()?.url()).toBe(new URL(places.full[size], site.url).href)
      expect(await page.getByText('Every slot of this day is taken.').isVisible()).toBe(true)
      expect(await page.getByRole('button', { name: 'Join the waitlist' }).isVisible()).toBe(true)
      await readsWell(page)

      await page.goto(places.refused)
      expect(await title(page)).toBe('This booking could not be made')
      expect(await page.getByRole('alert').filter({ hasText: 'You have already booked this time slot.' }).isVisible()).toBe(true)
      await readsWell(page)
      await page.getByRole('link', { name: 'Back to the day' }).click()
      await page.waitForURL(`**/analysis-days/${ids.open}`)
      expect(errors, size).toEqual([])

      const wrong = await page.goto(`/analysis-days/line?${new URLSearchParams({ place: String(places.wrongKey), key: 'not-the-key' })}`)
      expect(wrong?.status()).toBe(404)
      // The site's page for an address that does not exist (the loader's INVALID_LINK is its thrown body).
      expect(await title(page)).toBe('Oops! Page not found')
      await readsWell(page)
      await context.close()
    }
  })
})
