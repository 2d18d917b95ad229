import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { bookingDays, bookings, campRegistrations, catalogueItems, payments, refunds } from '~/db/schema'
import { addDays, isoWeekday, labInstant, labToday } from '~/lib/lab-time'
import { campChoices } from '~/modules/camps/camps.server'
import { financialYearOf } from '~/modules/receipts/receipt-number'
import { consentsToConfirm } from '~/modules/swimmers/consent.server'

/** The Monday of the week a date falls in (weeks run Monday to Sunday). */
function mondayOf(date: string) {
  return addDays(date, 1 - isoWeekday(date))
}

/** Confirmed session days from `from` to `to` (inclusive), with who and when. */
async function sessionsBetween(from: string, to: string) {
  return db()
    .select({
      date: bookingDays.date,
      start: bookingDays.startTime,
      end: bookingDays.endTime,
      dayNumber: bookingDays.dayNumber,
      reference: bookings.reference,
      swimmerName: bookings.swimmerName,
      customerName: bookings.customerName,
      productName: catalogueItems.name,
      dayCount: sql<number>`(SELECT count(*)::int FROM ${bookingDays} d2 WHERE d2.booking_id = ${bookings.id})`,
    })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .where(and(eq(bookings.status, 'confirmed'), gte(bookingDays.date, from), lte(bookingDays.date, to)))
    .orderBy(asc(bookingDays.date), asc(bookingDays.startTime))
}

/**
 * Money in by week (Monday to Sunday in Bangalore) over the last `weeks` weeks: completed payments
 * less completed refunds, in paise.
 */
async function revenueByWeek(today: string, weeks: number) {
  const firstMonday = addDays(mondayOf(today), -7 * (weeks - 1))
  const since = labInstant(firstMonday)
  const week = (column: typeof payments.completedAt | typeof refunds.completedAt) => sql<string>`to_char(date_trunc('week', ${column} AT TIME ZONE 'Asia/Kolkata'), 'YYYY-MM-DD')`
  const paid = await db()
    .select({ week: week(payments.completedAt), paise: sql<number>`sum(${payments.amountPaise})::int` })
    .from(payments)
    .where(and(eq(payments.state, 'completed'), gte(payments.completedAt, since)))
    .groupBy(week(payments.completedAt))
  const refunded = await db()
    .select({ week: week(refunds.completedAt), paise: sql<number>`sum(${refunds.amountPaise})::int` })
    .from(refunds)
    .where(and(eq(refunds.state, 'completed'), gte(refunds.completedAt, since)))
    .groupBy(week(refunds.completedAt))
  return Array.from({ length: weeks }, (_, index) => {
    const monday = addDays(firstMonday, 7 * index)
    const paise = (paid.find((row) => row.week === monday)?.paise ?? 0) - (refunded.find((row) => row.week === monday)?.paise ?? 0)
    return { monday, paise }
  })
}

/** Money in this financial year, by what was paid for: each session product, and camps. */
async function revenueByProduct(now: Date) {
  const { startYear } = financialYearOf(now)
  const since = labInstant(`${startYear}-04-01`)
  const product = sql<string>`coalesce(${catalogueItems.name}, 'Camps')`
  const net = sql<number>`(sum(${payments.amountPaise}) - coalesce(sum((SELECT sum(${refunds.amountPaise}) FROM ${refunds} WHERE ${refunds.paymentId} = ${payments.id} AND ${refunds.state} = 'completed')), 0))::int`
  return db()
    .select({ product, paise: net })
    .from(payments)
    .leftJoin(bookings, eq(bookings.id, payments.bookingId))
    .leftJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .leftJoin(campRegistrations, eq(campRegistrations.id, payments.campRegistrationId))
    .where(and(eq(payments.state, 'completed'), gte(payments.completedAt, since)))
    .groupBy(product)
    .orderBy(desc(net))
}

/** Orders still waiting for the gateway, those that failed in the last 7 days, and refunds the gateway failed that staff have not yet repaid by hand. */
async function paymentsNeedingAttention(now: Date) {
  const weekAgo = addDays(now, -7)
  const rows = await db()
    .select({ orderId: payments.orderId, state: payments.state, amountPaise: payments.amountPaise, createdAt: payments.createdAt, failureReason: payments.failureReason, bookingReference: bookings.reference, registrationReference: campRegistrations.reference })
    .from(payments)
    .leftJoin(bookings, eq(bookings.id, payments.bookingId))
    .leftJoin(campRegistrations, eq(campRegistrations.id, payments.campRegistrationId))
    .where(and(inArray(payments.state, ['initiated', 'pending', 'failed']), gte(payments.createdAt, weekAgo)))
    .orderBy(desc(payments.createdAt))
    .limit(50)
  const refundsFailed = await db()
    .select({ refundId: refunds.refundId, amountPaise: refunds.amountPaise, updatedAt: refunds.updatedAt, customerName: sql<string>`coalesce(${bookings.customerName}, ${campRegistrations.swimmerName})`, bookingReference: bookings.reference, registrationReference: campRegistrations.reference })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .leftJoin(bookings, eq(bookings.id, payments.bookingId))
    .leftJoin(campRegistrations, eq(campRegistrations.id, payments.campRegistrationId))
    // Until staff mark them repaid: a customer owed money stays on the list however long it takes.
    .where(eq(refunds.state, 'failed'))
    .orderBy(desc(refunds.updatedAt))
    .limit(20)
  return { pending: rows.filter((row) => row.state !== 'failed'), failed: rows.filter((row) => row.state === 'failed'), refundsFailed }
}

/** Everything the overview shows, as of `now` in Bangalore. */
export async function overview(now = new Date()) {
  const today = labToday(now)
  const monday = mondayOf(today)
  const [todays, week, revenue, byProduct, attention, campsNow, consents] = await Promise.all([
    sessionsBetween(today, today),
    sessionsBetween(monday, addDays(monday, 6)),
    revenueByWeek(today, 8),
    revenueByProduct(now),
    paymentsNeedingAttention(now),
    campChoices(now),
    consentsToConfirm(),
  ])
  const upcomingCamps = campsNow.filter((camp) => camp.endsOn >= today)
  return {
    today,
    todaysSessions: todays,
    week: Array.from({ length: 7 }, (_, index) => {
      const date = addDays(monday, index)
      return { date, sessions: week.filter((session) => session.date === date).length }
    }),
    revenueByWeek: revenue,
    revenueByProduct: byProduct,
    payments: attention,
    /** Parents' consents from addresses that may be the swimmer's own: nothing is booked for the swimmer until staff confirm. */
    consentsToConfirm: consents,
    camps: upcomingCamps.map((camp) => ({ name: camp.name, startsOn: camp.startsOn, endsOn: camp.endsOn, batches: camp.batches.map((batch) => ({ name: batch.name, capacity: batch.capacity, seatsLeft: batch.seatsLeft })) })),
  }
}

