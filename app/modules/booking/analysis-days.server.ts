import { and, asc, countDistinct, eq, getTableName, gte, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { analysisDays, availabilityWindows, bookingDays, bookings, catalogueItems, kitPlacements, kits, staffAssignments, venues } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addDays, formatClockTime, formatLabDateTime, formatWeekdayDayMonth, labDateParts, labInstant, labToday, toHourMinute } from '~/lib/lab-time'
import { formatRupees } from '~/lib/money'
import { KeptCache, type Kept } from '~/lib/kept-cache.server'
import { sharedRead } from '~/lib/shared-read.server'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { requireOpenVenue } from '~/modules/venues/venues.server'
import { capacityOf } from './analysis-day-capacity'
import type { AnalysisDayInput } from './analysis-day-schemas'
import { tellCityAlerts } from './city-alerts.server'
import { analysisDayWindows, forgetAvailability, holdsSeats, seatKey, seatsTaken, seatUse, type WindowRow } from './availability.server'
import { lockWindows } from './holds.server'
import { datesBetween, timeSlotsOf } from './time-slots'

// Analysis days: the lab's kit at a venue away from the lab on one or more dates, selling one product
// in slots, each date an availability window of the venue (its seats, booked as every other). Staff
// create and edit a day freely until it is published; publishing asks that the venue is open at those
// hours, that enough kits are placed there and that a staff member is there. Until the release only
// the host's private link books (up to the host's seats); from then on everyone.

export class AnalysisDayNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'That analysis day does not exist.')
  }
}

const dayColumns = {
  id: analysisDays.id,
  venueId: analysisDays.venueId,
  productCode: analysisDays.productCode,
  firstDate: analysisDays.firstDate,
  lastDate: analysisDays.lastDate,
  startTime: analysisDays.startTime,
  endTime: analysisDays.endTime,
  slotMinutes: analysisDays.slotMinutes,
  rigs: analysisDays.rigs,
  pricePaise: analysisDays.pricePaise,
  whatToBring: analysisDays.whatToBring,
  hostSeats: analysisDays.hostSeats,
  releaseAt: analysisDays.releaseAt,
  publishedAt: analysisDays.publishedAt,
  closedAt: analysisDays.closedAt,
}

const venueColumns = {
  venueName: venues.name,
  address: venues.address,
  city: venues.city,
  stateCode: venues.stateCode,
  mapUrl: venues.mapUrl,
  photoId: venues.photoId,
}

type DayRow = { id: number; venueId: number; productCode: string; firstDate: string; lastDate: string; startTime: string; endTime: string; slotMinutes: number; rigs: number; pricePaise: number; whatToBring: string; hostSeats: number; releaseAt: Date; publishedAt: Date | null; closedAt: Date | null }

/** A day as its capacity reads it (HH:MM times). */
const shapeOf = (day: Pick<DayRow, 'firstDate' | 'lastDate' | 'startTime' | 'endTime' | 'slotMinutes' | 'rigs'>) => ({ ...day, startTime: toHourMinute(day.startTime), endTime: toHourMinute(day.endTime) })

/** What an analysis day may sell: the catalogue's products, each with its price. */
export function analysisDayProducts() {
  return db().select({ code: catalogueItems.code, name: catalogueItems.name, pricePaise: catalogueItems.pricePaise }).from(catalogueItems).orderBy(asc(catalogueItems.sortOrder))
}

/** The venues an analysis day may be at: every open one but the lab's home, whose own calendar sells its slots. */
export function analysisDayVenues() {
  return db()
    .select({ id: venues.id, name: venues.name, city: venues.city })
    .from(venues)
    .where(and(isNull(venues.closedAt), eq(venues.isHome, false)))
    .orderBy(asc(venues.city), asc(venues.name))
}

/** Every analysis day, those to come first, each with its venue, capacity and seats held (confirmed or unpaid). */
export async function listAnalysisDays(now = new Date()) {
  const rows = await db()
    .select({ ...dayColumns, ...venueColumns, productName: catalogueItems.name })
    .from(analysisDays)
    .innerJoin(venues, eq(venues.id, analysisDays.venueId))
    .innerJoin(catalogueItems, eq(catalogueItems.code, analysisDays.productCode))
    .orderBy(sql`${analysisDays.lastDate} < ${labToday(now)}`, asc(analysisDays.firstDate), asc(analysisDays.id))
  const sold = await seatsHeldByDay(
    rows.map((row) => row.id),
    now,
  )
  return rows.map((row) => ({ ...row, capacity: capacityOf(shapeOf(row)), held: sold.get(row.id) ?? 0 }))
}

/** Seats held per analysis day (confirmed, or unpaid and not run out). */
async function seatsHeldByDay(dayIds: number[], now: Date, executor: Executor = db()) {
  if (dayIds.length === 0) return new Map<number, number>()
  const windows = await executor.select({ id: availabilityWindows.id, dayId: availabilityWindows.analysisDayId }).from(availabilityWindows).where(inArray(availabilityWindows.analysisDayId, dayIds))
  const taken = await seatsTaken(
    windows.map((window) => window.id),
    now,
    executor,
  )
  const held = new Map<number, number>()
  for (const [key, seats] of taken) {
    const window = windows.find((candidate) => key.startsWith(`${candidate.id}|`))
    if (window?.dayId) held.set(window.dayId, (held.get(window.dayId) ?? 0) + seats)
  }
  return held
}

/** One analysis day with its venue and product, for staff. */
export async function analysisDayById(id: number, executor: Executor = db()) {
  const [row] = await executor
    .select({ ...dayColumns, ...venueColumns, productName: catalogueItems.name })
    .from(analysisDays)
    .innerJoin(venues, eq(venues.id, analysisDays.venueId))
    .innerJoin(catalogueItems, eq(catalogueItems.code, analysisDays.productCode))
    .where(eq(analysisDays.id, id))
  if (!row) throw new AnalysisDayNotFoundError()
  return { ...row, capacity: capacityOf(shapeOf(row)) }
}

/**
 * The bookings of a day's slots, whatever their status, for staff: each with its slot and whether
 * the host's link made it; by date, time and when it was made.
 */
export function analysisDayBookings(dayId: number, executor: Executor = db()) {
  return executor
    .select({ reference: bookings.reference, swimmerName: bookings.swimmerName, customerName: bookings.customerName, status: bookings.status, viaHostLink: bookings.viaHostLink, date: bookingDays.date, startTime: bookingDays.startTime })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(inArray(bookingDays.windowId, executor.select({ id: availabilityWindows.id }).from(availabilityWindows).where(eq(availabilityWindows.analysisDayId, dayId))))
    .orderBy(asc(bookingDays.date), asc(bookingDays.startTime), asc(bookings.id))
}

type Readiness = { date: string; open: boolean; hours: string | null; kits: number; staff: number }

/**
 * Whether each date of a day can go ahead at its venue: the venue open for all its hours (a window
 * of the venue's own covering them, no holiday), and how many kits in service and staff members are
 * placed there for all of them.
 */
export async function readinessOf(day: Pick<DayRow, 'venueId' | 'firstDate' | 'lastDate' | 'startTime' | 'endTime'>, executor: Executor = db()): Promise<Readiness[]> {
  const start = toHourMinute(day.startTime)
  const end = toHourMinute(day.endTime)
  const hours = await executor
    .select({ date: availabilityWindows.date, startTime: availabilityWindows.startTime, endTime: availabilityWindows.endTime, isHoliday: availabilityWindows.isHoliday })
    .from(availabilityWindows)
    .where(and(eq(availabilityWindows.venueId, day.venueId), isNull(availabilityWindows.analysisDayId), gte(availabilityWindows.date, day.firstDate), lte(availabilityWindows.date, day.lastDate)))
  return Promise.all(
    datesBetween(day.firstDate, day.lastDate).map(async (date) => {
      const that = hours.filter((window) => window.date === date)
      const open = !that.some((window) => window.isHoliday) && that.some((window) => window.startTime !== null && window.endTime !== null && toHourMinute(window.startTime) <= start && toHourMinute(window.endTime) >= end)
      const opening = that.filter((window) => !window.isHoliday && window.startTime && window.endTime).map((window) => `${formatClockTime(window.startTime!)}–${formatClockTime(window.endTime!)}`)
      const from = labInstant(date, start)
      const to = labInstant(date, end)
      const [[placed], [present]] = await Promise.all([
        executor
          .select({ kits: countDistinct(kitPlacements.kitId) })
          .from(kitPlacements)
          .innerJoin(kits, eq(kits.id, kitPlacements.kitId))
          .where(and(eq(kitPlacements.venueId, day.venueId), isNull(kits.retiredAt), lte(kitPlacements.startsAt, from), gte(kitPlacements.endsAt, to))),
        executor
          .select({ staff: countDistinct(staffAssignments.userId) })
          .from(staffAssignments)
          .where(and(eq(staffAssignments.venueId, day.venueId), lte(staffAssignments.startsAt, from), gte(staffAssignments.endsAt, to))),
      ])
      return { date, open, hours: opening.length ? opening.join(', ') : null, kits: placed?.kits ?? 0, staff: present?.staff ?? 0 }
    }),
  )
}

/** The first reason a day cannot be offered on its dates: the venue's hours, its kits, its staff. */
function notReady(readiness: Readiness[], rigs: number, venueName: string): DomainError | null {
  for (const date of readiness) {
    const when = formatWeekdayDayMonth(date.date)
    if (!date.open)
      return new DomainError('invalid', date.hours ? `${venueName} is open ${date.hours} on ${when}: the day’s hours must lie within them.` : `${venueName} has no opening hours on ${when}. Set them under Opening hours first.`, 'startTime')
  }
  for (const date of readiness) {
    const when = formatWeekdayDayMonth(date.date)
    if (date.kits < rigs) return new DomainError('conflict', `${rigs === 1 ? 'A kit is' : `${rigs} kits are`} needed at ${venueName} on ${when} for all the day’s hours, and ${date.kits === 0 ? 'none is' : `only ${date.kits} ${date.kits === 1 ? 'is' : 'are'}`} placed there. Place ${rigs === 1 ? 'it' : 'them'} under Kits first.`, 'rigs')
    if (date.staff === 0) return new DomainError('conflict', `Nobody of the staff is at ${venueName} on ${when} for all the day’s hours. Add who is there on the venue’s page first.`, 'rigs')
  }
  return null
}

/**
 * Refuses taking away what a published day at the venue relies on (a kit placed there, a staff
 * member there), the removal of `removed` already made in `tx`: the day must still be ready on every
 * date it covers, as publishing asked. A day closed, or over, relies on nothing.
 */
export async function assertDaysStillReady(tx: Executor, venueId: number, removed: { startsAt: Date; endsAt: Date }, now: Date) {
  const from = labDateParts(removed.startsAt).date
  const to = labDateParts(removed.endsAt).date
  const days = await tx
    .select({ ...dayColumns, venueName: venues.name })
    .from(analysisDays)
    .innerJoin(venues, eq(venues.id, analysisDays.venueId))
    .where(and(eq(analysisDays.venueId, venueId), isNotNull(analysisDays.publishedAt), isNull(analysisDays.closedAt), lte(analysisDays.firstDate, to), gte(analysisDays.lastDate, from), gte(analysisDays.lastDate, labToday(now))))
    .orderBy(asc(analysisDays.firstDate))
  for (const day of days) {
    const short = (await readinessOf(day, tx)).find((date) => date.kits < day.rigs || date.staff === 0)
    if (!short) continue
    const needs = short.kits < day.rigs ? `${day.rigs === 1 ? 'a kit' : `${day.rigs} kits`} there` : 'a staff member there'
    throw new DomainError('conflict', `The analysis day at ${day.venueName} on ${formatWeekdayDayMonth(short.date)} is published and needs ${needs} for its hours. Close that day first, or put another in place before removing this.`)
  }
}

/** The refusal of an analysis day at the lab's home, whose slots its own calendar sells. */
async function requireAwayVenue(tx: Executor, venueId: number) {
  const venue = await requireOpenVenue(tx, venueId)
  if (venue.isHome) throw new DomainError('invalid', 'An analysis day is away from the lab: choose another venue. The lab’s own slots are its opening hours.', 'venueId')
  return venue
}

/** The refusal of a time already past: a release, a first date. */
function assertToCome(input: AnalysisDayInput, releaseAt: Date, now: Date, releaseChanged: boolean, datesChanged: boolean) {
  if (datesChanged && input.firstDate < labToday(now)) throw new DomainError('invalid', 'The first date has passed: choose dates to come.', 'firstDate')
  if (releaseChanged && releaseAt <= now) throw new DomainError('invalid', 'The release time has passed: choose a time to come.', 'releaseDate')
}

/**
 * Creates an analysis day (unpublished) with a window of the venue for each of its dates. Refused,
 * with nothing saved, at the lab's home or a closed venue, outside the venue's hours, with a release
 * time past, or more seats for the host than the day has.
 */
export async function createAnalysisDay(actor: Actor, input: AnalysisDayInput, now = new Date()) {
  const releaseAt = labInstant(input.releaseDate, input.releaseTime)
  assertToCome(input, releaseAt, now, true, true)
  try {
    return await db().transaction(async (tx) => {
      const venue = await requireAwayVenue(tx, input.venueId)
      await requireProduct(tx, input.productCode)
      assertHostSeats(input)
      const refusal = notReady(await readinessOf(input, tx), input.rigs, venue.name)
      if (refusal?.field === 'startTime') throw refusal
      const [row] = await tx
        .insert(analysisDays)
        .values({ ...columnsOf(input), releaseAt, createdBy: actor.id, createdAt: now, updatedAt: now })
        .returning({ id: analysisDays.id })
      await writeWindows(tx, row!.id, input, [])
      await recordAudit(tx, actor, { action: 'analysis_days.create', entityType: 'analysis_day', entityId: row!.id, summary: `Created an analysis day at ${venue.name} (${describeDates(input)})`, after: { ...input, releaseAt } }, now)
      return row!.id
    })
  } finally {
    forgetAvailability(getTableName(analysisDays))
  }
}

/**
 * Changes an analysis day. Its windows are locked (as every hold of its seats takes them) before the
 * seats are counted, so a change that would leave a swimmer without their slot (a date, a time, fewer
 * rigs than seats sold at one time) is refused, naming it. A published day is checked again as at
 * publishing.
 */
export async function updateAnalysisDay(actor: Actor, id: number, input: AnalysisDayInput, now = new Date()) {
  try {
    await db().transaction(async (tx) => {
      const before = await lockedDay(tx, id)
      if (before.closedAt) throw new DomainError('conflict', 'This analysis day is closed.')
      const releaseAt = labInstant(input.releaseDate, input.releaseTime)
      assertToCome(input, releaseAt, now, releaseAt.getTime() !== before.releaseAt.getTime(), input.firstDate !== before.firstDate || input.lastDate !== before.lastDate)
      const windows = await analysisDayWindows(id, tx)
      await lockWindows(
        tx,
        windows.map((window) => window.id),
      )
      const booked = await everBooked(
        tx,
        windows.map((window) => window.id),
      )
      if (input.venueId !== before.venueId && booked.size > 0) throw new DomainError('conflict', 'Bookings were made for this day: its venue stays. Close it and create another.', 'venueId')
      const venue = await requireAwayVenue(tx, input.venueId)
      await requireProduct(tx, input.productCode)
      assertHostSeats(input)
      assertSeatsKept(input, windows, await seatsTaken(windows.map((window) => window.id), now, tx), booked)
      const refusal = notReady(await readinessOf(input, tx), input.rigs, venue.name)
      if (refusal && (refusal.field === 'startTime' || before.publishedAt)) throw refusal
      await tx
        .update(analysisDays)
        .set({ ...columnsOf(input), releaseAt, updatedAt: now })
        .where(eq(analysisDays.id, id))
      await writeWindows(tx, id, input, windows)
      await recordAudit(tx, actor, { action: 'analysis_days.update', entityType: 'analysis_day', entityId: id, summary: `Changed the analysis day at ${venue.name} (${describeDates(input)})`, before, after: { ...input, releaseAt } }, now)
    })
  } finally {
    forgetAvailability(getTableName(analysisDays))
  }
}

/** Publishes a day: refused while its venue is not open at its hours, or it lacks kits or staff there, or its release has passed. */
export async function publishAnalysisDay(actor: Actor, id: number, now = new Date()) {
  try {
    await db().transaction(async (tx) => {
      const day = await lockedDay(tx, id)
      if (day.closedAt) throw new DomainError('conflict', 'This analysis day is closed.')
      if (day.publishedAt) return
      if (day.releaseAt <= now) throw new DomainError('invalid', 'The release time has passed: choose a time to come before publishing.', 'releaseDate')
      if (day.firstDate < labToday(now)) throw new DomainError('invalid', 'The first date has passed.', 'firstDate')
      const venue = await requireAwayVenue(tx, day.venueId)
      const refusal = notReady(await readinessOf(day, tx), day.rigs, venue.name)
      if (refusal) throw refusal
      await tx.update(analysisDays).set({ publishedAt: now, updatedAt: now }).where(eq(analysisDays.id, id))
      await tellCityAlerts(tx, { id, dates: describeDates(day) }, now)
      const capacity = capacityOf(shapeOf(day))
      await recordAudit(tx, actor, { action: 'analysis_days.publish', entityType: 'analysis_day', entityId: id, summary: `Published the analysis day at ${venue.name} (${describeDates(day)}; ${capacity.sentence}; opens to everyone ${formatLabDateTime(day.releaseAt)})` }, now)
    })
  } finally {
    forgetAvailability(getTableName(analysisDays))
  }
}

/** Closes a day: no more bookings, gone from the public pages. Refused while a seat is held: those bookings are cancelled first. */
export async function closeAnalysisDay(actor: Actor, id: number, now = new Date()) {
  try {
    await db().transaction(async (tx) => {
      const day = await lockedDay(tx, id)
      if (day.closedAt) return
      const windows = await analysisDayWindows(id, tx)
      await lockWindows(
        tx,
        windows.map((window) => window.id),
      )
      const held = (await seatsHeldByDay([id], now, tx)).get(id) ?? 0
      if (held > 0) throw new DomainError('conflict', `${held === 1 ? 'A booking holds a seat' : `${held} bookings hold seats`} on this day: cancel ${held === 1 ? 'it' : 'them'} first.`)
      await tx.update(analysisDays).set({ closedAt: now, updatedAt: now }).where(eq(analysisDays.id, id))
      await recordAudit(tx, actor, { action: 'analysis_days.close', entityType: 'analysis_day', entityId: id, summary: `Closed the analysis day of ${describeDates(day)} at venue #${day.venueId}` }, now)
    })
  } finally {
    forgetAvailability(getTableName(analysisDays))
  }
}

async function lockedDay(tx: Executor, id: number): Promise<DayRow> {
  const [row] = await tx.select(dayColumns).from(analysisDays).where(eq(analysisDays.id, id)).for('update')
  if (!row) throw new AnalysisDayNotFoundError()
  return row
}

async function requireProduct(tx: Executor, code: string) {
  const [row] = await tx.select({ code: catalogueItems.code }).from(catalogueItems).where(eq(catalogueItems.code, code))
  if (!row) throw new DomainError('invalid', 'Choose what is sold', 'productCode')
}

function assertHostSeats(input: AnalysisDayInput) {
  const { total } = capacityOf(input)
  if (total === 0) throw new DomainError('invalid', 'The hours are shorter than one slot: the day would have no seats.', 'slotMinutes')
  if (input.hostSeats > total) throw new DomainError('invalid', `Keep at most ${total} seats for the host: the day has ${total}.`, 'hostSeats')
}

/**
 * Refuses a change that leaves a seat held without its slot: fewer seats in all than are sold, a date
 * or a time that is held, fewer rigs than swimmers held at one time, or a date that was ever booked.
 */
function assertSeatsKept(input: AnalysisDayInput, windows: WindowRow[], taken: Map<string, number>, booked: Set<number>) {
  const sold = [...taken.values()].reduce((sum, seats) => sum + seats, 0)
  const { total } = capacityOf(input)
  if (total < sold) throw new DomainError('conflict', `A capacity of ${total} ${total === 1 ? 'swimmer' : 'swimmers'} is below the ${sold} ${sold === 1 ? 'seat' : 'seats'} already sold.`, 'rigs')
  const dates = new Set(datesBetween(input.firstDate, input.lastDate))
  const starts = new Set(timeSlotsOf({ date: input.firstDate, startTime: input.startTime, endTime: input.endTime, slotDurationMinutes: input.slotMinutes, isHoliday: false }).map((slot) => slot.start))
  for (const window of windows) {
    if (!dates.has(window.date) && booked.has(window.id)) throw new DomainError('conflict', `Bookings were made on ${formatWeekdayDayMonth(window.date)}: keep that date.`, 'firstDate')
    for (const slot of timeSlotsOf(window)) {
      const seats = taken.get(seatKey(window.id, slot.start)) ?? 0
      if (seats === 0) continue
      const when = `${formatClockTime(slot.start)} on ${formatWeekdayDayMonth(window.date)}`
      if (!dates.has(window.date) || !starts.has(slot.start)) throw new DomainError('conflict', `${seats === 1 ? 'A swimmer is' : `${seats} swimmers are`} booked at ${when}: keep that slot, or cancel ${seats === 1 ? 'the booking' : 'the bookings'} first.`, 'startTime')
      if (seats > input.rigs) throw new DomainError('conflict', `${seats} swimmers are booked at ${when}: keep at least ${seats} rigs.`, 'rigs')
    }
  }
}

/** The windows among these that a booking ever named (any status: a booking keeps its days). */
async function everBooked(tx: Executor, windowIds: number[]) {
  if (windowIds.length === 0) return new Set<number>()
  const rows = await tx.selectDistinct({ windowId: bookingDays.windowId }).from(bookingDays).where(inArray(bookingDays.windowId, windowIds))
  return new Set(rows.map((row) => row.windowId))
}

/** One window per date of the day, with its hours, slot length and a seat per rig; dates no longer in it are removed (never booked, as checked). */
async function writeWindows(tx: Executor, dayId: number, input: AnalysisDayInput, existing: WindowRow[]) {
  const dates = datesBetween(input.firstDate, input.lastDate)
  const hours = { venueId: input.venueId, startTime: input.startTime, endTime: input.endTime, slotDurationMinutes: input.slotMinutes, capacity: input.rigs, isHoliday: false }
  const gone = existing.filter((window) => !dates.includes(window.date)).map((window) => window.id)
  if (gone.length) await tx.delete(availabilityWindows).where(inArray(availabilityWindows.id, gone))
  for (const date of dates) {
    const window = existing.find((candidate) => candidate.date === date)
    if (window) await tx.update(availabilityWindows).set(hours).where(eq(availabilityWindows.id, window.id))
    else await tx.insert(availabilityWindows).values({ ...hours, date, analysisDayId: dayId })
  }
}

function columnsOf(input: AnalysisDayInput) {
  return {
    venueId: input.venueId,
    productCode: input.productCode,
    firstDate: input.firstDate,
    lastDate: input.lastDate,
    startTime: input.startTime,
    endTime: input.endTime,
    slotMinutes: input.slotMinutes,
    rigs: input.rigs,
    pricePaise: input.price,
    whatToBring: input.whatToBring,
    hostSeats: input.hostSeats,
  }
}

/** "Sat 5 Dec" or "Sat 5 Dec to Sun 6 Dec". */
export function describeDates({ firstDate, lastDate }: { firstDate: string; lastDate: string }) {
  return firstDate === lastDate ? formatWeekdayDayMonth(firstDate) : `${formatWeekdayDayMonth(firstDate)} to ${formatWeekdayDayMonth(lastDate)}`
}

// ---------------------------------------------------------------------------------------------
// What the public sees

/** Where a slot of an analysis day stands for anyone. */
export type AnalysisSlotState = 'available' | 'full' | 'not_available'

/** The published, open days whose last date has not passed, with their venue and product. */
function publishedDays(today: string, id?: number) {
  return db()
    .select({ ...dayColumns, ...venueColumns, productName: catalogueItems.name, productDescription: catalogueItems.description })
    .from(analysisDays)
    .innerJoin(venues, eq(venues.id, analysisDays.venueId))
    .innerJoin(catalogueItems, eq(catalogueItems.code, analysisDays.productCode))
    .where(and(isNotNull(analysisDays.publishedAt), isNull(analysisDays.closedAt), gte(analysisDays.lastDate, today), id === undefined ? undefined : eq(analysisDays.id, id)))
    .orderBy(asc(venues.city), asc(analysisDays.firstDate), asc(analysisDays.id))
}

/** The slots of a day's windows, each with its seats left by the lab's clock: begun slots are not available. */
function slotsOf(windows: WindowRow[], taken: Map<string, number>, now: Date) {
  const lab = labDateParts(now)
  return windows.map((window) => ({
    date: window.date,
    slots: timeSlotsOf(window)
      .filter((slot) => !window.closed.includes(slot.start))
      .map((slot) => {
        const left = Math.max(0, window.capacity - (taken.get(seatKey(window.id, slot.start)) ?? 0))
        const begun = window.date < lab.date || (window.date === lab.date && slot.start <= lab.time)
        const state: AnalysisSlotState = begun ? 'not_available' : left === 0 ? 'full' : 'available'
        return { start: slot.start, end: slot.end, left: begun ? 0 : left, state }
      }),
  }))
}

/** Every analysis day to come that the public may see, by city, with its seats left. */
export async function publicAnalysisDays(now = new Date()) {
  const days = await sharedRead(`analysis-days:${labToday(now)}`, () => publishedDays(labToday(now)))
  return Promise.all(
    days.map(async (day) => {
      const { slots } = await daySeats(day.id, now)
      return { ...publicColumns(day), seatsLeft: slots.reduce((sum, date) => sum + date.slots.reduce((left, slot) => left + slot.left, 0), 0), opensLater: day.releaseAt > now }
    }),
  )
}

/** A day's slots and seats: read once for everyone asking at the same moment (a release's rush). */
async function daySeats(dayId: number, now: Date) {
  const { windows, taken } = await sharedRead(`analysis-day-seats:${dayId}`, async () => {
    const windows = await analysisDayWindows(dayId)
    return {
      windows,
      taken: await seatsTaken(
        windows.map((window) => window.id),
        now,
      ),
    }
  })
  return { windows, slots: slotsOf(windows, taken, now) }
}

/**
 * A day's page, and every booking sent from it, read the day from memory: in a release's rush a
 * thousand parents ask at once. Each instance keeps a day's row, windows and seats until the
 * database announces a change of seats, windows or days (`forgetAnalysisDays`), the first unpaid
 * hold among them runs out, a slot begins or the release comes, and a few seconds at most (an
 * edit of the venue's text is not announced on that channel). A hold itself is always decided
 * under the windows' locks, never by this copy.
 */
const keptDays = new KeptCache<string, KeptDay>(200)
const DAY_KEPT_MS = 3000

type KeptDay = { day: Awaited<ReturnType<typeof publishedDays>>[number] | null; windows: WindowRow[]; taken: Map<string, number> }

async function readDay(id: number, today: string, now: Date): Promise<Kept<KeptDay>> {
  const [[day], windows] = await Promise.all([publishedDays(today, id), analysisDayWindows(id)])
  const seats = await seatUse(
    windows.map((window) => window.id),
    now,
  )
  const lab = labDateParts(now)
  const starts = windows.flatMap((window) => timeSlotsOf(window).map((slot) => labInstant(window.date, toHourMinute(slot.start)).getTime())).filter((start) => start > now.getTime())
  const release = day && day.releaseAt > now ? day.releaseAt.getTime() : Infinity
  const nextDay = labInstant(addDays(lab.date, 1), '00:00').getTime()
  return { value: { day: day ?? null, windows, taken: seats.taken }, until: Math.min(now.getTime() + DAY_KEPT_MS, seats.nextRelease, release, nextDay, ...starts) }
}

/** Drops every day kept after a change the database announced on the availability channel (`table` names it). */
export function forgetAnalysisDays(table: string) {
  if (table === 'swimmers' || table === 'guardian_consents') return
  keptDays.clear()
}

function publicColumns(day: Awaited<ReturnType<typeof publishedDays>>[number]) {
  return {
    id: day.id,
    venueName: day.venueName,
    address: day.address,
    city: day.city,
    mapUrl: day.mapUrl,
    photoId: day.photoId,
    productName: day.productName,
    productDescription: day.productDescription,
    productCode: day.productCode,
    firstDate: day.firstDate,
    lastDate: day.lastDate,
    startTime: toHourMinute(day.startTime),
    endTime: toHourMinute(day.endTime),
    slotMinutes: day.slotMinutes,
    pricePaise: day.pricePaise,
    price: formatRupees(day.pricePaise),
    whatToBring: day.whatToBring,
    releaseAt: day.releaseAt,
    hostSeats: day.hostSeats,
  }
}

export type PublicAnalysisDay = NonNullable<Awaited<ReturnType<typeof publicAnalysisDay>>>

/**
 * One published day to come with its slots and seats left, or null (never published, closed, over),
 * as kept in memory (see keptDays). `fresh` reads the database after this call (once for everyone
 * asking meanwhile) and keeps what it read: what a booking reads before it tries a slot, or tells
 * the family theirs was taken, as this instance may not have heard of a change yet.
 */
export async function publicAnalysisDay(id: number, now = new Date(), { fresh = false } = {}) {
  const today = labToday(now)
  const key = `${today}:${id}`
  const read = () => sharedRead(`analysis-day:${key}`, () => readDay(id, today, now))
  return dayAsSeen(await (fresh ? keptDays.refresh(key, read) : keptDays.get(key, read, now.getTime())), now)
}

function dayAsSeen({ day, windows, taken }: KeptDay, now: Date) {
  if (!day) return null
  const slots = slotsOf(windows, taken, now)
  return { ...publicColumns(day), dates: slots, seatsLeft: slots.reduce((sum, date) => sum + date.slots.reduce((left, slot) => left + slot.left, 0), 0), opensLater: day.releaseAt > now }
}

/** Whether any slot of the day can still be booked. */
export function bookable(day: PublicAnalysisDay) {
  return day.dates.some((date) => date.slots.some((slot) => slot.state === 'available'))
}

/**
 * Whether this instance knows, from what it keeps in memory and without waiting for anything, that
 * a booking sent from the public page of day `id` can only be refused because nothing is left to
 * book (every slot taken or begun, after the release): the answer is then the day's page, whatever
 * the form said. False when nothing is kept, the day is not found or not yet released.
 */
export function knownSoldOut(id: number, now = new Date()) {
  const kept = keptDays.peek(`${labToday(now)}:${id}`, now.getTime())
  const day = kept && dayAsSeen(kept, now)
  return !!day && !day.opensLater && !bookable(day)
}

/** Booking opens to everyone at the release; before it, only the host's link books. */
export class NotYetReleasedError extends DomainError {
  constructor(releaseAt: Date) {
    super('conflict', `Booking opens to everyone at ${formatLabDateTime(releaseAt)}.`, 'slot')
  }
}

/**
 * What holding a seat of day `id` takes: the day published and open, the release come (or the host's
 * link, whose seats are then counted under the locks of every window of the day), and its price.
 */
export async function analysisDaySeat(id: number, { host, now }: { host: boolean; now: Date }) {
  const day = await publicAnalysisDay(id, now)
  if (!day) throw new AnalysisDayNotFoundError()
  if (!day.opensLater) return { day, seat: { id, pricePaise: day.pricePaise, host: null } }
  if (!host) throw new NotYetReleasedError(day.releaseAt)
  const windowIds = (await analysisDayWindows(id)).map((window) => window.id)
  return { day, seat: { id, pricePaise: day.pricePaise, host: { seats: day.hostSeats, windowIds } } }
}

/**
 * A slot of an analysis day held by booking `bookingId`, as a page that holds one for a family shows
 * it (a slot offered from the waitlist, a seat from the day's line): when and where, the price, and
 * whether it is still held for them, paid, or over (the hold ran out or was given up).
 */
export async function heldDaySlot(bookingId: number, now = new Date()) {
  const [slot] = await db()
    .select({
      bookingId: bookings.id,
      reference: bookings.reference,
      status: bookings.status,
      holdExpiresAt: bookings.holdExpiresAt,
      amountPaise: bookings.amountPaise,
      swimmerName: bookings.swimmerName,
      date: bookingDays.date,
      startTime: bookingDays.startTime,
      endTime: bookingDays.endTime,
      dayId: analysisDays.id,
      productName: catalogueItems.name,
      venueName: venues.name,
      address: venues.address,
      city: venues.city,
    })
    .from(bookings)
    .innerJoin(bookingDays, eq(bookingDays.bookingId, bookings.id))
    .innerJoin(availabilityWindows, eq(availabilityWindows.id, bookingDays.windowId))
    .innerJoin(analysisDays, eq(analysisDays.id, availabilityWindows.analysisDayId))
    .innerJoin(venues, eq(venues.id, analysisDays.venueId))
    .innerJoin(catalogueItems, eq(catalogueItems.code, analysisDays.productCode))
    .where(eq(bookings.id, bookingId))
    .limit(1)
  if (!slot) return null
  const state = slot.status === 'confirmed' ? ('booked' as const) : slot.status === 'pending' && slot.holdExpiresAt && slot.holdExpiresAt > now ? ('held' as const) : ('ended' as const)
  return { ...slot, startTime: toHourMinute(slot.startTime), endTime: toHourMinute(slot.endTime), state }
}

/** How many swimmers have held an analysis day's seats: used by staff's list (`listAnalysisDays`). */
export async function seatsHeld(dayId: number, now = new Date()) {
  return (await seatsHeldByDay([dayId], now)).get(dayId) ?? 0
}

// ---------------------------------------------------------------------------------------------
// The host's private link, on the public page of its day

/**
 * What the host's link shows before the public release: the host as staff named them with the venue
 * (null when not given), the seats kept for them, and how many of those are still free: the seats
 * held through the link (confirmed, or unpaid and not run out) counted on the day's windows.
 */
export async function hostSeatsOf(dayId: number, now = new Date()) {
  const [[day], [held]] = await Promise.all([
    db().select({ hostName: venues.hostName, seats: analysisDays.hostSeats }).from(analysisDays).innerJoin(venues, eq(venues.id, analysisDays.venueId)).where(eq(analysisDays.id, dayId)),
    db()
      .select({ seats: sql<number>`count(*)::int` })
      .from(bookingDays)
      .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
      .innerJoin(availabilityWindows, eq(availabilityWindows.id, bookingDays.windowId))
      .where(and(eq(availabilityWindows.analysisDayId, dayId), eq(bookings.viaHostLink, true), holdsSeats(now))),
  ])
  if (!day) throw new AnalysisDayNotFoundError()
  return { hostName: day.hostName?.trim() || null, seats: day.seats, left: Math.max(0, day.seats - (held?.seats ?? 0)) }
}
