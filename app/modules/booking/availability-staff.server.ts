import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { bookingDays, bookings, closedTimeSlots, slots } from '~/db/schema'
import { addDays, isoWeekday, monthBounds, toHourMinute } from '~/lib/lab-time'
import { type Actor, recordAudit } from '~/modules/audit/audit.server'
import { forgetAvailability, holdsSeats } from './availability.server'
import { lockWindows } from './holds.server'
import { timeSlotsOf, toMinutes } from './time-slots'

/** A booking a change would leave without its seat, named so staff can deal with it first. */
export type StrandedBooking = { reference: string; customerName: string; date: string; start: string }

export class StrandedBookingsError extends Error {
  constructor(readonly bookings: StrandedBooking[]) {
    super(`This change would leave ${bookings.length === 1 ? 'a booking' : `${bookings.length} bookings`} without a seat. Reschedule or cancel ${bookings.length === 1 ? 'it' : 'them'} first.`)
    this.name = 'StrandedBookingsError'
  }
}

/** The new hours overlap another window on the same date (or the date is a holiday). */
export class OverlappingWindowError extends Error {
  constructor(readonly dates: string[]) {
    super(`Other opening hours (or a holiday) already cover part of this time on ${dates.length === 1 ? dates[0] : `${dates.length} dates: ${dates.join(', ')}`}.`)
    this.name = 'OverlappingWindowError'
  }
}

export class WindowInUseError extends Error {
  constructor() {
    super('These opening hours have bookings on record (past, cancelled or unpaid). Close their time slots instead of removing them.')
    this.name = 'WindowInUseError'
  }
}

export type WindowHours = { startTime: string; endTime: string; slotDurationMinutes: number; capacity: number }

function datesOf(from: string, to: string, weekdays: number[]) {
  const dates: string[] = []
  for (let date = from; date <= to; date = addDays(date, 1)) if (weekdays.includes(isoWeekday(date))) dates.push(date)
  return dates
}

/** Active seats (confirmed, or held and unexpired) in these windows, with their bookings. */
async function activeSeats(executor: Executor, slotIds: number[], now: Date) {
  if (slotIds.length === 0) return []
  return executor
    .select({ slotId: bookingDays.slotId, start: bookingDays.startTime, date: bookingDays.date, reference: bookings.reference, customerName: bookings.customerName })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(and(inArray(bookingDays.slotId, slotIds), holdsSeats(now)))
    .orderBy(asc(bookingDays.date), asc(bookingDays.startTime))
}

const stranded = (rows: Array<{ reference: string; customerName: string; date: string; start: string }>): StrandedBooking[] =>
  rows.map((row) => ({ reference: row.reference, customerName: row.customerName, date: row.date, start: toHourMinute(row.start) }))

function overlaps(a: { startTime: string | null; endTime: string | null }, b: { startTime: string; endTime: string }) {
  if (!a.startTime || !a.endTime) return false
  return toMinutes(a.startTime) < toMinutes(b.endTime) && toMinutes(b.startTime) < toMinutes(a.endTime)
}

/**
 * Changes the opening hours in one transaction. This instance forgets the availability it keeps at
 * once, so the next page it serves shows the change; the others when the database announces it.
 */
async function changeHours<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
  try {
    return await db().transaction(work)
  } finally {
    forgetAvailability('slots')
  }
}

/**
 * Opens the same hours on every chosen weekday from `from` to `to`. Refused as a whole, naming the
 * dates, when any of them already has overlapping hours or is a holiday.
 */
export async function createWindows(actor: Actor, { from, to, weekdays, hours, now = new Date() }: { from: string; to: string; weekdays: number[]; hours: WindowHours; now?: Date }) {
  const dates = datesOf(from, to, weekdays)
  return changeHours(async (tx) => {
    const existing = await tx.select({ date: slots.date, startTime: slots.startTime, endTime: slots.endTime, isHoliday: slots.isHoliday }).from(slots).where(inArray(slots.date, dates.length ? dates : ['']))
    const conflicts = [...new Set(existing.filter((window) => window.isHoliday || overlaps(window, hours)).map((window) => window.date))].sort()
    if (conflicts.length) throw new OverlappingWindowError(conflicts)
    if (dates.length === 0) return { created: 0 }
    const rows = await tx
      .insert(slots)
      .values(dates.map((date) => ({ date, ...hours, createdAt: now })))
      .returning({ id: slots.id })
    await recordAudit(
      tx,
      actor,
      {
        action: 'availability.create',
        entityType: 'slot',
        entityId: rows.map((row) => row.id).join(','),
        summary: `Opened ${hours.startTime}-${hours.endTime} (${hours.slotDurationMinutes}-minute slots, ${hours.capacity} per slot) on ${dates.length} ${dates.length === 1 ? 'date' : 'dates'} from ${from} to ${to}`,
        after: { dates, ...hours },
      },
      now,
    )
    return { created: rows.length }
  })
}

/**
 * Changes a window's hours, slot length or capacity. Refused, naming them, if any booking holding
 * a seat would lose its time slot or no longer fit in the capacity.
 */
export async function updateWindow(actor: Actor, slotId: number, hours: WindowHours, now = new Date()) {
  await changeHours(async (tx) => {
    await lockWindows(tx, [slotId])
    const [window] = await tx.select().from(slots).where(eq(slots.id, slotId))
    if (!window || window.isHoliday) throw new Error(`Window ${slotId} not found`)
    const neighbours = await tx.select({ id: slots.id, startTime: slots.startTime, endTime: slots.endTime, isHoliday: slots.isHoliday }).from(slots).where(eq(slots.date, window.date))
    if (neighbours.some((other) => other.id !== slotId && (other.isHoliday || overlaps(other, hours)))) throw new OverlappingWindowError([window.date])
    const offered = new Set(timeSlotsOf({ date: window.date, isHoliday: false, ...hours }).map((slot) => slot.start))
    const seats = await activeSeats(tx, [slotId], now)
    const perStart = new Map<string, typeof seats>()
    for (const seat of seats) perStart.set(toHourMinute(seat.start), [...(perStart.get(toHourMinute(seat.start)) ?? []), seat])
    const lost = seats.filter((seat) => !offered.has(toHourMinute(seat.start)))
    const overfull = [...perStart.values()].filter((group) => group.length > hours.capacity).flat()
    if (lost.length || overfull.length) throw new StrandedBookingsError(stranded([...lost, ...overfull]))
    await tx.update(slots).set(hours).where(eq(slots.id, slotId))
    await recordAudit(
      tx,
      actor,
      {
        action: 'availability.update',
        entityType: 'slot',
        entityId: slotId,
        summary: `Changed the hours of ${window.date} to ${hours.startTime}-${hours.endTime} (${hours.slotDurationMinutes}-minute slots, ${hours.capacity} per slot)`,
        before: { startTime: window.startTime, endTime: window.endTime, slotDurationMinutes: window.slotDurationMinutes, capacity: window.capacity },
        after: hours,
      },
      now,
    )
  })
}

/** Removes opening hours that have never been booked; with bookings on record, staff close time slots instead. */
export async function deleteWindow(actor: Actor, slotId: number, now = new Date()) {
  await changeHours(async (tx) => {
    await lockWindows(tx, [slotId])
    const [window] = await tx.select().from(slots).where(eq(slots.id, slotId))
    if (!window) return
    const seats = await activeSeats(tx, [slotId], now)
    if (seats.length) throw new StrandedBookingsError(stranded(seats))
    const [used] = await tx.select({ bookingId: bookingDays.bookingId }).from(bookingDays).where(eq(bookingDays.slotId, slotId)).limit(1)
    if (used) throw new WindowInUseError()
    await tx.delete(slots).where(eq(slots.id, slotId))
    await recordAudit(tx, actor, { action: 'availability.delete', entityType: 'slot', entityId: slotId, summary: `Removed the hours ${toHourMinute(window.startTime)}-${toHourMinute(window.endTime)} on ${window.date}`, before: window }, now)
  })
}

/** Closes a single time slot of a window (its other slots stay open); refused while a booking holds a seat there. */
export async function closeTimeSlot(actor: Actor, slotId: number, start: string, now = new Date()) {
  await changeHours(async (tx) => {
    await lockWindows(tx, [slotId])
    const [window] = await tx.select({ date: slots.date }).from(slots).where(eq(slots.id, slotId))
    if (!window) throw new Error(`Window ${slotId} not found`)
    const seats = (await activeSeats(tx, [slotId], now)).filter((seat) => toHourMinute(seat.start) === start)
    if (seats.length) throw new StrandedBookingsError(stranded(seats))
    await tx.insert(closedTimeSlots).values({ slotId, startTime: start, createdAt: now }).onConflictDoNothing()
    await recordAudit(tx, actor, { action: 'availability.close-slot', entityType: 'slot', entityId: slotId, summary: `Closed the ${start} time slot on ${window.date}`, after: { closed: start } }, now)
  })
}

export async function reopenTimeSlot(actor: Actor, slotId: number, start: string, now = new Date()) {
  await changeHours(async (tx) => {
    await lockWindows(tx, [slotId])
    const [window] = await tx.select({ date: slots.date }).from(slots).where(eq(slots.id, slotId))
    const removed = await tx.delete(closedTimeSlots).where(and(eq(closedTimeSlots.slotId, slotId), eq(closedTimeSlots.startTime, start))).returning({ slotId: closedTimeSlots.slotId })
    if (removed.length) await recordAudit(tx, actor, { action: 'availability.reopen-slot', entityType: 'slot', entityId: slotId, summary: `Reopened the ${start} time slot on ${window?.date}`, before: { closed: start } }, now)
  })
}

/**
 * Marks dates as holidays (the lab is closed all day), refused, naming them, while bookings hold
 * seats on any of those dates.
 */
export async function markHolidays(actor: Actor, { from, to, weekdays, now = new Date() }: { from: string; to: string; weekdays: number[]; now?: Date }) {
  const dates = datesOf(from, to, weekdays)
  return changeHours(async (tx) => {
    const windows = await tx.select({ id: slots.id, date: slots.date, isHoliday: slots.isHoliday }).from(slots).where(inArray(slots.date, dates.length ? dates : ['']))
    await lockWindows(
      tx,
      windows.map((window) => window.id),
    )
    const seats = await activeSeats(
      tx,
      windows.filter((window) => !window.isHoliday).map((window) => window.id),
      now,
    )
    if (seats.length) throw new StrandedBookingsError(stranded(seats))
    const already = new Set(windows.filter((window) => window.isHoliday).map((window) => window.date))
    const fresh = dates.filter((date) => !already.has(date))
    if (fresh.length) await tx.insert(slots).values(fresh.map((date) => ({ date, startTime: null, endTime: null, slotDurationMinutes: null, isHoliday: true, createdAt: now })))
    await recordAudit(tx, actor, { action: 'availability.holiday', entityType: 'holiday', entityId: `${from}..${to}`, summary: `Marked ${fresh.length} ${fresh.length === 1 ? 'date' : 'dates'} as holidays from ${from} to ${to}`, after: { dates: fresh } }, now)
    return { marked: fresh.length }
  })
}

/** Opens a holiday date again (its opening hours, if any, come back as they were). */
export async function removeHoliday(actor: Actor, date: string, now = new Date()) {
  await changeHours(async (tx) => {
    const removed = await tx
      .delete(slots)
      .where(and(eq(slots.date, date), eq(slots.isHoliday, true)))
      .returning({ id: slots.id })
    if (removed.length) await recordAudit(tx, actor, { action: 'availability.holiday-removed', entityType: 'holiday', entityId: date, summary: `${date} is no longer a holiday`, before: { date } }, now)
  })
}

/** A month of opening hours as staff see them: each window with its time slots, seats taken, and closed slots. */
export async function staffMonth(month: string, now = new Date()) {
  const { first, last } = monthBounds(month)
  const windows = await db().select().from(slots).where(and(gte(slots.date, first), lte(slots.date, last))).orderBy(asc(slots.date), asc(slots.startTime))
  const ids = windows.map((window) => window.id)
  const seats = await activeSeats(db(), ids, now)
  const closed = ids.length ? await db().select({ slotId: closedTimeSlots.slotId, start: closedTimeSlots.startTime }).from(closedTimeSlots).where(inArray(closedTimeSlots.slotId, ids)) : []
  return windows.map((window) => ({
    ...window,
    timeSlots: timeSlotsOf({ ...window, isHoliday: false }).map((slot) => ({
      ...slot,
      taken: seats.filter((seat) => seat.slotId === window.id && toHourMinute(seat.start) === slot.start).length,
      closed: closed.some((entry) => entry.slotId === window.id && toHourMinute(entry.start) === slot.start),
    })),
  }))
}

/** One window as staff edit it. */
export async function windowById(slotId: number, now = new Date()) {
  const [window] = await db().select({ date: slots.date }).from(slots).where(eq(slots.id, slotId))
  if (!window) return null
  return (await staffMonth(window.date.slice(0, 7), now)).find((candidate) => candidate.id === slotId) ?? null
}
