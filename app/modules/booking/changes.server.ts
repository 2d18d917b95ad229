import { and, asc, eq, ne, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { availabilityWindows, bookingDays, bookings, payments } from '~/db/schema'
import { refundPolicyIn } from '~/modules/site/site.server'
import { formatRupees } from '~/lib/money'
import { addDays, addHours, formatLabDateTime, labInstant, labToday, toHourMinute } from '~/lib/lab-time'
import { DomainError } from '~/lib/domain-error'
import { type Actor, recordAudit } from '~/modules/audit/audit.server'
import { calendarAttachment, calendarFile } from '~/modules/mail/ics.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { OFFLINE_GATEWAY } from '~/modules/payments/payments.server'
import { requestRefund } from '~/modules/payments/refunds.server'
import { hasStarted, openWindows, planSession, seatKey, seatsTaken, SESSION_SEARCH_DAYS } from './availability.server'
import { bookingForMail, bookingLink, bookingWhatsAppNumber, dayRows, paidFor, sessionEvents, swimmerRow, venueRows } from './fulfilment.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'
import { AlreadyBookedError, hasSeatAt, lastBookableDate, lockWindows, SlotUnavailableError, stillOffered } from './holds.server'
import { setStatus } from '~/modules/statuses/status.server'

/** Customers may reschedule or cancel until this long before Day 1 begins. */
export const CHANGE_NOTICE_HOURS = 24

export class TooLateToChangeError extends DomainError {
  constructor() {
    super('conflict', `Bookings can be rescheduled or cancelled up to ${CHANGE_NOTICE_HOURS} hours before the first session. Please contact us.`)
  }
}

export class NotChangeableError extends DomainError {
  constructor() {
    super('conflict', 'Only a confirmed booking can be rescheduled or cancelled.')
  }
}

export class BookingChangedError extends DomainError {
  constructor() {
    super('invalid', 'This booking has changed since the confirmation link was sent. Please ask for a new one.')
  }
}

/** A slot of an analysis day is at its venue on its date: it is cancelled, never moved to the lab's calendar. */
export class NotMovableError extends DomainError {
  constructor() {
    super('conflict', 'A booking at an analysis day away from the lab cannot be moved to another time. You can cancel it under the refund policy, or contact us.')
  }
}

export class AlreadyAtThisTimeError extends DomainError {
  constructor() {
    super('conflict', 'Your booking is already at this time. Please choose another date or time.')
  }
}

/**
 * Refuses moving a booking whose days are `current` to a first day `date` at `start` where it already
 * is, or, for a customer, beyond the window they could book in (staff may move a booking anywhere).
 */
export function assertMayMoveTo(current: ReadonlyArray<{ date: string; start: string }>, { date, start }: { date: string; start: string }, now: Date, { customer }: { customer: boolean }) {
  if (customer && date > lastBookableDate(current.length, labToday(now))) throw new SlotUnavailableError()
  const first = current[0]
  if (first && date === first.date && start === toHourMinute(first.start)) throw new AlreadyAtThisTimeError()
}

/** The last moment a booking whose Day 1 is `date` at `start` (Bangalore) may be changed. */
export function changeDeadline(date: string, start: string): Date {
  return addHours(labInstant(date, toHourMinute(start)), -CHANGE_NOTICE_HOURS)
}

/** Said before payment when a booking could never be changed: its first session is too close. */
export const TOO_LATE_TO_CHANGE_NOTICE = `This session starts within ${CHANGE_NOTICE_HOURS} hours: once you pay, it cannot be cancelled or moved.`

/** The notice to show before paying for a session whose Day 1 is `date` at `start`, or null when it may still be changed. */
export function tooLateToChangeNotice(date: string, start: string, now = new Date()): string | null {
  return now >= changeDeadline(date, start) ? TOO_LATE_TO_CHANGE_NOTICE : null
}

/** Whether a customer may change the booking now, and if not, why not. */
export function changeAllowed(status: string, firstDay: { date: string; start: string } | undefined, now: Date): { allowed: true } | { allowed: false; reason: string } {
  if (status !== 'confirmed' || !firstDay) return { allowed: false, reason: new NotChangeableError().message }
  if (now >= changeDeadline(firstDay.date, firstDay.start)) return { allowed: false, reason: new TooLateToChangeError().message }
  return { allowed: true }
}

async function lockConfirmedBooking(tx: Executor, bookingId: number, now: Date, { enforceDeadline, calendarSequence }: { enforceDeadline: boolean; calendarSequence?: number }) {
  const [booking] = await tx
    .select({ status: bookings.status, productCode: bookings.productCode, sequence: bookings.calendarSequence, userId: bookings.userId, swimmerId: bookings.swimmerId, swimmerName: bookings.swimmerName })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .for('update')
  const days = await tx
    .select({ windowId: bookingDays.windowId, date: bookingDays.date, start: bookingDays.startTime, analysisDayId: availabilityWindows.analysisDayId })
    .from(bookingDays)
    .innerJoin(availabilityWindows, eq(availabilityWindows.id, bookingDays.windowId))
    .where(eq(bookingDays.bookingId, bookingId))
    .orderBy(asc(bookingDays.dayNumber))
  if (!booking || booking.status !== 'confirmed') throw new NotChangeableError()
  if (enforceDeadline && now >= changeDeadline(days[0]!.date, days[0]!.start)) throw new TooLateToChangeError()
  if (calendarSequence !== undefined && booking.sequence !== calendarSequence) throw new BookingChangedError()
  return { ...booking, days }
}

/**
 * Moves a confirmed booking to another start (same number of days, no new payment) in one
 * transaction: the old and new windows are locked together, the booking's own seats are not
 * counted against it, and a calendar update goes out.
 */
export async function rescheduleBooking({
  bookingId,
  date,
  start,
  now = new Date(),
  enforceDeadline = true,
  calendarSequence,
  actor,
}: {
  bookingId: number
  date: string
  start: string
  now?: Date
  /** A customer's change: the 24-hour rule and the window they could book in apply. */
  enforceDeadline?: boolean
  /** Move it only if the booking is still as it was when this sequence was read (a confirmation link's). */
  calendarSequence?: number
  /** Staff making the change (recorded in the audit log); customers act for themselves. */
  actor?: Actor
}) {
  await db().transaction(async (tx) => {
    const booking = await lockConfirmedBooking(tx, bookingId, now, { enforceDeadline, calendarSequence })
    if (booking.days.some((day) => day.analysisDayId !== null)) throw new NotMovableError()
    assertMayMoveTo(booking.days, { date, start }, now, { customer: enforceDeadline })
    const plan = planSession(await openWindows(date, addDays(date, SESSION_SEARCH_DAYS), tx), date, start, booking.days.length)
    if (!plan || hasStarted(date, start, now)) throw new SlotUnavailableError()
    await lockWindows(tx, [...booking.days.map((day) => day.windowId), ...plan.map((day) => day.windowId)])
    if (!(await stillOffered(tx, plan))) throw new SlotUnavailableError()
    const taken = await seatsTaken(
      plan.map((day) => day.windowId),
      now,
      tx,
      bookingId,
    )
    if (plan.some((day) => (taken.get(seatKey(day.windowId, day.start)) ?? 0) >= day.capacity)) throw new SlotUnavailableError()
    // Its swimmer has one seat at a time: not moved onto a time they hold in another booking.
    if (booking.userId !== null && (await hasSeatAt(tx, booking.userId, booking, plan, now, bookingId))) throw new AlreadyBookedError()
    await tx.delete(bookingDays).where(eq(bookingDays.bookingId, bookingId))
    await tx.insert(bookingDays).values(plan.map((day) => ({ bookingId, dayNumber: day.dayNumber, windowId: day.windowId, date: day.date, startTime: day.start, endTime: day.end })))
    await tx
      .update(bookings)
      .set({ startTime: plan[0]!.start, endTime: plan[0]!.end, calendarSequence: sql`${bookings.calendarSequence} + 1`, updatedAt: now })
      .where(eq(bookings.id, bookingId))
    const mail = await bookingForMail(tx, bookingId)
    if (actor) {
      await recordAudit(
        tx,
        actor,
        { action: 'booking.reschedule', entityType: 'booking', entityId: mail.reference, summary: `Moved ${mail.reference} to ${plan[0]!.date} at ${plan[0]!.start}`, about: { bookingId }, before: booking.days.map((day) => `${day.date} ${toHourMinute(day.start)}`), after: plan.map((day) => `${day.date} ${day.start}`) },
        now,
      )
    }
    await enqueueEmail(
      letter({
        to: mail.customerEmail,
        subject: `Booking rescheduled: ${mail.title} (${mail.reference})`,
        name: mail.customerName,
        paragraphs: [`Your ${mail.title.toLowerCase()} has been moved. The new ${mail.days.length > 1 ? 'dates are' : 'date is'} below; the attached calendar file updates the event in your calendar.`],
        details: [['Booking ID', mail.reference], swimmerRow(mail), ...dayRows(mail), ...venueRows(mail)],
        action: await bookingLink(tx, mail),
        attachments: [calendarAttachment(calendarFile(sessionEvents(mail), { sequence: booking.sequence + 1, now }), `${mail.reference}.ics`)],
      }),
      { bookingId },
      tx,
      now,
    )
  })
}

/**
 * Cancels a confirmed booking and refunds its payment in full through the gateway (customers up to
 * 24 hours ahead; staff at any time, with or without a refund). The calendar gets a cancellation.
 */
export async function cancelBooking({
  bookingId,
  now = new Date(),
  enforceDeadline = true,
  refund = true,
  calendarSequence,
  actor,
}: {
  bookingId: number
  now?: Date
  enforceDeadline?: boolean
  refund?: boolean
  /** Cancel only if the booking is still as it was when this sequence was read (a confirmation link's). */
  calendarSequence?: number
  /** Staff making the change (recorded in the audit log); customers act for themselves. */
  actor?: Actor
}) {
  await db().transaction(async (tx) => {
    const booking = await lockConfirmedBooking(tx, bookingId, now, { enforceDeadline, calendarSequence })
    const [paid] = await tx
      .select({ id: payments.id, amountPaise: payments.amountPaise })
      .from(payments)
      .where(and(eq(payments.bookingId, bookingId), eq(payments.state, 'completed'), ne(payments.gateway, OFFLINE_GATEWAY)))
      .orderBy(asc(payments.id))
      .limit(1)
    // A booking a promo code made free has nothing to give back.
    const refunding = refund && paid !== undefined && paid.amountPaise > 0
    // A cancelled booking with money on its way back becomes 'refunded' when the refund completes.
    await setStatus(tx, bookings, 'cancelled', eq(bookings.id, bookingId), { cancelledAt: now, calendarSequence: sql`${bookings.calendarSequence} + 1`, updatedAt: now })
    if (refunding) await requestRefund(tx, { paymentId: paid.id, amountPaise: paid.amountPaise, reason: 'The booking was cancelled.', now })
    const mail = await bookingForMail(tx, bookingId)
    if (actor) {
      await recordAudit(
        tx,
        actor,
        { action: 'booking.cancel', entityType: 'booking', entityId: mail.reference, summary: `Cancelled ${mail.reference}${refunding ? ` with a refund of ${formatRupees(paid.amountPaise)}` : ' without a refund'}`, about: { bookingId }, before: { status: 'confirmed' }, after: { status: 'cancelled', refund: refunding } },
        now,
      )
    }
    const refundPolicy = await refundPolicyIn(tx)
    await enqueueEmail(
      letter({
        to: mail.customerEmail,
        subject: `Booking cancelled: ${mail.title} (${mail.reference})`,
        name: mail.customerName,
        paragraphs: [
          `Your ${mail.title.toLowerCase()} has been cancelled.`,
          refunding
            ? `The full amount of ${formatRupees(paid.amountPaise)} is being refunded ${refundPolicy}. We will e-mail you when the refund is complete.`
            : 'No refund applies to this booking.',
        ],
        details: [['Booking ID', mail.reference], swimmerRow(mail), ...dayRows(mail)],
        closing: 'The attached calendar file removes the session from your calendar.',
        attachments: [calendarAttachment(calendarFile(sessionEvents(mail), { method: 'CANCEL', sequence: booking.sequence + 1, now }), `${mail.reference}-cancelled.ics`)],
      }),
      { bookingId },
      tx,
      now,
    )
    if (refunding) {
      const parameters = [paidFor(mail), mail.reference, formatRupees(paid.amountPaise), refundPolicy]
      await notifyOnWhatsApp('cancelled_refund_started', async () => ({ phone: await bookingWhatsAppNumber(tx, mail), parameters, names: [mail.swimmerName], about: { bookingId } }), tx, now)
    }
  })
}

/** What the customer may do now, as the booking views show it. */
export function changeOptions(status: string, firstDay: { date: string; start: string } | undefined, now: Date) {
  if (status !== 'confirmed' || !firstDay) return null
  const allowed = changeAllowed(status, firstDay, now)
  if (!allowed.allowed) return { allowed: false as const, reason: allowed.reason }
  return { allowed: true as const, until: formatLabDateTime(changeDeadline(firstDay.date, firstDay.start)) }
}
