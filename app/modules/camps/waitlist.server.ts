import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { config } from '~/config.server'
import { db } from '~/db/client.server'
import { linkKeyMaker } from '~/db/secrets.server'
import { campBatches, campRegistrations, camps, campWaitlist } from '~/db/schema'
import { formatClockTime, formatLongDate, formatRupees, labDateParts } from '~/lib/format'
import { enqueueEmail, type Executor } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { campPrice, campSeatsTaken, registrationOpen } from './camps.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { AlreadyRegisteredError, campHoldLimits, insertRegistration, isUniqueViolation, lockBatchOrExplain, RegistrationClosedError, sameSwimmer, type CampApplicant } from './registrations.server'

export class AlreadyWaitingError extends Error {
  constructor(swimmerName: string) {
    super(`${swimmerName} is already on the waitlist for this batch.`)
    this.name = 'AlreadyWaitingError'
  }
}

const seatFreedListeners = new Set<() => void>()

/** Lets the worker offer a freed seat to the waitlist at once rather than at its next round. */
export function onCampSeatFreed(listener: () => void) {
  seatFreedListeners.add(listener)
  return () => seatFreedListeners.delete(listener)
}

/** Called when a camp seat frees up (inside the transaction that frees it; listeners run after). */
export function campSeatFreed() {
  setImmediate(() => {
    for (const listener of seatFreedListeners) listener()
  })
}

/** The purpose of the key in a waitlist offer's link. */
export const OFFER_LINK = 'camp-offer'

export async function lockBatchById(executor: Executor, batchId: number) {
  const [row] = await executor
    .select({
      campId: camps.id,
      campName: camps.name,
      startsOn: camps.startsOn,
      isOpen: camps.isOpen,
      earlyBirdPricePaise: camps.earlyBirdPricePaise,
      regularPricePaise: camps.regularPricePaise,
      earlyBirdEndsAt: camps.earlyBirdEndsAt,
      batchName: campBatches.name,
      capacity: campBatches.capacity,
    })
    .from(campBatches)
    .innerJoin(camps, eq(camps.id, campBatches.campId))
    .where(eq(campBatches.id, batchId))
    .for('update', { of: campBatches })
  return row ?? null
}

/** Puts a swimmer in the queue for a full batch; returns their place in it. */
export async function joinWaitlist({ campCode, batchCode, applicant, ip, now = new Date() }: { campCode: string; batchCode: string; applicant: CampApplicant; ip: string; now?: Date }) {
  await enforce(campHoldLimits(ip, applicant.email), now)
  try {
    return await db().transaction(async (tx) => {
      const batch = await lockBatchOrExplain(tx, campCode, batchCode)
      if (!registrationOpen(batch, now)) throw new RegistrationClosedError(batch.campName)
      const [registered] = await tx
        .select({ id: campRegistrations.id })
        .from(campRegistrations)
        .where(and(sameSwimmer(batch.campId, applicant), eq(campRegistrations.status, 'confirmed')))
      if (registered) throw new AlreadyRegisteredError(applicant.swimmerName, batch.campName)
      await tx.insert(campWaitlist).values({ campId: batch.campId, batchId: batch.batchId, swimmerName: applicant.swimmerName, email: applicant.email.toLowerCase(), phone: applicant.phone, createdAt: now })
      const [{ position } = { position: 1 }] = await tx
        .select({ position: sql<number>`count(*)::int` })
        .from(campWaitlist)
        .where(and(eq(campWaitlist.batchId, batch.batchId), eq(campWaitlist.status, 'waiting')))
      await enqueueEmail(
        letter({
          to: applicant.email.toLowerCase(),
          subject: `You're on the waitlist: ${batch.campName}, ${batch.batchName}`,
          name: applicant.swimmerName,
          paragraphs: [
            `${batch.batchName} of ${batch.campName} is full, and ${applicant.swimmerName} is number ${position} on its waitlist.`,
            `When a seat frees up we hold it for you for ${config().WAITLIST_OFFER_HOURS} hours and e-mail you a link to pay. There is nothing to pay until then.`,
          ],
        }),
        tx,
        now,
      )
      return { campName: batch.campName, batchName: batch.batchName, position }
    })
  } catch (error) {
    if (isUniqueViolation(error, 'camp_waitlist_one_per_swimmer')) throw new AlreadyWaitingError(applicant.swimmerName)
    throw error
  }
}

/**
 * Offers every freed seat to the first in line for its batch: a registration holding the seat for
 * WAITLIST_OFFER_HOURS, and an e-mail with a link to pay. Batches are locked one at a time, so
 * instances running this side by side never offer one seat twice.
 */
export async function offerFreedSeats(now = new Date()) {
  const batches = await db().selectDistinct({ batchId: campWaitlist.batchId }).from(campWaitlist).where(eq(campWaitlist.status, 'waiting'))
  const offerKey = await linkKeyMaker(OFFER_LINK)
  let offered = 0
  for (const { batchId } of batches) offered += await offerSeatsOf(batchId, offerKey, now)
  return offered
}

async function offerSeatsOf(batchId: number, offerKey: (reference: string) => string, now: Date) {
  return db().transaction(async (tx) => {
    const batch = await lockBatchById(tx, batchId)
    if (!batch || !registrationOpen(batch, now)) return 0
    let free = batch.capacity - ((await campSeatsTaken([batchId], now, tx)).get(batchId) ?? 0)
    if (free <= 0) return 0
    const queue = await tx
      .select({ id: campWaitlist.id, swimmerName: campWaitlist.swimmerName, email: campWaitlist.email, phone: campWaitlist.phone })
      .from(campWaitlist)
      .where(and(eq(campWaitlist.batchId, batchId), eq(campWaitlist.status, 'waiting')))
      .orderBy(asc(campWaitlist.id))
    let offered = 0
    for (const person of queue) {
      if (free <= 0) break
      const [live] = await tx
        .select({ status: campRegistrations.status })
        .from(campRegistrations)
        .where(and(sameSwimmer(batch.campId, person), inArray(campRegistrations.status, ['pending', 'confirmed'])))
      // Registered meanwhile (another batch, or by hand): they no longer wait. A payment of theirs
      // still under way elsewhere: the next person gets this seat.
      if (live?.status === 'confirmed') await tx.update(campWaitlist).set({ status: 'cancelled' }).where(eq(campWaitlist.id, person.id))
      if (live) continue
      const holdExpiresAt = new Date(now.getTime() + config().WAITLIST_OFFER_HOURS * 3_600_000)
      const amountPaise = campPrice(batch, now)
      const registration = await insertRegistration(tx, {
        campId: batch.campId,
        batchId,
        swimmerName: person.swimmerName,
        email: person.email,
        phone: person.phone,
        amountPaise,
        status: 'pending',
        holdExpiresAt,
        createdAt: now,
        updatedAt: now,
      })
      await tx.update(campWaitlist).set({ status: 'offered', registrationId: registration.id, offeredAt: now }).where(eq(campWaitlist.id, person.id))
      const link = `${config().SITE_URL}/onboarding/offer?${new URLSearchParams({ registration: registration.reference, key: offerKey(registration.reference) })}`
      const until = labDateParts(holdExpiresAt)
      await enqueueEmail(
        letter({
          to: person.email,
          subject: `A seat is free: ${batch.campName}, ${batch.batchName}`,
          name: person.swimmerName,
          paragraphs: [
            `Good news: a seat in ${batch.batchName} of ${batch.campName} has freed up, and we are holding it for ${person.swimmerName}.`,
            `Pay ${formatRupees(amountPaise)} by ${formatClockTime(until.time)} IST on ${formatLongDate(until.date)} to confirm it; after that it goes to the next person on the waitlist.`,
          ],
          details: [['Registration ID', registration.reference]],
          action: { label: 'Pay and confirm the seat', url: link },
        }),
        tx,
        now,
      )
      free -= 1
      offered += 1
    }
    return offered
  })
}
