import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { BOOKING_STATUSES, bookings, type BookingStatus } from '~/db/schema'
import { bookingRow } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { insertBooking } from '~/modules/booking/holds.server'
import { BOOKING_TRANSITIONS, setStatus, statusesBefore } from './status.server'

useTestDatabase()

const NOW = new Date('2026-12-01T04:30:00Z')
const LATER = new Date('2026-12-01T05:00:00Z')

async function bookingIn(status: BookingStatus) {
  const booking = await insertBooking(db(), {
    productCode: 'biomechanical_package',
    userId: null,
    swimmerName: 'Kavya Nair',
    customerName: 'Kavya Nair',
    customerEmail: 'kavya@example.com',
    startTime: '09:00',
    endTime: '10:00',
    amountPaise: 28_500_00,
    status,
    holdExpiresAt: LATER,
    createdAt: NOW,
    updatedAt: NOW,
  })
  return booking.id
}

/** Tries to move a booking in status `from` to `to`; the statuses it is in before and after. */
async function move(from: BookingStatus, to: BookingStatus) {
  const id = await bookingIn(from)
  const moved = await setStatus(db(), bookings, to, eq(bookings.id, id), { updatedAt: LATER }).returning({ id: bookings.id })
  const after = await bookingRow(id)
  return { moved: moved.length === 1, status: after.status, updatedAt: after.updatedAt }
}

const allowed = BOOKING_STATUSES.flatMap((from) => BOOKING_TRANSITIONS[from].map((to) => [from, to] as const))
const forbidden = BOOKING_STATUSES.flatMap((from) => BOOKING_STATUSES.filter((to) => !BOOKING_TRANSITIONS[from].includes(to)).map((to) => [from, to] as const))

describe('booking status changes', () => {
  it.each(allowed)('a booking %s may become %s', async (from, to) => {
    expect(await move(from, to)).toEqual({ moved: true, status: to, updatedAt: LATER })
  })

  it.each(forbidden)('a booking %s never becomes %s: the row is left as it was', async (from, to) => {
    expect(await move(from, to)).toEqual({ moved: false, status: from, updatedAt: NOW })
  })

  it('only an unpaid hold expires or fails, only a confirmed booking is cancelled, and a refund ends what was paid back', () => {
    expect(statusesBefore('expired')).toEqual(['pending'])
    expect(statusesBefore('payment_failed')).toEqual(['pending'])
    expect(statusesBefore('confirmed')).toEqual(['pending', 'expired', 'payment_failed'])
    expect(statusesBefore('cancelled')).toEqual(['confirmed'])
    expect(statusesBefore('refunded')).toEqual(['cancelled', 'refund_pending'])
    expect(statusesBefore('pending')).toEqual([])
  })
})
