import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, bookings, kitPlacements, payments, staffAssignments } from '~/db/schema'
import { addMinutes } from '~/lib/lab-time'
import { ANALYSIS_DAY_HOST_LINK, privateLinkPath } from '~/lib/private-links.server'
import { newOrderId } from '~/modules/payments/gateway-contract.server'
import { applyOrderStatus } from '~/modules/payments/payments.server'
import { analysisDayForm, publishedDay, puneVenue, readyVenue } from '../../../tests/support/analysis-days'
import { bookingRow, createStaff, refusal, setWindows } from '../../../tests/support/booking'
import { visitor } from '../../../tests/support/holders'
import { useTestDatabase } from '../../../tests/support/test-database'
import { removeAssignment } from '../venues/staff-assignments.server'
import { capacityOf } from './analysis-day-capacity'
import { holdAnalysisDaySlot, InvalidHostLinkError } from './analysis-day-booking.server'
import type { AnalysisDayBookingInput } from './analysis-day-schemas'
import { assertDaysStillReady, closeAnalysisDay, createAnalysisDay, listAnalysisDays, NotYetReleasedError, publicAnalysisDay, publicAnalysisDays, publishAnalysisDay, updateAnalysisDay } from './analysis-days.server'
import { daySchedule } from './availability.server'
import { NotMovableError, rescheduleBooking } from './changes.server'
import { removePlacement } from './kits.server'
import { HostSeatsTakenError, seatsStillFree, SlotUnavailableError } from './holds.server'

useTestDatabase()

// 1 December 2030, 10 AM at the lab. The analysis day is Saturday 7 December, released at 7 AM on Friday 6 December.
const NOW = new Date('2030-12-01T04:30:00Z')
const SATURDAY = '2030-12-07'
const RELEASE = { releaseDate: '2030-12-06', releaseTime: '07:00' }
const AFTER_RELEASE = new Date('2030-12-06T02:00:00Z')

let parents = 0
const details = (slot: string, over: Partial<AnalysisDayBookingInput> = {}): AnalysisDayBookingInput => {
  parents += 1
  return { name: `Parent ${String.fromCharCode(64 + parents)}`, email: `parent${parents}@example.com`, whoSwims: 'myself', notes: '', slot, ...over } as AnalysisDayBookingInput
}

async function hostKey(dayId: number) {
  return new URL(await privateLinkPath(ANALYSIS_DAY_HOST_LINK, dayId), 'http://site').searchParams.get('host')!
}

describe('the capacity staff see before publishing', () => {
  it('is rigs × hours ÷ the slot length, across the dates', () => {
    expect(capacityOf({ firstDate: SATURDAY, lastDate: SATURDAY, startTime: '09:00', endTime: '17:00', slotMinutes: 20, rigs: 1 }).sentence).toBe('1 rig × 8 h ÷ 20-minute slots = 24 swimmers')
    expect(capacityOf({ firstDate: SATURDAY, lastDate: '2030-12-08', startTime: '09:00', endTime: '12:30', slotMinutes: 45, rigs: 2 })).toMatchObject({ slotsPerDate: 4, perDate: 8, total: 16, sentence: '2 rigs × 3 h 30 min ÷ 45-minute slots × 2 dates = 16 swimmers' })
  })
})

describe('an analysis day', () => {
  it('is published with its kit and staff there, listed by city, and leaves the lab’s own calendar without slots that day', async () => {
    await setWindows([{ date: SATURDAY, start: '09:00', end: '17:00' }])
    const actor = await createStaff()
    const { dayId } = await publishedDay(actor, SATURDAY, NOW, RELEASE)
    const [listed] = await publicAnalysisDays(NOW)
    expect(listed).toMatchObject({ id: dayId, city: 'Pune', venueName: 'Balewadi Aquatics', productName: 'Competition Race Analysis', price: '₹1,500.00', seatsLeft: 24, opensLater: true })
    const day = await publicAnalysisDay(dayId, NOW)
    expect(day!.dates[0]!.slots.map((slot) => slot.start)).toHaveLength(24)
    expect(day!.dates[0]!.slots[1]).toEqual({ start: '09:20', end: '09:40', left: 1, state: 'available' })
    // The kit is in Pune 08:00-18:00 with an hour's travel each way: the lab has nothing to offer.
    expect((await daySchedule({ date: SATURDAY, userId: null, days: 1, now: NOW })).filter((slot) => slot.state === 'available')).toEqual([])
    const actions = (await db().select({ action: auditLog.action }).from(auditLog)).map((row) => row.action)
    expect(actions).toEqual(expect.arrayContaining(['analysis_days.create', 'analysis_days.publish']))
  })

  it('books the host first through its private link, up to the host’s seats, then everyone from the release', async () => {
    const actor = await createStaff()
    // Released two minutes from now, while the host's holds still stand.
    const { dayId } = await publishedDay(actor, SATURDAY, NOW, { releaseDate: '2030-12-01', releaseTime: '10:02', hostSeats: 3 })
    const released = addMinutes(NOW, 3)
    const key = await hostKey(dayId)
    expect((await refusal(holdAnalysisDaySlot(dayId, details(`${SATURDAY}|09:00`), visitor(), { now: NOW })))).toBeInstanceOf(NotYetReleasedError)
    expect(await refusal(holdAnalysisDaySlot(dayId, details(`${SATURDAY}|09:00`), visitor(), { hostKey: 'forged', now: NOW }))).toBeInstanceOf(InvalidHostLinkError)
    const held = []
    for (const start of ['09:00', '09:20', '09:40']) held.push(await holdAnalysisDaySlot(dayId, details(`${SATURDAY}|${start}`), visitor(), { hostKey: key, now: NOW }))
    expect(await bookingRow(held[0]!.bookingId)).toMatchObject({ status: 'pending', viaHostLink: true, amountPaise: 1_500_00, productCode: 'race_analysis' })
    // A stranger with the forwarded link finds the host's seats taken.
    expect(await refusal(holdAnalysisDaySlot(dayId, details(`${SATURDAY}|10:00`), visitor(), { hostKey: key, now: NOW }))).toBeInstanceOf(HostSeatsTakenError)
    // From the release everyone books the rest; a slot is sold once.
    const later = await holdAnalysisDaySlot(dayId, details(`${SATURDAY}|10:00`), visitor(), { now: released })
    expect(await bookingRow(later.bookingId)).toMatchObject({ viaHostLink: false })
    expect(await refusal(holdAnalysisDaySlot(dayId, details(`${SATURDAY}|10:00`), visitor(), { now: released }))).toBeInstanceOf(SlotUnavailableError)
    expect(await refusal(holdAnalysisDaySlot(dayId, details(`${SATURDAY}|09:00`), visitor(), { hostKey: key, now: released }))).toBeInstanceOf(SlotUnavailableError)
    // The host's link books as everyone does once released: the seats it did not take are everyone's.
    expect(await bookingRow((await holdAnalysisDaySlot(dayId, details(`${SATURDAY}|10:20`), visitor(), { hostKey: key, now: released })).bookingId)).toMatchObject({ viaHostLink: false })
    expect((await publicAnalysisDay(dayId, released))!.seatsLeft).toBe(19)
  })

  it('confirms a payment that arrives after the hold ran out while the slot is still free, and is never moved to the lab’s calendar', async () => {
    const actor = await createStaff()
    const { dayId } = await publishedDay(actor, SATURDAY, NOW, RELEASE)
    const held = await holdAnalysisDaySlot(dayId, details(`${SATURDAY}|11:00`), visitor(), { now: AFTER_RELEASE })
    const late = addMinutes(AFTER_RELEASE, 60)
    expect(await db().transaction((tx) => seatsStillFree(tx, held.bookingId, late))).toBe(true)
    const orderId = newOrderId('SLOT', AFTER_RELEASE)
    await db().insert(payments).values({ orderId, bookingId: held.bookingId, gateway: 'sandbox', amountPaise: 1_500_00, state: 'pending', expiresAt: addMinutes(AFTER_RELEASE, 20), createdAt: AFTER_RELEASE, updatedAt: AFTER_RELEASE })
    await applyOrderStatus(orderId, { state: 'completed', amountPaise: 1_500_00, transactionId: `T${orderId}`, paymentMode: 'UPI' })
    expect((await bookingRow(held.bookingId)).status).toBe('confirmed')
    expect(await refusal(rescheduleBooking({ bookingId: held.bookingId, date: SATURDAY, start: '12:00', now: AFTER_RELEASE }))).toBeInstanceOf(NotMovableError)
  })
})

describe('many families at once', () => {
  it('get exactly the host’s seats through its link, and each slot once at the release', async () => {
    const actor = await createStaff()
    const { dayId } = await publishedDay(actor, SATURDAY, NOW, { releaseDate: '2030-12-01', releaseTime: '10:02', hostSeats: 3 })
    const key = await hostKey(dayId)
    const starts = ['09:00', '09:20', '09:40', '10:00', '10:20', '10:40', '11:00', '11:20']
    const viaLink = await Promise.allSettled(starts.map((start) => holdAnalysisDaySlot(dayId, details(`${SATURDAY}|${start}`), visitor(), { hostKey: key, now: NOW })))
    expect(viaLink.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(3)
    for (const attempt of viaLink) if (attempt.status === 'rejected') expect(attempt.reason).toBeInstanceOf(HostSeatsTakenError)

    const released = addMinutes(NOW, 3)
    const rush = await Promise.allSettled(Array.from({ length: 12 }, () => holdAnalysisDaySlot(dayId, details(`${SATURDAY}|16:40`), visitor(), { now: released })))
    expect(rush.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1)
    for (const attempt of rush) if (attempt.status === 'rejected') expect(attempt.reason).toBeInstanceOf(SlotUnavailableError)
  })
})

describe('staff’s changes to an analysis day are refused, with nothing saved', () => {
  it('at hours outside the venue’s, with a release time past, or more seats for the host than it has', async () => {
    const actor = await createStaff()
    const venueId = await readyVenue(actor, SATURDAY, NOW)
    expect(await refusal(createAnalysisDay(actor, analysisDayForm(venueId, SATURDAY, { ...RELEASE, endTime: '21:00' }), NOW))).toMatchObject({ field: 'startTime', message: expect.stringContaining('Balewadi Aquatics is open 6:00 AM–8:00 PM on') })
    expect(await refusal(createAnalysisDay(actor, analysisDayForm(venueId, SATURDAY, { releaseDate: '2030-11-30' }), NOW))).toMatchObject({ field: 'releaseDate', message: 'The release time has passed: choose a time to come.' })
    expect(await refusal(createAnalysisDay(actor, analysisDayForm(venueId, SATURDAY, { ...RELEASE, hostSeats: 25 }), NOW))).toMatchObject({ field: 'hostSeats', message: 'Keep at most 24 seats for the host: the day has 24.' })
    expect(await listAnalysisDays(NOW)).toEqual([])
  })

  it('at the lab’s home, and on publishing without a kit there', async () => {
    const actor = await createStaff()
    const bare = await puneVenue(actor, NOW, 'Kothrud Pool')
    const home = (await db().query.venues.findFirst({ where: (venue, { eq: equals }) => equals(venue.isHome, true) }))!.id
    expect(await refusal(createAnalysisDay(actor, analysisDayForm(home, SATURDAY, RELEASE), NOW))).toMatchObject({ field: 'venueId' })
    const venueId = await readyVenue(actor, SATURDAY, NOW)
    await db().delete(kitPlacements).where(eq(kitPlacements.venueId, venueId))
    const dayId = await createAnalysisDay(actor, analysisDayForm(venueId, SATURDAY, RELEASE), NOW)
    expect(await refusal(publishAnalysisDay(actor, dayId, NOW))).toMatchObject({ field: 'rigs', message: expect.stringContaining('A kit is needed at Balewadi Aquatics') })
    expect(await publicAnalysisDays(NOW)).toEqual([])
    expect(bare).toBeGreaterThan(0)
  })

  it('on taking away the kit or the staff member a published day relies on, until the day is closed', async () => {
    const actor = await createStaff()
    const { venueId, dayId } = await publishedDay(actor, SATURDAY, NOW, RELEASE)
    const [placement] = await db().select({ id: kitPlacements.id }).from(kitPlacements).where(eq(kitPlacements.venueId, venueId))
    const [assignment] = await db().select({ id: staffAssignments.id }).from(staffAssignments).where(eq(staffAssignments.venueId, venueId))
    expect(await refusal(removePlacement(actor, placement!.id, NOW))).toMatchObject({
      kind: 'conflict',
      message: 'The analysis day at Balewadi Aquatics on Saturday, 7 December is published and needs a kit there for its hours. Close that day first, or put another in place before removing this.',
    })
    expect(await refusal(removeAssignment(actor, assignment!.id, assertDaysStillReady, NOW))).toMatchObject({ message: expect.stringContaining('needs a staff member there for its hours') })
    // Nothing was removed.
    expect(await db().select({ id: kitPlacements.id }).from(kitPlacements).where(eq(kitPlacements.venueId, venueId))).toHaveLength(1)
    expect(await db().select({ id: staffAssignments.id }).from(staffAssignments).where(eq(staffAssignments.venueId, venueId))).toHaveLength(1)
    // Closed, the day relies on nothing.
    await closeAnalysisDay(actor, dayId, NOW)
    await removePlacement(actor, placement!.id, NOW)
    await removeAssignment(actor, assignment!.id, assertDaysStillReady, NOW)
    expect(await db().select({ id: kitPlacements.id }).from(kitPlacements).where(eq(kitPlacements.venueId, venueId))).toEqual([])
  })

  it('below the seats already sold, and for a slot a swimmer holds; closing waits for its bookings to be cancelled', async () => {
    const actor = await createStaff()
    const { venueId, dayId } = await publishedDay(actor, SATURDAY, NOW, RELEASE)
    for (const start of ['09:00', '09:20', '09:40', '10:00']) await holdAnalysisDaySlot(dayId, details(`${SATURDAY}|${start}`), visitor(), { now: AFTER_RELEASE })
    const form = analysisDayForm(venueId, SATURDAY, RELEASE)
    expect(await refusal(updateAnalysisDay(actor, dayId, { ...form, endTime: '10:00' }, AFTER_RELEASE))).toMatchObject({ field: 'rigs', message: 'A capacity of 3 swimmers is below the 4 seats already sold.' })
    expect(await refusal(updateAnalysisDay(actor, dayId, { ...form, startTime: '09:30' }, AFTER_RELEASE))).toMatchObject({ field: 'startTime', message: expect.stringContaining('A swimmer is booked at 9:00 AM on Sat') })
    // Shorter hours that keep every held slot are fine.
    await updateAnalysisDay(actor, dayId, { ...form, endTime: '12:00' }, AFTER_RELEASE)
    expect((await publicAnalysisDay(dayId, AFTER_RELEASE))!.dates[0]!.slots).toHaveLength(9)
    expect(await refusal(closeAnalysisDay(actor, dayId, AFTER_RELEASE))).toMatchObject({ message: '4 bookings hold seats on this day: cancel them first.' })
    await db().update(bookings).set({ status: 'expired', holdExpiresAt: null })
    await closeAnalysisDay(actor, dayId, AFTER_RELEASE)
    expect(await publicAnalysisDay(dayId, AFTER_RELEASE)).toBeNull()
  })
})
