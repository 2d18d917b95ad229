import { and, eq, inArray, or, type SQL } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { bookingDays, bookings, campBatches, campRegistrations, camps, catalogueItems } from '~/db/schema'
import { addHours, formatLabDateTime, labInstant, toHourMinute } from '~/lib/lab-time'
import { formatRupees } from '~/lib/money'
import type { PersonActing } from '~/modules/audit/audit.server'
import { CHANGE_NOTICE_HOURS, cancelBooking, NotChangeableError } from '~/modules/booking/changes.server'
import { setStatus } from '~/modules/statuses/status.server'
import { CampChangeRefusedError } from '~/modules/camps/camp-editing.server'
import { cancelRegistration } from '~/modules/camps/staff-registrations.server'
import { refundablePayments } from '~/modules/camps/staff-views.server'

/**
 * Whose bookings: one swimmer of an account, or the whole account (its bookings, and the camp
 * registrations it made or made under its e-mail address while that address is verified: `email`
 * null for an account whose address is not, which may be anyone's).
 */
export type BookingScope = { accountId: number; email: string | null; swimmerId?: number }

/** A session or camp place not yet begun, and whether cancelling it now is refunded (24 hours or more ahead). */
export type FutureBooking = { kind: 'session' | 'camp'; id: number; reference: string; title: string; swimmerName: string; startsAt: Date; amountPaise: number; refundable: boolean }

function campRegistrationsOf(scope: BookingScope): SQL {
  if (scope.swimmerId !== undefined) return eq(campRegistrations.swimmerId, scope.swimmerId)
  return or(eq(campRegistrations.accountId, scope.accountId), scope.email ? eq(campRegistrations.email, scope.email.toLowerCase()) : undefined)!
}

function refundableAt(startsAt: Date, now: Date) {
  return now < addHours(startsAt, -CHANGE_NOTICE_HOURS)
}

/**
 * The confirmed sessions and camp places of the scope that have not begun, first first: what a
 * withdrawal of consent or an erasure cancels, under the refund policy (a full refund 24 hours or
 * more before the start, none after).
 */
export async function futureBookingsOf(scope: BookingScope, now = new Date()): Promise<FutureBooking[]> {
  const sessionOwner: SQL = scope.swimmerId !== undefined ? eq(bookings.swimmerId, scope.swimmerId) : eq(bookings.userId, scope.accountId)
  const campOwner = campRegistrationsOf(scope)
  const [sessions, places] = await Promise.all([
    db()
      .select({ id: bookings.id, reference: bookings.reference, title: catalogueItems.name, swimmerName: bookings.swimmerName, amountPaise: bookings.amountPaise, date: bookingDays.date, start: bookingDays.startTime })
      .from(bookings)
      .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
      .innerJoin(bookingDays, and(eq(bookingDays.bookingId, bookings.id), eq(bookingDays.dayNumber, 1)))
      .where(and(sessionOwner, eq(bookings.status, 'confirmed'))),
    db()
      .select({ id: campRegistrations.id, reference: campRegistrations.reference, title: camps.name, swimmerName: campRegistrations.swimmerName, amountPaise: campRegistrations.amountPaise, date: camps.startsOn, timeRanges: campBatches.timeRanges })
      .from(campRegistrations)
      .innerJoin(camps, eq(camps.id, campRegistrations.campId))
      .innerJoin(campBatches, eq(campBatches.id, campRegistrations.batchId))
      .where(and(campOwner, eq(campRegistrations.status, 'confirmed'))),
  ])
  const all: FutureBooking[] = [
    ...sessions.map((row) => {
      const startsAt = labInstant(row.date, toHourMinute(row.start))
      return { kind: 'session' as const, id: row.id, reference: row.reference, title: row.title, swimmerName: row.swimmerName, startsAt, amountPaise: row.amountPaise, refundable: refundableAt(startsAt, now) }
    }),
    ...places.map((row) => {
      const first = [...row.timeRanges].sort((a, b) => a.start.localeCompare(b.start))[0]
      const startsAt = labInstant(row.date, first ? toHourMinute(first.start) : '00:00')
      return { kind: 'camp' as const, id: row.id, reference: row.reference, title: row.title, swimmerName: row.swimmerName, startsAt, amountPaise: row.amountPaise, refundable: refundableAt(startsAt, now) }
    }),
  ]
  return all.filter((booking) => booking.startsAt > now).sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())
}

/**
 * Cancels every future booking of the scope under the refund policy (each customer e-mailed as for
 * any cancellation) and lets go of its unpaid holds. Returns what was cancelled.
 */
export async function cancelFutureBookings(scope: BookingScope, { person, reason, now = new Date() }: { person: PersonActing; reason: string; now?: Date }) {
  const future = await futureBookingsOf(scope, now)
  const cancelled: FutureBooking[] = []
  for (const booking of future) {
    try {
      if (booking.kind === 'session') {
        await cancelBooking({ bookingId: booking.id, enforceDeadline: false, refund: booking.refundable, now })
      } else {
        const [camp] = await db().select({ code: camps.code }).from(campRegistrations).innerJoin(camps, eq(camps.id, campRegistrations.campId)).where(eq(campRegistrations.id, booking.id))
        await cancelRegistration(person, { campCode: camp!.code, reference: booking.reference, refund: booking.refundable && (await hasPayment(booking.id)), reason, now })
      }
      cancelled.push(booking)
    } catch (error) {
      // Cancelled or changed meanwhile (by staff, or a refund already under way): nothing left to cancel.
      if (!(error instanceof NotChangeableError) && !(error instanceof CampChangeRefusedError)) throw error
    }
  }
  await releaseUnpaid(scope, now)
  return cancelled
}

async function hasPayment(registrationId: number) {
  const rows = await refundablePayments(db(), registrationId).limit(1)
  return rows.length > 0
}

/** Unpaid holds of the scope end now, so their seats go back to others. */
async function releaseUnpaid(scope: BookingScope, now: Date) {
  const sessionOwner = scope.swimmerId !== undefined ? eq(bookings.swimmerId, scope.swimmerId) : eq(bookings.userId, scope.accountId)
  await setStatus(db(), bookings, 'expired', and(sessionOwner, inArray(bookings.status, ['pending']))!, { updatedAt: now })
  const campOwner = campRegistrationsOf(scope)
  await setStatus(db(), campRegistrations, 'expired', and(campOwner, inArray(campRegistrations.status, ['pending']))!, { holdExpiresAt: null, updatedAt: now })
}

/** A future booking as a page lists it before the person confirms what cancels it. */
export function futureBookingView(booking: FutureBooking) {
  return {
    key: `${booking.kind}-${booking.id}`,
    title: booking.title,
    reference: booking.reference,
    when: formatLabDateTime(booking.startsAt),
    refund: booking.refundable ? `refunded in full (${formatRupees(booking.amountPaise)})` : 'not refunded: it starts within 24 hours',
  }
}
