import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, availabilityWindows, bookings, kitPlacements, kits, venues } from '~/db/schema'
import { createCustomers, createStaff, setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { daySchedule, monthCalendar } from './availability.server'
import {
  closeTimeSlot,
  createWindows,
  deleteWindow,
  markHolidays,
  OverlappingWindowError,
  removeHoliday,
  reopenTimeSlot,
  staffMonth,
  StrandedBookingsError,
  updateWindow,
  WindowInUseError,
} from './availability-staff.server'
import { holdSession } from './holds.server'

useTestDatabase()

const NOW = new Date('2030-02-01T04:30:00Z')
const hours = { startTime: '09:00', endTime: '12:00', slotDurationMinutes: 60, capacity: 2 }

let customerCount = 0
async function bookedAt(date: string, start: string, days = 1) {
  const [customer] = await createCustomers(1, `customer${++customerCount}`)
  const held = await holdSession({ customer: customer!, productCode: days === 3 ? 'biomechanical_package' : 'single_race', date, start, days, now: NOW })
  await db().update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, held.bookingId))
  return held
}

const windowOn = async (date: string) => (await db().select().from(availabilityWindows).where(eq(availabilityWindows.date, date)))[0]!

describe('opening hours', () => {
  it('open on the chosen weekdays of a date range, and customers see them; the change is in the audit log', async () => {
    await setWindows([])
    const actor = await createStaff()
    // 4 March 2030 is a Monday: Mondays, Wednesdays and Fridays of two weeks.
    expect(await createWindows(actor, { from: '2030-03-04', to: '2030-03-17', weekdays: [1, 3, 5], hours, now: NOW })).toEqual({ created: 6 })
    const dates = (await db().select({ date: availabilityWindows.date }).from(availabilityWindows)).map((row) => row.date).sort()
    expect(dates).toEqual(['2030-03-04', '2030-03-06', '2030-03-08', '2030-03-11', '2030-03-13', '2030-03-15'])
    expect((await monthCalendar('2030-03', NOW, { days: 1 })).filter((day) => day.open).map((day) => day.date)).toEqual(dates)
    const [entry] = await db().select().from(auditLog)
    expect(entry).toMatchObject({ actorEmail: 'staff@lab.example', action: 'availability.create' })
    expect(entry!.summary).toBe('Opened 09:00-12:00 (60-minute slots, 2 per slot) on 6 dates from 2030-03-04 to 2030-03-17')
  })

  it('refuses hours that overlap others on a date, or fall on a holiday, naming the dates', async () => {
    await setWindows([{ date: '2030-03-04', start: '11:00', end: '13:00' }, { date: '2030-03-06', holiday: true }])
    const actor = await createStaff()
    await expect(createWindows(actor, { from: '2030-03-04', to: '2030-03-08', weekdays: [1, 2, 3, 4, 5], hours, now: NOW })).rejects.toThrow(new OverlappingWindowError(['2030-03-04', '2030-03-06']))
    expect(await db().select().from(availabilityWindows)).toHaveLength(2)
    await expect(createWindows(actor, { from: '2030-03-04', to: '2030-03-04', weekdays: [1], hours: { ...hours, startTime: '13:00', endTime: '17:00' }, now: NOW })).resolves.toEqual({ created: 1 })
  })

  it('refuses a change that would leave a booking without its time slot or over capacity, listing the bookings', async () => {
    await setWindows([{ date: '2030-03-04', ...{ start: '09:00', end: '12:00', capacity: 2 } }])
    const actor = await createStaff()
    const early = await bookedAt('2030-03-04', '09:00')
    // Booked by a parent for their child: staff see who swims and whom to call.
    await db().update(bookings).set({ swimmerName: 'Kavya Kumar', customerName: 'Ravi Kumar' }).where(eq(bookings.reference, early.reference))
    await bookedAt('2030-03-04', '10:00')
    await bookedAt('2030-03-04', '10:00')
    const window = await windowOn('2030-03-04')
    const attempt = updateWindow(actor, window.id, { ...hours, startTime: '10:00', capacity: 2 }, NOW)
    await expect(attempt).rejects.toBeInstanceOf(StrandedBookingsError)
    const error = (await attempt.catch((caught) => caught)) as StrandedBookingsError
    expect(error.bookings).toEqual([{ reference: early.reference, who: 'Kavya Kumar (booked by Ravi Kumar)', date: '2030-03-04', start: '09:00' }])
    await expect(updateWindow(actor, window.id, { ...hours, capacity: 1 }, NOW)).rejects.toBeInstanceOf(StrandedBookingsError)
    // Widening is fine, and recorded with before and after.
    await updateWindow(actor, window.id, { ...hours, endTime: '13:00', capacity: 3 }, NOW)
    expect(await windowOn('2030-03-04')).toMatchObject({ endTime: '13:00:00', capacity: 3 })
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'availability.update'))
    expect(entry!.before).toMatchObject({ capacity: 2, endTime: '12:00:00' })
    expect(entry!.after).toMatchObject({ capacity: 3, endTime: '13:00' })
  })

  it('closes a single time slot (customers no longer see it) unless someone holds a seat there; reopens it', async () => {
    await setWindows([{ date: '2030-03-04' }, { date: '2030-03-05' }, { date: '2030-03-06' }])
    const actor = await createStaff()
    const window = await windowOn('2030-03-04')
    await closeTimeSlot(actor, window.id, '10:00', NOW)
    expect((await daySchedule({ date: '2030-03-04', userId: null, days: 1, now: NOW })).map((slot) => slot.start)).toEqual(['09:00', '11:00'])
    // A 3-day session starting the day before the closed slot can no longer use it.
    expect((await daySchedule({ date: '2030-03-04', userId: null, days: 3, now: NOW })).map((slot) => slot.start)).toEqual(['09:00', '11:00'])
    expect((await staffMonth('2030-03', { now: NOW })).find((row) => row.id === window.id)!.timeSlots.map((slot) => slot.closed)).toEqual([false, true, false])
    await reopenTimeSlot(actor, window.id, '10:00', NOW)
    expect((await daySchedule({ date: '2030-03-04', userId: null, days: 1, now: NOW })).map((slot) => slot.start)).toEqual(['09:00', '10:00', '11:00'])
    await bookedAt('2030-03-04', '11:00')
    await expect(closeTimeSlot(actor, window.id, '11:00', NOW)).rejects.toBeInstanceOf(StrandedBookingsError)
  })

  it('marks, at the lab only, the time slots no kit is at the lab for', async () => {
    await setWindows([{ date: '2030-03-04' }])
    const [pool] = await db().insert(venues).values({ name: 'Balewadi pool', address: 'Balewadi', city: 'Pune', stateCode: '27', travelMinutes: 60 }).returning({ id: venues.id })
    await db().insert(availabilityWindows).values({ venueId: pool!.id, date: '2030-03-04', startTime: '09:00', endTime: '12:00', slotDurationMinutes: 60, capacity: 1 })
    const [kit] = await db().select({ id: kits.id }).from(kits)
    // The lab's one kit is away from 10:00 to 11:00 (lab time), travel and set-up included.
    await db()
      .insert(kitPlacements)
      .values({ kitId: kit!.id, venueId: pool!.id, startsAt: new Date('2030-03-04T04:40:00Z'), endsAt: new Date('2030-03-04T05:20:00Z'), during: "['2030-03-04T04:30:00Z','2030-03-04T05:30:00Z')" })
    const kitAway = async (venueId?: number) => (await staffMonth('2030-03', { venueId, now: NOW }))[0]!.timeSlots.map((slot) => slot.kitAway)
    expect(await kitAway()).toEqual([false, true, false])
    expect(await kitAway(pool!.id)).toEqual([false, false, false])
  })

  it('removes hours never booked; keeps hours with bookings on record', async () => {
    await setWindows([{ date: '2030-03-04' }, { date: '2030-03-05' }])
    const actor = await createStaff()
    const free = await windowOn('2030-03-05')
    await deleteWindow(actor, free.id, NOW)
    expect(await db().select().from(availabilityWindows).where(eq(availabilityWindows.id, free.id))).toHaveLength(0)
    const booked = await bookedAt('2030-03-04', '09:00')
    const window = await windowOn('2030-03-04')
    await expect(deleteWindow(actor, window.id, NOW)).rejects.toBeInstanceOf(StrandedBookingsError)
    await db().update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, booked.bookingId))
    await expect(deleteWindow(actor, window.id, NOW)).rejects.toBeInstanceOf(WindowInUseError)
  })
})

describe('holidays', () => {
  it('close whole dates, unless bookings hold seats there; removing one opens the date again', async () => {
    await setWindows([{ date: '2030-03-04' }, { date: '2030-03-05' }, { date: '2030-03-06' }])
    const actor = await createStaff()
    const booked = await bookedAt('2030-03-05', '09:00')
    await expect(markHolidays(actor, { from: '2030-03-04', to: '2030-03-06', weekdays: [1, 2, 3], now: NOW })).rejects.toThrow(StrandedBookingsError)
    expect(await markHolidays(actor, { from: '2030-03-04', to: '2030-03-04', weekdays: [1], now: NOW })).toEqual({ marked: 1 })
    expect((await monthCalendar('2030-03', NOW)).find((day) => day.date === '2030-03-04')!.open).toBe(false)
    await removeHoliday(actor, '2030-03-04', { now: NOW })
    expect((await monthCalendar('2030-03', NOW)).find((day) => day.date === '2030-03-04')!.open).toBe(true)
    expect(booked.reference).toMatch(/^SWP-/)
    expect((await db().select({ action: auditLog.action }).from(auditLog).orderBy(auditLog.id)).map((row) => row.action)).toEqual(['availability.holiday', 'availability.holiday-removed'])
  })
})
