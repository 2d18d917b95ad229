import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, kitPlacements, kits } from '~/db/schema'
import { type Actor } from '~/modules/audit/audit.server'
import type { KitPlacementInput } from '~/modules/venues/schemas'
import { createVenue } from '~/modules/venues/venues.server'
import { createCustomers, createStaff, refusal, setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { StrandedBookingsError } from './availability-staff.server'
import { daySchedule, monthCalendar } from './availability.server'
import { rescheduleBooking } from './changes.server'
import { holdSession, seatsStillFree, SlotUnavailableError, type Customer } from './holds.server'
import { createKit, placeKit, removePlacement, retireKit, reviewPlacement } from './kits.server'

useTestDatabase()

// 1 December 2030, 10 AM at the lab. The Saturday is 7 December.
const NOW = new Date('2030-12-01T04:30:00Z')
const SATURDAY = '2030-12-07'

async function rig() {
  const [kit] = await db().select({ id: kits.id }).from(kits)
  return kit!.id
}

const pune = (actor: Actor, travelMinutes = '60') =>
  createVenue(actor, { name: 'Balewadi Aquatics', address: 'Shree Shiv Chhatrapati Sports Complex, Balewadi', city: 'Pune', stateCode: '27', mapUrl: null, photoId: null, hostName: null, hostEmail: null, hostPhone: null, travelMinutes: Number(travelMinutes) }, NOW)

const placement = (kitId: number, venueId: number, over: Partial<KitPlacementInput> = {}): KitPlacementInput => ({ kitId, venueId, fromDate: SATURDAY, fromTime: '10:00', toDate: SATURDAY, toTime: '12:00', note: null, ...over })

const states = async (date: string) => (await daySchedule({ date, userId: null, days: 1, now: NOW })).map((slot) => `${slot.start} ${slot.state}`)

const hold = (customer: Customer, date: string, start: string, days = 1) => holdSession({ customer, productCode: 'single_race', date, start, days, now: NOW })

describe('a kit away from the lab', () => {
  it('closes the lab’s time slots for the placement, the travel and the set-up, and opens them again when removed', async () => {
    await setWindows([{ date: SATURDAY, start: '07:00', end: '18:00' }])
    const actor = await createStaff()
    const venue = await pune(actor)
    const kitId = await rig()
    await db().update(kits).set({ setupMinutes: 30 }).where(eq(kits.id, kitId))

    const review = await reviewPlacement(placement(kitId, venue), NOW)
    // In use 10:00-12:00, away 08:30-13:30: an hour's travel and half an hour's set-up each side.
    expect(review.away).toEqual({ startsAt: new Date('2030-12-07T03:00:00Z'), endsAt: new Date('2030-12-07T08:00:00Z') })
    expect(review.closing.map((slot) => slot.start)).toEqual(['08:00', '09:00', '10:00', '11:00', '12:00', '13:00'])
    expect(review).toMatchObject({ clash: null, stranded: [] })

    const id = await placeKit(actor, placement(kitId, venue), NOW)
    // Not offered at all, as a time slot staff close.
    expect(await states(SATURDAY)).toEqual(['07:00 available', '14:00 available', '15:00 available', '16:00 available', '17:00 available'])
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'kits.place'))
    expect(entry!.summary).toContain('Placed Underwater rig 1 at Balewadi Aquatics')

    await removePlacement(actor, id, NOW)
    expect(await states(SATURDAY)).toHaveLength(11)
  })

  it('closes the whole day on the calendar when the kit is away all day', async () => {
    await setWindows([{ date: SATURDAY, start: '09:00', end: '18:00' }])
    const actor = await createStaff()
    const venue = await pune(actor)
    const before = await monthCalendar('2030-12', NOW, { days: 1 })
    expect(before.find((day) => day.date === SATURDAY)).toMatchObject({ open: true })
    await placeKit(actor, placement(await rig(), venue, { fromTime: '08:00', toTime: '19:00' }), NOW)
    const after = await monthCalendar('2030-12', NOW, { days: 1 })
    expect(after.find((day) => day.date === SATURDAY)).toMatchObject({ open: false, closed: false })
  })

  it('leaves the lab open while another kit is there', async () => {
    await setWindows([{ date: SATURDAY }])
    const actor = await createStaff()
    const venue = await pune(actor)
    await createKit(actor, { name: 'Underwater rig 2', setupMinutes: 60 }, NOW)
    await placeKit(actor, placement(await rig(), venue, { fromTime: '06:00', toTime: '20:00' }), NOW)
    expect(await states(SATURDAY)).toEqual(['09:00 available', '10:00 available', '11:00 available'])
  })

  it('refuses a hold in a time slot the kit has left for, and a booking moved onto one', async () => {
    await setWindows([{ date: SATURDAY }, { date: '2030-12-09' }])
    const actor = await createStaff()
    const venue = await pune(actor, '0')
    await db().update(kits).set({ setupMinutes: 0 })
    await placeKit(actor, placement(await rig(), venue, { fromTime: '09:00', toTime: '10:00' }), NOW)
    const [first, second] = await createCustomers(2)
    await expect(hold(first!, SATURDAY, '09:00')).rejects.toBeInstanceOf(SlotUnavailableError)
    const held = await hold(second!, '2030-12-09', '09:00')
    await db().execute(sql`UPDATE bookings SET status = 'confirmed', hold_expires_at = NULL WHERE id = ${held.bookingId}`)
    await expect(rescheduleBooking({ bookingId: held.bookingId, date: SATURDAY, start: '09:00', now: NOW, enforceDeadline: false })).rejects.toBeInstanceOf(SlotUnavailableError)
    await expect(rescheduleBooking({ bookingId: held.bookingId, date: SATURDAY, start: '10:00', now: NOW, enforceDeadline: false })).resolves.toBeUndefined()
  })

  it('takes back no seat for a payment that arrives after its hold ran out and the kit left', async () => {
    await setWindows([{ date: SATURDAY }])
    const actor = await createStaff()
    const venue = await pune(actor, '0')
    await db().update(kits).set({ setupMinutes: 0 })
    const [customer] = await createCustomers(1)
    const held = await hold(customer!, SATURDAY, '09:00')
    const later = new Date(NOW.getTime() + 60 * 60_000)
    expect(await db().transaction((tx) => seatsStillFree(tx, held.bookingId, later))).toBe(true)
    await placeKit(actor, placement(await rig(), venue, { fromTime: '09:00', toTime: '10:00' }), later)
    expect(await db().transaction((tx) => seatsStillFree(tx, held.bookingId, later))).toBe(false)
  })

  it('is refused, naming them, while bookings hold seats in the time slots it would close; nothing is saved', async () => {
    await setWindows([{ date: SATURDAY }])
    const actor = await createStaff()
    const venue = await pune(actor, '0')
    const [customer] = await createCustomers(1)
    await hold(customer!, SATURDAY, '11:00')
    const kitId = await rig()
    await db().update(kits).set({ setupMinutes: 0 })

    const review = await reviewPlacement(placement(kitId, venue), NOW)
    expect(review.stranded).toEqual([expect.objectContaining({ date: SATURDAY, start: '11:00', who: expect.stringContaining('swimmer 1') })])
    const error = await refusal(placeKit(actor, placement(kitId, venue), NOW))
    expect(error).toBeInstanceOf(StrandedBookingsError)
    expect(error.message).toBe('This change would leave a booking without a seat. Reschedule or cancel it first.')
    expect(await db().select().from(kitPlacements)).toEqual([])
    // Before the booking's time, the kit may go.
    await expect(placeKit(actor, placement(kitId, venue, { toTime: '11:00' }), NOW)).resolves.toBeGreaterThan(0)
  })

  it('is refused by the database when the kit is elsewhere then, travel and set-up included; back-to-back is fine', async () => {
    const actor = await createStaff()
    const venue = await pune(actor, '60')
    const chennai = await createVenue(actor, { name: 'Velachery Aquatic Complex', address: 'Velachery', city: 'Chennai', stateCode: '33', mapUrl: null, photoId: null, hostName: null, hostEmail: null, hostPhone: null, travelMinutes: 0 }, NOW)
    const kitId = await rig()
    await db().update(kits).set({ setupMinutes: 0 })
    // Away 09:00-13:00 (an hour's travel each way).
    await placeKit(actor, placement(kitId, venue), NOW)

    const error = await refusal(placeKit(actor, placement(kitId, chennai, { fromTime: '12:30', toTime: '15:00' }), NOW))
    expect(error).toMatchObject({ kind: 'conflict', field: 'fromDate' })
    expect(error.message).toMatch(/^Underwater rig 1 is away at Balewadi Aquatics from 9:00 AM IST on 7 December 2030 to 1:00 PM IST on 7 December 2030/)
    // The exclusion constraint itself, whatever the code before it checks.
    await expect(db().insert(kitPlacements).values({ kitId, venueId: chennai, startsAt: new Date('2030-12-07T07:00:00Z'), endsAt: new Date('2030-12-07T08:00:00Z'), during: sql`tstzrange('2030-12-07T07:00:00Z', '2030-12-07T08:00:00Z', '[)')` as unknown as string })).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '23P01' }),
    })
    // From 13:00, the moment it is back, it may go again.
    await expect(placeKit(actor, placement(kitId, chennai, { fromTime: '13:00', toTime: '15:00' }), NOW)).resolves.toBeGreaterThan(0)
    expect(await db().select({ id: kitPlacements.id }).from(kitPlacements)).toHaveLength(2)
  })

  it('is refused at the lab itself, at a closed venue, for a kit out of service and for a time already over', async () => {
    const actor = await createStaff()
    const venue = await pune(actor)
    const kitId = await rig()
    const [home] = await db().execute<{ id: number }>(sql`SELECT home_venue_id() AS id`).then((result) => result.rows)
    expect(await refusal(placeKit(actor, placement(kitId, home!.id), NOW))).toMatchObject({ field: 'venueId', message: 'A kit is at the lab unless it is placed elsewhere: choose another venue' })
    expect(await refusal(placeKit(actor, placement(kitId + 99, venue), NOW))).toMatchObject({ kind: 'not_found', field: 'kitId' })
    expect(await refusal(placeKit(actor, placement(kitId, venue, { fromDate: '2030-11-30', toDate: '2030-11-30' }), NOW))).toMatchObject({ field: 'toDate', message: 'This time has already passed: choose one to come' })
    await db().execute(sql`UPDATE venues SET closed_at = now() WHERE id = ${venue}`)
    expect(await refusal(placeKit(actor, placement(kitId, venue), NOW))).toMatchObject({ field: 'venueId', message: 'Choose an open venue from the list' })
    expect(await db().select().from(kitPlacements)).toEqual([])
  })
})

describe('a kit leaving while a parent books', () => {
  // On PostgreSQL the two run side by side: both take the lab's windows' locks, so one waits for
  // the other and sees what it did. Never a booking in a time slot the kit has left.
  it('gives the seat or the kit, never both', async () => {
    const dates = [SATURDAY, '2030-12-14', '2030-12-21']
    await setWindows(dates.map((date) => ({ date })))
    const actor = await createStaff()
    const venue = await pune(actor, '0')
    await db().update(kits).set({ setupMinutes: 0 })
    const kitId = await rig()
    for (const date of dates) {
      const [customer] = await createCustomers(1, `parent${date}-`)
      const [held, placed] = await Promise.allSettled([hold(customer!, date, '09:00'), placeKit(actor, placement(kitId, venue, { fromDate: date, toDate: date, fromTime: '09:00', toTime: '10:00' }), NOW)])
      expect([held.status, placed.status].filter((status) => status === 'fulfilled')).toHaveLength(1)
      if (held.status === 'fulfilled') expect((placed as PromiseRejectedResult).reason).toBeInstanceOf(StrandedBookingsError)
      else expect(held.reason).toBeInstanceOf(SlotUnavailableError)
    }
  })
})

describe('kits', () => {
  it('keeps the last kit in service, and one still placed somewhere', async () => {
    const actor = await createStaff()
    const first = await rig()
    expect((await refusal(retireKit(actor, first, NOW))).message).toBe('This is the last kit in service: sessions at the lab need one. Add another kit before retiring this one.')
    const second = await createKit(actor, { name: 'Underwater rig 2', setupMinutes: 45 }, NOW)
    await placeKit(actor, placement(second, await pune(actor)), NOW)
    expect((await refusal(retireKit(actor, second, NOW))).message).toBe('Underwater rig 2 is still placed at a venue. Remove its placements first.')
    await retireKit(actor, first, NOW)
    expect((await db().select({ retiredAt: kits.retiredAt }).from(kits).where(eq(kits.id, first)))[0]!.retiredAt).toEqual(NOW)
  })

  it('refuses a second kit of the same name, in any letter case', async () => {
    const actor = await createStaff()
    expect(await refusal(createKit(actor, { name: 'UNDERWATER RIG 1', setupMinutes: 60 }, NOW))).toMatchObject({ field: 'name', message: 'Another kit already has this name' })
  })
})
