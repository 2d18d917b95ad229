import { and, asc, eq } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { campBatches, campRegistrations, camps, payments, type TimeRange } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { formatDateRange, formatLabDateTime } from '~/lib/lab-time'
import { formatRupees } from '~/lib/money'
import { recordAudit, type Actor, type PersonActing } from '~/modules/audit/audit.server'
import { CHANGE_NOTICE_HOURS, changeDeadline } from '~/modules/booking/changes.server'
import { setStatus } from '~/modules/statuses/status.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { requestRefund } from '~/modules/payments/refunds.server'
import { refundPolicyIn } from '~/modules/site/site.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'
import { batchTimes, campPaidFor, registrationDetails } from './fulfilment.server'
import { refundablePayments } from './staff-views.server'
import { campSeatFreed } from '~/modules/statuses/camp-seat-freed.server'

/**
 * Cancelling a camp place: the family's own, under the refund policy (until 24 hours before the
 * first session of their batch, with the place's fee refunded in full), and staff's at any time.
 * Either way the seat goes back to the batch, and to its waitlist.
 */

export class TooLateToCancelPlaceError extends DomainError {
  constructor() {
    super('conflict', `Camp registrations can be cancelled up to ${CHANGE_NOTICE_HOURS} hours before the first session of the batch. Please contact us.`)
  }
}

export class PlaceNotCancellableError extends DomainError {
  constructor() {
    super('conflict', 'Only a confirmed camp registration can be cancelled.')
  }
}

export class NotYourPlaceError extends DomainError {
  constructor() {
    super('not_found', 'This camp registration was not found.')
  }
}

/** The last moment a family may cancel a place: 24 hours before its batch's first session, on the camp's first day (Bangalore). */
export function campCancelDeadline(startsOn: string, timeRanges: TimeRange[]): Date {
  const firstStart = timeRanges.map((range) => range.start).sort()[0] ?? '00:00'
  return changeDeadline(startsOn, firstStart)
}

type PlaceForCancelling = { status: string; accountId: number | null; startsOn: string; timeRanges: TimeRange[] }

/**
 * What the account may do with a place now, as My Bookings shows it: cancel until when, or why not.
 * Nothing for a place that is not confirmed, or not registered under this account (a guest's
 * registration under the same address is the guest's to cancel by asking us).
 */
export function campCancelOptions(place: PlaceForCancelling, accountId: number, now: Date): { allowed: true; until: string } | { allowed: false; reason: string } | null {
  if (place.accountId !== accountId || place.status !== 'confirmed') return null
  const deadline = campCancelDeadline(place.startsOn, place.timeRanges)
  if (now >= deadline) return { allowed: false, reason: new TooLateToCancelPlaceError().message }
  return { allowed: true, until: formatLabDateTime(deadline) }
}

function ownPlaceQuery(executor: Executor, accountId: number, reference: string) {
  return executor
    .select({
      id: campRegistrations.id,
      reference: campRegistrations.reference,
      status: campRegistrations.status,
      accountId: campRegistrations.accountId,
      swimmerName: campRegistrations.swimmerName,
      campName: camps.name,
      startsOn: camps.startsOn,
      endsOn: camps.endsOn,
      batchName: campBatches.name,
      timeRanges: campBatches.timeRanges,
    })
    .from(campRegistrations)
    .innerJoin(camps, eq(camps.id, campRegistrations.campId))
    .innerJoin(campBatches, eq(campBatches.id, campRegistrations.batchId))
    .where(and(eq(campRegistrations.reference, reference), eq(campRegistrations.accountId, accountId)))
}

/** A place registered under the account, as its cancel page shows it, with what cancelling would refund; null for anyone else's. */
export async function ownCampPlace(accountId: number, reference: string, now = new Date()) {
  const [place] = await ownPlaceQuery(db(), accountId, reference)
  if (!place) return null
  const [paid] = await refundablePayments(db(), place.id).orderBy(asc(payments.id)).limit(1)
  const options = campCancelOptions(place, accountId, now) ?? { allowed: false as const, reason: new PlaceNotCancellableError().message }
  return { ...place, refundPaise: paid?.amountPaise ?? null, deadline: campCancelDeadline(place.startsOn, place.timeRanges), options }
}

/**
 * The family cancels a place registered under their account: only while it is confirmed and before
 * the deadline. Its own fee (what was charged for this swimmer, after the sibling price and a
 * promo code) is refunded through the gateway, also when it was paid together with other places.
 */
export async function cancelOwnPlace({ account, reference, now = new Date() }: { account: Actor; reference: string; now?: Date }) {
  return db().transaction(async (tx) => {
    const [place] = await ownPlaceQuery(tx, account.id, reference).for('update', { of: campRegistrations })
    if (!place) throw new NotYourPlaceError()
    if (place.status !== 'confirmed') throw new PlaceNotCancellableError()
    if (now >= campCancelDeadline(place.startsOn, place.timeRanges)) throw new TooLateToCancelPlaceError()
    const [paid] = await refundablePayments(tx, place.id).orderBy(asc(payments.id)).limit(1)
    return cancelConfirmedPlace(tx, account, place, { paid, reason: 'The family cancelled the camp registration.', now })
  })
}

type RefundablePayment = Awaited<ReturnType<typeof refundablePayments>>[number]

/**
 * Cancels a confirmed place, locked by the caller, refunding `paid` (none: no refund): the parent is
 * e-mailed (and told on WhatsApp of a refund), the audit log keeps who did it, and the seat goes to
 * the waitlist. The place becomes 'refunded' when the refund completes.
 */
export async function cancelConfirmedPlace(tx: Executor, actor: Actor | PersonActing, place: { id: number; reference: string }, { paid, reason, now }: { paid: RefundablePayment | undefined; reason: string; now: Date }) {
  await setStatus(tx, campRegistrations, 'cancelled', eq(campRegistrations.id, place.id), { holdExpiresAt: null, updatedAt: now })
  // A place paid for with others gets its own fee back from their payment.
  if (paid) await requestRefund(tx, { paymentId: paid.id, amountPaise: paid.amountPaise, reason, now, campRegistrationId: paid.group ? place.id : null })
  const mail = await registrationDetails(tx, place.id)
  const refundPolicy = await refundPolicyIn(tx)
  await enqueueEmail(
    letter({
      to: mail.email,
      subject: `Camp registration cancelled: ${mail.swimmerName}, ${mail.campName} (${mail.reference})`,
      name: mail.swimmerName,
      paragraphs: [
        `The registration of ${mail.swimmerName} for ${mail.campName} (${mail.batchName}) has been cancelled.`,
        paid ? `Your payment of ${formatRupees(paid.amountPaise)} is being refunded ${refundPolicy}. We will e-mail you when the refund is complete.` : 'No refund applies to this registration.',
      ],
      details: [
        ['Registration ID', mail.reference],
        ['Camp', `${mail.campName}, ${formatDateRange(mail.startsOn, mail.endsOn)}`],
        ['Batch', `${mail.batchName}: ${batchTimes(mail.timeRanges)}`],
      ],
    }),
    { campRegistrationId: place.id },
    tx,
    now,
  )
  if (paid) {
    await notifyOnWhatsApp('cancelled_refund_started', { phone: mail.phone, parameters: [campPaidFor(mail, mail.swimmerName), mail.reference, formatRupees(paid.amountPaise), refundPolicy], names: [mail.swimmerName], about: { campRegistrationId: place.id } }, tx, now)
  }
  await recordAudit(
    tx,
    actor,
    {
      action: 'camp_registration.cancel',
      entityType: 'camp_registration',
      entityId: place.reference,
      summary: `Cancelled ${place.reference} ({swimmer}, ${mail.campName}, ${mail.batchName}) ${paid ? `with a refund of ${formatRupees(paid.amountPaise)}` : 'without a refund'}`,
      personal: { swimmer: mail.swimmerName },
      about: { campRegistrationId: place.id },
      before: { status: 'confirmed' },
      after: { status: 'cancelled', refundPaise: paid?.amountPaise ?? null },
    },
    now,
  )
  await campSeatFreed(tx)
  return { swimmerName: mail.swimmerName, refundPaise: paid?.amountPaise ?? null }
}
