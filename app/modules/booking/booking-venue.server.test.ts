import { asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { outboxMessages, payments, venues } from '~/db/schema'
import { addMinutes, labInstant } from '~/lib/lab-time'
import { saveFinding, startAnalysis } from '~/modules/analyses/editing.server'
import { publishAnalysis } from '~/modules/analyses/publishing.server'
import { accountAnalyses, analysisView } from '~/modules/analyses/views.server'
import { newOrderId } from '~/modules/payments/gateway-contract.server'
import { applyOrderStatus } from '~/modules/payments/payments.server'
import { sendDueReminders } from '~/modules/reminders/reminders.server'
import { optInToWhatsApp } from '~/modules/whatsapp/consent.server'
import { publishedDay } from '../../../tests/support/analysis-days'
import { createCustomers, createStaff, mailTo, setWindows } from '../../../tests/support/booking'
import { visitor } from '../../../tests/support/holders'
import { useTestDatabase } from '../../../tests/support/test-database'
import { useWhatsAppOn } from '../../../tests/support/whatsapp-on'
import { holdAnalysisDaySlot } from './analysis-day-booking.server'
import type { AnalysisDayBookingInput } from './analysis-day-schemas'
import { bookingByReference, paymentStatusView } from './bookings.server'
import { holdSession } from './holds.server'
import { mapLinkOf, venueDetails } from './texts'

useTestDatabase()

// 1 December 2030, 10 AM at the lab. The analysis day in Pune is Saturday 7 December, released at 7 AM on Friday 6 December.
const NOW = new Date('2030-12-01T04:30:00Z')
const SATURDAY = '2030-12-07'
const RELEASE = { releaseDate: '2030-12-06', releaseTime: '07:00' }
const AFTER_RELEASE = new Date('2030-12-06T02:00:00Z')
const PUNE_LINE = 'Balewadi Aquatics, Shree Shiv Chhatrapati Sports Complex, Balewadi, Pune'
const MAP = 'https://maps.example/balewadi'

async function paid(bookingId: number, amountPaise: number, at: Date) {
  const orderId = newOrderId('SLOT', at)
  await db().insert(payments).values({ orderId, bookingId, gateway: 'sandbox', amountPaise, state: 'pending', expiresAt: addMinutes(at, 20), createdAt: at, updatedAt: at })
  await applyOrderStatus(orderId, { state: 'completed', amountPaise, transactionId: `T${orderId}`, paymentMode: 'UPI' })
  return orderId
}

/** The e-mail to `email` whose subject starts with `subject`, and its calendar file (lines unfolded). */
async function mail(email: string, subject: string) {
  const found = (await mailTo(email)).find((message) => message.subject.startsWith(subject))
  expect(found, subject).toBeDefined()
  const ics = found!.attachments.find((attachment) => attachment.filename.endsWith('.ics'))
  return { ...found!, ics: ics ? Buffer.from(ics.contentBase64, 'base64').toString('utf8').replace(/\r\n /g, '') : null }
}

const whatsApp = () => db().select({ template: outboxMessages.templateName, parameters: outboxMessages.templateParams }).from(outboxMessages).where(eq(outboxMessages.channel, 'whatsapp')).orderBy(asc(outboxMessages.id))

describe('a booking of an analysis day away from the lab', () => {
  useWhatsAppOn()

  it('names the venue with its address and map link in the e-mail, calendar file, reminder, WhatsApp, status page and results', async () => {
    const actor = await createStaff()
    const { dayId } = await publishedDay(actor, SATURDAY, NOW, RELEASE)
    await optInToWhatsApp({ phone: '98450 12345', source: 'booking' })
    const details = { name: 'Meera Iyer', email: 'meera@example.com', phone: '98450 12345', whoSwims: 'myself', notes: '', slot: `${SATURDAY}|11:00` } as AnalysisDayBookingInput
    const held = await holdAnalysisDaySlot(dayId, details, visitor(), { now: AFTER_RELEASE })
    const orderId = await paid(held.bookingId, 1_500_00, AFTER_RELEASE)

    const confirmation = await mail('meera@example.com', 'Booking confirmed')
    expect(confirmation.text).toMatch(new RegExp(`Location:\\s+${PUNE_LINE}\n`))
    expect(confirmation.text).toMatch(/Map:\s+Open the map \(https:\/\/maps\.example\/balewadi\)\n/)
    expect(confirmation.html).toContain(`<a href="${MAP}">Open the map</a>`)
    expect(confirmation.text).not.toContain('PDCSE')
    expect(confirmation.ics).toContain(`LOCATION:${PUNE_LINE.replaceAll(',', '\\,')}\r\n`)
    expect(confirmation.ics).toContain(`URL:${MAP}\r\n`)
    expect(confirmation.ics).toContain(`Map: ${MAP}`)

    await sendDueReminders(labInstant('2030-12-06', '09:00'))
    const reminder = await mail('meera@example.com', 'Reminder:')
    expect(reminder.text).toMatch(new RegExp(`Where:\\s+${PUNE_LINE}\n`))
    expect(reminder.html).toContain(`<a href="${MAP}">Open the map</a>`)

    expect(await whatsApp()).toEqual([
      { template: 'booking_confirmed', parameters: ['Meera Iyer', 'Competition Race Analysis', 'Meera Iyer', 'Saturday, 7 December 2030, 11:00 AM - 11:20 AM', 'Balewadi Aquatics, Pune', held.reference] },
      { template: 'session_reminder', parameters: ['Meera Iyer', 'competition race analysis', 'Meera Iyer', held.reference, 'Saturday, 7 December 2030, 11:00 AM - 11:20 AM', 'Balewadi Aquatics, Pune'] },
    ])

    const venue = { home: false, name: 'Balewadi Aquatics', address: 'Shree Shiv Chhatrapati Sports Complex, Balewadi', city: 'Pune', mapUrl: MAP }
    const status = await paymentStatusView({ orderId, access: { linkKeyChecked: true } })
    expect(status!.booking.venue).toEqual(venue)
    expect((await bookingByReference(held.reference))!.venue).toEqual(venue)
    expect(venueDetails(venue)).toEqual([
      { term: 'Location', value: PUNE_LINE },
      { term: 'Map', value: 'Open the map', href: MAP },
    ])

    const analysisId = await startAnalysis(actor, held.bookingId)
    await saveFinding(actor, analysisId, { title: 'Faster turns', whyItMatters: '', priority: 'medium' })
    await publishAnalysis({ actor, analysisId, tellFamily: false, now: labInstant('2030-12-09', '10:00') })
    expect((await analysisView(analysisId))!.place).toBe('Balewadi Aquatics, Pune')
    const [listed] = await accountAnalyses(0, 'meera@example.com')
    expect(listed!.analyses).toEqual([expect.objectContaining({ id: analysisId, sessionDate: SATURDAY, place: 'Balewadi Aquatics, Pune' })])
  })

  it('shows a map link only when it is a web address', async () => {
    const actor = await createStaff()
    const { venueId, dayId } = await publishedDay(actor, SATURDAY, NOW, RELEASE)
    await db().update(venues).set({ mapUrl: 'javascript:alert(1)' }).where(eq(venues.id, venueId))
    const held = await holdAnalysisDaySlot(dayId, { name: 'Meera Iyer', email: 'meera@example.com', whoSwims: 'myself', notes: '', slot: `${SATURDAY}|11:00` } as AnalysisDayBookingInput, visitor(), { now: AFTER_RELEASE })
    await paid(held.bookingId, 1_500_00, AFTER_RELEASE)
    const confirmation = await mail('meera@example.com', 'Booking confirmed')
    expect(confirmation.text).not.toContain('Map:')
    expect(confirmation.html).not.toContain('javascript:')
    expect(confirmation.ics).not.toContain('javascript:')
    expect(venueDetails((await bookingByReference(held.reference))!.venue)).toEqual([{ term: 'Location', value: PUNE_LINE }])
    expect(mapLinkOf({ mapUrl: 'http://maps.example/x?a=1&b="2"' })).toBe('http://maps.example/x?a=1&b=%222%22')
  })
})

describe('a booking at the lab', () => {
  it('still names the session location, without an address or map', async () => {
    await setWindows([{ date: '2030-03-04' }])
    const [customer] = await createCustomers(1)
    const held = await holdSession({ customer: customer!, productCode: 'single_race', date: '2030-03-04', start: '09:00', days: 1, now: labInstant('2030-02-01', '10:00') })
    const orderId = await paid(held.bookingId, 3_499_00, labInstant('2030-02-01', '10:01'))
    const confirmation = await mail(customer!.email, 'Booking confirmed')
    expect(confirmation.text).toMatch(/Location:\s+PDCSE, Bangalore\n/)
    expect(confirmation.text).not.toContain('Map:')
    expect(confirmation.ics).toContain('LOCATION:PDCSE\\, Bangalore\r\n')
    expect(confirmation.ics).not.toContain('URL:')
    const status = await paymentStatusView({ orderId, access: { userId: customer!.userId! } })
    expect(status!.booking.venue).toEqual({ home: true, name: 'PDCSE, Bangalore', address: null, city: null, mapUrl: null })
    expect(venueDetails(status!.booking.venue)).toEqual([{ term: 'Location', value: 'PDCSE, Bangalore' }])
    const actor = await createStaff()
    expect((await analysisView(await startAnalysis(actor, held.bookingId)))!.place).toBe('PDCSE, Bangalore')
  })
})
