import { createHash } from 'node:crypto'
import { and, asc, count, eq, isNull, lt, sql } from 'drizzle-orm'
import { database, db, type Executor } from '~/db/client.server'
import { prepared } from '~/db/prepared.server'
import { isDatabaseUnavailable } from '~/db/outage.server'
import { campLine, type CampLineOutcome } from '~/db/schema'
import { batched, batchedReader } from '~/lib/batched.server'
import { addHours } from '~/lib/lab-time'
import { logger } from '~/lib/logger.server'
import type { Holder } from '~/modules/holders/holders.server'
import { limitHoldAttempts } from '~/modules/holders/holders.server'
import { lineMoves, settledPlace } from '~/modules/holders/arrivals.server'
import { DomainError } from '~/lib/domain-error'
import { countHits, RateLimitedError, type RateLimitRule } from '~/modules/rate-limit/rate-limit.server'
import { listCamps } from '~/modules/site/site.server'
import { assertMayDeclareAsGuardian } from '~/modules/swimmers/consent.server'
import { registrationOpen } from './camps.server'
import { alreadyRegisteredInstead, BatchFullError, BatchNotInCampError, CampNotFoundError, holdCampSeatIn, RegistrationClosedError, type CampApplicant } from './registrations.server'

/**
 * The camp line. Every camp registration joins it and is answered at once; seats are then given in
 * the order parents arrived, by one instance at a time, many arrivals per transaction. When
 * thousands of parents register in the same second, no request waits for a batch's lock behind
 * the others: each parent is told their place in line, then their outcome (a seat held for them
 * to pay for, the batch full, or why they may not hold one).
 */

/** Arrivals settled in one transaction. */
const CHUNK = 500

/** The advisory lock that lets one instance at a time settle the line. */
const SETTLER_LOCK = createHash('sha256').update('camp-line:settler').digest().readBigInt64BE(0)

const SETTLED_CHANNEL = 'camp_line_settled'

/** Settled rows (with the details the parent typed) are deleted this long after. */
const KEEP_SETTLED_HOURS = 24

export type LineArrival = {
  id: number
  campCode: string
  batchCode: string
  swimmerName: string
  email: string
  phone: string
  outcome: CampLineOutcome | null
  message: string | null
  registrationId: number | null
  /** The promo code the parent typed, to apply once a seat is held. */
  promoCode: string | null
}

/** How often one network may join the line: each place is a row until a day after it is settled. */
export const LINE_LIMIT_PER_NETWORK = { limit: 30, windowSeconds: 10 * 60 } satisfies RateLimitRule

/**
 * Puts a registration in line; settling starts at once. A camp or batch that does not exist, or a
 * camp that takes no registrations, is refused here, before the line, and so is a signed-in account
 * that may not make the form's parent-or-guardian declaration (a swimmer under 18's own account).
 */
export async function joinCampLine({
  campCode,
  batchCode,
  applicant,
  holder,
  promoCode = null,
  now = new Date(),
}: {
  campCode: string
  batchCode: string
  applicant: CampApplicant & { guardianDeclaration: true }
  holder: Holder
  /** A code already checked (previewCode): applied once the seat is held. */
  promoCode?: string | null
  now?: Date
}) {
  if (holder.userId !== null) await assertMayDeclareAsGuardian(holder.userId, now)
  const camp = (await listCamps(now)).find((candidate) => candidate.code === campCode)
  if (!camp) throw new CampNotFoundError()
  if (!camp.batches.some((batch) => batch.code === batchCode)) throw new BatchNotInCampError(camp.name)
  if (!registrationOpen(camp, now)) throw new RegistrationClosedError(camp.name)
  const place = await joinLine({
    campCode,
    batchCode,
    swimmerName: applicant.swimmerName,
    email: applicant.email.toLowerCase(),
    phone: applicant.phone,
    holderUserId: holder.userId,
    holderNetwork: holder.network,
    holderBrowser: holder.browser,
    promoCode,
    createdAt: now,
  })
  if ('retryAfterSeconds' in place) throw new RateLimitedError(place.retryAfterSeconds)
  void settleCampLine().catch(() => {
    // A waiting parent's page asks again; a database outage is logged by whoever reads next.
  })
  return place
}

/**
 * Puts many parents in line in two statements, in the order they arrived: each counts against
 * their network's limit, and those within it get their place (PostgreSQL returns the rows of a
 * multi-row insert in the order of its values, so each parent is told their own).
 */
const joinLine = batched(async (places: Array<typeof campLine.$inferInsert>): Promise<Array<{ id: number } | { retryAfterSeconds: number }>> => {
  const counted = await countHits(places.map((place) => ({ key: `camp-line:network:${place.holderNetwork}`, rule: LINE_LIMIT_PER_NETWORK, now: place.createdAt! })))
  const admitted = places.filter((_, index) => counted[index]!.allowed)
  const ids = new Map((await insertPlaces(admitted)).map((id, index) => [admitted[index]!, id]))
  return places.map((place, index) => {
    const id = ids.get(place)
    return id === undefined ? { retryAfterSeconds: counted[index]!.retryAfterSeconds } : { id }
  })
})

/**
 * Inserts places in line, returning their ids in the same order. The columns go as arrays: a
 * statement of hundreds of places costs no more to build than one of a few.
 */
async function insertPlaces(places: Array<typeof campLine.$inferInsert>) {
  if (places.length === 0) return []
  const column = <T>(pick: (place: (typeof places)[number]) => T) => sql.param(places.map(pick))
  const { rows } = await db().execute<{ id: number }>(sql`
    INSERT INTO ${campLine} (camp_code, batch_code, swimmer_name, email, phone, holder_user_id, holder_network, holder_browser, promo_code, created_at)
    SELECT * FROM unnest(${column((place) => place.campCode)}::text[], ${column((place) => place.batchCode)}::text[], ${column((place) => place.swimmerName)}::text[],
      ${column((place) => place.email)}::text[], ${column((place) => place.phone)}::text[], ${column((place) => place.holderUserId ?? null)}::int[],
      ${column((place) => place.holderNetwork)}::text[], ${column((place) => place.holderBrowser ?? null)}::text[], ${column((place) => place.promoCode ?? null)}::text[],
      ${column((place) => place.createdAt!.toISOString())}::timestamptz[])
    RETURNING id`)
  return rows.map((row) => Number(row.id))
}

let settling: Promise<void> | null = null
let settleAgain = false

/**
 * Settles everyone in line, in arrival order. Runs once at a time in this process (a call while it
 * runs asks for another round); another instance already settling makes it return at once.
 */
export function settleCampLine(): Promise<void> {
  if (settling) {
    settleAgain = true
    return settling
  }
  settling = (async () => {
    do {
      settleAgain = false
      while (await settleChunk(new Date())) {
        // A whole chunk was settled: more may be waiting.
      }
    } while (settleAgain)
  })().finally(() => {
    settling = null
  })
  return settling
}

/**
 * Settles up to CHUNK arrivals in one transaction. Once a batch turns out full, everyone after in
 * this chunk who asked for it is told so without another statement: a rush of thousands costs a
 * statement per seat, not per parent. Returns whether a full chunk was settled.
 */
async function settleChunk(now: Date): Promise<boolean> {
  const settled = await db().transaction(async (tx) => {
    const { rows } = await tx.execute<{ locked: boolean }>(sql`SELECT pg_try_advisory_xact_lock(${SETTLER_LOCK.toString()}::bigint) AS locked`)
    if (!rows[0]?.locked) return null
    const arrivals = await tx.select().from(campLine).where(isNull(campLine.outcome)).orderBy(asc(campLine.id)).limit(CHUNK)
    const fullBatches = new Map<string, string>()
    const answers: Array<{ id: number; outcome: Answer; message: string }> = []
    for (const arrival of arrivals) {
      const batchKey = `${arrival.campCode}\n${arrival.batchCode}`
      const fullMessage = fullBatches.get(batchKey)
      if (fullMessage) {
        answers.push({ id: arrival.id, outcome: 'full', message: fullMessage })
        continue
      }
      const answer = await settleOne(tx, arrival, now)
      if (answer?.outcome === 'full') fullBatches.set(batchKey, answer.message)
      if (answer) answers.push({ id: arrival.id, ...answer })
    }
    for (const outcome of ['full', 'refused', 'limited'] as const) {
      for (const [message, ids] of groupBy(answers.filter((answer) => answer.outcome === outcome))) {
        await tx.update(campLine).set({ outcome, message, settledAt: now }).where(sql`${campLine.id} = ANY(${sql.param(ids)}::int[])`)
      }
    }
    if (arrivals.length > 0) await tx.execute(sql`SELECT pg_notify(${SETTLED_CHANNEL}, '')`)
    return arrivals.length
  })
  if (settled) moves.wake()
  return settled === CHUNK
}

/**
 * One arrival with a seat possibly free: the hold is tried in a savepoint, so a refusal leaves the
 * chunk's other work standing. Returns the answer to record, or null when a seat was held (and
 * recorded with the hold).
 */
async function settleOne(tx: Executor, arrival: typeof campLine.$inferSelect, now: Date): Promise<{ outcome: Answer; message: string } | null> {
  // Only a declaration lets anyone into the line (joinCampLine), so every arrival made it.
  const applicant = { swimmerName: arrival.swimmerName, email: arrival.email, phone: arrival.phone, guardianDeclaration: true }
  const holder: Holder = { userId: arrival.holderUserId, email: arrival.email, network: arrival.holderNetwork, browser: arrival.holderBrowser }
  try {
    await tx.transaction(async (savepoint) => {
      const hold = await holdCampSeatIn(savepoint, { campCode: arrival.campCode, batchCode: arrival.batchCode, applicant, holder, now })
      // An attempt counts against the holder's limits when it reached a seat.
      await limitHoldAttempts(holder, now, savepoint)
      await savepoint.update(campLine).set({ outcome: 'seat', registrationId: hold.id, settledAt: now }).where(eq(campLine.id, arrival.id))
    })
    return null
  } catch (caught) {
    const error = await alreadyRegisteredInstead(caught, arrival.campCode, applicant, tx)
    if (error instanceof BatchFullError) return { outcome: 'full', message: error.message }
    if (error instanceof RateLimitedError) return { outcome: 'limited', message: error.message }
    if (error instanceof DomainError) return { outcome: 'refused', message: error.message }
    // One parent's unexpected failure must not stop the line behind them: the chunk would fail
    // again at every try. Only a database out of reach stops it, until it is back.
    if (isDatabaseUnavailable(error)) throw error
    logger().error({ err: error, campCode: arrival.campCode }, 'a camp registration in line could not be settled')
    return { outcome: 'refused', message: 'Registration could not be completed. Please try again.' }
  }
}

type Answer = Exclude<CampLineOutcome, 'seat'>

function groupBy(answers: Array<{ id: number; message: string }>) {
  const groups = new Map<string, number[]>()
  for (const { id, message } of answers) {
    const ids = groups.get(message)
    if (ids) ids.push(id)
    else groups.set(message, [id])
  }
  return groups
}

const readArrivals = batchedReader(async (ids: number[]) => {
  const rows = await prepared('camp_line_arrivals', (database) =>
    database
      .select({
        id: campLine.id,
        campCode: campLine.campCode,
        batchCode: campLine.batchCode,
        swimmerName: campLine.swimmerName,
        email: campLine.email,
        phone: campLine.phone,
        outcome: campLine.outcome,
        message: campLine.message,
        registrationId: campLine.registrationId,
        promoCode: campLine.promoCode,
      })
      .from(campLine)
      .where(sql`${campLine.id} = ANY(${sql.placeholder('ids')})`)
      .prepare('camp_line_arrivals'),
  ).execute({ ids })
  return new Map(rows.map((row) => [row.id, row as LineArrival]))
})

/** A place in line as it stands (reads of many parents at once share one query). */
export function lineArrival(id: number): Promise<LineArrival | undefined> {
  return readArrivals(id)
}

/** A place in line once it is settled, or as it stands after `waitMs` (see settledPlace). */
export function settledArrival(id: number, waitMs: number): Promise<LineArrival | undefined> {
  return settledPlace(() => lineArrival(id), { waitMs, settle: settleCampLine, moves })
}

/** How many parents are ahead of this one in line. */
export async function placesAhead(id: number) {
  const [row] = await db()
    .select({ ahead: count() })
    .from(campLine)
    .where(and(isNull(campLine.outcome), lt(campLine.id, id)))
  return row?.ahead ?? 0
}

const moves = lineMoves()

/** Wakes this instance's waiting parents when another instance settles the line. Returns the way to stop. */
export function listenToCampLine() {
  return database().listen(SETTLED_CHANNEL, moves.wake)
}

/** Settled places are forgotten after a day: they hold what the parent typed. */
export async function pruneCampLine(now = new Date()) {
  await db()
    .delete(campLine)
    .where(lt(campLine.settledAt, addHours(now, -KEEP_SETTLED_HOURS)))
}
