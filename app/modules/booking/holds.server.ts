import { randomInt } from 'node:crypto'
import { and, asc, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm'
import { config } from '~/config.server'
import { db, type Executor } from '~/db/client.server'
import { DomainError } from '~/lib/domain-error'
import { sharedRead } from '~/lib/shared-read.server'
import { availabilityWindows, bookingDays, bookings } from '~/db/schema'
import { addDays, addMinutes, addMonths, labToday, monthBounds, toHourMinute } from '~/lib/lab-time'
import { holderColumns, limitHoldAttempts, makeRoomForHold, ownerOf, ownsBooking, type BookingOwner, type Holder } from '~/modules/holders/holders.server'
import { getCatalogue, requireItem } from '~/modules/site/site.server'
import { inLine, lineClock, LOOK_AGAIN, sawFull } from './hold-line.server'
import { analysisDayWindows, analysisWindowsAmong, hasStarted, holdsSeats, openWindows, planSession, seatKey, sessionStart, seatsTaken, SESSION_SEARCH_DAYS, type SessionDay, type WindowRow } from './availability.server'
import { isMonth } from './schemas'
import { timeSlotsOf } from './time-slots'
import { setStatus } from '~/modules/statuses/status.server'

/** The time slot cannot be held: taken meanwhile, started, or no longer offered. */
export class SlotUnavailableError extends DomainError {
  constructor(message = 'This time slot is no longer available. Please choose another one.', field?: string) {
    super('conflict', message, field)
  }
}

/** The swimmer already has a seat at this time on one of the session's dates (another swimmer of the account may). */
export class AlreadyBookedError extends DomainError {
  constructor() {
    super('conflict', 'You have already booked this time slot.')
  }
}

/**
 * Who books: the account (none for a guest) and its contact details, and who swims (a swimmer profile
 * of the account; a guest's booking names its swimmer only).
 */
export type Customer = {
  userId: number | null
  swimmerId: number | null
  swimmerName: string
  /** The age given for someone else who swims without a profile. */
  swimmerAge?: number | null
  name: string
  email: string
  phone: string | null
  swimmingExperience: string | null
}

type HeldBooking = { bookingId: number; reference: string; holdExpiresAt: Date; days: SessionDay[]; amountPaise: number }

/**
 * Holds a seat on every day of a session for `SEAT_HOLD_MINUTES`, as a pending booking, in one
 * transaction. The session's windows are locked (in id order, so two holds never deadlock) before
 * their seats are counted, so however many customers try at once, a time slot never has more
 * holders than its capacity. Routes pass the visitor as `holder`, whose earlier unpaid hold is
 * released and who may hold no more than makeRoomForHold allows; without one (staff tools), only
 * the account's own earlier hold is released. A visitor's date must be within the booking window,
 * and each visitor's attempt counts against limitHoldAttempts (RateLimitedError past it).
 *
 * In a rush most customers ask for a session that is already full: they are told so after one
 * read, without a lock or a write, unless one of its seats is their own (a hold they would release,
 * or a booking they have). The others line up for the transaction (see hold-line.server.ts).
 */
export async function holdSession({
  customer,
  productCode,
  date,
  start,
  days,
  notes = null,
  holder,
  recordWith,
  analysisDay,
  now = new Date(),
}: {
  customer: Customer
  productCode: string
  date: string
  start: string
  days: number
  notes?: string | null
  holder?: Holder
  /** What must be kept with the booking, written in its transaction (a guardian's declaration). */
  recordWith?: (tx: Executor, bookingId: number) => Promise<unknown>
  /** A slot of an analysis day: its windows instead of the lab's, and its price. */
  analysisDay?: AnalysisDaySeat
  now?: Date
}): Promise<HeldBooking> {
  // Visitors book within the window the calendar shows them (an analysis day's dates are its own).
  if (holder && !analysisDay && date > lastBookableDate(days, labToday(now))) throw new SlotUnavailableError()
  const pricePaise = analysisDay?.pricePaise ?? requireItem(await getCatalogue(), productCode).pricePaise
  const request: HoldRequest = { customer, productCode, date, start, days, notes, holder, recordWith, analysisDay, now, pricePaise, holdExpiresAt: addMinutes(now, config().SEAT_HOLD_MINUTES) }
  const owner = holder ? ownerOf(holder) : { userId: customer.userId, email: null, browser: null }
  let counted = false
  for (;;) {
    const lookedAt = lineClock()
    const windows = analysisDay
      ? await sharedRead(`analysis-day-windows:${analysisDay.id}`, () => analysisDayWindows(analysisDay.id))
      : await sharedRead(`session-windows:${date}`, () => openWindows(date, addDays(date, SESSION_SEARCH_DAYS)))
    const { plan } = sessionStart(windows, date, start, days, now)
    if (!plan) throw new SlotUnavailableError()
    const session = sessionKey(plan)
    const seats = await sharedRead(`session-seats:${session}`, () => seatHolders(plan))
    if (fullWithoutYou(plan, seats, owner, now)) throw new SlotUnavailableError()
    const held = await inLine(session, lookedAt, async () => {
      // A visitor's attempt counts against their limits when it reaches the seats: one turned away
      // as full (before the line or in it) has cost a shared read and held nothing, not worth a write.
      if (holder && !counted) {
        await limitHoldAttempts(holder, now)
        counted = true
      }
      return holdInTransaction(request, plan, session)
    })
    if (held !== LOOK_AGAIN) return held
  }
}

type HoldRequest = {
  customer: Customer
  productCode: string
  date: string
  start: string
  days: number
  notes: string | null
  holder: Holder | undefined
  recordWith: ((tx: Executor, bookingId: number) => Promise<unknown>) | undefined
  analysisDay: AnalysisDaySeat | undefined
  now: Date
  pricePaise: number
  holdExpiresAt: Date
}

/**
 * A seat of an analysis day: its id (whose windows are its dates), its price, and, for a seat of the
 * host's before the public release, the host's seats and every window of the day, all locked so that
 * the host's seats are counted under the same locks however many use the link at once.
 */
export type AnalysisDaySeat = { id: number; pricePaise: number; host: { seats: number; windowIds: number[] } | null }

/** Every seat the host's link may hold before the release is held. */
export class HostSeatsTakenError extends DomainError {
  constructor() {
    super('conflict', 'The seats kept for the host are all taken. The rest open to everyone at the public release.', 'slot')
  }
}

/**
 * Holds a slot of an analysis day in the caller's transaction: the same locks, counts and checks as
 * every hold, without holdSession's line within the process. For the day line (which settles
 * parents in the order they came; `holder` is the visitor who asked, whose other unpaid holds are
 * released as always, and the caller counts their attempt), and for a slot offered to someone on
 * the day's waitlist (no holder: nobody asked just now, so the booking is a guest's and nobody's
 * other holds are released; held until `holdExpiresAt`). SlotUnavailableError when the slot is
 * taken, begun or gone.
 */
export async function holdDaySlotIn(
  tx: Executor,
  {
    customer,
    date,
    start,
    analysisDay,
    productCode,
    notes = null,
    holder,
    recordWith,
    now,
    holdExpiresAt = addMinutes(now, config().SEAT_HOLD_MINUTES),
    windows,
  }: {
    customer: Customer
    date: string
    start: string
    analysisDay: AnalysisDaySeat
    productCode: string
    notes?: string | null
    holder?: Holder
    recordWith?: HoldRequest['recordWith']
    now: Date
    holdExpiresAt?: Date
    /** The day's windows as the caller read them a moment ago, to plan the slot with (checked again under the locks, as always). */
    windows?: WindowRow[]
  },
) {
  const { plan } = sessionStart(windows ?? (await analysisDayWindows(analysisDay.id, tx)), date, start, 1, now)
  if (!plan) throw new SlotUnavailableError()
  const request: HoldRequest = { customer, productCode, date, start, days: 1, notes, holder, recordWith, analysisDay, now, pricePaise: analysisDay.pricePaise, holdExpiresAt }
  return holdInTransaction(request, plan, sessionKey(plan), tx)
}

/** The seats are decided here, under the windows' locks; as little as possible happens under them. In `within` when given, else in a transaction of its own. */
function holdInTransaction({ customer, productCode, date, start, days, notes, holder, recordWith, analysisDay, now, pricePaise, holdExpiresAt }: HoldRequest, plan: SessionDay[], session: string, within?: Executor) {
  const hold = async (tx: Executor): Promise<HeldBooking> => {
    // The holder's locks come first, before any window's, in every transaction that takes both.
    if (holder) await makeRoomForHold(tx, holder, now)
    // The customer's own bookings change only through them (their holder locks are held) or by staff.
    if (customer.userId !== null && holder && (await hasSeatAt(tx, customer.userId, customer, plan, now))) throw new AlreadyBookedError()

    const capacities = await lockWindows(tx, [...plan.map((day) => day.windowId), ...(analysisDay?.host?.windowIds ?? [])])
    if (analysisDay?.host && (await hostSeatsHeld(tx, analysisDay.host.windowIds, now)) >= analysisDay.host.seats) throw new HostSeatsTakenError()
    if (customer.userId !== null && !holder) {
      await releaseUnpaidHolds(tx, customer.userId, now)
      if (await hasSeatAt(tx, customer.userId, customer, plan, now)) throw new AlreadyBookedError()
    }
    // Counted first under the lock: in a rush this is where everyone after the last seat stops.
    const countedAt = lineClock()
    const taken = await seatsTaken(
      plan.map((day) => day.windowId),
      now,
      tx,
    )
    if (plan.some((day) => (taken.get(seatKey(day.windowId, day.start)) ?? 0) >= (capacities.get(day.windowId) ?? 0))) {
      sawFull(session, countedAt)
      throw new SlotUnavailableError()
    }
    // The windows may have changed between planning and locking; plan again under the lock.
    const windows = analysisDay ? await analysisDayWindows(analysisDay.id, tx) : await openWindows(date, addDays(date, SESSION_SEARCH_DAYS), tx)
    const locked = planSession(windows, date, start, days)
    if (!locked || locked.some((day, index) => day.windowId !== plan[index]!.windowId || day.start !== plan[index]!.start)) throw new SlotUnavailableError()

    const booking = await insertBooking(tx, {
      productCode,
      userId: customer.userId,
      swimmerId: customer.swimmerId,
      swimmerName: customer.swimmerName,
      swimmerAge: customer.swimmerAge ?? null,
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
      viaHostLink: Boolean(analysisDay?.host),
      ...(holder && holderColumns(holder)),
      createdAt: now,
      updatedAt: now,
    })
    await tx.insert(bookingDays).values(locked.map((day) => ({ bookingId: booking.id, dayNumber: day.dayNumber, windowId: day.windowId, date: day.date, startTime: day.start, endTime: day.end })))
    if (recordWith) await recordWith(tx, booking.id)
    return { bookingId: booking.id, reference: booking.reference, holdExpiresAt, days: locked, amountPaise: pricePaise }
  }
  return within ? hold(within) : db().transaction(hold)
}

/** How many of the host's seats are held on these windows (an analysis day's): confirmed, or unpaid and not run out. */
async function hostSeatsHeld(executor: Executor, windowIds: number[], now: Date) {
  const [row] = await executor
    .select({ held: sql<number>`count(*)::int` })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(and(inArray(bookingDays.windowId, windowIds), eq(bookings.viaHostLink, true), holdsSeats(now)))
  return row?.held ?? 0
}

/** The same windows and time are the same session, whoever asks for it. */
function sessionKey(plan: SessionDay[]) {
  return plan.map((day) => seatKey(day.windowId, day.start)).join(',')
}

type SeatHolder = { windowId: number; start: string; status: string; holdExpiresAt: Date | null; userId: number | null; customerEmail: string; holderBrowser: string | null }

/**
 * The bookings that hold, or lately held, the session's seats: confirmed ones, and pending ones
 * whose hold had not run out a minute ago (each customer judges them by their own clock).
 */
function seatHolders(plan: SessionDay[]): Promise<SeatHolder[]> {
  return db()
    .select({
      windowId: bookingDays.windowId,
      start: bookingDays.startTime,
      status: bookings.status,
      holdExpiresAt: bookings.holdExpiresAt,
      userId: bookings.userId,
      customerEmail: bookings.customerEmail,
      holderBrowser: bookings.holderBrowser,
    })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(
      and(
        inArray(
          bookingDays.windowId,
          plan.map((day) => day.windowId),
        ),
        holdsSeats(addMinutes(new Date(), -1)),
      ),
    )
}

/**
 * Is some day of the session full, with none of its seats the customer's own? Judged from a read
 * without locks, so only ever a reason to refuse early: a seat freed a moment later is found by the
 * next look. A customer with a seat there (a hold a new one would release, or a booking they
 * already have) goes on to the transaction, which knows what to tell them.
 */
function fullWithoutYou(plan: SessionDay[], holders: SeatHolder[], owner: BookingOwner, now: Date) {
  const holding = holders.filter((seat) => seat.status === 'confirmed' || (seat.status === 'pending' && seat.holdExpiresAt !== null && seat.holdExpiresAt > now))
  if (holding.some((seat) => ownsBooking(owner, seat))) return false
  const taken = new Map<string, number>()
  for (const seat of holding) taken.set(seatKey(seat.windowId, seat.start), (taken.get(seatKey(seat.windowId, seat.start)) ?? 0) + 1)
  return plan.some((day) => (taken.get(seatKey(day.windowId, day.start)) ?? 0) >= day.capacity)
}

/** A single session can be booked up to this many days ahead. */
const SINGLE_SESSION_DAYS_AHEAD = 90
/** A 3-day session can be booked in the current month and this many more. */
const SESSION_MONTHS_AHEAD = 3

/**
 * The month a customer's booking calendar shows: the one asked for (else the chosen date's, else
 * this month), kept within the months a session can be booked in, with the months either side
 * that the calendar may step to.
 */
export function bookableMonth(asked: string | null, date: string | null, today: string) {
  const firstMonth = today.slice(0, 7)
  const lastMonth = addMonths(firstMonth, SESSION_MONTHS_AHEAD)
  const wanted = isMonth(asked) ? asked : (date?.slice(0, 7) ?? firstMonth)
  const month = wanted < firstMonth ? firstMonth : wanted > lastMonth ? lastMonth : wanted
  return { month, previousMonth: month > firstMonth ? addMonths(month, -1) : null, nextMonth: month < lastMonth ? addMonths(month, 1) : null }
}

/** The last date a session of `days` days may start on, booked on `today` (Asia/Kolkata). */
export function lastBookableDate(days: number, today: string) {
  return days === 1 ? addDays(today, SINGLE_SESSION_DAYS_AHEAD) : monthBounds(addMonths(today.slice(0, 7), SESSION_MONTHS_AHEAD)).last
}

/**
 * Row locks on availability windows, always taken in id order. Returns each window's capacity as
 * it stands once locked.
 */
export async function lockWindows(executor: Executor, windowIds: number[]) {
  const ids = [...new Set(windowIds)].sort((a, b) => a - b)
  const rows = await executor.select({ id: availabilityWindows.id, capacity: availabilityWindows.capacity }).from(availabilityWindows).where(inArray(availabilityWindows.id, ids)).orderBy(asc(availabilityWindows.id)).for('update')
  return new Map(rows.map((row) => [row.id, row.capacity]))
}

/**
 * Whether each day of a session is still offered at its time, read under its windows' locks (taken
 * by the caller): the hours, a closed time slot, a holiday or a kit leaving the lab may have
 * changed it since the session was planned. A slot of an analysis day is offered while its day's
 * hours still hold it.
 */
export async function stillOffered(executor: Executor, days: ReadonlyArray<{ windowId: number; date: string; start: string }>) {
  if (days.length === 0) return false
  const dates = days.map((day) => day.date).sort()
  const [atTheLab, away] = await Promise.all([
    openWindows(dates[0]!, dates.at(-1)!, executor),
    analysisWindowsAmong(
      days.map((day) => day.windowId),
      executor,
    ),
  ])
  const windows = [...atTheLab, ...away]
  return days.every((day) => {
    const window = windows.find((candidate) => candidate.id === day.windowId)
    const start = toHourMinute(day.start)
    return window !== undefined && !window.closed.includes(start) && timeSlotsOf(window).some((slot) => slot.start === start)
  })
}

/**
 * Can the seats of an unpaid booking be taken again (a payment that arrived after its hold ran
 * out)? Locks its windows and counts everyone else's seats; the caller confirms within the lock.
 */
export async function seatsStillFree(executor: Executor, bookingId: number, now: Date): Promise<boolean> {
  const days = await executor
    .select({ windowId: bookingDays.windowId, date: bookingDays.date, start: bookingDays.startTime, capacity: availabilityWindows.capacity, isHoliday: availabilityWindows.isHoliday })
    .from(bookingDays)
    .innerJoin(availabilityWindows, eq(availabilityWindows.id, bookingDays.windowId))
    .where(eq(bookingDays.bookingId, bookingId))
  if (days.length === 0 || days.some((day) => day.isHoliday) || hasStarted(days[0]!.date, days[0]!.start, now)) return false
  await lockWindows(
    executor,
    days.map((day) => day.windowId),
  )
  if (!(await stillOffered(executor, days))) return false
  const taken = await seatsTaken(
    days.map((day) => day.windowId),
    now,
    executor,
    bookingId,
  )
  return days.every((day) => (taken.get(seatKey(day.windowId, day.start)) ?? 0) < day.capacity)
}

/**
 * Does this swimmer of the account already have a seat at the session's time on one of its dates?
 * Each swimmer has one seat at a time; two swimmers of one account (a parent's children) may share
 * a time slot. A swimmer is their profile, or, for a booking made without one (the single-session
 * form, staff), the name it was booked under.
 */
export async function hasSeatAt(executor: Executor, userId: number, customer: Pick<Customer, 'swimmerId' | 'swimmerName'>, plan: SessionDay[], now: Date, exceptBookingId?: number) {
  const sameName = sql`lower(${bookings.swimmerName}) = lower(${customer.swimmerName})`
  const sameSwimmer = customer.swimmerId !== null ? or(eq(bookings.swimmerId, customer.swimmerId), and(isNull(bookings.swimmerId), sameName)) : sameName
  const rows = await executor
    .select({ date: bookingDays.date, start: bookingDays.startTime })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(
      and(
        eq(bookings.userId, userId),
        sameSwimmer,
        inArray(
          bookingDays.date,
          plan.map((day) => day.date),
        ),
        holdsSeats(now),
        exceptBookingId === undefined ? undefined : ne(bookings.id, exceptBookingId),
      ),
    )
  return rows.some((row) => plan.some((day) => day.date === row.date && day.start === toHourMinute(row.start)))
}

/** Frees the seats of a customer's unpaid holds (a payment still under way there is reconciled as late). */
async function releaseUnpaidHolds(executor: Executor, userId: number, now: Date) {
  await setStatus(executor, bookings, 'expired', eq(bookings.userId, userId), { updatedAt: now })
}

/** Pending bookings whose hold ran out become expired; their seats are already free for others. */
export async function expireStaleHolds(now = new Date()) {
  const expired = await setStatus(db(), bookings, 'expired', lte(bookings.holdExpiresAt, now), { updatedAt: now }).returning({ id: bookings.id })
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
