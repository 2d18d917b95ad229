import { and, asc, eq, getTableColumns, getTableName, gte, inArray, isNull, lte, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { availabilityWindows, bookingDays, bookings, closedTimeSlots } from '~/db/schema'
import { addDays, isoWeekday, monthBounds, toHourMinute } from '~/lib/lab-time'
import { DomainError } from '~/lib/domain-error'
import { type Actor, recordAudit } from '~/modules/audit/audit.server'
import { forgetAvailability, holdsSeats } from './availability.server'
import { lockWindows } from './holds.server'
import { kitAbsences, noKitAtHome } from './kit-absences.server'
import { timeSlotsOf, toMinutes } from './time-slots'
import { swimmerAndBooker } from './texts'

/** A booking a change would leave without its seat, named so staff can deal with it first. */
export type StrandedBooking = { reference: string; who: string; date: string; start: string }

export class StrandedBookingsError extends DomainError {
  constructor(readonly bookings: StrandedBooking[]) {
    super('conflict', `This change would leave ${bookings.length === 1 ? 'a booking' : `${bookings.length} bookings`} without a seat. Reschedule or cancel ${bookings.length === 1 ? 'it' : 'them'} first.`)
  }
}

/** The bookings a refused change would have stranded, for the page to list: none for any other refusal. */
export function strandedBy(error: DomainError): { stranded?: StrandedBooking[] } {
  return error instanceof StrandedBookingsError ? { stranded: error.bookings } : {}
}

/** The new hours overlap another window on the same date (or the date is a holiday). */
export class OverlappingWindowError extends DomainError {
  constructor(readonly dates: string[]) {
    super('conflict', `Other opening hours (or a holiday) already cover part of this time on ${dates.length === 1 ? dates[0] : `${dates.length} dates: ${dates.join(', ')}`}.`)
  }
}

export class WindowInUseError extends DomainError {
  constructor() {
    super('conflict', 'These opening hours have bookings on record (past, cancelled or unpaid). Close their time slots instead of removing them.')
  }
}

/** A venue's opening hours (the lab's home when none is named): its windows, not the dates of analysis days held there (their seats, kept by their own pages). */
const atVenue = (venueId: number | undefined) => and(eq(availabilityWindows.venueId, venueId ?? sql<number>`home_venue_id()`), isNull(availabilityWindows.analysisDayId))

type WindowHours = { startTime: string; endTime: string; slotDurationMinutes: number; capacity: number }

function datesOf(from: string, to: string, weekdays: number[]) {
  const dates: string[] = []
  for (let date = from; date <= to; date = addDays(date, 1)) if (weekdays.includes(isoWeekday(date))) dates.push(date)
  return dates
}

/** Active seats (confirmed, or held and unexpired) in these windows, with their bookings. */
export async function activeSeats(executor: Executor, windowIds: number[], now: Date) {
  if (windowIds.length === 0) return []
  return executor
    .select({ windowId: bookingDays.windowId, start: bookingDays.startTime, date: bookingDays.date, reference: bookings.reference, swimmerName: bookings.swimmerName, customerName: bookings.customerName })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(and(inArray(bookingDays.windowId, windowIds), holdsSeats(now)))
    .orderBy(asc(bookingDays.date), asc(bookingDays.startTime))
}

export const stranded = (rows: Array<{ reference: string; swimmerName: string; customerName: string; date: string; start: string }>): StrandedBooking[] =>
  rows.map((row) => ({ reference: row.reference, who: swimmerAndBooker(row), date: row.date, start: toHourMinute(row.start) }))

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
    forgetAvailability(getTableName(availabilityWindows))
  }
}

/**
 * Opens the same hours on every chosen weekday from `from` to `to`. Refused as a whole, naming the
 * dates, when any of them already has overlapping hours or is a holiday.
 */
export async function createWindows(actor: Actor, { from, to, weekdays, hours, venueId, now = new Date() }: { from: string; to: string; weekdays: number[]; hours: WindowHours; venueId?: number; now?: Date }) {
  const dates = datesOf(from, to, weekdays)
  return changeHours(async (tx) => {
    const existing = await tx.select({ date: availabilityWindows.date, startTime: availabilityWindows.startTime, endTime: availabilityWindows.endTime, isHoliday: availabilityWindows.isHoliday }).from(availabilityWindows).where(and(atVenue(venueId), inArray(availabilityWindows.date, dates.length ? dates : [''])))
    const conflicts = [...new Set(existing.filter((window) => window.isHoliday || overlaps(window, hours)).map((window) => window.date))].sort()
    if (conflicts.length) throw new OverlappingWindowError(conflicts)
    if (dates.length === 0) return { created: 0 }
    const rows = await tx
      .insert(availabilityWindows)
      .values(dates.map((date) => ({ date, ...hours, ...(venueId !== undefined && { venueId }), createdAt: now })))
      .returning({ id: availabilityWindows.id })
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
export async function updateWindow(actor: Actor, windowId: number, hours: WindowHours, now = new Date()) {
  await changeHours(async (tx) => {
    await lockWindows(tx, [windowId])
    const [window] = await tx.select().from(availabilityWindows).where(eq(availabilityWindows.id, windowId))
    if (!window || window.isHoliday) throw new Error(`Window ${windowId} not found`)
    const neighbours = await tx.select({ id: availabilityWindows.id, startTime: availabilityWindows.startTime, endTime: availabilityWindows.endTime, isHoliday: availabilityWindows.isHoliday }).from(availabilityWindows).where(and(atVenue(window.venueId), eq(availabilityWindows.date, window.date)))
    if (neighbours.some((other) => other.id !== windowId && (other.isHoliday || overlaps(other, hours)))) throw new OverlappingWindowError([window.date])
    const offered = new Set(timeSlotsOf({ date: window.date, isHoliday: false, ...hours }).map((slot) => slot.start))
    const seats = await activeSeats(tx, [windowId], now)
    const perStart = new Map<string, typeof seats>()
    for (const seat of seats) perStart.set(toHourMinute(seat.start), [...(perStart.get(toHourMinute(seat.start)) ?? []), seat])
    const lost = seats.filter((seat) => !offered.has(toHourMinute(seat.start)))
    const overfull = [...perStart.values()].filter((group) => group.length > hours.capacity).flat()
    if (lost.length || overfull.length) throw new StrandedBookingsError(stranded([...lost, ...overfull]))
    await tx.update(availabilityWindows).set(hours).where(eq(availabilityWindows.id, windowId))
    await recordAudit(
      tx,
      actor,
      {
        action: 'availability.update',
        entityType: 'slot',
        entityId: windowId,
        summary: `Changed the hours of ${window.date} to ${hours.startTime}-${hours.endTime} (${hours.slotDurationMinutes}-minute slots, ${hours.capacity} per slot)`,
        before: { startTime: window.startTime, endTime: window.endTime, slotDurationMinutes: window.slotDurationMinutes, capacity: window.capacity },
        after: hours,
      },
      now,
    )
  })
}

/** Removes opening hours that have never been booked; with bookings on record, staff close time slots instead. */
export async function deleteWindow(actor: Actor, windowId: number, now = new Date()) {
  await changeHours(async (tx) => {
    await lockWindows(tx, [windowId])
    const [window] = await tx.select().from(availabilityWindows).where(eq(availabilityWindows.id, windowId))
    if (!window) return
    const seats = await activeSeats(tx, [windowId], now)
    if (seats.length) throw new StrandedBookingsError(stranded(seats))
    const [used] = await tx.select({ bookingId: bookingDays.bookingId }).from(bookingDays).where(eq(bookingDays.windowId, windowId)).limit(1)
    if (used) throw new WindowInUseError()
    await tx.delete(availabilityWindows).where(eq(availabilityWindows.id, windowId))
    await recordAudit(tx, actor, { action: 'availability.delete', entityType: 'slot', entityId: windowId, summary: `Removed the hours ${toHourMinute(window.startTime)}-${toHourMinute(window.endTime)} on ${window.date}`, before: window }, now)
  })
}

/** Closes a single time slot of a window (its other slots stay open); refused while a booking holds a seat there. */
export async function closeTimeSlot(actor: Actor, windowId: number, start: string, now = new Date()) {
  await changeHours(async (tx) => {
    await lockWindows(tx, [windowId])
    const [window] = await tx.select({ date: availabilityWindows.date }).from(availabilityWindows).where(eq(availabilityWindows.id, windowId))
    if (!window) throw new Error(`Window ${windowId} not found`)
    const seats = (await activeSeats(tx, [windowId], now)).filter((seat) => toHourMinute(seat.start) === start)
    if (seats.length) throw new StrandedBookingsError(stranded(seats))
    await tx.insert(closedTimeSlots).values({ windowId, startTime: start, createdAt: now }).onConflictDoNothing()
    await recordAudit(tx, actor, { action: 'availability.close-slot', entityType: 'slot', entityId: windowId, summary: `Closed the ${start} time slot on ${window.date}`, after: { closed: start } }, now)
  })
}

export async function reopenTimeSlot(actor: Actor, windowId: number, start: string, now = new Date()) {
  await changeHours(async (tx) => {
    await lockWindows(tx, [windowId])
    const [window] = await tx.select({ date: availabilityWindows.date }).from(availabilityWindows).where(eq(availabilityWindows.id, windowId))
    const removed = await tx.delete(closedTimeSlots).where(and(eq(closedTimeSlots.windowId, windowId), eq(closedTimeSlots.startTime, start))).returning({ windowId: closedTimeSlots.windowId })
    if (removed.length) await recordAudit(tx, actor, { action: 'availability.reopen-slot', entityType: 'slot', entityId: windowId, summary: `Reopened the ${start} time slot on ${window?.date}`, before: { closed: start } }, now)
  })
}

/**
 * Marks dates as holidays (the lab is closed all day), refused, naming them, while bookings hold
 * seats on any of those dates.
 */
export async function markHolidays(actor: Actor, { from, to, weekdays, venueId, now = new Date() }: { from: string; to: string; weekdays: number[]; venueId?: number; now?: Date }) {
  const dates = datesOf(from, to, weekdays)
  return changeHours(async (tx) => {
    const windows = await tx.select({ id: availabilityWindows.id, date: availabilityWindows.date, isHoliday: availabilityWindows.isHoliday }).from(availabilityWindows).where(and(atVenue(venueId), inArray(availabilityWindows.date, dates.length ? dates : [''])))
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
    if (fresh.length) await tx.insert(availabilityWindows).values(fresh.map((date) => ({ date, startTime: null, endTime: null, slotDurationMinutes: null, isHoliday: true, ...(venueId !== undefined && { venueId }), createdAt: now })))
    await recordAudit(tx, actor, { action: 'availability.holiday', entityType: 'holiday', entityId: `${from}..${to}`, summary: `Marked ${fresh.length} ${fresh.length === 1 ? 'date' : 'dates'} as holidays from ${from} to ${to}`, after: { dates: fresh } }, now)
    return { marked: fresh.length }
  })
}

/** Opens a holiday date again (its opening hours, if any, come back as they were). */
export async function removeHoliday(actor: Actor, date: string, { venueId, now = new Date() }: { venueId?: number; now?: Date } = {}) {
  await changeHours(async (tx) => {
    const removed = await tx
      .delete(availabilityWindows)
      .where(and(atVenue(venueId), eq(availabilityWindows.date, date), eq(availabilityWindows.isHoliday, true)))
      .returning({ id: availabilityWindows.id })
    if (removed.length) await recordAudit(tx, actor, { action: 'availability.holiday-removed', entityType: 'holiday', entityId: date, summary: `${date} is no longer a holiday`, before: { date } }, now)
  })
}

/**
 * A month of opening hours as staff see them: each window (`atHome` at the lab's own room) with its
 * time slots, seats taken, and closed slots; at the lab's home, `kitAway` marks a time slot no kit
 * is at the lab for (every kit placed elsewhere then), which customers cannot book.
 */
export async function staffMonth(month: string, { venueId, now = new Date() }: { venueId?: number; now?: Date } = {}) {
  const { first, last } = monthBounds(month)
  const windows = await db()
    .select({ ...getTableColumns(availabilityWindows), atHome: sql<boolean>`${availabilityWindows.venueId} = home_venue_id()` })
    .from(availabilityWindows)
    .where(and(atVenue(venueId), gte(availabilityWindows.date, first), lte(availabilityWindows.date, last)))
    .orderBy(asc(availabilityWindows.date), asc(availabilityWindows.startTime))
  const ids = windows.map((window) => window.id)
  const [seats, closed, absences] = await Promise.all([
    activeSeats(db(), ids, now),
    ids.length ? db().select({ windowId: closedTimeSlots.windowId, start: closedTimeSlots.startTime }).from(closedTimeSlots).where(inArray(closedTimeSlots.windowId, ids)) : [],
    windows.some((window) => window.atHome) ? kitAbsences(first, last) : null,
  ])
  return windows.map((window) => ({
    ...window,
    timeSlots: timeSlotsOf({ ...window, isHoliday: false }).map((slot) => ({
      ...slot,
      taken: seats.filter((seat) => seat.windowId === window.id && toHourMinute(seat.start) === slot.start).length,
      closed: closed.some((entry) => entry.windowId === window.id && toHourMinute(entry.start) === slot.start),
      kitAway: window.atHome && absences !== null && noKitAtHome(absences, window.date, slot),
    })),
  }))
}

/** One window as staff edit it. */
export async function windowById(windowId: number, now = new Date()) {
  const [window] = await db().select({ date: availabilityWindows.date, venueId: availabilityWindows.venueId }).from(availabilityWindows).where(eq(availabilityWindows.id, windowId))
  if (!window) return null
  return (await staffMonth(window.date.slice(0, 7), { venueId: window.venueId, now })).find((candidate) => candidate.id === windowId) ?? null
}
