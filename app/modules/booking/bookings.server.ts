import { and, asc, desc, eq, exists, inArray, isNull, or, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { availabilityWindows, bookingDays, bookings, catalogueItems, payments, siteSettings, venues, type BookingStatus } from '~/db/schema'
import { getSiteSettings } from '~/modules/site/site.server'
import { paymentStatusOf, type PaymentStatus } from '~/modules/payments/payment-status.server'
import { toHourMinute } from '~/lib/lab-time'

/** One day of a booking; `analysisDayId` when it is a slot of an analysis day away from the lab. */
export type BookingDay = { dayNumber: number; date: string; start: string; end: string; analysisDayId: number | null }

/** One booking's days in order, their times as the database keeps them ("HH:MM:SS"). */
export function bookingDaysOf(bookingId: number, executor: Executor = db()): Promise<BookingDay[]> {
  return executor
    .select({ dayNumber: bookingDays.dayNumber, date: bookingDays.date, start: bookingDays.startTime, end: bookingDays.endTime, analysisDayId: availabilityWindows.analysisDayId })
    .from(bookingDays)
    .innerJoin(availabilityWindows, eq(availabilityWindows.id, bookingDays.windowId))
    .where(eq(bookingDays.bookingId, bookingId))
    .orderBy(asc(bookingDays.dayNumber))
}

/**
 * Where a booking takes place. The lab's own room is named as it always was, by the settings' session
 * location (`name`, with nothing else); a venue away by its name, address, city and map link.
 */
export type BookingVenue = { home: boolean; name: string; address: string | null; city: string | null; mapUrl: string | null }

/**
 * Bookings' days with the venue they take place at, in one query: booking_days.window_id →
 * availability_windows.venue_id → venues (every day of a booking is at its first day's venue). The
 * session location is read in the same query, only for the lab's own room. Times as the database
 * keeps them ("HH:MM:SS").
 */
export async function daysAndVenues(bookingIds: number[], executor: Executor = db()): Promise<Map<number, { days: BookingDay[]; venue: BookingVenue }>> {
  const byBooking = new Map<number, { days: BookingDay[]; venue: BookingVenue }>()
  if (bookingIds.length === 0) return byBooking
  const rows = await executor
    .select({
      bookingId: bookingDays.bookingId,
      dayNumber: bookingDays.dayNumber,
      date: bookingDays.date,
      start: bookingDays.startTime,
      end: bookingDays.endTime,
      analysisDayId: availabilityWindows.analysisDayId,
      home: venues.isHome,
      name: venues.name,
      address: venues.address,
      city: venues.city,
      mapUrl: venues.mapUrl,
      sessionLocation: sql<string | null>`CASE WHEN ${venues.isHome} THEN (SELECT ${siteSettings.sessionLocation} FROM ${siteSettings} WHERE ${siteSettings.id} = 1) END`,
    })
    .from(bookingDays)
    .innerJoin(availabilityWindows, eq(availabilityWindows.id, bookingDays.windowId))
    .innerJoin(venues, eq(venues.id, availabilityWindows.venueId))
    .where(inArray(bookingDays.bookingId, bookingIds))
    .orderBy(asc(bookingDays.bookingId), asc(bookingDays.dayNumber))
  for (const { bookingId, home, name, address, city, mapUrl, sessionLocation, ...day } of rows) {
    const found = byBooking.get(bookingId)
    if (found) found.days.push(day)
    else byBooking.set(bookingId, { days: [day], venue: home ? homeVenueNamed(sessionLocation ?? '') : { home, name, address, city, mapUrl } })
  }
  return byBooking
}

/** The lab's own room, named as the settings' session location. */
export function homeVenueNamed(sessionLocation: string): BookingVenue {
  return { home: true, name: sessionLocation, address: null, city: null, mapUrl: null }
}

/** Bookings' days with their times as pages show them ("HH:MM"), and their venue (a booking without days, at the lab). */
async function daysOf(bookingIds: number[]) {
  const found = await daysAndVenues(bookingIds)
  const lab = found.size < new Set(bookingIds).size ? homeVenueNamed((await getSiteSettings()).sessionLocation) : null
  return (bookingId: number) => {
    const entry = found.get(bookingId)
    return { days: (entry?.days ?? []).map((day) => ({ ...day, start: toHourMinute(day.start), end: toHourMinute(day.end) })), venue: entry?.venue ?? lab! }
  }
}

const bookingColumns = {
  id: bookings.id,
  reference: bookings.reference,
  userId: bookings.userId,
  swimmerId: bookings.swimmerId,
  swimmerName: bookings.swimmerName,
  productCode: bookings.productCode,
  productName: catalogueItems.name,
  productDuration: catalogueItems.duration,
  customerName: bookings.customerName,
  customerEmail: bookings.customerEmail,
  customerPhone: bookings.customerPhone,
  swimmingExperience: bookings.swimmingExperience,
  startTime: bookings.startTime,
  endTime: bookings.endTime,
  amountPaise: bookings.amountPaise,
  promoDiscountPaise: bookings.promoDiscountPaise,
  status: bookings.status,
  holdExpiresAt: bookings.holdExpiresAt,
  confirmedAt: bookings.confirmedAt,
  createdAt: bookings.createdAt,
}

/**
 * A customer's booking still waiting for payment (the payment page), or null when it is not theirs,
 * not pending, or its hold has run out.
 */
export async function payableBooking(bookingId: number, userId: number, now = new Date()) {
  const [booking] = await db()
    .select(bookingColumns)
    .from(bookings)
    .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .where(and(eq(bookings.id, bookingId), eq(bookings.userId, userId)))
  if (!booking || booking.status !== 'pending' || !booking.holdExpiresAt || booking.holdExpiresAt <= now) return null
  return { ...booking, ...(await daysOf([booking.id]))(booking.id) }
}

/** The order id of the booking's completed payment (its receipt's), if any. */
const paidOrderIdOf = sql<string | null>`(SELECT ${payments.orderId} FROM ${payments} WHERE ${payments.bookingId} = ${bookings.id} AND ${payments.state} = 'completed' ORDER BY ${payments.id} LIMIT 1)`

/**
 * A customer's bookings, newest first: their own (for every swimmer of the account), and those made
 * without an account under their (verified) e-mail address; only one swimmer's when `swimmerId`
 * (a swimmer of this account, checked by the caller) is given. Attempts that never got paid
 * (expired or failed holds) are left out: they were never bookings.
 */
export async function customerBookings(userId: number, verifiedEmail: string, { swimmerId }: { swimmerId?: number | null } = {}) {
  const paid = exists(
    db()
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.bookingId, bookings.id), eq(payments.state, 'completed'))),
  )
  const rows = await db()
    .select({ ...bookingColumns, paidOrderId: paidOrderIdOf })
    .from(bookings)
    .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .where(
      and(
        or(eq(bookings.userId, userId), and(isNull(bookings.userId), eq(bookings.customerEmail, verifiedEmail.toLowerCase()))),
        swimmerId ? eq(bookings.swimmerId, swimmerId) : undefined,
        or(inArray(bookings.status, ['pending', 'confirmed', 'cancelled', 'refund_pending', 'refunded']), paid),
      ),
    )
    .orderBy(desc(bookings.createdAt), desc(bookings.id))
  const days = await daysOf(rows.map((row) => row.id))
  return rows.map((row) => ({ ...row, ...days(row.id) }))
}

export type StatusView = PaymentStatus & {
  bookingStatus: BookingStatus
  booking: { id: number; reference: string; productName: string; venue: BookingVenue; swimmerName: string; customerName: string; customerEmail: string; customerPhone: string | null; startTime: string; endTime: string; days: BookingDay[] }
}

/**
 * A payment and its booking for a status page, found by our order id or the gateway's transaction
 * id: for a signed-in customer only if the booking is theirs; otherwise only for a caller who has
 * checked the key of the link the site made for this order.
 */
export async function paymentStatusView({
  orderId,
  transactionId,
  access,
}: {
  orderId?: string | null
  transactionId?: string | null
  access: { userId: number } | { linkKeyChecked: true }
}): Promise<StatusView | null> {
  const found = await paymentStatusOf('booking', { orderId, transactionId }, async (bookingId) => {
    const [row] = await db()
      .select({
        bookingStatus: bookings.status,
        reference: bookings.reference,
        productName: catalogueItems.name,
        swimmerName: bookings.swimmerName,
        customerName: bookings.customerName,
        customerEmail: bookings.customerEmail,
        customerPhone: bookings.customerPhone,
        startTime: bookings.startTime,
        endTime: bookings.endTime,
      })
      .from(bookings)
      .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
      .where(and(eq(bookings.id, bookingId), 'userId' in access ? eq(bookings.userId, access.userId) : undefined))
    return row ? { id: bookingId, ...row } : null
  })
  if (!found) return null
  const { payable: row, ...payment } = found
  const { days, venue } = (await daysOf([row.id]))(row.id)
  return {
    ...payment,
    bookingStatus: row.bookingStatus,
    booking: {
      id: row.id,
      reference: row.reference,
      productName: row.productName,
      venue,
      swimmerName: row.swimmerName,
      customerName: row.customerName,
      customerEmail: row.customerEmail,
      customerPhone: row.customerPhone,
      startTime: toHourMinute(row.startTime),
      endTime: toHourMinute(row.endTime),
      days,
    },
  }
}

/** A booking for its guest link (the caller has checked the link's key). */
export async function bookingByReference(reference: string) {
  const [booking] = await db()
    .select({ ...bookingColumns, calendarSequence: bookings.calendarSequence, paidOrderId: paidOrderIdOf })
    .from(bookings)
    .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .where(eq(bookings.reference, reference))
  if (!booking) return null
  return { ...booking, ...(await daysOf([booking.id]))(booking.id) }
}
