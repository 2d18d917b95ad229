import { createHash } from 'node:crypto'
import { and, asc, count, eq, isNull, lt, sql } from 'drizzle-orm'
import { database, db, type Executor } from '~/db/client.server'
import { isDatabaseUnavailable } from '~/db/outage.server'
import { analysisDayLine, bookings, type DayLineOutcome } from '~/db/schema'
import { batched, batchedReader } from '~/lib/batched.server'
import { DomainError } from '~/lib/domain-error'
import { beforeNewRequests } from '~/lib/intake.server'
import { addHours } from '~/lib/lab-time'
import { logger } from '~/lib/logger.server'
import { inARush, lineMoves, settledPlace } from '~/modules/holders/arrivals.server'
import { limitHoldAttempts, type Holder } from '~/modules/holders/holders.server'
import { countHits, RateLimitedError, type RateLimitRule } from '~/modules/rate-limit/rate-limit.server'
import { hostLinkOpens } from './analysis-day-booking.server'
import type { AnalysisDayBookingInput } from './analysis-day-schemas'
import { analysisDaySeat, heldDaySlot, publicAnalysisDay, type PublicAnalysisDay } from './analysis-days.server'
import { analysisDayWindows, type WindowRow } from './availability.server'
import { AlreadyBookedError, holdDaySlotIn, SlotUnavailableError } from './holds.server'
import { bookingOfDetails } from './public-booking.server'

/**
 * The line of bookings for analysis days. Every booking sent from a day's page joins it and is
 * answered at once; seats are then given in the order parents arrived, by one instance at a time,
 * many arrivals per transaction. At a day's public release a thousand parents may send the form in
 * the same second: nobody's request waits for the seats' locks behind the others, each is told
 * their place in line, then their outcome (a seat held for them to pay for, their slot taken while
 * others are free, the day full, or why they may not book).
 */

/** Arrivals read and settled at a time. */
const CHUNK = 500

/** The advisory lock that lets one instance at a time settle the line. */
const SETTLER_LOCK = createHash('sha256').update('analysis-day-line:settler').digest().readBigInt64BE(0)

const SETTLED_CHANNEL = 'analysis_day_line_settled'

/** Settled places (with what the parent typed) are deleted this long after. */
const KEEP_SETTLED_HOURS = 24

/** How often one network may join the line: each place is a row until a day after it is settled. */
export const DAY_LINE_LIMIT_PER_NETWORK = { limit: 30, windowSeconds: 10 * 60 } satisfies RateLimitRule

/** Said to a parent whose slot was given to someone who came before them. */
export const SLOT_TAKEN = 'Sorry, that slot was taken while you were deciding. Please choose another.'

export type DayLinePlace = {
  id: number
  analysisDayId: number
  details: AnalysisDayBookingInput
  promoCode: string | null
  hostKey: string | null
  outcome: DayLineOutcome | null
  message: string | null
  field: string | null
  bookingId: number | null
  /** The swimmer of the booking made for the place (who swims may not be who books). */
  swimmerName: string | null
}

/**
 * Puts a booking in line for its day; settling starts at once. The caller has checked the form and
 * that the day takes bookings through the address it came by (the host's key, when given, is checked
 * again when the place is settled). `promoCode` is applied once a seat is held.
 */
export async function joinDayLine({ dayId, details, holder, promoCode = null, hostKey = null, now = new Date() }: { dayId: number; details: AnalysisDayBookingInput; holder: Holder; promoCode?: string | null; hostKey?: string | null; now?: Date }) {
  const place = await joinLine({
    analysisDayId: dayId,
    details,
    email: details.email.toLowerCase(),
    promoCode,
    hostKey,
    holderUserId: holder.userId,
    holderNetwork: holder.network,
    holderBrowser: holder.browser,
    createdAt: now,
  })
  if ('retryAfterSeconds' in place) throw new RateLimitedError(place.retryAfterSeconds)
  void settleDayLine().catch(() => {
    // A waiting parent's page asks again; a database outage is logged by whoever reads next.
  })
  return place
}

/**
 * Puts many parents in line in two statements, in the order they arrived: each counts against
 * their network's limit, and those within it get their place (PostgreSQL returns the rows of a
 * multi-row insert in the order of its values, so each parent is told their own).
 */
const joinLine = batched(async (places: Array<typeof analysisDayLine.$inferInsert>): Promise<Array<{ id: number } | { retryAfterSeconds: number }>> => {
  const counted = await countHits(places.map((place) => ({ key: `analysis-day-line:network:${place.holderNetwork}`, rule: DAY_LINE_LIMIT_PER_NETWORK, now: place.createdAt! })))
  const admitted = places.filter((_, index) => counted[index]!.allowed)
  const ids = new Map((await insertPlaces(admitted)).map((id, index) => [admitted[index]!, id]))
  return places.map((place, index) => {
    const id = ids.get(place)
    return id === undefined ? { retryAfterSeconds: counted[index]!.retryAfterSeconds } : { id }
  })
})

/** Inserts places in line, returning their ids in the same order; the columns go as arrays. */
async function insertPlaces(places: Array<typeof analysisDayLine.$inferInsert>) {
  if (places.length === 0) return []
  const column = <T>(pick: (place: (typeof places)[number]) => T) => sql.param(places.map(pick))
  const { rows } = await db().execute<{ id: number }>(sql`
    INSERT INTO ${analysisDayLine} (analysis_day_id, details, email, promo_code, host_key, holder_user_id, holder_network, holder_browser, created_at)
    SELECT * FROM unnest(${column((place) => place.analysisDayId)}::int[], ${column((place) => JSON.stringify(place.details))}::jsonb[], ${column((place) => place.email)}::text[],
      ${column((place) => place.promoCode ?? null)}::text[], ${column((place) => place.hostKey ?? null)}::text[], ${column((place) => place.holderUserId ?? null)}::int[],
      ${column((place) => place.holderNetwork)}::text[], ${column((place) => place.holderBrowser ?? null)}::text[], ${column((place) => place.createdAt!.toISOString())}::timestamptz[])
    RETURNING id`)
  return rows.map((row) => Number(row.id))
}

let settling: Promise<void> | null = null
let settleAgain = false

/** How long an instance waits to look again while another settles the line. */
const OTHER_SETTLER_MS = 50

/**
 * Settles everyone in line, in arrival order. Runs once at a time in this process (a call while it
 * runs asks for another round); while another instance is settling, it looks again shortly, until
 * it has settled what it found waiting.
 */
export function settleDayLine(): Promise<void> {
  if (settling) {
    settleAgain = true
    return settling
  }
  settling = (async () => {
    do {
      settleAgain = false
      for (;;) {
        const settled = await beforeNewRequests(async () => {
          const settled = await settleChunk(new Date())
          if (settled === 'elsewhere') await new Promise((resolve) => setTimeout(resolve, OTHER_SETTLER_MS))
          return settled
        })
        if (settled === 'chunk') continue
        if (settled === 'elsewhere') settleAgain = true
        break
      }
    } while (settleAgain)
  })().finally(() => {
    settling = null
  })
  return settling
}

/**
 * Whether another instance holds the settler's lock now: a look that costs a query, where reading
 * the line and the day first would be wasted.
 */
async function settlingElsewhere() {
  if (database().kind === 'pglite') return false
  const { rows } = await db().execute<{ held: boolean }>(
    sql`SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = ${SETTLER_LOCK.toString()}::bigint) AS held`,
  )
  return rows[0]?.held === true
}

type Arrival = typeof analysisDayLine.$inferSelect
type Answer = { outcome: Exclude<DayLineOutcome, 'seat'>; message: string | null; field: string | null }
/** An arrival who may get a seat, with what its hold needs (read before the transaction: on PGlite it holds the one connection). */
type Candidate = {
  arrival: Arrival
  holder: Holder
  booking: Awaited<ReturnType<typeof bookingOfDetails>>
  seat: Awaited<ReturnType<typeof analysisDaySeat>>['seat']
  productCode: string
  date: string
  start: string
  /** The day's windows, read once for the chunk's holds on that day. */
  windows: WindowRow[]
}

/**
 * Settles up to CHUNK arrivals. Each day is read once; walking the arrivals in order, a parent whose
 * slot has no seat left (as the walk counts them) is answered without a statement, so a rush of a
 * thousand costs a hold per seat, not per parent. The holds are then tried in one transaction, in
 * order, each in a savepoint (the seats' own locks and counts decide). Says whether more may wait
 * (a full chunk, or places left for the next round), the rest of the line was settled, or nothing
 * because another instance is settling.
 */
async function settleChunk(now: Date): Promise<'chunk' | 'done' | 'elsewhere'> {
  if (await settlingElsewhere()) return 'elsewhere'
  const arrivals = await db().select().from(analysisDayLine).where(isNull(analysisDayLine.outcome)).orderBy(asc(analysisDayLine.id)).limit(CHUNK)
  if (arrivals.length === 0) return 'done'
  const answers = new Map<number, Answer>()
  const candidates: Candidate[] = []
  const days = new Map<number, { day: PublicAnalysisDay | null; left: Map<string, number>; windows?: WindowRow[] }>()
  for (const arrival of arrivals) {
    let seen = days.get(arrival.analysisDayId)
    if (!seen) {
      const day = await publicAnalysisDay(arrival.analysisDayId, now, { fresh: true })
      seen = { day, left: new Map(day?.dates.flatMap((date) => date.slots.map((slot) => [`${date.date}|${slot.start}`, slot.state === 'available' ? slot.left : 0] as const)) ?? []) }
      days.set(arrival.analysisDayId, seen)
    }
    const details = arrival.details as AnalysisDayBookingInput
    const left = seen.left.get(details.slot) ?? 0
    if (!seen.day || left <= 0) {
      answers.set(arrival.id, nothingFor(seen.left))
      continue
    }
    try {
      seen.windows ??= await analysisDayWindows(arrival.analysisDayId)
      candidates.push(await candidateOf(arrival, details, seen.windows, now))
      seen.left.set(details.slot, left - 1)
    } catch (error) {
      answers.set(arrival.id, refusalOf(error, arrival))
    }
  }
  const settled = await db().transaction(async (tx) => {
    const { rows } = await tx.execute<{ locked: boolean }>(sql`SELECT pg_try_advisory_xact_lock(${SETTLER_LOCK.toString()}::bigint) AS locked`)
    if (!rows[0]?.locked) return false
    // Another instance may have settled some of them since they were read.
    const waiting = await tx
      .select({ id: analysisDayLine.id })
      .from(analysisDayLine)
      .where(and(isNull(analysisDayLine.outcome), sql`${analysisDayLine.id} = ANY(${sql.param(arrivals.map((arrival) => arrival.id))}::int[])`))
    const stillWaiting = new Set(waiting.map((row) => row.id))
    // The walk counted every candidate's seat as held: once a hold is refused, what it told those
    // after it may be untrue (a seat it counted is free), so they wait for the next round.
    let firstRefused = Number.POSITIVE_INFINITY
    const seats: Array<{ id: number; bookingId: number }> = []
    for (const candidate of candidates) {
      if (!stillWaiting.has(candidate.arrival.id)) continue
      const answer = await holdFor(tx, candidate, now)
      if ('bookingId' in answer) {
        seats.push({ id: candidate.arrival.id, bookingId: answer.bookingId })
        continue
      }
      answers.set(candidate.arrival.id, answer.outcome === 'taken' ? nothingFor(takenNow(days.get(candidate.arrival.analysisDayId)!.left, candidate)) : answer)
      firstRefused = Math.min(firstRefused, candidate.arrival.id)
    }
    await recordSeats(tx, seats, now)
    const candidateIds = new Set(candidates.map((candidate) => candidate.arrival.id))
    const groups = new Map<string, number[]>()
    for (const [id, answer] of answers) {
      if (!stillWaiting.has(id) || (id > firstRefused && !candidateIds.has(id))) continue
      const key = JSON.stringify([answer.outcome, answer.message, answer.field])
      groups.set(key, [...(groups.get(key) ?? []), id])
    }
    for (const [key, ids] of groups) {
      const [outcome, message, field] = JSON.parse(key) as [Answer['outcome'], string | null, string | null]
      await tx.update(analysisDayLine).set({ outcome, message, field, settledAt: now }).where(sql`${analysisDayLine.id} = ANY(${sql.param(ids)}::int[])`)
    }
    await tx.execute(sql`SELECT pg_notify(${SETTLED_CHANNEL}, '')`)
    return { leftWaiting: firstRefused < Number.POSITIVE_INFINITY }
  })
  // Another instance took the lock meanwhile.
  if (!settled) return 'elsewhere'
  moves.wake()
  return arrivals.length === CHUNK || settled.leftWaiting ? 'chunk' : 'done'
}

/** What a parent is told whose slot has no seat: taken while another is free, else the day full. */
function nothingFor(left: Map<string, number>): Answer {
  return [...left.values()].some((seats) => seats > 0) ? { outcome: 'taken', message: SLOT_TAKEN, field: 'slot' } : { outcome: 'full', message: null, field: null }
}

/** The walk's count after a hold found the candidate's slot taken after all (by a hold made elsewhere). */
function takenNow(left: Map<string, number>, candidate: Candidate) {
  left.set(`${candidate.date}|${candidate.start}`, 0)
  return left
}

/** What a hold of `arrival` needs, read before the settling transaction; a DomainError refuses it. */
async function candidateOf(arrival: Arrival, details: AnalysisDayBookingInput, windows: WindowRow[], now: Date): Promise<Candidate> {
  const holder: Holder = { userId: arrival.holderUserId, email: arrival.email, network: arrival.holderNetwork, browser: arrival.holderBrowser }
  const host = await hostLinkOpens(arrival.analysisDayId, arrival.hostKey)
  const { day, seat } = await analysisDaySeat(arrival.analysisDayId, { host, now })
  const [date, start] = details.slot.split('|') as [string, string]
  const booking = await bookingOfDetails(details, holder, now)
  return { arrival, holder, booking, seat, productCode: day.productCode, date, start, windows }
}

/**
 * One candidate's hold, in a savepoint so that a refusal leaves the chunk's other work standing.
 * Returns the booking holding the seat (its place is recorded with the chunk's others), or the
 * answer to record.
 */
async function holdFor(tx: Executor, { arrival, holder, booking, seat, productCode, date, start, windows }: Candidate, now: Date): Promise<Answer | { bookingId: number }> {
  try {
    return await tx.transaction(async (savepoint) => {
      // An attempt counts against the holder's limits when it reached a seat.
      await limitHoldAttempts(holder, now, savepoint)
      const held = await holdDaySlotIn(savepoint, { ...booking, productCode, date, start, analysisDay: seat, now, windows })
      return { bookingId: held.bookingId }
    })
  } catch (error) {
    if (error instanceof SlotUnavailableError && error.field === undefined) return { outcome: 'taken', message: SLOT_TAKEN, field: 'slot' }
    return refusalOf(error, arrival)
  }
}

/** The places that got a seat, each with the booking holding it, in one statement. */
async function recordSeats(tx: Executor, seats: Array<{ id: number; bookingId: number }>, now: Date) {
  if (seats.length === 0) return
  await tx.execute(sql`
    UPDATE ${analysisDayLine} SET outcome = 'seat', booking_id = seat.booking_id, settled_at = ${now.toISOString()}::timestamptz
    FROM unnest(${sql.param(seats.map((place) => place.id))}::int[], ${sql.param(seats.map((place) => place.bookingId))}::int[]) AS seat(id, booking_id)
    WHERE ${analysisDayLine.id} = seat.id`)
}

/** A refusal to record: the rule's message next to its field. */
function refusalOf(error: unknown, arrival: Arrival): Answer {
  // A slot already booked by the same family is said next to the slots.
  if (error instanceof DomainError) return { outcome: 'refused', message: error.message, field: error instanceof AlreadyBookedError ? 'slot' : (error.field ?? null) }
  // One parent's unexpected failure must not stop the line behind them: the chunk would fail
  // again at every try. Only a database out of reach stops it, until it is back.
  if (isDatabaseUnavailable(error)) throw error
  logger().error({ err: error, dayId: arrival.analysisDayId }, 'a booking in the analysis day line could not be settled')
  return { outcome: 'refused', message: 'Booking could not be completed. Please try again.', field: null }
}

const readPlaces = batchedReader(async (ids: number[]) => {
  const rows = await db()
    .select({
      id: analysisDayLine.id,
      analysisDayId: analysisDayLine.analysisDayId,
      details: analysisDayLine.details,
      promoCode: analysisDayLine.promoCode,
      hostKey: analysisDayLine.hostKey,
      outcome: analysisDayLine.outcome,
      message: analysisDayLine.message,
      field: analysisDayLine.field,
      bookingId: analysisDayLine.bookingId,
      swimmerName: bookings.swimmerName,
    })
    .from(analysisDayLine)
    .leftJoin(bookings, eq(bookings.id, analysisDayLine.bookingId))
    .where(sql`${analysisDayLine.id} = ANY(${sql.param(ids)}::int[])`)
  return new Map(rows.map((row) => [row.id, row as DayLinePlace]))
})

/** A place in line as it stands (reads of many parents at once share one query). */
export function dayLinePlace(id: number): Promise<DayLinePlace | undefined> {
  return readPlaces(id)
}

/** A place in line once it is settled, or as it stands after `waitMs` (see settledPlace). */
export function settledDayPlace(id: number, waitMs: number): Promise<DayLinePlace | undefined> {
  return settledPlace(() => dayLinePlace(id), { waitMs, settle: settleDayLine, moves })
}

/**
 * A place in line once it is settled, for the booking that made it to answer directly while few
 * parents book at once: as it stands after `waitMs`, or as soon as a rush of them is arriving
 * (the answer is then the place in line).
 */
export async function settledOutsideARush(id: number, waitMs: number): Promise<DayLinePlace | undefined> {
  const deadline = Date.now() + waitMs
  for (;;) {
    const place = await dayLinePlace(id)
    const left = deadline - Date.now()
    if (!place || place.outcome || left <= 0 || inARush()) return place
    await moves.next(Math.min(left, 100))
  }
}

/** The slot held for a place in line, if it got one (heldDaySlot): what its page shows and the parent pays for. */
export async function seatOfPlace(placeId: number, now = new Date()) {
  const place = await dayLinePlace(placeId)
  return place?.bookingId ? heldDaySlot(place.bookingId, now) : null
}

/** How many parents are ahead of this one in line. */
export async function placesAheadOnDay(id: number) {
  const [row] = await db()
    .select({ ahead: count() })
    .from(analysisDayLine)
    .where(and(isNull(analysisDayLine.outcome), lt(analysisDayLine.id, id)))
  return row?.ahead ?? 0
}

const moves = lineMoves()

/** Wakes this instance's waiting parents when another instance settles the line. Returns the way to stop. */
export function listenToDayLine() {
  return database().listen(SETTLED_CHANNEL, moves.wake)
}

/** Settled places are forgotten after a day: they hold what the parent typed. */
export async function pruneDayLine(now = new Date()) {
  await db()
    .delete(analysisDayLine)
    .where(lt(analysisDayLine.settledAt, addHours(now, -KEEP_SETTLED_HOURS)))
}
