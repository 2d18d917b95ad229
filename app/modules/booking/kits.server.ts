import { and, asc, eq, getTableName, gt, isNull, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { kitPlacements, kits, venues } from '~/db/schema'
import { isExclusionViolation, isUniqueViolation } from '~/db/unique-violation.server'
import { DomainError } from '~/lib/domain-error'
import { labDateParts, toHourMinute } from '~/lib/lab-time'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { awayRange, describePeriod, periodFrom, rangeSql, type Period } from '~/modules/venues/periods.server'
import type { KitInput, KitPlacementInput } from '~/modules/venues/schemas'
import { requireOpenVenue } from '~/modules/venues/venues.server'
import { activeSeats, stranded, StrandedBookingsError, type StrandedBooking } from './availability-staff.server'
import { assertDaysStillReady } from './analysis-days.server'
import { forgetAvailability, openWindows } from './availability.server'
import { lockWindows } from './holds.server'
import { kitAbsences, noKitAtHome } from './kit-absences.server'
import { timeSlotsOf } from './time-slots'

// The lab's camera rigs and where they go. A kit is at the lab unless placed at another venue; a
// placement's range adds the travel each way and the set-up and packing, and the database refuses
// two placements of one kit that overlap (kit_placements_kit_id_during_excl). A placement that would
// leave the lab without a kit while a session there holds a seat is refused, naming the bookings.

export class KitNotFoundError extends DomainError {
  constructor(field?: string) {
    super('not_found', 'That kit does not exist or is no longer in service.', field)
  }
}

const NAME_TAKEN = 'Another kit already has this name'

/** Every kit, those in service first, each with its placements that have not ended. */
export async function listKits(now = new Date()) {
  const [rows, placements] = await Promise.all([
    db()
      .select({ id: kits.id, name: kits.name, setupMinutes: kits.setupMinutes, retiredAt: kits.retiredAt })
      .from(kits)
      .orderBy(sql`${kits.retiredAt} IS NOT NULL`, asc(kits.name)),
    upcomingPlacements(now),
  ])
  return rows.map((kit) => ({ ...kit, placements: placements.filter((placement) => placement.kitId === kit.id) }))
}

/** The placements that have not ended (of one venue's, when named), soonest first, each with the range the kit is away. */
export async function upcomingPlacements(now = new Date(), venueId?: number) {
  const rows = await db()
    .select({
      id: kitPlacements.id,
      kitId: kitPlacements.kitId,
      kitName: kits.name,
      venueId: kitPlacements.venueId,
      venueName: venues.name,
      city: venues.city,
      startsAt: kitPlacements.startsAt,
      endsAt: kitPlacements.endsAt,
      leavesAt: sql<string>`lower(${kitPlacements.during})`,
      backAt: sql<string>`upper(${kitPlacements.during})`,
      note: kitPlacements.note,
    })
    .from(kitPlacements)
    .innerJoin(kits, eq(kits.id, kitPlacements.kitId))
    .innerJoin(venues, eq(venues.id, kitPlacements.venueId))
    .where(and(gt(kitPlacements.endsAt, now), venueId === undefined ? undefined : eq(kitPlacements.venueId, venueId)))
    .orderBy(asc(kitPlacements.startsAt), asc(kits.name))
  return rows.map((row) => ({ ...row, leavesAt: new Date(row.leavesAt), backAt: new Date(row.backAt) }))
}

/** Kits in service, for a form's list. */
export async function kitsInService() {
  return db().select({ id: kits.id, name: kits.name }).from(kits).where(isNull(kits.retiredAt)).orderBy(asc(kits.name))
}

async function savingKit<T>(work: () => Promise<T>) {
  try {
    return await work()
  } catch (error) {
    if (isUniqueViolation(error, 'kits_name_unique')) throw new DomainError('conflict', NAME_TAKEN, 'name')
    throw error
  } finally {
    forgetAvailability(getTableName(kits))
  }
}

export async function createKit(actor: Actor, input: KitInput, now = new Date()) {
  return savingKit(() =>
    db().transaction(async (tx) => {
      const [row] = await tx
        .insert(kits)
        .values({ ...input, createdAt: now })
        .returning({ id: kits.id })
      await recordAudit(tx, actor, { action: 'kits.create', entityType: 'kit', entityId: row!.id, summary: `Added the kit ${input.name} (${input.setupMinutes} minutes to set up)`, after: input }, now)
      return row!.id
    }),
  )
}

/** Renames a kit or changes its set-up time; placements already made keep the range they were given. */
export async function updateKit(actor: Actor, id: number, input: KitInput, now = new Date()) {
  await savingKit(() =>
    db().transaction(async (tx) => {
      const [before] = await tx.select({ name: kits.name, setupMinutes: kits.setupMinutes }).from(kits).where(eq(kits.id, id)).for('update')
      if (!before) throw new KitNotFoundError()
      await tx.update(kits).set(input).where(eq(kits.id, id))
      await recordAudit(tx, actor, { action: 'kits.update', entityType: 'kit', entityId: id, summary: `Changed the kit ${input.name}`, before, after: input }, now)
    }),
  )
}

/**
 * Takes a kit out of service. Refused while it is placed somewhere from now on, and for the last kit
 * in service: without one, no session at the lab could be booked.
 */
export async function retireKit(actor: Actor, id: number, now = new Date()) {
  await savingKit(() =>
    db().transaction(async (tx) => {
      const inService = await tx.select({ id: kits.id, name: kits.name }).from(kits).where(isNull(kits.retiredAt)).orderBy(asc(kits.id)).for('update')
      const kit = inService.find((candidate) => candidate.id === id)
      if (!kit) throw new KitNotFoundError()
      if (inService.length === 1) throw new DomainError('conflict', 'This is the last kit in service: sessions at the lab need one. Add another kit before retiring this one.')
      const [placed] = await tx.select({ id: kitPlacements.id }).from(kitPlacements).where(and(eq(kitPlacements.kitId, id), gt(kitPlacements.endsAt, now))).limit(1)
      if (placed) throw new DomainError('conflict', `${kit.name} is still placed at a venue. Remove its placements first.`)
      await tx.update(kits).set({ retiredAt: now }).where(eq(kits.id, id))
      await recordAudit(tx, actor, { action: 'kits.retire', entityType: 'kit', entityId: id, summary: `Took the kit ${kit.name} out of service` }, now)
    }),
  )
}

/** A time slot at the lab, on a date, from a time. */
export type LabSlot = { date: string; start: string }

/** What placing a kit would do, shown before it is saved and checked again when it is. */
export type PlacementReview = {
  kitName: string
  venueName: string
  period: Period
  /** The kit away from the lab: the travel, set-up and packing around the period. */
  away: Period
  /** Another placement of the kit whose range overlaps. */
  clash: { venueName: string; away: Period } | null
  /** The lab's time slots no kit would be at the lab for. */
  closing: LabSlot[]
  /** Bookings holding a seat in those slots. */
  stranded: StrandedBooking[]
}

async function reviewIn(executor: Executor, input: KitPlacementInput, now: Date, lock: boolean): Promise<PlacementReview> {
  const period = periodFrom(input, now)
  const venue = await requireOpenVenue(executor, input.venueId)
  if (venue.isHome) throw new DomainError('invalid', 'A kit is at the lab unless it is placed elsewhere: choose another venue', 'venueId')
  const kitQuery = executor.select({ id: kits.id, name: kits.name, setupMinutes: kits.setupMinutes }).from(kits).where(and(eq(kits.id, input.kitId), isNull(kits.retiredAt)))
  // Shared: placements of one kit do not wait for each other (the database refuses an overlap), but
  // retiring the kit waits for them.
  const [kit] = lock ? await kitQuery.for('share') : await kitQuery
  if (!kit) throw new KitNotFoundError('kitId')
  const away = awayRange(period, venue.travelMinutes + kit.setupMinutes)
  const [first, last] = [labDateParts(away.startsAt).date, labDateParts(away.endsAt).date]

  const windows = await openWindows(first, last, executor)
  // Under the windows' locks, every hold, change and staff booking of those dates waits for this placement.
  if (lock) await lockWindows(
    executor,
    windows.map((window) => window.id),
  )
  const absences = await kitAbsences(first, last, executor)
  const withThis = { ...absences, away: [...absences.away, { kitId: kit.id, from: away.startsAt.getTime(), to: away.endsAt.getTime() }] }
  const closing: Array<LabSlot & { windowId: number }> = []
  for (const window of windows) {
    for (const slot of timeSlotsOf(window)) {
      if (window.closed.includes(slot.start)) continue
      if (noKitAtHome(withThis, window.date, slot)) closing.push({ windowId: window.id, date: window.date, start: slot.start })
    }
  }
  const seats = await activeSeats(
    executor,
    [...new Set(closing.map((slot) => slot.windowId))],
    now,
  )
  const strandedSeats = seats.filter((seat) => closing.some((slot) => slot.windowId === seat.windowId && slot.start === toHourMinute(seat.start)))

  const [clash] = await executor
    .select({ venueName: venues.name, leavesAt: sql<string>`lower(${kitPlacements.during})`, backAt: sql<string>`upper(${kitPlacements.during})` })
    .from(kitPlacements)
    .innerJoin(venues, eq(venues.id, kitPlacements.venueId))
    .where(and(eq(kitPlacements.kitId, kit.id), sql`${kitPlacements.during} && ${rangeSql(away)}`))
    .orderBy(asc(kitPlacements.startsAt))
    .limit(1)
  return {
    kitName: kit.name,
    venueName: venue.name,
    period,
    away,
    clash: clash ? { venueName: clash.venueName, away: { startsAt: new Date(clash.leavesAt), endsAt: new Date(clash.backAt) } } : null,
    closing: closing.map(({ date, start }) => ({ date, start })),
    stranded: stranded(strandedSeats),
  }
}

/** What placing the kit would do, without saving anything: the staff's check before they save. */
export function reviewPlacement(input: KitPlacementInput, now = new Date()) {
  return reviewIn(db(), input, now, false)
}

/** The message for a kit already elsewhere, next to the start of the period. */
const clashError = (kitName: string, clash: NonNullable<PlacementReview['clash']>) =>
  new DomainError('conflict', `${kitName} is away at ${clash.venueName} from ${describePeriod(clash.away)} (travel and set-up included), which overlaps. Choose other times or another kit.`, 'fromDate')

/**
 * Places a kit at a venue for a period. Refused, with nothing saved, when the kit is elsewhere then
 * (checked by the database itself) or when sessions at the lab would be left without a kit.
 */
export async function placeKit(actor: Actor, input: KitPlacementInput, now = new Date()) {
  let kitName = ''
  try {
    return await db().transaction(async (tx) => {
      const review = await reviewIn(tx, input, now, true)
      kitName = review.kitName
      const refusal = placementRefusal(review)
      if (refusal) throw refusal
      const [row] = await tx
        .insert(kitPlacements)
        .values({ kitId: input.kitId, venueId: input.venueId, ...review.period, during: rangeSql(review.away), note: input.note, createdBy: actor.id, createdAt: now })
        .returning({ id: kitPlacements.id })
      await recordAudit(
        tx,
        actor,
        {
          action: 'kits.place',
          entityType: 'kit_placement',
          entityId: row!.id,
          summary: `Placed ${review.kitName} at ${review.venueName} from ${describePeriod(review.period)} (away from ${describePeriod(review.away)}; ${review.closing.length} time ${review.closing.length === 1 ? 'slot' : 'slots'} at the lab closed)`,
          after: { kitId: input.kitId, venueId: input.venueId, ...review.period, away: review.away },
        },
        now,
      )
      return row!.id
    })
  } catch (error) {
    if (!isExclusionViolation(error, 'kit_placements_kit_id_during_excl')) throw error
    // The overlapping placement committed while this one was being made: name it, as the review would.
    const review = await reviewPlacement(input, now)
    throw review.clash ? clashError(review.kitName, review.clash) : new DomainError('conflict', `${kitName} is away at that time. Choose other times or another kit.`, 'fromDate')
  } finally {
    forgetAvailability(getTableName(kitPlacements))
  }
}

/** Brings a kit's placement back off the plan (its time slots at the lab open again); one already over stays on record. */
export async function removePlacement(actor: Actor, id: number, now = new Date()) {
  try {
    await db().transaction(async (tx) => {
      const [row] = await tx
        .delete(kitPlacements)
        .where(and(eq(kitPlacements.id, id), gt(kitPlacements.endsAt, now)))
        .returning({ kitId: kitPlacements.kitId, venueId: kitPlacements.venueId, startsAt: kitPlacements.startsAt, endsAt: kitPlacements.endsAt })
      if (!row) throw new DomainError('not_found', 'That placement is over or no longer planned.')
      await assertDaysStillReady(tx, row.venueId, row, now)
      await recordAudit(tx, actor, { action: 'kits.unplace', entityType: 'kit_placement', entityId: id, summary: `Removed kit #${row.kitId}'s placement at venue #${row.venueId} (${describePeriod(row)})`, before: row }, now)
    })
  } finally {
    forgetAvailability(getTableName(kitPlacements))
  }
}

/** A placement's clash as the review found it, as the refusal a save would give. */
export function placementRefusal(review: PlacementReview): DomainError | null {
  if (review.clash) return clashError(review.kitName, review.clash)
  if (review.stranded.length) return new StrandedBookingsError(review.stranded)
  return null
}
