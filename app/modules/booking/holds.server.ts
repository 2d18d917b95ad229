import { randomInt } from 'node:crypto'
import { and, asc, eq, inArray, lte } from 'drizzle-orm'
import { config } from '~/config.server'
import { db } from '~/db/client.server'
import { bookingDays, bookings, slots } from '~/db/schema'
import { addDays, addMonths, labToday, monthBounds } from '~/lib/format'
import { holderColumns, makeRoomForHold, type Holder } from '~/modules/holders/holders.server'
import type { Executor } from '~/modules/mail/outbox.server'
import { getCatalogue, requireItem } from '~/modules/site/site.server'
import { hasStarted, holdsSeats, openWindows, planSession, seatKey, seatsTaken, SESSION_SEARCH_DAYS, type SessionDay } from './availability.server'

/** The time slot cannot be held: taken meanwhile, started, or no longer offered. */
export class SlotUnavailableError extends Error {
  constructor(message = 'This time slot is no longer available. Please choose another one.') {
    super(message)
    this.name = 'SlotUnavailableError'
  }
}

/** The customer already has a seat at this time on one of the session's dates. */
export class AlreadyBookedError extends Error {
  constructor() {
    super('You have already booked this time slot.')
    this.name = 'AlreadyBookedError'
  }
}

export type Customer = { userId: number | null; name: string; email: string; phone: string | null; swimmingExperience: string | null }

export type HeldBooking = { bookingId: number; reference: string; holdExpiresAt: Date; days: SessionDay[]; amountPaise: number }

/**
 * Holds a seat on every day of a session for `SEAT_HOLD_MINUTES`, as a pending booking, in one
 * transaction. The session's windows are locked (in id order, so two holds never deadlock) before
 * their seats are counted, so however many customers try at once, a time slot never has more
 * holders than its capacity. Routes pass the visitor as `holder`, whose earlier unpaid hold is
 * released and who may hold no more than makeRoomForHold allows; without one (staff tools), only
 * the account's own earlier hold is released. A visitor's date must be within the booking window.
 */
export async function holdSession({
  customer,
  productCode,
  date,
  start,
  days,
  notes = null,
  holder,
  now = new Date(),
}: {
  customer: Customer
  productCode: string
  date: string
  start: string
  days: number
  notes?: string | null
  holder?: Holder
  now?: Date
}): Promise<HeldBooking> {
  // Visitors book within the window the calendar shows them.
  if (holder && date > lastBookableDate(days, labToday(now))) throw new SlotUnavailableError()
  const { pricePaise } = requireItem(await getCatalogue(), productCode)
  const holdExpiresAt = new Date(now.getTime() + config().SEAT_HOLD_MINUTES * 60_000)
  return db().transaction(async (tx) => {
    // The holder's locks come first, before any window's, in every transaction that takes both.
    if (holder) await makeRoomForHold(tx, holder, now)
    const plan = planSession(await openWindows(date, addDays(date, SESSION_SEARCH_DAYS), tx), date, start, days)
    if (!plan || hasStarted(date, start, now)) throw new SlotUnavailableError()
    await lockWindows(
      tx,
      plan.map((day) => day.slotId),
    )
    // The windows may have changed between planning and locking; plan again under the lock.
    const locked = planSession(await openWindows(date, addDays(date, SESSION_SEARCH_DAYS), tx), date, start, days)
    if (!locked || locked.some((day, index) => day.slotId !== plan[index]!.slotId)) throw new SlotUnavailableError()

    if (customer.userId !== null) {
      if (!holder) await releaseUnpaidHolds(tx, customer.userId, now)
      if (await hasSeatAt(tx, customer.userId, locked, now)) throw new AlreadyBookedError()
    }
    const taken = await seatsTaken(
      locked.map((day) => day.slotId),
      now,
      tx,
    )
    if (locked.some((day) => (taken.get(seatKey(day.slotId, day.start)) ?? 0) >= day.capacity)) throw new SlotUnavailableError()

    const booking = await insertBooking(tx, {
      productCode,
      userId: customer.userId,
      customerName: customer.name,
      customerEmail: customer.email,
      customerPhone: customer.phone,
      swimmingExperience: customer.swimmingExperience,
      notes,
      startTime: locked[0]!.start,
      endTime: locked[0]!.end,
      amountPaise: pricePaise,
      status: 'pending',
      holdExpiresAt,
      ...(holder && holderColumns(holder)),
      createdAt: now,
      updatedAt: now,
    })
    await tx.insert(bookingDays).values(locked.map((day) => ({ bookingId: booking.id, dayNumber: day.dayNumber, slotId: day.slotId, date: day.date, startTime: day.start, endTime: day.end })))
    return { bookingId: booking.id, reference: booking.reference, holdExpiresAt, days: locked, amountPaise: pricePaise }
  })
}

/** A single session can be booked up to this many days ahead. */
export const SINGLE_SESSION_DAYS_AHEAD = 90
/** A 3-day session can be booked in the current month and this many more. */
export const SESSION_MONTHS_AHEAD = 3

/** The last date a session of `days` days may start on, booked on `today` (Asia/Kolkata). */
export function lastBookableDate(days: number, today: string) {
  return days === 1 ? addDays(today, SINGLE_SESSION_DAYS_AHEAD) : monthBounds(addMonths(today.slice(0, 7), SESSION_MONTHS_AHEAD)).last
}

/** Row locks on availability windows, always taken in id order. */
export async function lockWindows(executor: Executor, slotIds: number[]) {
  const ids = [...new Set(slotIds)].sort((a, b) => a - b)
  await executor.select({ id: slots.id }).from(slots).where(inArray(slots.id, ids)).orderBy(asc(slots.id)).for('update')
}

/**
 * Can the seats of an unpaid booking be taken again (a payment that arrived after its hold ran
 * out)? Locks its windows and counts everyone else's seats; the caller confirms within the lock.
 */
export async function seatsStillFree(executor: Executor, bookingId: number, now: Date): Promise<boolean> {
  const days = await executor
    .select({ slotId: bookingDays.slotId, date: bookingDays.date, start: bookingDays.startTime, capacity: slots.capacity, isHoliday: slots.isHoliday })
    .from(bookingDays)
    .innerJoin(slots, eq(slots.id, bookingDays.slotId))
    .where(eq(bookingDays.bookingId, bookingId))
  if (days.length === 0 || days.some((day) => day.isHoliday) || hasStarted(days[0]!.date, days[0]!.start, now)) return false
  await lockWindows(
    executor,
    days.map((day) => day.slotId),
  )
  const taken = await seatsTaken(
    days.map((day) => day.slotId),
    now,
    executor,
    bookingId,
  )
  return days.every((day) => (taken.get(seatKey(day.slotId, day.start)) ?? 0) < day.capacity)
}

async function hasSeatAt(executor: Executor, userId: number, plan: SessionDay[], now: Date) {
  const rows = await executor
    .select({ date: bookingDays.date, start: bookingDays.startTime })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(
      and(
        eq(bookings.userId, userId),
        inArray(
          bookingDays.date,
          plan.map((day) => day.date),
        ),
        holdsSeats(now),
      ),
    )
  return rows.some((row) => plan.some((day) => day.date === row.date && day.start === row.start.slice(0, 5)))
}

/** Frees the seats of a customer's unpaid holds (a payment still under way there is reconciled as late). */
async function releaseUnpaidHolds(executor: Executor, userId: number, now: Date) {
  await executor
    .update(bookings)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(bookings.userId, userId), eq(bookings.status, 'pending')))
}

/** Pending bookings whose hold ran out become expired; their seats are already free for others. */
export async function expireStaleHolds(now = new Date()) {
  const expired = await db()
    .update(bookings)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(bookings.status, 'pending'), lte(bookings.holdExpiresAt, now)))
    .returning({ id: bookings.id })
  return expired.length
}

type NewBooking = typeof bookings.$inferInsert

/** Inserts a booking under a fresh reference: SWP- and ten random digits, unguessable and unique. */
export async function insertBooking(executor: Executor, values: Omit<NewBooking, 'reference'>) {
  for (;;) {
    const reference = `SWP-${String(randomInt(0, 1e10)).padStart(10, '0')}`
    const [row] = await executor
      .insert(bookings)
      .values({ ...values, reference })
      .onConflictDoNothing({ target: bookings.reference })
      .returning({ id: bookings.id, reference: bookings.reference })
    if (row) return row
  }
}
