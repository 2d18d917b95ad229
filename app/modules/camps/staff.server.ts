import { and, asc, desc, eq, inArray, notExists, or, sql, type SQL } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { auditLog, campBatches, campRegistrations, camps, campWaitlist, payments, refunds, siteSettings, type RefundState } from '~/db/schema'
import { formatRupees } from '~/lib/money'
import { formatDateRange, formatLabDate, labInstant } from '~/lib/lab-time'
import { DomainError } from '~/lib/domain-error'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { calendarAttachment } from '~/modules/mail/ics.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { requestRefund } from '~/modules/payments/refunds.server'
import { campSeatsTaken, holdsCampSeat, waitingCounts } from './camps.server'
import { batchTimes, campCalendar, registrationForMail } from './fulfilment.server'
import { isUniqueViolation } from './registrations.server'
import type { BatchDetails, CampDetails } from './staff-schemas'
import { campSeatFreed } from './waitlist.server'

/** A change staff asked for that the rules do not allow; `field` names the form field it is about. */
export class CampChangeRefusedError extends DomainError {
  constructor(message: string, field?: string) {
    super('conflict', message, field)
  }
}

const campColumns = {
  id: camps.id,
  code: camps.code,
  name: camps.name,
  startsOn: camps.startsOn,
  endsOn: camps.endsOn,
  venue: camps.venue,
  earlyBirdPricePaise: camps.earlyBirdPricePaise,
  regularPricePaise: camps.regularPricePaise,
  earlyBirdEndsAt: camps.earlyBirdEndsAt,
  isOpen: camps.isOpen,
}

const batchColumns = { id: campBatches.id, campId: campBatches.campId, code: campBatches.code, name: campBatches.name, timeRanges: campBatches.timeRanges, capacity: campBatches.capacity }

/** Batches in the order of their day: by the start of their first session. */
const batchOrder = [asc(sql`${campBatches.timeRanges}->0->>'start'`), asc(campBatches.code)]

/** What staff see of a batch's registrations: those holding a seat, and those called off after payment. */
function registrationsShown(now: Date) {
  return or(holdsCampSeat(now), inArray(campRegistrations.status, ['cancelled', 'refund_pending', 'refunded']))
}

async function withSeats<Batch extends { id: number }>(batches: Batch[], now: Date) {
  const ids = batches.map((batch) => batch.id)
  const [taken, waiting] = await Promise.all([campSeatsTaken(ids, now), waitingCounts(ids)])
  return batches.map((batch) => ({ ...batch, taken: taken.get(batch.id) ?? 0, waiting: waiting.get(batch.id) ?? 0 }))
}

/** Every camp with its batches, seats taken and people waiting per batch. */
export async function staffCampOverview(now = new Date()) {
  const campRows = await db().select(campColumns).from(camps).orderBy(asc(camps.sortOrder), asc(camps.startsOn), asc(camps.id))
  const batches = await withSeats(await db().select(batchColumns).from(campBatches).orderBy(...batchOrder), now)
  return campRows.map((camp) => ({ ...camp, batches: batches.filter((batch) => batch.campId === camp.id) }))
}

/** A camp's name by its code, or null: enough for a page to know the camp exists. */
export async function findCamp(code: string) {
  const [camp] = await db().select({ code: camps.code, name: camps.name }).from(camps).where(eq(camps.code, code))
  return camp ?? null
}

/** One camp for staff: its batches with seats, registrations and waitlist (in queue order). */
export async function staffCamp(code: string, now = new Date()) {
  const [camp] = await db().select(campColumns).from(camps).where(eq(camps.code, code))
  if (!camp) return null
  const batches = await withSeats(await db().select(batchColumns).from(campBatches).where(eq(campBatches.campId, camp.id)).orderBy(...batchOrder), now)
  const registrations = await db()
    .select({
      reference: campRegistrations.reference,
      batchId: campRegistrations.batchId,
      swimmerName: campRegistrations.swimmerName,
      email: campRegistrations.email,
      phone: campRegistrations.phone,
      amountPaise: campRegistrations.amountPaise,
      status: campRegistrations.status,
      createdAt: campRegistrations.createdAt,
      refundable: sql<boolean>`EXISTS (${refundablePayments(db(), sql`${campRegistrations.id}`)})`,
      latestRefund: sql<RefundState | null>`(${db().select({ state: refunds.state }).from(refunds).innerJoin(payments, eq(payments.id, refunds.paymentId)).where(eq(payments.campRegistrationId, campRegistrations.id)).orderBy(desc(refunds.id)).limit(1)})`,
    })
    .from(campRegistrations)
    .where(and(eq(campRegistrations.campId, camp.id), registrationsShown(now)))
    .orderBy(asc(campRegistrations.createdAt), asc(campRegistrations.id))
  const waitlist = await db()
    .select({
      id: campWaitlist.id,
      batchId: campWaitlist.batchId,
      swimmerName: campWaitlist.swimmerName,
      email: campWaitlist.email,
      phone: campWaitlist.phone,
      status: campWaitlist.status,
      createdAt: campWaitlist.createdAt,
      confirmedAt: campWaitlist.confirmedAt,
      offerExpiresAt: campRegistrations.holdExpiresAt,
    })
    .from(campWaitlist)
    .leftJoin(campRegistrations, eq(campRegistrations.id, campWaitlist.registrationId))
    .where(and(eq(campWaitlist.campId, camp.id), inArray(campWaitlist.status, ['waiting', 'offered'])))
    // The queue's order (by confirmation); entries not confirmed yet, which are not in it, last.
    .orderBy(sql`${campWaitlist.confirmedAt} ASC NULLS LAST`, asc(campWaitlist.id))
  return {
    camp,
    batches: batches.map((batch) => ({
      ...batch,
      registrations: registrations.filter((registration) => registration.batchId === batch.id),
      waitlist: waitlist.filter((entry) => entry.batchId === batch.id),
    })),
  }
}

/**
 * Completed payments of a registration whose money is not already going back: a duplicate payment
 * refunded automatically stays 'completed', and must not be refunded twice.
 */
function refundablePayments(executor: Executor, registrationId: SQL | number) {
  return executor
    .select({ id: payments.id, amountPaise: payments.amountPaise })
    .from(payments)
    .where(
      and(
        sql`${payments.campRegistrationId} = ${registrationId}`,
        eq(payments.state, 'completed'),
        notExists(executor.select({ id: refunds.id }).from(refunds).where(and(eq(refunds.paymentId, payments.id), inArray(refunds.state, ['pending', 'completed'])))),
      ),
    )
}

/** A camp's registrations as staff export them, batch by batch, with the order id of their payment. */
export async function campRegistrationsForExport(code: string, now = new Date()) {
  const [camp] = await db().select({ id: camps.id }).from(camps).where(eq(camps.code, code))
  if (!camp) return null
  return db()
    .select({
      swimmerName: campRegistrations.swimmerName,
      email: campRegistrations.email,
      phone: campRegistrations.phone,
      campName: camps.name,
      batchName: campBatches.name,
      status: campRegistrations.status,
      amountPaise: campRegistrations.amountPaise,
      reference: campRegistrations.reference,
      // The payment that completed, else the latest attempt.
      orderId: sql<string | null>`(SELECT ${payments.orderId} FROM ${payments} WHERE ${payments.campRegistrationId} = ${campRegistrations.id} ORDER BY (${payments.state} = 'completed') DESC, ${payments.id} DESC LIMIT 1)`,
      createdAt: campRegistrations.createdAt,
    })
    .from(campRegistrations)
    .innerJoin(camps, eq(camps.id, campRegistrations.campId))
    .innerJoin(campBatches, eq(campBatches.id, campRegistrations.batchId))
    .where(and(eq(campRegistrations.campId, camp.id), registrationsShown(now)))
    .orderBy(...batchOrder, asc(campRegistrations.createdAt), asc(campRegistrations.id))
}

function campValues(details: CampDetails) {
  return {
    name: details.name,
    startsOn: details.startsOn,
    endsOn: details.endsOn,
    venue: details.venue,
    earlyBirdPricePaise: details.earlyBirdPricePaise,
    regularPricePaise: details.regularPricePaise,
    // The deadline is a day in Bangalore: the early-bird price lasts until that day ends there.
    earlyBirdEndsAt: labInstant(details.earlyBirdDeadline, '23:59:59'),
    isOpen: details.isOpen,
  }
}

type CampValues = ReturnType<typeof campValues>

const CAMP_FIELD_NAMES: Record<keyof CampValues, string> = {
  name: 'name',
  startsOn: 'first day',
  endsOn: 'last day',
  venue: 'venue',
  earlyBirdPricePaise: 'early-bird price',
  regularPricePaise: 'regular price',
  earlyBirdEndsAt: 'early-bird deadline',
  isOpen: 'registration',
}

function describeCampValue(key: keyof CampValues, values: CampValues) {
  if (key === 'earlyBirdPricePaise' || key === 'regularPricePaise') return formatRupees(values[key])
  if (key === 'earlyBirdEndsAt') return `end of ${formatLabDate(values.earlyBirdEndsAt)}`
  if (key === 'isOpen') return values.isOpen ? 'open' : 'closed'
  return values[key]
}

/** The keys whose values differ, comparing as stored (JSON: a date as its instant). */
function changedKeys<Values extends Record<string, unknown>>(before: Values, after: Values): Array<keyof Values & string> {
  return (Object.keys(after) as Array<keyof Values & string>).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
}

function pick<Values extends Record<string, unknown>>(values: Values, keys: Array<keyof Values & string>) {
  return Object.fromEntries(keys.map((key) => [key, values[key]]))
}

function campSnapshot(values: CampValues) {
  return { ...values, earlyBirdEndsAt: values.earlyBirdEndsAt.toISOString() }
}

/** Creates a camp with its batches (listed after the existing camps). */
export async function createCamp(actor: Actor, camp: CampDetails & { code: string; batches: BatchDetails[] }, now = new Date()) {
  const values = campValues(camp)
  try {
    return await db().transaction(async (tx) => {
      const [{ sortOrder } = { sortOrder: 1 }] = await tx.select({ sortOrder: sql<number>`coalesce(max(${camps.sortOrder}), 0)::int + 1` }).from(camps)
      const [created] = await tx
        .insert(camps)
        .values({ code: camp.code, ...values, sortOrder, updatedAt: now })
        .returning({ id: camps.id })
      await tx.insert(campBatches).values(camp.batches.map((batch) => ({ ...batch, campId: created!.id })))
      await recordAudit(
        tx,
        actor,
        {
          action: 'camp.create',
          entityType: 'camp',
          entityId: camp.code,
          summary: `Created ${camp.name} (${camp.code}) with ${camp.batches.length} ${camp.batches.length === 1 ? 'batch' : 'batches'}`,
          after: { code: camp.code, ...campSnapshot(values), batches: camp.batches },
        },
        now,
      )
      return { code: camp.code }
    })
  } catch (error) {
    if (isUniqueViolation(error, 'camps_code_unique')) throw new CampChangeRefusedError(`Another camp already uses the code ${camp.code}`, 'code')
    throw error
  }
}

/** Edits a camp's details (its code stays: it is in links and forms already out there). Returns what changed. */
export async function updateCamp(actor: Actor, code: string, details: CampDetails, now = new Date()) {
  return db().transaction(async (tx) => {
    const [current] = await tx.select(campColumns).from(camps).where(eq(camps.code, code)).for('update')
    if (!current) throw new CampChangeRefusedError(`No camp has the code ${code}`)
    const { id: _id, code: _code, ...before } = current
    const after = campValues(details)
    const changed = changedKeys(before, after)
    if (changed.length === 0) return { changed }
    await tx
      .update(camps)
      .set({ ...after, updatedAt: now })
      .where(eq(camps.id, current.id))
    await recordAudit(
      tx,
      actor,
      {
        action: 'camp.update',
        entityType: 'camp',
        entityId: code,
        summary: `Changed ${before.name}: ${changed.map((key) => `${CAMP_FIELD_NAMES[key]} ${describeCampValue(key, before)} → ${describeCampValue(key, after)}`).join('; ')}`,
        before: pick(campSnapshot(before), changed),
        after: pick(campSnapshot(after), changed),
      },
      now,
    )
    // Reopened: seats free meanwhile go to the people waiting.
    if (after.isOpen && !before.isOpen) campSeatFreed()
    return { changed }
  })
}

/** Adds a batch to a camp. */
export async function addBatch(actor: Actor, campCode: string, batch: BatchDetails, now = new Date()) {
  const [camp] = await db().select({ id: camps.id, name: camps.name }).from(camps).where(eq(camps.code, campCode))
  if (!camp) throw new CampChangeRefusedError(`No camp has the code ${campCode}`)
  try {
    await db().transaction(async (tx) => {
      const [created] = await tx
        .insert(campBatches)
        .values({ ...batch, campId: camp.id })
        .returning({ id: campBatches.id })
      await recordAudit(
        tx,
        actor,
        { action: 'camp_batch.create', entityType: 'camp_batch', entityId: created!.id, summary: `Added ${batch.name} to ${camp.name}: ${batchTimes(batch.timeRanges)}, ${batch.capacity} seats`, after: batch },
        now,
      )
    })
  } catch (error) {
    if (isUniqueViolation(error, 'camp_batches_camp_code_unique')) throw new CampChangeRefusedError(`${camp.name} already has a batch with the code ${batch.code}`, 'code')
    throw error
  }
}

/** A batch of a camp, its row locked: seats are counted under this lock. */
async function lockStaffBatch(tx: Executor, batchId: number) {
  const [row] = await tx
    .select({ ...batchColumns, campCode: camps.code, campName: camps.name })
    .from(campBatches)
    .innerJoin(camps, eq(camps.id, campBatches.campId))
    .where(eq(campBatches.id, batchId))
    .for('update', { of: campBatches })
  return row ?? null
}

function describeBatchValue(key: keyof BatchDetails, batch: BatchDetails) {
  if (key === 'timeRanges') return batchTimes(batch.timeRanges)
  if (key === 'capacity') return `${batch.capacity} seats`
  return batch[key]
}

function seatsTakenMessage(taken: number, batchName: string) {
  return `${taken} ${taken === 1 ? 'seat is' : 'seats are'} taken in ${batchName}, so its capacity cannot be less than ${taken}.`
}

/**
 * Edits a batch. Its capacity cannot go below the seats taken now (counted under the batch's
 * lock, so no registration can slip in between); more seats go to the waitlist first.
 */
export async function updateBatch(actor: Actor, { campCode, batchId, batch, now = new Date() }: { campCode: string; batchId: number; batch: BatchDetails; now?: Date }) {
  try {
    return await db().transaction(async (tx) => {
      const current = await lockStaffBatch(tx, batchId)
      if (!current || current.campCode !== campCode) throw new CampChangeRefusedError('This batch is not part of this camp.')
      const taken = (await campSeatsTaken([batchId], now, tx)).get(batchId) ?? 0
      if (batch.capacity < taken) throw new CampChangeRefusedError(seatsTakenMessage(taken, current.name), 'capacity')
      const before = { code: current.code, name: current.name, timeRanges: current.timeRanges, capacity: current.capacity }
      const changed = changedKeys(before, batch)
      if (changed.length === 0) return { changed }
      await tx.update(campBatches).set(batch).where(eq(campBatches.id, batchId))
      await recordAudit(
        tx,
        actor,
        {
          action: 'camp_batch.update',
          entityType: 'camp_batch',
          entityId: batchId,
          summary: `Changed ${current.name} of ${current.campName}: ${changed.map((key) => `${key === 'timeRanges' ? 'times' : key} ${describeBatchValue(key, before)} → ${describeBatchValue(key, batch)}`).join('; ')}`,
          before: pick(before, changed),
          after: pick(batch, changed),
        },
        now,
      )
      if (batch.capacity > current.capacity) campSeatFreed()
      return { changed }
    })
  } catch (error) {
    if (isUniqueViolation(error, 'camp_batches_camp_code_unique')) throw new CampChangeRefusedError(`This camp already has a batch with the code ${batch.code}`, 'code')
    throw error
  }
}

function registrationQuery(tx: Executor, campCode: string, reference: string) {
  return tx
    .select({ id: campRegistrations.id, reference: campRegistrations.reference, status: campRegistrations.status, batchId: campRegistrations.batchId, campId: campRegistrations.campId, swimmerName: campRegistrations.swimmerName, email: campRegistrations.email })
    .from(campRegistrations)
    .innerJoin(camps, eq(camps.id, campRegistrations.campId))
    .where(and(eq(campRegistrations.reference, reference), eq(camps.code, campCode)))
}

async function findRegistration(tx: Executor, campCode: string, reference: string) {
  const [row] = await registrationQuery(tx, campCode, reference)
  if (!row) throw new CampChangeRefusedError(`This camp has no registration ${reference}.`)
  return row
}

async function lockRegistration(tx: Executor, campCode: string, reference: string) {
  const [row] = await registrationQuery(tx, campCode, reference).for('update', { of: campRegistrations })
  if (!row) throw new CampChangeRefusedError(`This camp has no registration ${reference}.`)
  return row
}

/**
 * Moves a confirmed registration to another batch of its camp, if a seat is free there. Both batch
 * rows are locked in id order (two moves in opposite directions cannot deadlock), then the
 * registration, and the target's seats counted under its lock. People waiting for the target batch do not stop the move: the
 * waitlist comes first for newcomers, and this swimmer already has a seat. The seat left behind
 * goes to the source batch's waitlist. The parent is told the new times, with a calendar file that
 * replaces the first one.
 */
export async function moveRegistration(actor: Actor, { campCode, reference, toBatchCode, now = new Date() }: { campCode: string; reference: string; toBatchCode: string; now?: Date }) {
  return db().transaction(async (tx) => {
    const seen = await findRegistration(tx, campCode, reference)
    const [target] = await tx
      .select({ id: campBatches.id })
      .from(campBatches)
      .where(and(eq(campBatches.campId, seen.campId), eq(campBatches.code, toBatchCode)))
    if (!target) throw new CampChangeRefusedError('Please choose a batch of this camp.', 'toBatch')

    // Batches before the registration, as holds and payments lock them, so none waits in a circle.
    const locked = new Map<number, NonNullable<Awaited<ReturnType<typeof lockStaffBatch>>>>()
    for (const id of [...new Set([seen.batchId, target.id])].sort((a, b) => a - b)) locked.set(id, (await lockStaffBatch(tx, id))!)
    const registration = await lockRegistration(tx, campCode, reference)
    if (registration.batchId !== seen.batchId) throw new CampChangeRefusedError(`${registration.swimmerName} was moved by someone else just now. Please reload the page and try again.`)
    if (registration.status !== 'confirmed') throw new CampChangeRefusedError('Only a confirmed registration can be moved.')
    if (target.id === registration.batchId) throw new CampChangeRefusedError(`${registration.swimmerName} is in this batch already.`, 'toBatch')
    const from = locked.get(registration.batchId)!
    const to = locked.get(target.id)!
    const taken = (await campSeatsTaken([to.id], now, tx)).get(to.id) ?? 0
    if (taken >= to.capacity) throw new CampChangeRefusedError(`${to.name} of ${to.campName} is full: ${taken} of ${to.capacity} seats are taken.`, 'toBatch')

    await tx.update(campRegistrations).set({ batchId: to.id, updatedAt: now }).where(eq(campRegistrations.id, registration.id))
    await recordAudit(
      tx,
      actor,
      {
        action: 'camp_registration.move',
        entityType: 'camp_registration',
        entityId: reference,
        summary: `Moved ${reference} (${registration.swimmerName}) from ${from.name} to ${to.name} of ${to.campName}`,
        before: { batchId: from.id, batch: from.name },
        after: { batchId: to.id, batch: to.name },
      },
      now,
    )
    // Each move is one more revision of the calendar events the confirmation e-mail sent.
    const [moves] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'camp_registration.move'), eq(auditLog.entityType, 'camp_registration'), eq(auditLog.entityId, reference)))
    const ics = campCalendar(await registrationForMail(tx, registration.id), { sequence: moves?.count ?? 1, now })
    await enqueueEmail(
      letter({
        to: registration.email,
        subject: `Camp batch changed: ${registration.swimmerName}, ${to.campName} (${reference})`,
        name: registration.swimmerName,
        paragraphs: [`${registration.swimmerName} has been moved from ${from.name} to ${to.name} of ${to.campName}. Please come at the new times below, every day of the camp.`],
        details: [
          ['Registration ID', reference],
          ['Batch', `${to.name}: ${batchTimes(to.timeRanges)}, every day`],
        ],
        closing: 'The attached calendar file replaces the camp sessions in your calendar with the new times.',
        attachments: [calendarAttachment(ics, `${reference}.ics`)],
      }),
      tx,
      now,
    )
    campSeatFreed()
    return { swimmerName: registration.swimmerName, from: from.name, to: to.name }
  })
}

/**
 * Cancels a confirmed registration, with its payment refunded through the gateway or without a
 * refund. It becomes 'refunded' when the refund completes. The parent is e-mailed; the seat goes
 * to the waitlist.
 */
export async function cancelRegistration(actor: Actor, { campCode, reference, refund, now = new Date() }: { campCode: string; reference: string; refund: boolean; now?: Date }) {
  return db().transaction(async (tx) => {
    const registration = await lockRegistration(tx, campCode, reference)
    if (registration.status !== 'confirmed') throw new CampChangeRefusedError('Only a confirmed registration can be cancelled.')
    const [paid] = refund ? await refundablePayments(tx, registration.id).orderBy(asc(payments.id)).limit(1) : []
    if (refund && !paid) throw new CampChangeRefusedError('This registration has no payment to refund. Cancel it without a refund.', 'refund')

    await tx.update(campRegistrations).set({ status: 'cancelled', holdExpiresAt: null, updatedAt: now }).where(eq(campRegistrations.id, registration.id))
    if (paid) await requestRefund(tx, { paymentId: paid.id, amountPaise: paid.amountPaise, reason: 'The camp registration was cancelled by staff.', now })
    const mail = await registrationForMail(tx, registration.id)
    const [settings] = await tx.select({ refundPolicy: siteSettings.refundPolicy }).from(siteSettings).where(eq(siteSettings.id, 1))
    await enqueueEmail(
      letter({
        to: mail.email,
        subject: `Camp registration cancelled: ${mail.swimmerName}, ${mail.campName} (${mail.reference})`,
        name: mail.swimmerName,
        paragraphs: [
          `The registration of ${mail.swimmerName} for ${mail.campName} (${mail.batchName}) has been cancelled.`,
          paid
            ? `Your payment of ${formatRupees(paid.amountPaise)} is being refunded ${settings?.refundPolicy ?? 'to the original payment method'}. We will e-mail you when the refund is complete.`
            : 'No refund applies to this registration.',
        ],
        details: [
          ['Registration ID', mail.reference],
          ['Camp', `${mail.campName}, ${formatDateRange(mail.startsOn, mail.endsOn)}`],
          ['Batch', `${mail.batchName}: ${batchTimes(mail.timeRanges)}`],
        ],
      }),
      tx,
      now,
    )
    await recordAudit(
      tx,
      actor,
      {
        action: 'camp_registration.cancel',
        entityType: 'camp_registration',
        entityId: reference,
        summary: `Cancelled ${reference} (${mail.swimmerName}, ${mail.campName}, ${mail.batchName}) ${paid ? `with a refund of ${formatRupees(paid.amountPaise)}` : 'without a refund'}`,
        before: { status: 'confirmed' },
        after: { status: 'cancelled', refundPaise: paid?.amountPaise ?? null },
      },
      now,
    )
    campSeatFreed()
    return { swimmerName: mail.swimmerName, refundPaise: paid?.amountPaise ?? null }
  })
}
