import { and, asc, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { bookingDays, bookings, catalogueItems, outboxEmails, paymentEvents, payments, refunds, type BookingStatus } from '~/db/schema'

export type StaffBookingFilters = {
  from?: string | null
  to?: string | null
  status?: BookingStatus | null
  product?: string | null
  search?: string | null
}

/** Bookings as staff search them: by first-day date range, status, product, and free text. */
export async function staffBookings(filters: StaffBookingFilters, limit = 200) {
  const firstDay = sql<string>`(SELECT min(${bookingDays.date})::text FROM ${bookingDays} WHERE ${bookingDays.bookingId} = ${bookings.id})`
  const conditions: Array<SQL | undefined> = [
    filters.status ? eq(bookings.status, filters.status) : inArray(bookings.status, ['pending', 'confirmed', 'cancelled', 'refund_pending', 'refunded']),
    filters.product ? eq(bookings.productCode, filters.product) : undefined,
    filters.from ? gte(firstDay, filters.from) : undefined,
    filters.to ? lte(firstDay, filters.to) : undefined,
  ]
  const term = filters.search?.trim()
  if (term) {
    const like = `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
    conditions.push(
      or(
        ilike(bookings.customerName, like),
        ilike(bookings.customerEmail, like),
        ilike(bookings.customerPhone, like),
        ilike(bookings.reference, like),
        sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.bookingId} = ${bookings.id} AND (${payments.orderId} ILIKE ${like} OR ${payments.transactionId} ILIKE ${like}))`,
      ),
    )
  }
  return db()
    .select({
      id: bookings.id,
      reference: bookings.reference,
      customerName: bookings.customerName,
      customerEmail: bookings.customerEmail,
      customerPhone: bookings.customerPhone,
      productCode: bookings.productCode,
      productName: catalogueItems.name,
      status: bookings.status,
      amountPaise: bookings.amountPaise,
      startTime: bookings.startTime,
      endTime: bookings.endTime,
      firstDay,
      dayCount: sql<number>`(SELECT count(*)::int FROM ${bookingDays} WHERE ${bookingDays.bookingId} = ${bookings.id})`,
      createdAt: bookings.createdAt,
    })
    .from(bookings)
    .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .where(and(...conditions))
    .orderBy(desc(firstDay), desc(bookings.id))
    .limit(limit)
}

/** Everything that happened to a booking: its days, payments and what the gateway said, refunds, e-mails. */
export async function bookingStory(reference: string) {
  const [booking] = await db()
    .select({
      id: bookings.id,
      reference: bookings.reference,
      userId: bookings.userId,
      productName: catalogueItems.name,
      customerName: bookings.customerName,
      customerEmail: bookings.customerEmail,
      customerPhone: bookings.customerPhone,
      swimmingExperience: bookings.swimmingExperience,
      notes: bookings.notes,
      status: bookings.status,
      amountPaise: bookings.amountPaise,
      holdExpiresAt: bookings.holdExpiresAt,
      confirmedAt: bookings.confirmedAt,
      cancelledAt: bookings.cancelledAt,
      createdAt: bookings.createdAt,
    })
    .from(bookings)
    .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .where(eq(bookings.reference, reference))
  if (!booking) return null
  const days = await db()
    .select({ dayNumber: bookingDays.dayNumber, date: bookingDays.date, start: bookingDays.startTime, end: bookingDays.endTime })
    .from(bookingDays)
    .where(eq(bookingDays.bookingId, booking.id))
    .orderBy(asc(bookingDays.dayNumber))
  const paymentRows = await db()
    .select({ id: payments.id, orderId: payments.orderId, gateway: payments.gateway, state: payments.state, amountPaise: payments.amountPaise, transactionId: payments.transactionId, paymentMode: payments.paymentMode, failureReason: payments.failureReason, createdAt: payments.createdAt, completedAt: payments.completedAt })
    .from(payments)
    .where(eq(payments.bookingId, booking.id))
    .orderBy(asc(payments.id))
  const orderIds = paymentRows.map((payment) => payment.orderId)
  const events = orderIds.length
    ? await db()
        .select({ orderId: paymentEvents.orderId, source: paymentEvents.source, state: paymentEvents.state, outcome: paymentEvents.outcome, receivedAt: paymentEvents.receivedAt })
        .from(paymentEvents)
        .where(inArray(paymentEvents.orderId, orderIds))
        .orderBy(asc(paymentEvents.id))
    : []
  const refundRows = paymentRows.length
    ? await db()
        .select({ refundId: refunds.refundId, paymentId: refunds.paymentId, amountPaise: refunds.amountPaise, reason: refunds.reason, state: refunds.state, lastError: refunds.lastError, createdAt: refunds.createdAt, completedAt: refunds.completedAt })
        .from(refunds)
        .where(
          inArray(
            refunds.paymentId,
            paymentRows.map((payment) => payment.id),
          ),
        )
        .orderBy(asc(refunds.id))
    : []
  const emails = await db()
    .select({ subject: outboxEmails.subject, status: outboxEmails.status, createdAt: outboxEmails.createdAt })
    .from(outboxEmails)
    .where(and(eq(outboxEmails.to, booking.customerEmail), ilike(outboxEmails.subject, `%${booking.reference}%`)))
    .orderBy(asc(outboxEmails.id))
  return { booking, days, payments: paymentRows, events, refunds: refundRows, emails }
}
