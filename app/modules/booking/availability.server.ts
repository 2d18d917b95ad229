import { and, asc, eq, gt, gte, inArray, isNotNull, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { prepared } from '~/db/prepared.server'
import { availabilityWindows, bookingDays, bookings, closedTimeSlots } from '~/db/schema'
import { addDays, addMonths, labDateParts, labInstant, labToday, monthBounds, toHourMinute } from '~/lib/lab-time'
import { KeptCache, type Kept } from '~/lib/kept-cache.server'
import { kitAbsences, noKitAtHome, type KitAbsences } from './kit-absences.server'
import { SESSION_DAYS } from './texts'
import { timeSlotsOf, type AvailabilityWindow } from './time-slots'

/** How far after Day 1 the engine looks for Days 2 and 3. */
export const SESSION_SEARCH_DAYS = 60

/** A window with its capacity and the time slots staff have closed (HH:MM). */
export type WindowRow = AvailabilityWindow & { id: number; capacity: number; closed: string[] }

/** The time slots a window offers: cut from it by its duration, less those staff have closed. */
function offeredSlots(window: WindowRow) {
  return timeSlotsOf(window).filter((slot) => !window.closed.includes(slot.start))
}

/** One day of a session: which window's time slot, on which date. */
export type SessionDay = { dayNumber: number; date: string; windowId: number; start: string; end: string; capacity: number }

/** Where a time slot stands for one customer. */
export type TimeSlotState = 'available' | 'full' | 'booked' | 'not_available'

const windowColumns = {
  id: availabilityWindows.id,
  date: availabilityWindows.date,
  startTime: availabilityWindows.startTime,
  endTime: availabilityWindows.endTime,
  slotDurationMinutes: availabilityWindows.slotDurationMinutes,
  isHoliday: availabilityWindows.isHoliday,
  capacity: availabilityWindows.capacity,
}

/** The time slots staff have closed in a window, as HH:MM, read along with the window. */
const closedStarts = sql<string[]>`coalesce((SELECT json_agg(to_char(${closedTimeSlots.startTime}, 'HH24:MI')) FROM ${closedTimeSlots} WHERE ${closedTimeSlots.windowId} = ${availabilityWindows.id}), '[]'::json)`

function windowsQuery(executor: Executor, from: string | SQLWrapper, to: string | SQLWrapper) {
  return executor
    .select({ ...windowColumns, closed: closedStarts })
    .from(availabilityWindows)
    .where(and(eq(availabilityWindows.venueId, sql`home_venue_id()`), gte(availabilityWindows.date, from), lte(availabilityWindows.date, to)))
    .orderBy(asc(availabilityWindows.date), asc(availabilityWindows.startTime))
}

/** An analysis day's windows (one per date), in date order, as openWindows gives the lab's. */
export function analysisDayWindows(dayId: number, executor: Executor = db()): Promise<WindowRow[]> {
  return analysisWindowsWhere(eq(availabilityWindows.analysisDayId, dayId), executor)
}

/** Those of these windows that are analysis days' dates (a booking's days, which may be away from the lab). */
export function analysisWindowsAmong(windowIds: number[], executor: Executor = db()): Promise<WindowRow[]> {
  return analysisWindowsWhere(and(inArray(availabilityWindows.id, windowIds), isNotNull(availabilityWindows.analysisDayId))!, executor)
}

function analysisWindowsWhere(where: SQL, executor: Executor) {
  return executor
    .select({ ...windowColumns, closed: closedStarts })
    .from(availabilityWindows)
    .where(where)
    .orderBy(asc(availabilityWindows.date))
}

/**
 * The lab's windows from `from` to `to`; a date with a holiday window is closed, whatever else it
 * has, and a time slot while no kit is at the lab (all away at other venues) is closed too.
 */
export async function openWindows(from: string, to: string, executor?: Executor): Promise<WindowRow[]> {
  const [rows, absences] = await Promise.all([
    executor ? windowsQuery(executor, from, to) : prepared('open_windows', (database) => windowsQuery(database, sql.placeholder('from'), sql.placeholder('to')).prepare('open_windows')).execute({ from, to }),
    kitAbsences(from, to, executor),
  ])
  const holidays = new Set(rows.filter((row) => row.isHoliday).map((row) => row.date))
  return rows.filter((row) => !holidays.has(row.date)).map((row) => withKitAbsences(row, absences))
}

/** A window with the time slots no kit is at the lab for among its closed ones. */
function withKitAbsences(window: WindowRow, absences: KitAbsences): WindowRow {
  if (absences.away.length === 0 && absences.inService > 0) return window
  const away = timeSlotsOf(window).filter((slot) => noKitAtHome(absences, window.date, slot))
  return away.length ? { ...window, closed: [...window.closed, ...away.map((slot) => slot.start)] } : window
}

/**
 * The days of a session starting on `firstDate` at `start`: Day 1 is that date, each further day
 * the next date on which the same time slot is open, within SESSION_SEARCH_DAYS. Null when there are
 * not enough such dates.
 */
export function planSession(windows: WindowRow[], firstDate: string, start: string, days: number): SessionDay[] | null {
  const offers = new Map<string, SessionDay>()
  const lastDate = addDays(firstDate, SESSION_SEARCH_DAYS)
  for (const window of windows) {
    if (window.date < firstDate || window.date > lastDate || offers.has(window.date)) continue
    const slot = offeredSlots(window).find((candidate) => candidate.start === start)
    if (slot) offers.set(window.date, { dayNumber: 0, date: window.date, windowId: window.id, start: slot.start, end: slot.end, capacity: window.capacity })
  }
  if (!offers.has(firstDate)) return null
  const dates = [...offers.keys()].sort().slice(0, days)
  if (dates.length < days) return null
  return dates.map((date, index) => ({ ...offers.get(date)!, dayNumber: index + 1 }))
}

/** Why a session cannot start at a time: it has begun, or too few open dates follow with that time. */
type StartRefusal = 'started' | 'incomplete'

/** What a time slot that cannot start a complete session says of itself. */
export const INCOMPLETE_SESSION_REASON = 'Not available: not enough open days after this date'

/**
 * Whether a session of `days` may start on `date` at `start`: the time has not begun by the lab's
 * clock and planSession finds all its days. This is how a hold accepts a start, and how the pages
 * decide what to offer, so they never offer a start a hold would refuse.
 */
export function sessionStart(windows: WindowRow[], date: string, start: string, days: number, now: Date | Started): { plan: SessionDay[]; refusal: null } | { plan: null; refusal: StartRefusal } {
  const started = typeof now === 'function' ? now : startedBy(now)
  if (started(date, start)) return { plan: null, refusal: 'started' }
  const plan = planSession(windows, date, start, days)
  return plan ? { plan, refusal: null } : { plan: null, refusal: 'incomplete' }
}

/** A booking holds its seats while it is confirmed, or pending with an unexpired hold. */
export function holdsSeats(now: Date) {
  return or(eq(bookings.status, 'confirmed'), and(eq(bookings.status, 'pending'), gt(bookings.holdExpiresAt, now)))
}

export const seatKey = (windowId: number, start: string) => `${windowId}|${toHourMinute(start)}`

/** Seats in use per time slot (keyed by seatKey) of the given windows, optionally leaving one booking out. */
export async function seatsTaken(windowIds: number[], now: Date, executor: Executor = db(), exceptBookingId?: number): Promise<Map<string, number>> {
  if (windowIds.length === 0) return new Map()
  const rows = await executor
    .select({ windowId: bookingDays.windowId, start: bookingDays.startTime, taken: sql<number>`count(*)::int` })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(and(inArray(bookingDays.windowId, windowIds), holdsSeats(now), exceptBookingId ? sql`${bookings.id} <> ${exceptBookingId}` : undefined))
    .groupBy(bookingDays.windowId, bookingDays.startTime)
  return new Map(rows.map((row) => [seatKey(row.windowId, row.start), row.taken]))
}

/** Has the time slot starting at `start` on `date` begun, by the lab's clock? */
export function hasStarted(date: string, start: string, now: Date) {
  return startedBy(now)(date, start)
}

type Started = (date: string, start: string) => boolean

/** hasStarted for many time slots at one instant, reading the lab's clock once. */
function startedBy(now: Date): Started {
  const lab = labDateParts(now)
  return (date: string, start: string) => date < lab.date || (date === lab.date && toHourMinute(start) <= lab.time)
}

/**
 * What pages show of availability is kept in memory by each instance until the database announces a
 * change to seats or windows (see drizzle/0009; the server turns this on) or the clock changes it:
 * a hold runs out, a time slot begins. A customer's own seats are kept per customer.
 */
const calendars = new KeptCache<string, CalendarDay[]>(96)
const schedules = new KeptCache<string, DayTimeSlot[]>(1_000)
const customers = new KeptCache<string, CustomerSeats>(10_000)

/**
 * Drops what is kept after a change to `table` (as the database announced it; empty when anything
 * may have changed). Seats never change the calendar, which shows only windows and the time.
 */
export function forgetAvailability(table: string) {
  // A swimmer's profile or consent (announced on the same channel) holds no seat.
  if (table === 'swimmers' || table === 'guardian_consents') return
  schedules.clear()
  customers.clear()
  if (table !== 'bookings' && table !== 'booking_days') calendars.clear()
}

/**
 * A date of the calendar: open when a session can start on it (at one of `starts`, when given);
 * closed when the lab has no opening hours that day (no window, or a holiday).
 */
type CalendarDay = { date: string; open: boolean; closed: boolean }

/**
 * Every date of `month` (yyyy-mm): open when one of its time slots can start a complete session of
 * `days` (sessionStart, as a hold decides), counting only the times in `starts` when given. Past
 * dates, dates without a window and holidays are never open.
 */
export function monthCalendar(month: string, now = new Date(), { days = SESSION_DAYS, starts }: { days?: number; starts?: readonly string[] } = {}): Promise<CalendarDay[]> {
  return calendars.get(`${month}|${days}|${starts?.join(',') ?? '*'}`, () => readMonthCalendar(month, days, starts, now), now.getTime())
}

/**
 * The first date from `today` to `last` on which a session of `days` days can still start (as the
 * calendar shows it open), or null: the date a calendar opens on before the person chooses one.
 */
export async function firstOpenDate(today: string, last: string, now = new Date(), days = SESSION_DAYS): Promise<string | null> {
  for (let month = today.slice(0, 7); month <= last.slice(0, 7); month = addMonths(month, 1)) {
    const open = (await monthCalendar(month, now, { days })).find((day) => day.open && day.date >= today && day.date <= last)
    if (open) return open.date
  }
  return null
}

async function readMonthCalendar(month: string, days: number, starts: readonly string[] | undefined, now: Date): Promise<Kept<CalendarDay[]>> {
  const { first, last } = monthBounds(month)
  // A session starting late in the month may take its further days from the months after.
  const windows = await openWindows(first, addDays(last, SESSION_SEARCH_DAYS))
  const started = startedBy(now)
  const withHours = new Set<string>()
  const open = new Set<string>()
  const next = new NextStart()
  for (const window of windows) {
    if (window.date > last) break
    withHours.add(window.date)
    for (const slot of offeredSlots(window)) {
      if (starts && !starts.includes(slot.start)) continue
      if (!sessionStart(windows, window.date, slot.start, days, started).plan) continue
      open.add(window.date)
      next.consider(window.date, slot.start)
    }
  }
  const calendar: CalendarDay[] = []
  for (let date = first; date <= last; date = addDays(date, 1)) calendar.push({ date, open: open.has(date), closed: !withHours.has(date) })
  // A date closes when the last time slot that can start a session on it begins (windows changing
  // are announced), so the calendar is true until the next such one does.
  return { value: calendar, until: next.at() }
}

/** The earliest of the time slots it is shown that have not begun, as an instant (ms). */
class NextStart {
  private earliest: string | undefined
  consider(date: string, start: string) {
    const key = `${date}T${toHourMinute(start)}`
    if (this.earliest === undefined || key < this.earliest) this.earliest = key
  }
  at() {
    return this.earliest ? labInstant(this.earliest.slice(0, 10), this.earliest.slice(11)).getTime() : Infinity
  }
}

type DayTimeSlot = {
  start: string
  end: string
  state: TimeSlotState
  /** Why a time that has not begun cannot start a session (INCOMPLETE_SESSION_REASON), if so. */
  reason?: string
  /** The session's dates when it can be booked (or is booked by this customer). */
  sessionDates: string[]
}

/**
 * The time slots of `date` as one customer sees them: Available only when every day of the session
 * has a free seat; Booked when this customer already holds or owns that time on one of its days
 * for each of their `swimmers` (a family whose first child has a seat there may still book the
 * second), or, when one `swimmer` is named (a booking being moved), for that swimmer.
 */
export async function daySchedule({
  date,
  userId,
  days,
  now = new Date(),
  exceptBookingId,
  swimmers = 1,
  swimmer,
}: {
  date: string
  userId: number | null
  days: number
  now?: Date
  /** A booking being rescheduled: its own seats are free for it. */
  exceptBookingId?: number
  /** How many swimmers the customer books for: a time is Booked once each has a seat there. */
  swimmers?: number
  /** The one swimmer the customer books for: a time is Booked when they have a seat there. */
  swimmer?: SwimmerOfBooking
}): Promise<DayTimeSlot[]> {
  const [schedule, mine] = await Promise.all([
    exceptBookingId === undefined
      ? schedules.get(`${date}|${days}`, () => readSchedule(date, days, now), now.getTime())
      : readSchedule(date, days, now, exceptBookingId).then((kept) => kept.value),
    userId ? customerSeats(userId, date, now, exceptBookingId) : new Map<string, Set<string>>(),
  ])
  if (mine.size === 0) return schedule
  // Booked when each of the customer's swimmers has a seat at this time on some day the session
  // would take (as a hold would find): shown before it is chosen, not refused after.
  const theirs = (slot: DayTimeSlot) => {
    const seated = new Set([date, ...slot.sessionDates].flatMap((day) => [...(mine.get(`${day}|${slot.start}`) ?? [])]))
    return swimmer ? seated.has(swimmerKey(swimmer)) : seated.size >= Math.max(1, swimmers)
  }
  return schedule.map((slot) => (theirs(slot) ? { ...slot, state: 'booked' } : slot))
}

/** The time slots of `date` as anyone sees them, true until a hold in them runs out or one begins. */
async function readSchedule(date: string, days: number, now: Date, exceptBookingId?: number): Promise<Kept<DayTimeSlot[]>> {
  const windows = await openWindows(date, addDays(date, SESSION_SEARCH_DAYS))
  const seats = await seatUse(
    windows.map((window) => window.id),
    now,
    exceptBookingId,
  )
  const started = startedBy(now)
  const next = new NextStart()
  const schedule: DayTimeSlot[] = []
  for (const window of windows.filter((candidate) => candidate.date === date)) {
    for (const slot of offeredSlots(window)) {
      const { plan, refusal } = sessionStart(windows, date, slot.start, days, started)
      if (refusal !== 'started') next.consider(date, slot.start)
      if (!plan) {
        schedule.push({ start: slot.start, end: slot.end, state: 'not_available', sessionDates: [], ...(refusal === 'incomplete' && { reason: INCOMPLETE_SESSION_REASON }) })
        continue
      }
      const full = plan.some((day) => (seats.taken.get(seatKey(day.windowId, day.start)) ?? 0) >= day.capacity)
      schedule.push({ start: slot.start, end: slot.end, state: full ? 'full' : 'available', sessionDates: plan.map((day) => day.date) })
    }
  }
  return { value: schedule, until: Math.min(next.at(), seats.nextRelease) }
}

/** Seats in use per time slot (as seatsTaken), and when the first unpaid hold among them runs out (ms). */
export async function seatUse(windowIds: number[], now: Date, exceptBookingId?: number) {
  if (windowIds.length === 0) return { taken: new Map<string, number>(), nextRelease: Infinity }
  const rows = await db()
    .select({
      windowId: bookingDays.windowId,
      start: bookingDays.startTime,
      taken: sql<number>`count(*)::int`,
      release: sql<number | null>`(extract(epoch from min(${bookings.holdExpiresAt}) filter (where ${bookings.status} = 'pending')) * 1000)::float8`,
    })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(and(inArray(bookingDays.windowId, windowIds), holdsSeats(now), exceptBookingId ? sql`${bookings.id} <> ${exceptBookingId}` : undefined))
    .groupBy(bookingDays.windowId, bookingDays.startTime)
  return {
    taken: new Map(rows.map((row) => [seatKey(row.windowId, row.start), row.taken])),
    nextRelease: Math.min(Infinity, ...rows.map((row) => (row.release === null ? Infinity : Number(row.release)))),
  }
}

/** A customer's seats from today on (date|HH:MM, and whose), and their unpaid hold if they have one. */
type CustomerSeats = { seats: { date: string; start: string; swimmer: string }[]; hold: { bookingId: number; holdExpiresAt: Date } | null }

/** The dates and times (date|HH:MM) on which a customer has a seat from `from` on, each with the swimmers seated then. */
async function customerSeats(userId: number, from: string, now: Date, exceptBookingId?: number) {
  const today = labToday(now)
  const seats =
    exceptBookingId !== undefined || from < today
      ? await seatsOf(userId, from, now, exceptBookingId)
      : (await customers.get(`${userId}|${today}`, () => readCustomerSeats(userId, today, now), now.getTime())).seats.filter((seat) => seat.date >= from)
  const byTime = new Map<string, Set<string>>()
  for (const seat of seats) {
    const key = `${seat.date}|${seat.start}`
    byTime.set(key, (byTime.get(key) ?? new Set()).add(seat.swimmer))
  }
  return byTime
}

/** The customer's unpaid hold that has not run out, if any (as currentHold), kept with their seats. */
export async function customerHold(userId: number, now = new Date()) {
  const today = labToday(now)
  const kept = await customers.get(`${userId}|${today}`, () => readCustomerSeats(userId, today, now), now.getTime())
  return kept.hold
}

async function readCustomerSeats(userId: number, today: string, now: Date): Promise<Kept<CustomerSeats>> {
  const [seats, holds] = await Promise.all([
    seatsOf(userId, today, now),
    db()
      .select({ bookingId: bookings.id, holdExpiresAt: bookings.holdExpiresAt })
      .from(bookings)
      .where(and(eq(bookings.userId, userId), eq(bookings.status, 'pending'), gt(bookings.holdExpiresAt, now))),
  ])
  const expiries = holds.flatMap((hold) => (hold.holdExpiresAt ? [hold.holdExpiresAt.getTime()] : []))
  const first = holds.find((hold) => hold.holdExpiresAt)
  return {
    value: { seats, hold: first?.holdExpiresAt ? { bookingId: first.bookingId, holdExpiresAt: first.holdExpiresAt } : null },
    // The customer's seats in an unpaid hold are theirs until it runs out.
    until: Math.min(Infinity, ...expiries),
  }
}

async function seatsOf(userId: number, from: string, now: Date, exceptBookingId?: number) {
  const rows = await db()
    .select({ date: bookingDays.date, start: bookingDays.startTime, swimmerId: bookings.swimmerId, swimmerName: bookings.swimmerName })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(and(eq(bookings.userId, userId), gte(bookingDays.date, from), holdsSeats(now), exceptBookingId ? sql`${bookings.id} <> ${exceptBookingId}` : undefined))
  return rows.map((row) => ({ date: row.date, start: toHourMinute(row.start), swimmer: swimmerKey(row) }))
}

/** Who a booking is for: a swimmer profile of the account, or only a name (single sessions, staff). */
type SwimmerOfBooking = { swimmerId: number | null; swimmerName: string }

/** A swimmer is their profile, or the name a booking without one was made under (in any letter case). */
const swimmerKey = ({ swimmerId, swimmerName }: SwimmerOfBooking) => (swimmerId !== null ? `#${swimmerId}` : `name:${swimmerName.toLowerCase()}`)
