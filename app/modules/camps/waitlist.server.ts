import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { config } from '~/config.server'
import { lockKeys } from '~/db/advisory-locks.server'
import { db, type Executor } from '~/db/client.server'
import { campBatches, campRegistrations, camps, campWaitlist } from '~/db/schema'
import { formatRupees } from '~/lib/money'
import { addHours, formatDateRange, formatLabDateTime } from '~/lib/lab-time'
import { privateLinks, WAITLIST_CONFIRMATION_LINK, WAITLIST_OFFER_LINK, type PrivateLinks } from '~/lib/private-links.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'
import { letter } from '~/modules/mail/templates.server'
import { DomainError } from '~/lib/domain-error'
import { limitHoldAttempts } from '~/modules/holders/holders.server'
import { confirmByOf, WAITLIST_PLACES_PER_NETWORK, waitlistStates, WaitlistPlacesLimitError } from '~/modules/holders/waitlist-places.server'
import { clientNetwork } from '~/modules/rate-limit/client-network'
import { campSeatsTaken, queuedOnWaitlist, registrationOpen, waitingCounts } from './camps.server'
import { campPricingColumns } from '~/db/camp-columns.server'
import { priceColumns, registrationPrice } from './pricing.server'
import { assertMayDeclareAsGuardian, recordCampDeclaration } from '~/modules/swimmers/consent.server'
import { AlreadyRegisteredError, insertRegistration, lockBatchOrExplain, RegistrationClosedError, sameSwimmer, type CampApplicant } from './registrations.server'

export class AlreadyWaitingError extends DomainError {
  constructor(swimmerName: string, campName: string, confirmed: boolean) {
    super(
      'conflict',
      confirmed
        ? `${swimmerName} is already on the waitlist for ${campName}.`
        : `${swimmerName} is already on the waitlist for ${campName}. Please click the link in the e-mail we sent you to keep the place.`,
    )
  }
}

/** The batch has a seat a newcomer can take: waiting would only keep it from someone else. */
export class SeatsFreeError extends DomainError {
  constructor(campName: string, batchName: string) {
    super('conflict', `${batchName} of ${campName} still has free seats, so there is no need to wait. Please register for it instead.`)
  }
}

/** More places (waiting or offered, in any camp) than one client network may hold at once. */
export class WaitlistNetworkLimitError extends WaitlistPlacesLimitError {
  constructor() {
    super('camp waitlists')
  }
}

const { holdsPlace, lapsedUnconfirmed, confirmable } = waitlistStates(campWaitlist)

function sameWaitingSwimmer(campId: number, applicant: Pick<CampApplicant, 'email' | 'swimmerName'>) {
  return and(
    eq(campWaitlist.campId, campId),
    sql`lower(${campWaitlist.email}) = ${applicant.email.toLowerCase()}`,
    sql`lower(${campWaitlist.swimmerName}) = ${applicant.swimmerName.toLowerCase()}`,
  )
}

/**
 * Serialises the joins that share `key` until the transaction ends. Only joining takes these locks,
 * always in one order (the network's, then the batch's row, then the camp's), so joins cannot wait
 * on one another in a circle.
 */
async function lockForJoining(tx: Executor, key: string) {
  await lockKeys(tx, [`camp-waitlist:${key}`])
}

export async function lockBatchById(executor: Executor, batchId: number) {
  const [row] = await executor
    .select({
      campId: camps.id,
      campName: camps.name,
      startsOn: camps.startsOn,
      endsOn: camps.endsOn,
      isOpen: camps.isOpen,
      ...campPricingColumns,
      batchName: campBatches.name,
      capacity: campBatches.capacity,
    })
    .from(campBatches)
    .innerJoin(camps, eq(camps.id, campBatches.campId))
    .where(eq(campBatches.id, batchId))
    .for('update', { of: campBatches })
  return row ?? null
}

/**
 * Puts a swimmer on the waitlist of a full batch (one with no seat a newcomer could take), and
 * e-mails a link to confirm the place: until the parent opens it and confirms, the entry is not in
 * the queue, keeps no seat from anyone and is offered nothing; after WAITLIST_CONFIRM_HOURS it
 * lapses. One place per swimmer per camp, and at most WAITLIST_PLACES_PER_NETWORK per client
 * network, so one visitor with many e-mail addresses cannot fill the queues.
 */
export async function joinWaitlist({
  campCode,
  batchCode,
  applicant,
  accountId = null,
  ip,
  now = new Date(),
}: {
  campCode: string
  batchCode: string
  applicant: CampApplicant
  /** The signed-in account, which must be one that may make the form's declaration. */
  accountId?: number | null
  ip: string
  now?: Date
}) {
  if (accountId !== null) await assertMayDeclareAsGuardian(accountId, now)
  const network = clientNetwork(ip)
  await limitHoldAttempts({ network, email: applicant.email }, now)
  const links = await privateLinks()
  return db().transaction(async (tx) => {
    await lockForJoining(tx, `network:${network}`)
    const batch = await lockBatchOrExplain(tx, campCode, batchCode)
    if (!registrationOpen(batch, now)) throw new RegistrationClosedError(batch.campName)
    await lockForJoining(tx, `camp:${batch.campId}`)
    const [registered] = await tx
      .select({ id: campRegistrations.id })
      .from(campRegistrations)
      .where(and(sameSwimmer(batch.campId, applicant), eq(campRegistrations.status, 'confirmed')))
    if (registered) throw new AlreadyRegisteredError(applicant.swimmerName, batch.campName)
    // The same test a newcomer's registration meets: seats held or paid, and seats owed to the queue.
    const taken = (await campSeatsTaken([batch.batchId], now, tx)).get(batch.batchId) ?? 0
    const waiting = (await waitingCounts([batch.batchId], tx)).get(batch.batchId) ?? 0
    if (taken + waiting < batch.capacity) throw new SeatsFreeError(batch.campName, batch.batchName)

    await tx.update(campWaitlist).set({ status: 'expired' }).where(and(sameWaitingSwimmer(batch.campId, applicant), lapsedUnconfirmed(now)))
    const [existing] = await tx
      .select({ confirmedAt: campWaitlist.confirmedAt })
      .from(campWaitlist)
      .where(and(sameWaitingSwimmer(batch.campId, applicant), inArray(campWaitlist.status, ['waiting', 'offered'])))
      .limit(1)
    if (existing) throw new AlreadyWaitingError(applicant.swimmerName, batch.campName, existing.confirmedAt !== null)
    const [{ places } = { places: 0 }] = await tx
      .select({ places: sql<number>`count(*)::int` })
      .from(campWaitlist)
      .where(and(eq(campWaitlist.holderNetwork, network), holdsPlace(now)))
    if (places >= WAITLIST_PLACES_PER_NETWORK) throw new WaitlistNetworkLimitError()

    const [entry] = await tx
      .insert(campWaitlist)
      .values({ campId: batch.campId, batchId: batch.batchId, swimmerName: applicant.swimmerName, email: applicant.email.toLowerCase(), phone: applicant.phone, holderNetwork: network, createdAt: now })
      .returning({ id: campWaitlist.id })
    const link = links.url(WAITLIST_CONFIRMATION_LINK, entry!.id)
    const confirmBy = confirmByOf(now)
    await enqueueEmail(
      letter({
        to: applicant.email.toLowerCase(),
        subject: `Please confirm your waitlist place: ${batch.campName}, ${batch.batchName}`,
        name: applicant.swimmerName,
        paragraphs: [
          `${batch.batchName} of ${batch.campName} is full, and you asked us to put ${applicant.swimmerName} on its waitlist.`,
          `To keep the place, open the link below and press the button on the page by ${formatLabDateTime(confirmBy)}. Your place in the queue counts from then; without it the place lapses.`,
          `When a seat frees up we hold it for you for ${config().WAITLIST_OFFER_HOURS} hours and e-mail you a link to pay. There is nothing to pay until then.`,
        ],
        action: { label: 'Keep my place on the waitlist', url: link },
      }),
      // A waitlist place is nobody's by structure (a guest's, by address and name): erasure finds this by its recipient.
      {},
      tx,
      now,
    )
    return { entryId: entry!.id, campName: batch.campName, batchName: batch.batchName, confirmBy }
  })
}

/**
 * A waitlist entry as its confirmation page shows it (the caller has checked the link key):
 * unconfirmed (with the time left to confirm), queued with its number in line, offered a seat,
 * registered, or ended (lapsed, expired or taken off).
 */
export async function waitlistPlace(entryId: number, now = new Date()) {
  const [entry] = await db()
    .select({
      id: campWaitlist.id,
      batchId: campWaitlist.batchId,
      status: campWaitlist.status,
      confirmedAt: campWaitlist.confirmedAt,
      createdAt: campWaitlist.createdAt,
      swimmerName: campWaitlist.swimmerName,
      email: campWaitlist.email,
      campName: camps.name,
      batchName: campBatches.name,
    })
    .from(campWaitlist)
    .innerJoin(camps, eq(camps.id, campWaitlist.campId))
    .innerJoin(campBatches, eq(campBatches.id, campWaitlist.batchId))
    .where(eq(campWaitlist.id, entryId))
  if (!entry) return null
  const { campName, batchName, swimmerName, email } = entry
  const shown = { campName, batchName, swimmerName, email }
  if (entry.status === 'offered') return { ...shown, state: 'offered' as const }
  if (entry.status === 'registered') return { ...shown, state: 'registered' as const }
  if (entry.status !== 'waiting' || (!entry.confirmedAt && confirmByOf(entry.createdAt) <= now)) return { ...shown, state: 'ended' as const }
  if (!entry.confirmedAt) return { ...shown, state: 'unconfirmed' as const, confirmBy: confirmByOf(entry.createdAt) }
  const [{ position } = { position: 1 }] = await db()
    .select({ position: sql<number>`count(*)::int` })
    .from(campWaitlist)
    .where(and(eq(campWaitlist.batchId, entry.batchId), queuedOnWaitlist(), sql`(${campWaitlist.confirmedAt}, ${campWaitlist.id}) <= (${entry.confirmedAt}, ${entry.id})`))
  return { ...shown, state: 'queued' as const, position }
}

/**
 * The parent confirms their address: the entry joins the queue, behind everyone who confirmed
 * before (a seat that freed up meanwhile is offered at the worker's next round). Confirming twice
 * changes nothing; a lapsed or ended entry stays as it is.
 */
export async function confirmWaitlistPlace(entryId: number, now = new Date()) {
  await db()
    .update(campWaitlist)
    .set({ confirmedAt: now })
    .where(and(eq(campWaitlist.id, entryId), confirmable(now)))
  return waitlistPlace(entryId, now)
}

/** Entries whose address was not confirmed in time lapse (run with the other expiries). */
export async function expireUnconfirmedWaitlist(now = new Date()) {
  const lapsed = await db().update(campWaitlist).set({ status: 'expired' }).where(lapsedUnconfirmed(now)).returning({ id: campWaitlist.id })
  return lapsed.length
}

/**
 * Offers every freed seat to the first in line for its batch (by the time they confirmed their
 * address; unconfirmed entries are not in line): a registration holding the seat for
 * WAITLIST_OFFER_HOURS, and an e-mail with a link to pay. Batches are locked one at a time, so
 * instances running this side by side never offer one seat twice.
 */
export async function offerFreedSeats(now = new Date()) {
  const batches = await db().selectDistinct({ batchId: campWaitlist.batchId }).from(campWaitlist).where(queuedOnWaitlist())
  const links = await privateLinks()
  let offered = 0
  for (const { batchId } of batches) offered += await offerSeatsOf(batchId, links, now)
  return offered
}

async function offerSeatsOf(batchId: number, links: PrivateLinks, now: Date) {
  return db().transaction(async (tx) => {
    const batch = await lockBatchById(tx, batchId)
    if (!batch || !registrationOpen(batch, now)) return 0
    let free = batch.capacity - ((await campSeatsTaken([batchId], now, tx)).get(batchId) ?? 0)
    if (free <= 0) return 0
    const queue = await tx
      .select({ id: campWaitlist.id, swimmerName: campWaitlist.swimmerName, email: campWaitlist.email, phone: campWaitlist.phone })
      .from(campWaitlist)
      .where(and(eq(campWaitlist.batchId, batchId), queuedOnWaitlist()))
      .orderBy(asc(campWaitlist.confirmedAt), asc(campWaitlist.id))
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
      const holdExpiresAt = addHours(now, config().WAITLIST_OFFER_HOURS)
      // Priced when the seat is offered, as any seat is when it is held.
      const price = await registrationPrice(tx, batch, { email: person.email, phone: person.phone }, now)
      const registration = await insertRegistration(tx, {
        campId: batch.campId,
        batchId,
        swimmerName: person.swimmerName,
        email: person.email,
        phone: person.phone,
        ...priceColumns(price),
        status: 'pending',
        holdExpiresAt,
        createdAt: now,
        updatedAt: now,
      })
      // The place on the waitlist was asked for through the form, with its declaration.
      await recordCampDeclaration(tx, { registrationId: registration.id, swimmerName: person.swimmerName, email: person.email, now })
      await tx.update(campWaitlist).set({ status: 'offered', registrationId: registration.id, offeredAt: now }).where(eq(campWaitlist.id, person.id))
      const link = links.url(WAITLIST_OFFER_LINK, registration.reference)
      await enqueueEmail(
        letter({
          to: person.email,
          subject: `A seat is free: ${batch.campName}, ${batch.batchName}`,
          name: person.swimmerName,
          paragraphs: [
            `Good news: a seat in ${batch.batchName} of ${batch.campName} has freed up, and we are holding it for ${person.swimmerName}.`,
            `Pay ${formatRupees(price.amountPaise)}${price.siblingDiscountPaise ? ' (the sibling price)' : ''} by ${formatLabDateTime(holdExpiresAt)} to confirm it; after that it goes to the next person on the waitlist.`,
          ],
          details: [
            ['Registration ID', registration.reference],
            ['Camp', `${batch.campName}, ${formatDateRange(batch.startsOn, batch.endsOn)}`],
          ],
          action: { label: 'Pay and confirm the seat', url: link },
        }),
        { campRegistrationId: registration.id },
        tx,
        now,
      )
      await notifyOnWhatsApp(
        'waitlist_seat_offered',
        { phone: person.phone, parameters: [`${batch.batchName} of ${batch.campName}`, person.swimmerName, formatLabDateTime(holdExpiresAt), formatRupees(price.amountPaise), { kind: 'waitlist-offer', reference: registration.reference }], names: [person.swimmerName], about: { campRegistrationId: registration.id } },
        tx,
        now,
      )
      free -= 1
      offered += 1
    }
    return offered
  })
}
