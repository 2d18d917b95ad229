import { and, asc, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { bookingDays, bookings, catalogueItems, outboxMessages, paymentEvents, payments, refunds, swimmers as swimmersTable, users, type BookingStatus } from '~/db/schema'
import { formatRupees } from '~/lib/money'
import { addDays } from '~/lib/lab-time'
import { toE164 } from '~/lib/phone'
import { type Actor, recordAudit } from '~/modules/audit/audit.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { recordPaidAtTheLab } from '~/modules/payments/payments.server'
import { hasStarted, openWindows, planSession, seatKey, seatsTaken, SESSION_SEARCH_DAYS } from './availability.server'
import { NotChangeableError } from './changes.server'
import { daysAndVenues } from './bookings.server'
import { confirmationEmail, tellConfirmedOnWhatsApp } from './fulfilment.server'
import { insertBooking, lockWindows, SlotUnavailableError, stillOffered } from './holds.server'

type StaffBookingFilters = {
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
    // A number typed any way ("+91 98450-12345") finds the number as kept (E.164).
    const number = toE164(term)
    conditions.push(
      or(
        ilike(bookings.swimmerName, like),
        ilike(bookings.customerName, like),
        ilike(bookings.customerEmail, like),
        ilike(bookings.customerPhone, like),
        number ? eq(bookings.customerPhone, number) : undefined,
        ilike(bookings.reference, like),
        // The account holder as they are now (a name or address changed since the booking).
        sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${bookings.userId} AND (${users.name} ILIKE ${like} OR ${users.email} ILIKE ${like} OR ${users.phone} ILIKE ${like}${number ? sql` OR ${users.phone} = ${number}` : sql``}))`,
        sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.bookingId} = ${bookings.id} AND (${payments.orderId} ILIKE ${like} OR ${payments.transactionId} ILIKE ${like}))`,
      ),
    )
  }
  return db()
    .select({
      id: bookings.id,
      reference: bookings.reference,
      userId: bookings.userId,
      swimmerName: bookings.swimmerName,
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

/** What a booking's form recorded: the swimmer, and the person who booked with their experience and notes. */
export const bookingFormColumns = {
  swimmerId: bookings.swimmerId,
  swimmerName: bookings.swimmerName,
  swimmerAge: bookings.swimmerAge,
  customerName: bookings.customerName,
  customerEmail: bookings.customerEmail,
  customerPhone: bookings.customerPhone,
  swimmingExperience: bookings.swimmingExperience,
  notes: bookings.notes,
}

/** Everything that happened to a booking: its days and venue, payments and what the gateway said, refunds, e-mails. */
export async function bookingStory(reference: string) {
  const [booking] = await db()
    .select({
      id: bookings.id,
      reference: bookings.reference,
      userId: bookings.userId,
      productName: catalogueItems.name,
      ...bookingFormColumns,
      status: bookings.status,
      origin: bookings.origin,
      attendance: bookings.attendance,
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
  const [place, [account]] = await Promise.all([
    daysAndVenues([booking.id]).then((found) => found.get(booking.id)),
    booking.userId === null ? Promise.resolve([]) : db().select({ id: users.id, name: users.name, email: users.email, phone: users.phone }).from(users).where(eq(users.id, booking.userId)),
  ])
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
        .select({ refundId: refunds.refundId, paymentId: refunds.paymentId, amountPaise: refunds.amountPaise, reason: refunds.reason, state: refunds.state, lastError: refunds.lastError, settledByHand: refunds.settledByHand, createdAt: refunds.createdAt, completedAt: refunds.completedAt })
        .from(refunds)
        .where(
          inArray(
            refunds.paymentId,
            paymentRows.map((payment) => payment.id),
          ),
        )
        .orderBy(asc(refunds.id))
    : []
  // The e-mails naming the booking in their subject, and the WhatsApp messages naming it in their text.
  const phones = [booking.customerPhone, account?.phone].flatMap((phone) => (phone ? [toE164(phone) ?? phone] : []))
  const messages = await db()
    .select({ channel: outboxMessages.channel, subject: outboxMessages.subject, status: outboxMessages.status, deliveryStatus: outboxMessages.deliveryStatus, createdAt: outboxMessages.createdAt })
    .from(outboxMessages)
    .where(
      or(
        and(eq(outboxMessages.to, booking.customerEmail), ilike(outboxMessages.subject, `%${booking.reference}%`)),
        phones.length ? and(eq(outboxMessages.channel, 'whatsapp'), inArray(outboxMessages.to, phones), ilike(outboxMessages.text, `%${booking.reference}%`)) : undefined,
      ),
    )
    .orderBy(asc(outboxMessages.id))
  return { booking, account: account ?? null, days: place?.days ?? [], venue: place?.venue ?? null, payments: paymentRows, events, refunds: refundRows, messages }
}

export type StaffBookingInput = {
  productCode: string
  days: number
  date: string
  start: string
  customer: { name: string; email: string; phone: string | null }
  /** Who swims when it is not the customer themselves (a child of theirs). */
  swimmerName?: string | null
  origin: 'offline' | 'complimentary'
  /** What the customer paid at the lab (offline); 0 for a complimentary booking. */
  amountPaise: number
  paymentMethod: string | null
  notes: string | null
}

/** Staff's booking has no seat: said next to the time they chose. */
const noFreeSeat = () => new SlotUnavailableError('There is no free seat at this time on every day of the session. Choose another date or time.', 'time')

/**
 * A booking staff make for someone: paid at the lab (recorded as an offline payment, with its
 * receipt) or complimentary (no payment, amount 0, marked as such). Confirmed at once, under the
 * same seat rules as any booking; the customer gets the confirmation e-mail. Recorded in the audit log.
 */
/**
 * The account's swimmer a staff booking is for: the one with the swimmer's name staff typed (in any
 * letter case), or, when they typed none, the account's only swimmer. None when no profile matches:
 * the booking then keeps the name typed.
 */
async function accountSwimmerNamed(tx: Executor, accountId: number, swimmerName: string | null) {
  const profiles = await tx.select({ id: swimmersTable.id, name: swimmersTable.name }).from(swimmersTable).where(eq(swimmersTable.accountId, accountId))
  if (swimmerName === null) return profiles.length === 1 ? profiles[0]! : null
  return profiles.find((profile) => profile.name.toLowerCase() === swimmerName.toLowerCase()) ?? null
}

export async function createStaffBooking(actor: Actor, input: StaffBookingInput, now = new Date()) {
  return db().transaction(async (tx) => {
    const windows = await openWindows(input.date, addDays(input.date, SESSION_SEARCH_DAYS), tx)
    const plan = planSession(windows, input.date, input.start, input.days)
    if (!plan || hasStarted(input.date, input.start, now)) throw noFreeSeat()
    await lockWindows(
      tx,
      plan.map((day) => day.windowId),
    )
    if (!(await stillOffered(tx, plan))) throw noFreeSeat()
    const taken = await seatsTaken(
      plan.map((day) => day.windowId),
      now,
      tx,
    )
    if (plan.some((day) => (taken.get(seatKey(day.windowId, day.start)) ?? 0) >= day.capacity)) throw noFreeSeat()
    const email = input.customer.email.toLowerCase()
    const [account] = await tx.select({ id: users.id }).from(users).where(and(eq(users.email, email), eq(users.isVerified, true)))
    const swimmer = account ? await accountSwimmerNamed(tx, account.id, input.swimmerName ?? null) : null
    const booking = await insertBooking(tx, {
      productCode: input.productCode,
      userId: account?.id ?? null,
      swimmerId: swimmer?.id ?? null,
      swimmerName: swimmer?.name ?? input.swimmerName ?? input.customer.name,
      customerName: input.customer.name,
      customerEmail: email,
      customerPhone: input.customer.phone,
      swimmingExperience: null,
      notes: input.notes,
      startTime: plan[0]!.start,
      endTime: plan[0]!.end,
      amountPaise: input.origin === 'complimentary' ? 0 : input.amountPaise,
      status: 'confirmed',
      origin: input.origin,
      confirmedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    await tx.insert(bookingDays).values(plan.map((day) => ({ bookingId: booking.id, dayNumber: day.dayNumber, windowId: day.windowId, date: day.date, startTime: day.start, endTime: day.end })))
    if (input.origin === 'offline' && input.amountPaise > 0) {
      await recordPaidAtTheLab(tx, { bookingId: booking.id, amountPaise: input.amountPaise, paymentMode: input.paymentMethod }, now)
    }
    await enqueueEmail(await confirmationEmail(tx, booking.id, now), { bookingId: booking.id }, tx, now)
    await tellConfirmedOnWhatsApp(tx, booking.id, now)
    await recordAudit(
      tx,
      actor,
      {
        action: 'booking.create',
        entityType: 'booking',
        entityId: booking.reference,
        summary: `Booked ${booking.reference} for {customer} on ${plan[0]!.date} at ${plan[0]!.start} (${input.origin === 'complimentary' ? 'complimentary' : `paid at the lab, ${formatRupees(input.amountPaise)}`})`,
        personal: { customer: input.customer.name, email: input.customer.email, phone: input.customer.phone, swimmer: input.swimmerName, notes: input.notes },
        about: { bookingId: booking.id, accountId: account?.id, swimmerId: swimmer?.id },
        after: { productCode: input.productCode, origin: input.origin, amountPaise: input.amountPaise, paymentMethod: input.paymentMethod, days: plan.map((day) => day.date), start: plan[0]!.start },
      },
      now,
    )
    return booking
  })
}

/** Staff mark whether the customer came (or clear the mark). */
export async function setAttendance(actor: Actor, bookingId: number, attendance: 'attended' | 'no_show' | null, now = new Date()) {
  await db().transaction(async (tx) => {
    const [booking] = await tx.select({ reference: bookings.reference, status: bookings.status, attendance: bookings.attendance }).from(bookings).where(eq(bookings.id, bookingId)).for('update')
    if (!booking || booking.status !== 'confirmed') throw new NotChangeableError()
    await tx.update(bookings).set({ attendance, updatedAt: now }).where(eq(bookings.id, bookingId))
    const words = { attended: 'attended', no_show: 'a no-show', none: 'not marked' }
    await recordAudit(tx, actor, { action: 'booking.attendance', entityType: 'booking', entityId: booking.reference, summary: `Marked ${booking.reference} as ${words[attendance ?? 'none']}`, about: { bookingId }, before: { attendance: booking.attendance }, after: { attendance } }, now)
  })
}
