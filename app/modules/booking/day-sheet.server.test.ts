import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, availabilityWindows, bookings, guardianConsents } from '~/db/schema'
import { addMinutes } from '~/lib/lab-time'
import { holdParentConsentRequest } from '~/modules/swimmers/consent-requests.server'
import { recordBookingDeclaration, recordConsent } from '~/modules/swimmers/consent.server'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { swimmerInput } from '../../../tests/support/accounts'
import { puneVenue } from '../../../tests/support/analysis-days'
import { createCustomers, createStaff, insertedBooking, refusal, setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { daySheet, markOnSheet, NotOnTheSheetError, UnpaidAttendanceError } from './day-sheet.server'

useTestDatabase()

// 1 March 2030, 10:00 in Bangalore.
const NOW = new Date('2030-03-01T04:30:00Z')
const DAY = '2030-03-04'
const NEXT_DAY = '2030-03-05'

/** The lab's home and a pool in Pune, each open on DAY and the days either side. */
async function twoVenues() {
  const staff = await createStaff()
  const home = await setWindows(['2030-03-03', DAY, NEXT_DAY].map((date) => ({ date, start: '08:00', end: '18:00', capacity: 5 })))
  const puneId = await puneVenue(staff, NOW)
  const pune = await db()
    .insert(availabilityWindows)
    .values(['2030-03-03', DAY, NEXT_DAY].map((date) => ({ venueId: puneId, date, startTime: '08:00', endTime: '18:00', slotDurationMinutes: 60, capacity: 5 })))
    .returning({ id: availabilityWindows.id, date: availabilityWindows.date })
  const windowOn = (windows: Array<{ id: number; date: string }>, date: string) => windows.find((window) => window.date === date)!.id
  return { staff, puneId, home: (date: string) => windowOn(home, date), pune: (date: string) => windowOn(pune, date) }
}

let serial = 0

/** A booking straight in the database, one day per window given, all at `start` for an hour, held for 10 minutes when pending. */
async function booked(days: Array<{ windowId: number; date: string }>, start: string, over: Partial<typeof bookings.$inferInsert> = {}) {
  serial += 1
  const end = `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}${start.slice(2)}`
  const held = over.status === 'pending' ? { holdExpiresAt: addMinutes(NOW, 10) } : {}
  return insertedBooking(db(), days, { start, end, now: NOW }, { reference: `SWP-90000000${String(serial).padStart(2, '0')}`, swimmerName: `Swimmer ${serial}`, customerName: `Parent ${serial}`, amountPaise: 2_500_00, ...held, ...over })
}

describe('the day sheet', () => {
  it('lists who comes to that venue that date, confirmed or held unpaid, by time then name; not another venue, another date, a cancelled or lapsed booking', async () => {
    const { puneId, home, pune } = await twoVenues()
    const at = (date: string) => [{ windowId: pune(date), date }]
    const later = await booked(at(DAY), '10:00', { swimmerName: 'Rohan Iyer' })
    const sameTime = await booked(at(DAY), '10:00', { swimmerName: 'Anika Shah', origin: 'complimentary', amountPaise: 0 })
    const held = await booked(at(DAY), '09:00', { swimmerName: 'Zara Khan', status: 'pending' })
    const threeDays = await booked(
      ['2030-03-03', DAY, NEXT_DAY].map((date) => ({ windowId: pune(date), date })),
      '11:00',
      { swimmerName: 'Dev Menon' },
    )
    await booked(at(DAY), '12:00', { status: 'cancelled', cancelledAt: NOW })
    await booked(at(DAY), '12:00', { status: 'refunded', cancelledAt: NOW })
    await booked(at(DAY), '13:00', { status: 'pending', holdExpiresAt: addMinutes(NOW, -1) })
    await booked(at(DAY), '13:00', { status: 'payment_failed' })
    await booked(at(NEXT_DAY), '09:00', { swimmerName: 'Next Day' })
    const atTheLab = await booked([{ windowId: home(DAY), date: DAY }], '09:00', { swimmerName: 'Lab Swimmer' })

    const sheet = await daySheet(puneId, DAY, NOW)
    expect(sheet.map((entry) => [entry.reference, entry.startTime.slice(0, 5), entry.swimmerName, entry.status])).toEqual([
      [held.reference, '09:00', 'Zara Khan', 'pending'],
      [sameTime.reference, '10:00', 'Anika Shah', 'confirmed'],
      [later.reference, '10:00', 'Rohan Iyer', 'confirmed'],
      [threeDays.reference, '11:00', 'Dev Menon', 'confirmed'],
    ])
    expect(sheet[0]).toMatchObject({ amountPaise: 2_500_00, holdExpiresAt: addMinutes(NOW, 10), phone: '+919845012345', contactName: expect.stringMatching(/^Parent /) })
    expect(sheet[1]).toMatchObject({ origin: 'complimentary' })
    expect(sheet[3]).toMatchObject({ dayNumber: 2, dayCount: 3 })

    const lab = await db().select({ venueId: availabilityWindows.venueId }).from(availabilityWindows).where(eq(availabilityWindows.id, home(DAY)))
    expect((await daySheet(lab[0]!.venueId, DAY, NOW)).map((entry) => entry.reference)).toEqual([atTheLab.reference])
    expect((await daySheet(puneId, NEXT_DAY, NOW)).map((entry) => entry.swimmerName)).toEqual(['Next Day', 'Dev Menon'])
  })

  it("tells each swimmer's age on the day and their consent: an adult's own, a parent's given, pending or withdrawn", async () => {
    const { puneId, pune } = await twoVenues()
    const at = [{ windowId: pune(DAY), date: DAY }]
    const [family] = await createCustomers(1, 'family')
    const child = async (name: string) => insertSwimmer(db(), family!.userId!, name, swimmerInput({ age: '12' }), { isAccountHolder: false, now: NOW })
    const [given, waiting, withdrawn, never] = [await child('Given Child'), await child('Waiting Child'), await child('Withdrawn Child'), await child('Never Asked')]
    await recordConsent(db(), { swimmerId: given.id, guardianName: 'Meera Rao', guardianEmail: 'meera@example.com', emailVerifiedBy: 'account_code', method: 'registration_form', now: NOW })
    await holdParentConsentRequest(db(), { swimmerId: waiting.id, parentEmail: 'parent@example.com', now: NOW })
    await recordConsent(db(), { swimmerId: withdrawn.id, guardianName: 'Meera Rao', guardianEmail: 'meera@example.com', emailVerifiedBy: 'account_code', method: 'registration_form', now: NOW })
    await db().update(guardianConsents).set({ withdrawnAt: NOW }).where(eq(guardianConsents.swimmerId, withdrawn.id))
    for (const swimmer of [given, waiting, withdrawn, never]) await booked(at, '09:00', { userId: family!.userId, swimmerId: swimmer.id, swimmerName: swimmer.name, customerPhone: null })
    await booked(at, '10:00', { userId: family!.userId, swimmerId: family!.swimmerId, swimmerName: 'Adult Holder' })
    const guestChild = await booked(at, '11:00', { swimmerName: 'Guest Child', swimmerAge: 9 })
    await recordBookingDeclaration(db(), { bookingId: guestChild.id, guardianName: 'Ravi Kumar', email: 'ravi@example.com', now: NOW })
    await booked(at, '12:00', { swimmerName: 'Guest Herself' })

    const sheet = await daySheet(puneId, DAY, NOW)
    expect(sheet.map((entry) => [entry.swimmerName, entry.age, entry.consent])).toEqual([
      ['Given Child', 12, { state: 'given', by: 'Meera Rao' }],
      ['Never Asked', 12, { state: 'none' }],
      ['Waiting Child', 12, { state: 'pending' }],
      ['Withdrawn Child', 12, { state: 'withdrawn' }],
      ['Adult Holder', expect.any(Number), { state: 'adult' }],
      ['Guest Child', 9, { state: 'given', by: 'Ravi Kumar' }],
      ['Guest Herself', null, { state: 'adult' }],
    ])
    // Without a number on the booking, the account's.
    expect(sheet[0]!.phone).toBe(family!.phone)
  })
})

describe('marking attendance from the sheet', () => {
  it("marks a confirmed booking on the sheet through the booking's attendance, with its audit entry, and clears it", async () => {
    const { staff, puneId, pune } = await twoVenues()
    const booking = await booked([{ windowId: pune(DAY), date: DAY }], '09:00')
    await markOnSheet(staff, { venueId: puneId, date: DAY, bookingId: booking.id, attendance: 'attended' }, NOW)
    expect((await daySheet(puneId, DAY, NOW))[0]!.attendance).toBe('attended')
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.action, 'booking.attendance'), eq(auditLog.entityId, booking.reference)))
    expect(audit).toHaveLength(1)
    await markOnSheet(staff, { venueId: puneId, date: DAY, bookingId: booking.id, attendance: null }, NOW)
    expect((await daySheet(puneId, DAY, NOW))[0]!.attendance).toBeNull()
  })

  it('refuses a booking held unpaid, and one that is not on that venue’s sheet that date, changing nothing', async () => {
    const { staff, puneId, pune } = await twoVenues()
    const held = await booked([{ windowId: pune(DAY), date: DAY }], '09:00', { status: 'pending' })
    const otherDay = await booked([{ windowId: pune(NEXT_DAY), date: NEXT_DAY }], '09:00')
    const cancelled = await booked([{ windowId: pune(DAY), date: DAY }], '10:00', { status: 'cancelled', cancelledAt: NOW })
    expect(await refusal(markOnSheet(staff, { venueId: puneId, date: DAY, bookingId: held.id, attendance: 'attended' }, NOW))).toBeInstanceOf(UnpaidAttendanceError)
    expect(await refusal(markOnSheet(staff, { venueId: puneId, date: DAY, bookingId: otherDay.id, attendance: 'attended' }, NOW))).toBeInstanceOf(NotOnTheSheetError)
    expect(await refusal(markOnSheet(staff, { venueId: puneId + 1, date: NEXT_DAY, bookingId: otherDay.id, attendance: 'no_show' }, NOW))).toBeInstanceOf(NotOnTheSheetError)
    expect(await refusal(markOnSheet(staff, { venueId: puneId, date: DAY, bookingId: cancelled.id, attendance: 'no_show' }, NOW))).toBeInstanceOf(NotOnTheSheetError)
    const rows = await db().select({ attendance: bookings.attendance }).from(bookings)
    expect(rows.every((row) => row.attendance === null)).toBe(true)
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'booking.attendance'))).toEqual([])
  })
})
