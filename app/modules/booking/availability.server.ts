import { and, asc, eq, gt, gte, inArray, lte, or, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { bookingDays, bookings, closedTimeSlots, slots } from '~/db/schema'
import { addDays, labDateParts, monthBounds } from '~/lib/format'
import type { Executor } from '~/modules/mail/outbox.server'
import { timeSlotsOf, type AvailabilityWindow } from './time-slots'

/** How far after Day 1 the engine looks for Days 2 and 3. */
export const SESSION_SEARCH_DAYS = 60

/** A window with its capacity and the time slots staff have closed (HH:MM). */
export type WindowRow = AvailabilityWindow & { id: number; capacity: number; closed: string[] }

/** The time slots a window offers: cut from it by its duration, less those staff have closed. */
export function offeredSlots(window: WindowRow) {
  return timeSlotsOf(window).filter((slot) => !window.closed.includes(slot.start))
}

/** One day of a session: which window's time slot, on which date. */
export type SessionDay = { dayNumber: number; date: string; slotId: number; start: string; end: string; capacity: number }

/** Where a time slot stands for one customer. */
export type TimeSlotState = 'available' | 'full' | 'booked' | 'not_available'

const windowColumns = {
  id: slots.id,
  date: slots.date,
  startTime: slots.startTime,
  endTime: slots.endTime,
  slotDurationMinutes: slots.slotDurationMinutes,
  isHoliday: slots.isHoliday,
  capacity: slots.capacity,
}

/** Windows from `from` to `to`; a date with a holiday window is closed, whatever else it has. */
export async function openWindows(from: string, to: string, executor: Executor = db()): Promise<WindowRow[]> {
  const rows = await executor
    .select(windowColumns)
    .from(slots)
    .where(and(gte(slots.date, from), lte(slots.date, to)))
    .orderBy(asc(slots.date), asc(slots.startTime))
  const holidays = new Set(rows.filter((row) => row.isHoliday).map((row) => row.date))
  const open = rows.filter((row) => !holidays.has(row.date))
  const closed = open.length
    ? await executor
        .select({ slotId: closedTimeSlots.slotId, start: closedTimeSlots.startTime })
        .from(closedTimeSlots)
        .where(
          inArray(
            closedTimeSlots.slotId,
            open.map((row) => row.id),
          ),
        )
    : []
  return open.map((row) => ({ ...row, closed: closed.filter((entry) => entry.slotId === row.id).map((entry) => entry.start.slice(0, 5)) }))
}

/**
 * The days of a session starting on `firstDate` at `start`: Day 1 is that date, each further day
 * the next date on which the same time slot is open. Null when there are not enough such dates.
 */
export function planSession(windows: WindowRow[], firstDate: string, start: string, days: number): SessionDay[] | null {
  const offers = new Map<string, SessionDay>()
  for (const window of windows) {
    if (window.date < firstDate || offers.has(window.date)) continue
    const slot = offeredSlots(window).find((candidate) => candidate.start === start)
    if (slot) offers.set(window.date, { dayNumber: 0, date: window.date, slotId: window.id, start: slot.start, end: slot.end, capacity: window.capacity })
  }
  if (!offers.has(firstDate)) return null
  const dates = [...offers.keys()].sort().slice(0, days)
  if (dates.length < days) return null
  return dates.map((date, index) => ({ ...offers.get(date)!, dayNumber: index + 1 }))
}

/** A booking holds its seats while it is confirmed, or pending with an unexpired hold. */
export function holdsSeats(now: Date) {
  return or(eq(bookings.status, 'confirmed'), and(eq(bookings.status, 'pending'), gt(bookings.holdExpiresAt, now)))
}

export const seatKey = (slotId: number, start: string) => `${slotId}|${start.slice(0, 5)}`

/** Seats in use per time slot (keyed by seatKey) of the given windows, optionally leaving one booking out. */
export async function seatsTaken(slotIds: number[], now: Date, executor: Executor = db(), exceptBookingId?: number): Promise<Map<string, number>> {
  if (slotIds.length === 0) return new Map()
  const rows = await executor
    .select({ slotId: bookingDays.slotId, start: bookingDays.startTime, taken: sql<number>`count(*)::int` })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(and(inArray(bookingDays.slotId, slotIds), holdsSeats(now), exceptBookingId ? sql`${bookings.id} <> ${exceptBookingId}` : undefined))
    .groupBy(bookingDays.slotId, bookingDays.startTime)
  return new Map(rows.map((row) => [seatKey(row.slotId, row.start), row.taken]))
}

/** Has the time slot starting at `start` on `date` begun, by the lab's clock? */
export function hasStarted(date: string, start: string, now: Date) {
  const lab = labDateParts(now)
  return date < lab.date || (date === lab.date && start.slice(0, 5) <= lab.time)
}

export type CalendarDay = { date: string; open: boolean }

/**
 * Every date of `month` (yyyy-mm): open when a window offers a time slot that has not started yet.
 * Past dates, dates without a window and holidays are closed.
 */
export async function monthCalendar(month: string, now = new Date()): Promise<CalendarDay[]> {
  const { first, last } = monthBounds(month)
  const windows = await openWindows(first, last)
  const open = new Set<string>()
  for (const window of windows) {
    if (offeredSlots(window).some((slot) => !hasStarted(window.date, slot.start, now))) open.add(window.date)
  }
  const days: CalendarDay[] = []
  for (let date = first; date <= last; date = addDays(date, 1)) days.push({ date, open: open.has(date) })
  return days
}

export type DayTimeSlot = {
  start: string
  end: string
  state: TimeSlotState
  /** The session's dates when it can be booked (or is booked by this customer). */
  sessionDates: string[]
}

/**
 * The time slots of `date` as one customer sees them: Available only when every day of the session
 * has a free seat; Booked when this customer already holds or owns that time on that date.
 */
export async function daySchedule({
  date,
  userId,
  days,
  now = new Date(),
  exceptBookingId,
}: {
  date: string
  userId: number | null
  days: number
  now?: Date
  /** A booking being rescheduled: its own seats are free for it. */
  exceptBookingId?: number
}): Promise<DayTimeSlot[]> {
  const windows = await openWindows(date, addDays(date, SESSION_SEARCH_DAYS))
  const taken = await seatsTaken(
    windows.map((window) => window.id),
    now,
    db(),
    exceptBookingId,
  )
  const mine = userId ? await customerSeats(userId, date, now, exceptBookingId) : new Set<string>()
  const schedule: DayTimeSlot[] = []
  for (const window of windows.filter((candidate) => candidate.date === date)) {
    for (const slot of offeredSlots(window)) {
      const plan = planSession(windows, date, slot.start, days)
      const sessionDates = plan?.map((day) => day.date) ?? []
      let state: TimeSlotState
      if (mine.has(`${date}|${slot.start}`)) state = 'booked'
      else if (hasStarted(date, slot.start, now) || !plan) state = 'not_available'
      else if (plan.some((day) => (taken.get(seatKey(day.slotId, day.start)) ?? 0) >= day.capacity)) state = 'full'
      else state = 'available'
      schedule.push({ start: slot.start, end: slot.end, state, sessionDates })
    }
  }
  return schedule
}

/** The dates and times (date|HH:MM) on which a customer has a seat from `from` on. */
async function customerSeats(userId: number, from: string, now: Date, exceptBookingId?: number) {
  const rows = await db()
    .select({ date: bookingDays.date, start: bookingDays.startTime })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(and(eq(bookings.userId, userId), gte(bookingDays.date, from), holdsSeats(now), exceptBookingId ? sql`${bookings.id} <> ${exceptBookingId}` : undefined))
  return new Set(rows.map((row) => `${row.date}|${row.start.slice(0, 5)}`))
}
