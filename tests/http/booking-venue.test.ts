import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { analysisDays, bookings } from '~/db/schema'
import { addDays, addMinutes, labInstant, labToday } from '~/lib/lab-time'
import { holdAnalysisDaySlot } from '~/modules/booking/analysis-day-booking.server'
import type { AnalysisDayBookingInput } from '~/modules/booking/analysis-day-schemas'
import { publishedDay, seedAnalysisDays } from '../support/analysis-days'
import { recordedAnalysis } from '../support/analyses'
import { visitor } from '../support/holders'
import { textOf } from '../support/page-text'
import { useTestSite } from '../support/site'
import { attachedFile } from '../support/smtp-sink'
import { decodeHtml, Visitor } from '../support/visitor'

// Where a booking of an analysis day away from the lab takes place, over HTTP: the status page, the
// e-mail and its calendar file, the booking's own page, the staff's, My Bookings and the results name the venue
// in Pune with its address and map link.

const PUNE_DAY = addDays(labToday(), 9)
const RECORDED_DAY = addDays(labToday(), 10)
const PUNE_LINE = 'Balewadi Aquatics, Shree Shiv Chhatrapati Sports Complex, Balewadi, Pune'
const MAP_LINK = /<a href="https:\/\/maps\.example\/balewadi"[^>]*>Open the map<\/a>/

const ids = { pune: 0, analysis: 0 }

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      const now = new Date()
      ids.pune = await seedAnalysisDays(db, installation, async (organiser) => {
        const pune = (await publishedDay(organiser, PUNE_DAY, now, {}, 'Balewadi Aquatics')).dayId
        // A swimmer recorded at another pool in Pune, whose results are published.
        const recorded = (await publishedDay(organiser, RECORDED_DAY, now, {}, 'Kothrud Pool')).dayId
        const details = { name: 'Isha Rao', email: 'isha@example.com', whoSwims: 'myself', notes: '', slot: `${RECORDED_DAY}|09:00` } as AnalysisDayBookingInput
        const held = await holdAnalysisDaySlot(recorded, details, visitor(), { now: labInstant(RECORDED_DAY, '08:00') })
        await db.update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, held.bookingId))
        ids.analysis = (await recordedAnalysis(held.bookingId)).analysisId
        return pune
      })
      // Released a minute ago: everyone books.
      await db.update(analysisDays).set({ releaseAt: addMinutes(now, -1) }).where(eq(analysisDays.id, ids.pune))
    },
  },
)

const dayPath = () => `/analysis-days/${ids.pune}`

describe('a booking of an analysis day in Pune', () => {
  it('names the venue, its address and map link on the status page, in the e-mail and its calendar file, and on the booking’s own page', async () => {
    const parent = new Visitor(site.url)
    const booked = await parent.post(dayPath(), { name: 'Kavya Nair', email: 'kavya@example.com', phone: '', whoSwims: 'myself', slot: `${PUNE_DAY}|11:00`, intent: 'book', website_url: '' })
    expect(booked.status).toBe(302)
    const back = await parent.post(booked.location!, { outcome: 'success' })
    const status = await parent.get(back.location!)
    expect(textOf(status.html)).toContain('Booking Confirmed!')
    expect(textOf(status.html)).toContain(`Location ${PUNE_LINE}`)
    expect(decodeHtml(status.html)).toMatch(MAP_LINK)

    const mail = await site.sink.waitForMailTo('kavya@example.com', /Booking confirmed/)
    expect(mail.text).toMatch(new RegExp(`Location:\\s+${PUNE_LINE}`))
    expect(mail.text).toContain('Open the map (https://maps.example/balewadi)')
    expect(mail.text).not.toContain('PDCSE')
    const ics = attachedFile(mail, /\.ics/, /text\/calendar/i).toString('utf8').replace(/\r\n /g, '')
    expect(ics).toContain(`LOCATION:${PUNE_LINE.replaceAll(',', '\\,')}\r\n`)
    expect(ics).toContain('URL:https://maps.example/balewadi\r\n')

    const link = /(http:\/\/[^\s]+\/booking\/view\?ref=SWP-\d+&key=[\w-]+)/.exec(mail.text)?.[1]
    expect(link).toBeDefined()
    const view = await new Visitor(site.url).get(link!)
    expect(textOf(view.html)).toContain(`Location ${PUNE_LINE}`)
    expect(decodeHtml(view.html)).toMatch(MAP_LINK)

    // Staff see it on the booking's page too.
    const reference = /ref=(SWP-\d+)/.exec(link!)![1]!
    const staffPage = await (await site.sharedStaff()).get(`/admin/bookings/${reference}`)
    expect(textOf(staffPage.html)).toContain(`Location ${PUNE_LINE}`)
    expect(decodeHtml(staffPage.html)).toMatch(MAP_LINK)
  })

  it('shows the venue in My Bookings', async () => {
    const customer = await site.customer('Deepa Menon')
    const page = await customer.get(dayPath())
    const swimmer = /<input[^>]*name="whoSwims" checked="" value="(\d+)"/.exec(page.html)?.[1]
    const booked = await customer.post(dayPath(), { name: 'Deepa Menon', email: 'deepamenon@example.com', phone: '', whoSwims: swimmer!, slot: `${PUNE_DAY}|14:00`, intent: 'book', website_url: '' })
    expect(booked.status).toBe(302)
    const bookingsPage = await customer.get('/my-bookings')
    expect(textOf(bookingsPage.html)).toContain(`Location ${PUNE_LINE}`)
    expect(decodeHtml(bookingsPage.html)).toMatch(MAP_LINK)
  })

  it('shows on the results where the analysis was recorded', async () => {
    const page = await (await site.sharedStaff()).get(`/analyses/${ids.analysis}`)
    expect(page.status).toBe(200)
    expect(textOf(page.html)).toContain('Recorded at Kothrud Pool, Pune')
  })
})
