import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookingDays, bookings, refunds } from '~/db/schema'
import { addMinutes } from '~/lib/lab-time'
import { applyOrderStatus } from '~/modules/payments/payments.server'
import { processDueRefunds } from '~/modules/payments/refunds.server'
import { bookingRow, createCustomers, expectHeld, mailTo, setWindows } from '../../../tests/support/booking'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { AlreadyAtThisTimeError, cancelBooking, changeAllowed, rescheduleBooking, TOO_LATE_TO_CHANGE_NOTICE, TooLateToChangeError, tooLateToChangeNotice } from './changes.server'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { swimmerInput } from '../../../tests/support/accounts'
import { daySchedule } from './availability.server'
import { AlreadyBookedError, holdSession, SlotUnavailableError, type Customer } from './holds.server'

useTestDatabase()
const sandbox = useSandboxPayments()
beforeEach(() => sandbox.ready())

const DATES = ['2030-03-04', '2030-03-05', '2030-03-06', '2030-03-07', '2030-03-08']
/** A month before the sessions: within the window a customer can book and move in. */
const BEFORE = new Date('2030-02-01T06:00:00Z')

const confirmedBooking = (customer: Customer, start = '09:00', date = DATES[0]!) => sandbox.confirmedSession(customer, { date, start })

const daysOf = async (bookingId: number) => (await db().select({ date: bookingDays.date, start: bookingDays.startTime }).from(bookingDays).where(eq(bookingDays.bookingId, bookingId))).map((day) => `${day.date} ${day.start.slice(0, 5)}`).sort()

describe('the 24-hour rule', () => {
  it('allows changes until exactly 24 hours before Day 1 begins in Bangalore, whatever the server zone', () => {
    // Day 1 at 09:00 IST on 4 March 2030 = 03:30 UTC; the deadline is 03:30 UTC on 3 March.
    const firstDay = { date: '2030-03-04', start: '09:00:00' }
    expect(changeAllowed('confirmed', firstDay, new Date('2030-03-03T03:29:59Z'))).toEqual({ allowed: true })
    expect(changeAllowed('confirmed', firstDay, new Date('2030-03-03T03:30:00Z'))).toMatchObject({ allowed: false, reason: expect.stringContaining('up to 24 hours before the first session') })
    expect(changeAllowed('pending', firstDay, new Date('2030-01-01T00:00:00Z'))).toMatchObject({ allowed: false, reason: 'Only a confirmed booking can be rescheduled or cancelled.' })
  })

  it('refuses a late reschedule or cancellation from the customer; staff may still act', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const [customer] = await createCustomers(1)
    const booking = await confirmedBooking(customer!)
    const late = new Date('2030-03-03T04:00:00Z')
    await expect(rescheduleBooking({ bookingId: booking.bookingId, date: DATES[1]!, start: '10:00', now: late })).rejects.toThrow(TooLateToChangeError)
    await expect(cancelBooking({ bookingId: booking.bookingId, now: late })).rejects.toThrow(TooLateToChangeError)
    await cancelBooking({ bookingId: booking.bookingId, now: late, enforceDeadline: false, refund: false })
    expect((await bookingRow(booking.bookingId)).status).toBe('cancelled')
    expect(await db().select().from(refunds)).toHaveLength(0)
  })
})

describe('rescheduling', () => {
  it('moves the seats in one go: the old ones are free for others, the new ones taken; the calendar is updated', async () => {
    await setWindows(DATES.map((date) => ({ date, capacity: 1 })))
    const [customer, other] = await createCustomers(2)
    const booking = await confirmedBooking(customer!)
    await rescheduleBooking({ bookingId: booking.bookingId, date: DATES[2]!, start: '11:00' , now: BEFORE })
    expect(await daysOf(booking.bookingId)).toEqual(['2030-03-06 11:00', '2030-03-07 11:00', '2030-03-08 11:00'])
    expect(await bookingRow(booking.bookingId)).toMatchObject({ status: 'confirmed', startTime: '11:00:00', calendarSequence: 1 })
    const taken = await expectHeld(holdSession({ customer: other!, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3 }), { userId: other!.userId })
    expect(await daysOf(taken.id)).toEqual(['2030-03-04 09:00', '2030-03-05 09:00', '2030-03-06 09:00'])
    const mail = (await mailTo(customer!.email)).find((message) => message.subject.startsWith('Booking rescheduled'))!
    expect(mail.text).toMatch(/Day 1:\s+Wednesday, 6 March 2030, 11:00 AM - 12:00 PM/)
    const ics = Buffer.from(mail.attachments[0]!.contentBase64, 'base64').toString('utf8')
    expect(ics).toContain('SEQUENCE:1')
    expect(ics).toContain(`UID:booking-${booking.reference}-day-1@swimlab`)
    expect(ics).toContain('DTSTART:20300306T053000Z')
  })

  it('may overlap its own days (moving by one day), but not take a seat someone else holds', async () => {
    await setWindows(DATES.map((date) => ({ date, capacity: 1 })))
    const [customer, other] = await createCustomers(2)
    const booking = await confirmedBooking(customer!)
    await rescheduleBooking({ bookingId: booking.bookingId, date: DATES[1]!, start: '09:00' , now: BEFORE })
    expect(await daysOf(booking.bookingId)).toEqual(['2030-03-05 09:00', '2030-03-06 09:00', '2030-03-07 09:00'])
    await holdSession({ customer: other!, productCode: 'biomechanical_package', date: DATES[0]!, start: '10:00', days: 3, now: BEFORE })
    await expect(rescheduleBooking({ bookingId: booking.bookingId, date: DATES[0]!, start: '10:00' , now: BEFORE })).rejects.toThrow(SlotUnavailableError)
    expect(await daysOf(booking.bookingId)).toEqual(['2030-03-05 09:00', '2030-03-06 09:00', '2030-03-07 09:00'])
  })

  it("does not move a swimmer onto a time they hold in another booking; a brother's or sister's seat there does not stop it, and the page shows the same", async () => {
    await setWindows(DATES.map((date) => ({ date, capacity: 5 })))
    const [parent] = await createCustomers(1)
    const sister = await insertSwimmer(db(), parent!.userId!, 'Meera Rao', swimmerInput({ name: 'Meera Rao', age: '19' }), { isAccountHolder: false, now: new Date() })
    const first = await confirmedBooking(parent!, '09:00')
    const second = await confirmedBooking(parent!, '10:00')
    const hers = await confirmedBooking({ ...parent!, swimmerId: sister.id, swimmerName: sister.name }, '11:00')
    const nineOn = async (booking: { bookingId: number }, swimmer: { swimmerId: number | null; swimmerName: string }) =>
      (await daySchedule({ date: DATES[0]!, userId: parent!.userId, days: 3, exceptBookingId: booking.bookingId, swimmer })).find((slot) => slot.start === '09:00')?.state

    expect(await nineOn(second, parent!)).toBe('booked')
    await expect(rescheduleBooking({ bookingId: second.bookingId, date: DATES[0]!, start: '09:00' , now: BEFORE })).rejects.toThrow(AlreadyBookedError)
    expect(await daysOf(second.bookingId)).toEqual(['2030-03-04 10:00', '2030-03-05 10:00', '2030-03-06 10:00'])

    expect(await nineOn(hers, { swimmerId: sister.id, swimmerName: sister.name })).toBe('available')
    await rescheduleBooking({ bookingId: hers.bookingId, date: DATES[0]!, start: '09:00' , now: BEFORE })
    expect(await daysOf(hers.bookingId)).toEqual(await daysOf(first.bookingId))
  })
})

describe('where a booking may move', () => {
  it("refuses a customer's move beyond the months they could book in, or to where it already is; staff may move it anywhere else", async () => {
    await setWindows([...DATES, '2030-06-03', '2030-06-04', '2030-06-05'].map((date) => ({ date })))
    const [customer] = await createCustomers(1)
    const booking = await confirmedBooking(customer!)
    // A 3-day session booked on 1 February 2030 may start until the end of May.
    await expect(rescheduleBooking({ bookingId: booking.bookingId, date: '2030-06-03', start: '09:00', now: BEFORE })).rejects.toThrow(SlotUnavailableError)
    await expect(rescheduleBooking({ bookingId: booking.bookingId, date: DATES[0]!, start: '09:00', now: BEFORE })).rejects.toThrow(AlreadyAtThisTimeError)
    await expect(rescheduleBooking({ bookingId: booking.bookingId, date: DATES[0]!, start: '09:00', now: BEFORE, enforceDeadline: false })).rejects.toThrow(AlreadyAtThisTimeError)
    expect(await daysOf(booking.bookingId)).toEqual(['2030-03-04 09:00', '2030-03-05 09:00', '2030-03-06 09:00'])
    await rescheduleBooking({ bookingId: booking.bookingId, date: '2030-06-03', start: '09:00', now: BEFORE, enforceDeadline: false })
    expect(await daysOf(booking.bookingId)).toEqual(['2030-06-03 09:00', '2030-06-04 09:00', '2030-06-05 09:00'])
  })
})

describe('cancelling', () => {
  it('refunds the payment in full through the gateway; the booking ends refunded; the calendar gets a CANCEL', async () => {
    await setWindows(DATES.map((date) => ({ date, capacity: 1 })))
    const [customer, other] = await createCustomers(2)
    const booking = await confirmedBooking(customer!)
    await cancelBooking({ bookingId: booking.bookingId })
    expect(await bookingRow(booking.bookingId)).toMatchObject({ status: 'cancelled', calendarSequence: 1 })
    // The seats are free at once.
    const taken = await expectHeld(holdSession({ customer: other!, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3 }), { userId: other!.userId })
    expect(await daysOf(taken.id)).toEqual(['2030-03-04 09:00', '2030-03-05 09:00', '2030-03-06 09:00'])
    const mail = (await mailTo(customer!.email)).find((message) => message.subject.startsWith('Booking cancelled'))!
    expect(mail.text).toContain('The full amount of ₹30,000.00 is being refunded within 7 business days, to the original payment method.')
    const ics = Buffer.from(mail.attachments[0]!.contentBase64, 'base64').toString('utf8')
    expect(ics).toContain('METHOD:CANCEL')
    expect(ics).toContain('STATUS:CANCELLED')
    expect(ics).toContain('SEQUENCE:1')

    await processDueRefunds(new Date())
    await expect
      .poll(
        async () => {
          await processDueRefunds(addMinutes(new Date(), 1))
          return (await bookingRow(booking.bookingId)).status
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBe('refunded')
    expect((await db().select().from(refunds))[0]).toMatchObject({ amountPaise: 30_000_00, state: 'completed', reason: 'The booking was cancelled.' })
  })

  it('a booking already cancelled cannot be cancelled again (no second refund)', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const [customer] = await createCustomers(1)
    const booking = await confirmedBooking(customer!)
    await Promise.allSettled([cancelBooking({ bookingId: booking.bookingId }), cancelBooking({ bookingId: booking.bookingId })])
    expect(await db().select().from(refunds)).toHaveLength(1)
    expect((await db().select().from(bookings).where(eq(bookings.id, booking.bookingId)))[0]!.status).toBe('cancelled')
    await expect(applyOrderStatus(booking.orderId, { state: 'completed', amountPaise: 30_000_00, transactionId: 'T', paymentMode: null })).resolves.toBe('unchanged')
  })
})

describe('before payment', () => {
  it('warns that a session starting within 24 hours can never be cancelled or moved, and says nothing otherwise', () => {
    // 10:00 on 1 December in Bangalore.
    const now = new Date('2026-12-01T04:30:00Z')
    expect(tooLateToChangeNotice('2026-12-02', '09:59', now)).toBe(TOO_LATE_TO_CHANGE_NOTICE)
    expect(tooLateToChangeNotice('2026-12-01', '17:00:00', now)).toBe(TOO_LATE_TO_CHANGE_NOTICE)
    expect(tooLateToChangeNotice('2026-12-02', '10:00', now)).toBe(TOO_LATE_TO_CHANGE_NOTICE)
    expect(tooLateToChangeNotice('2026-12-02', '10:01', now)).toBeNull()
    expect(TOO_LATE_TO_CHANGE_NOTICE).toBe('This session starts within 24 hours: once you pay, it cannot be cancelled or moved.')
  })
})
