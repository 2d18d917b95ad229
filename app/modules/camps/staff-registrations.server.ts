import { and, asc, eq, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { auditLog, campBatches, campRegistrations, camps, payments } from '~/db/schema'
import { recordAudit, type Actor, type PersonActing } from '~/modules/audit/audit.server'
import { calendarAttachment } from '~/modules/mail/ics.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { lockStaffBatch } from './batch-editing.server'
import { CampChangeRefusedError } from './camp-editing.server'
import { campSeatsTaken } from './camps.server'
import { batchTimes, campCalendar, registrationDetails } from './fulfilment.server'
import { refundablePayments } from './staff-views.server'
import { cancelConfirmedPlace } from './cancellation.server'
import { campSeatFreed } from '~/modules/statuses/camp-seat-freed.server'

/** What staff do to a registration: move it to another batch, or cancel it (with or without a refund). */

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
        summary: `Moved ${reference} ({swimmer}) from ${from.name} to ${to.name} of ${to.campName}`,
        personal: { swimmer: registration.swimmerName },
        about: { campRegistrationId: registration.id },
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
    const ics = campCalendar(await registrationDetails(tx, registration.id), { sequence: moves?.count ?? 1, now })
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
      { campRegistrationId: registration.id },
      tx,
      now,
    )
    await campSeatFreed(tx)
    return { swimmerName: registration.swimmerName, from: from.name, to: to.name }
  })
}

/**
 * Cancels a confirmed registration, with its payment refunded through the gateway or without a
 * refund. It becomes 'refunded' when the refund completes. The parent is e-mailed; the seat goes
 * to the waitlist. Staff cancel with a reason of their own; a family's withdrawal of consent or
 * erasure of their data gives its own `reason`.
 */
export async function cancelRegistration(
  actor: Actor | PersonActing,
  { campCode, reference, refund, reason = 'The camp registration was cancelled by staff.', now = new Date() }: { campCode: string; reference: string; refund: boolean; reason?: string; now?: Date },
) {
  return db().transaction(async (tx) => {
    const registration = await lockRegistration(tx, campCode, reference)
    if (registration.status !== 'confirmed') throw new CampChangeRefusedError('Only a confirmed registration can be cancelled.')
    const [paid] = refund ? await refundablePayments(tx, registration.id).orderBy(asc(payments.id)).limit(1) : []
    if (refund && !paid) throw new CampChangeRefusedError('This registration has no payment to refund. Cancel it without a refund.', 'refund')
    return cancelConfirmedPlace(tx, actor, registration, { paid, reason, now })
  })
}
