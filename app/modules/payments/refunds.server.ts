import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { paymentEvents, payments, refunds } from '~/db/schema'
import { formatRupees } from '~/lib/money'
import { addSeconds } from '~/lib/lab-time'
import { DomainError } from '~/lib/domain-error'
import { logger } from '~/lib/logger.server'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { creditNoteAttachment, issueCreditNote } from '~/modules/receipts/credit-notes.server'
import { GatewayError, newOrderId, type GatewayRefundStatus } from './gateway-contract.server'
import { paymentGateway } from './active-gateway.server'
import { payableOf, type RefundedHow } from './payable-contract.server'
import { payableKind } from './payable-kinds.server'
import { claimDueChecks } from './due-checks.server'
import { refundFailedAlert } from './staff-alerts.server'
import { REFUND_NOT_WAITING } from './staff-schemas'

const requestedListeners = new Set<() => void>()

/** Lets the worker submit a refund as soon as it is recorded instead of at its next round. */
export function onRefundRequested(listener: () => void) {
  requestedListeners.add(listener)
  return () => requestedListeners.delete(listener)
}

/**
 * Records that a payment is to be refunded, inside the transaction that decided it; the refund
 * worker submits it to the gateway. Recording first means a crash between the decision and the
 * gateway call loses nothing.
 */
export async function requestRefund(
  tx: Executor,
  { paymentId, amountPaise, reason, now, campRegistrationId = null }: { paymentId: number; amountPaise: number; reason: string; now: Date; campRegistrationId?: number | null },
) {
  const refundId = newOrderId('RFND', now)
  await tx.insert(refunds).values({ refundId, paymentId, amountPaise, campRegistrationId, reason, state: 'pending', nextCheckAt: now, createdAt: now, updatedAt: now })
  // Listeners run after the caller's transaction commits, when the worker can see the row.
  setImmediate(() => {
    for (const listener of requestedListeners) listener()
  })
  return refundId
}

export type RefundOutcome = 'applied' | 'unchanged' | 'unknown_refund'

/** Applies the gateway's word on a refund, once; a completed refund settles the booking and tells the customer. */
export async function applyRefundStatus(refundId: string, status: Pick<GatewayRefundStatus, 'state' | 'gatewayRefundId' | 'amountPaise'>, now = new Date()): Promise<RefundOutcome> {
  return db().transaction(async (tx) => {
    const [refund] = await tx
      .select({ id: refunds.id, state: refunds.state, amountPaise: refunds.amountPaise, part: refunds.campRegistrationId, bookingId: payments.bookingId, campRegistrationId: payments.campRegistrationId })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(eq(refunds.refundId, refundId))
      .for('update', { of: refunds })
    if (!refund) return 'unknown_refund'
    if (refund.state !== 'pending' || status.state === 'pending') {
      if (status.gatewayRefundId) await tx.update(refunds).set({ gatewayRefundId: status.gatewayRefundId }).where(eq(refunds.id, refund.id))
      return 'unchanged'
    }
    if (status.state === 'failed') {
      await tx.update(refunds).set({ state: 'failed', nextCheckAt: null, lastError: 'The gateway reported the refund as failed.', updatedAt: now }).where(eq(refunds.id, refund.id))
      logger().error({ refundId }, 'a refund failed at the gateway: staff must settle it by hand')
      await enqueueEmail(await refundFailedAlert(tx, refundId), { bookingId: refund.bookingId, campRegistrationId: refund.campRegistrationId }, tx, now)
      return 'applied'
    }
    await tx
      .update(refunds)
      .set({ state: 'completed', completedAt: now, nextCheckAt: null, updatedAt: now, ...(status.gatewayRefundId ? { gatewayRefundId: status.gatewayRefundId } : {}) })
      .where(eq(refunds.id, refund.id))
    await refundCompleted(tx, refund, now, 'gateway')
    return 'applied'
  })
}

/**
 * What follows a refund's completion, whichever way the money went back, in the transaction that
 * recorded it: its credit note, then the booking or registration settles and tells the customer,
 * whose "Refund completed" e-mail carries the credit note.
 */
async function refundCompleted(tx: Executor, refund: { id: number; amountPaise: number; part: number | null; bookingId: number | null; campRegistrationId: number | null }, now: Date, how: RefundedHow) {
  const creditNoteId = await issueCreditNote(tx, refund.id, now)
  const creditNote = creditNoteId !== null ? await creditNoteAttachment(tx, creditNoteId) : undefined
  const payable = payableOf(refund)
  await payableKind(payable.kind).refunded(tx, payable.id, { amountPaise: refund.amountPaise, how, part: refund.part ?? undefined, creditNote }, now)
}

/**
 * Staff repaid a customer themselves after the gateway failed the refund (a bank transfer, say):
 * the refund counts as completed, the booking or registration as refunded, the customer is told,
 * and the audit log keeps who did it and how. Only a failed refund can be settled, and only once.
 */
export async function settleFailedRefund({ refundId, how, actor, now = new Date() }: { refundId: string; how: string; actor: Actor; now?: Date }) {
  await db().transaction(async (tx) => {
    const [refund] = await tx
      .select({ id: refunds.id, state: refunds.state, amountPaise: refunds.amountPaise, part: refunds.campRegistrationId, bookingId: payments.bookingId, campRegistrationId: payments.campRegistrationId, orderId: payments.orderId })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(eq(refunds.refundId, refundId))
      .for('update', { of: refunds })
    if (!refund || refund.state !== 'failed') throw new RefundNotFailedError()
    await tx.update(refunds).set({ state: 'completed', completedAt: now, settledByHand: how, updatedAt: now }).where(eq(refunds.id, refund.id))
    await refundCompleted(tx, refund, now, 'by_hand')
    await recordAudit(
      tx,
      actor,
      {
        action: 'refund.settle_by_hand',
        entityType: 'refund',
        entityId: refundId,
        summary: `Repaid ${formatRupees(refund.amountPaise)} of order ${refund.orderId} by hand: ${how}`,
        about: { bookingId: refund.bookingId, campRegistrationId: refund.campRegistrationId },
        before: { state: 'failed' },
        after: { state: 'completed', settledByHand: how },
      },
      now,
    )
  })
}

export class RefundNotFailedError extends DomainError {
  constructor() {
    super('conflict', REFUND_NOT_WAITING)
  }
}

/** Waits between refund checks: soon at first, then less often (refunds take days at some banks). */
function nextRefundCheck(checkCount: number, now: Date) {
  const seconds = [5, 15, 60, 300, 900][checkCount] ?? 3600
  return addSeconds(now, seconds)
}

/**
 * Submits a refund to the gateway the first time (retrying the same refund id is safe: the gateway
 * recognises it), and asks for its status afterwards.
 */
export async function refreshRefund(refundId: string, now = new Date()) {
  const [refund] = await db()
    .select({ id: refunds.id, state: refunds.state, amountPaise: refunds.amountPaise, submittedAt: refunds.submittedAt, checkCount: refunds.checkCount, orderId: payments.orderId })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(eq(refunds.refundId, refundId))
  if (!refund || refund.state !== 'pending') return
  const gateway = paymentGateway()
  let status: GatewayRefundStatus
  try {
    status = refund.submittedAt ? await gateway.getRefundStatus(refundId) : await gateway.refund({ orderId: refund.orderId, refundId, amountPaise: refund.amountPaise })
  } catch (error) {
    const message = error instanceof GatewayError ? error.message : String(error)
    await db()
      .update(refunds)
      .set({ lastError: message.slice(0, 500), checkCount: sql`${refunds.checkCount} + 1`, nextCheckAt: nextRefundCheck(refund.checkCount, now), updatedAt: now })
      .where(eq(refunds.id, refund.id))
    return
  }
  if (!refund.submittedAt) await db().update(refunds).set({ submittedAt: now, lastError: null }).where(eq(refunds.id, refund.id))
  const outcome = await applyRefundStatus(refundId, status, now)
  await db()
    .insert(paymentEvents)
    .values({ gateway: gateway.name, eventKey: `refund-status:${refundId}:${randomUUID()}`, source: 'status', orderId: refund.orderId, refundId, state: status.state, amountPaise: status.amountPaise, outcome, payload: status.raw as object, receivedAt: now })
  if (status.state === 'pending') {
    await db()
      .update(refunds)
      .set({ checkCount: sql`${refunds.checkCount} + 1`, nextCheckAt: nextRefundCheck(refund.checkCount, now), updatedAt: now })
      .where(eq(refunds.id, refund.id))
  }
}

/** One refund round: claims due refunds (skipping those another instance holds) and moves each on. */
export async function processDueRefunds(now = new Date(), limit = 20) {
  const refundIds = await claimDueChecks({ table: 'refunds', key: 'refund_id', waiting: sql`state = 'pending'` }, now, limit)
  for (const refundId of refundIds) await refreshRefund(refundId, now)
  return refundIds.length
}
