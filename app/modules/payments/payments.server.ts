import { randomUUID } from 'node:crypto'
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { paymentEvents, payments, type PaymentState } from '~/db/schema'
import { logger } from '~/lib/logger.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { DomainError } from '~/lib/domain-error'
import { GatewayError, newOrderId, type GatewayNotification, type GatewayOrderStatus } from './gateway-contract.server'
import { paymentGateway } from './active-gateway.server'
import { payableOf, promoOrderOf, type PayableKind, type PayableRef } from './payable-contract.server'
import { payableKind } from './payable-kinds.server'
import { claimDueChecks } from './due-checks.server'
import { FREE_GATEWAY, issueReceipt } from '~/modules/receipts/receipts.server'
import { amountMismatchAlert } from './staff-alerts.server'
import { applyRefundStatus, refreshRefund, requestRefund, type RefundOutcome } from './refunds.server'
import { addMinutes, addSeconds, secondsBetween } from '~/lib/lab-time'
import { markPromoUsed, releasePromoUse } from '~/modules/promotions/uses.server'

/** Payments staff record for money taken at the lab; they are refunded at the lab too, not through a gateway. */
export const OFFLINE_GATEWAY = 'offline'

/** Records a payment staff took at the lab for a booking they made, with its receipt, in their transaction. */
export async function recordPaidAtTheLab(tx: Executor, { bookingId, amountPaise, paymentMode }: { bookingId: number; amountPaise: number; paymentMode: string | null }, now: Date) {
  const [payment] = await tx
    .insert(payments)
    .values({
      orderId: newOrderId('OFFL', now),
      bookingId,
      gateway: OFFLINE_GATEWAY,
      amountPaise,
      state: 'completed',
      paymentMode,
      expiresAt: now,
      completedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: payments.id })
  await issueReceipt(tx, payment!.id, now)
}

/** The hold ran out (or the booking moved on) before the customer paid. */
export class HoldExpiredError extends DomainError {
  constructor() {
    super('conflict', 'Your seat hold has expired. Please choose your time slot again.')
  }
}

/** The gateway could not create the payment order. */
export class PaymentStartError extends DomainError {
  constructor() {
    super('unavailable', 'Failed to create payment. Please try again.')
  }
}

/** Time left on a hold below which we do not send the customer to pay. */
const MIN_MINUTES_TO_PAY = 1
/** After its expiry, an order still pending at the gateway is given this long before we call it failed. */
const EXPIRY_GRACE_MINUTES = 15
/** An order the gateway has not heard of is given this long for its creation call to land. */
const CREATION_GRACE_MINUTES = 2

export type StartedPayment = { orderId: string; redirectUrl: string }

/**
 * Sends the customer to pay for something held for them (a booking, a camp registration): records
 * a payment order (our unique order id, the stored amount, expiring with the hold), then asks the
 * gateway for its hosted page. A payment still open for it is resumed rather than duplicated.
 */
export async function startPayment({
  payable,
  statusUrl,
  description,
  now = new Date(),
}: {
  payable: PayableRef
  /** Where the gateway returns the customer, given the order id. */
  statusUrl: (orderId: string) => string | Promise<string>
  description: string
  now?: Date
}): Promise<StartedPayment> {
  const gateway = paymentGateway()
  const kind = payableKind(payable.kind)
  const column = payableColumn(payable.kind)
  const order = await db().transaction(async (tx) => {
    const terms = await kind.termsForPayment(tx, payable.id, now)
    if (!terms || terms.holdExpiresAt < addMinutes(now, MIN_MINUTES_TO_PAY)) throw new HoldExpiredError()
    const [open] = await tx
      .select({ orderId: payments.orderId, checkoutUrl: payments.checkoutUrl })
      .from(payments)
      .where(and(eq(column, payable.id), eq(payments.state, 'pending')))
      .orderBy(asc(payments.id))
      .limit(1)
    if (open?.checkoutUrl) return { resume: { orderId: open.orderId, redirectUrl: open.checkoutUrl } }

    const orderId = newOrderId(kind.orderPrefix, now)
    // A promo code took the whole price: paid at once, through no gateway.
    if (terms.amountPaise === 0) {
      const [payment] = await tx
        .insert(payments)
        .values({ orderId, ...payableValues(payable), gateway: FREE_GATEWAY, amountPaise: 0, expiresAt: terms.holdExpiresAt, state: 'completed', paymentMode: FREE_GATEWAY, completedAt: now, createdAt: now, updatedAt: now })
        .returning({ id: payments.id })
      await fulfilPaidOrder(tx, { id: payment!.id, amountPaise: 0 }, payable, now)
      return { free: { orderId } }
    }
    await tx.insert(payments).values({
      orderId,
      ...payableValues(payable),
      gateway: gateway.name,
      amountPaise: terms.amountPaise,
      expiresAt: terms.holdExpiresAt,
      state: 'initiated',
      nextCheckAt: nextCheckAt(now, now),
      createdAt: now,
      updatedAt: now,
    })
    return { create: { orderId, terms } }
  })
  if (order.resume) return order.resume
  if (order.free) return { orderId: order.free.orderId, redirectUrl: await statusUrl(order.free.orderId) }

  const { orderId, terms } = order.create!
  try {
    const created = await gateway.createPayment({
      orderId,
      amountPaise: terms.amountPaise,
      description,
      customer: terms.customer,
      redirectUrl: await statusUrl(orderId),
      expiresAt: terms.holdExpiresAt,
      meta: { [payable.kind]: String(payable.id), reference: terms.reference },
    })
    await db()
      .update(payments)
      .set({ state: 'pending', checkoutUrl: created.redirectUrl, gatewayOrderId: created.gatewayOrderId, updatedAt: new Date() })
      .where(and(eq(payments.orderId, orderId), eq(payments.state, 'initiated')))
    return { orderId, redirectUrl: created.redirectUrl }
  } catch (error) {
    // A retryable failure may have created the order after all: reconciliation asks the gateway.
    // Anything else is final for this order id; the customer's next try gets a new one.
    if (!(error instanceof GatewayError) || !error.retryable) {
      await db().transaction(async (tx) => {
        const [payment] = await tx
          .update(payments)
          .set({ state: 'failed', failureReason: String((error as Error).message).slice(0, 500), nextCheckAt: null, updatedAt: new Date() })
          .where(and(eq(payments.orderId, orderId), eq(payments.state, 'initiated')))
          .returning({ id: payments.id })
        if (payment) await afterFailure(tx, payable, payment.id, new Date())
      })
    }
    throw Object.assign(new PaymentStartError(), { cause: error })
  }
}

/** The column of a payment row that names what it pays for, of this kind. */
export function payableColumn(kind: PayableKind) {
  return kind === 'booking' ? payments.bookingId : payments.campRegistrationId
}

function payableValues(payable: PayableRef) {
  return payable.kind === 'booking' ? { bookingId: payable.id } : { campRegistrationId: payable.id }
}

/** A payment failed: once no other payment for the same thing is still under way (or paid), release it. */
async function afterFailure(tx: Executor, payable: PayableRef, paymentId: number, now: Date) {
  const others = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payableColumn(payable.kind), payable.id), ne(payments.id, paymentId), inArray(payments.state, ['initiated', 'pending', 'completed'])))
  if (others.length === 0) {
    await payableKind(payable.kind).unpaid(tx, payable.id, now, 'payment_failed')
    await releasePromoUse(tx, promoOrderOf(payable), now)
  }
}

/**
 * A payment completed: its receipt, the order confirmed (or its money on the way back), and the
 * promo code it used counted for good.
 */
async function fulfilPaidOrder(tx: Executor, payment: { id: number; amountPaise: number }, payable: PayableRef, now: Date) {
  await issueReceipt(tx, payment.id, now)
  await markPromoUsed(tx, promoOrderOf(payable), now)
  const outcome = await payableKind(payable.kind).paid(tx, payable.id, now)
  if (outcome.result === 'refund' && payment.amountPaise > 0) await requestRefund(tx, { paymentId: payment.id, amountPaise: payment.amountPaise, reason: outcome.reason, now })
}

type ApplyOutcome = 'applied' | 'unchanged' | 'unknown_order' | 'amount_mismatch' | 'ignored_regression'

/**
 * Applies what the gateway says about an order, exactly once, in one transaction with the payment
 * row locked. Payment state only moves forward (initiated → pending → completed | failed); a
 * "completed" is honoured even after we gave up on the order, because the money was taken. The
 * amount must be the one we stored. A completed payment confirms its booking (or is refunded).
 */
export async function applyOrderStatus(orderId: string, status: Pick<GatewayOrderStatus, 'state' | 'amountPaise' | 'transactionId' | 'paymentMode'>, now = new Date()): Promise<ApplyOutcome> {
  return db().transaction(async (tx) => {
    const [payment] = await tx
      .select({ id: payments.id, state: payments.state, amountPaise: payments.amountPaise, bookingId: payments.bookingId, campRegistrationId: payments.campRegistrationId, createdAt: payments.createdAt, expiresAt: payments.expiresAt })
      .from(payments)
      .where(eq(payments.orderId, orderId))
      .for('update')
    if (!payment) return 'unknown_order'
    const payable = payableOf(payment)
    const final = payment.state === 'completed' || payment.state === 'failed'

    switch (status.state) {
      case 'pending':
        if (payment.state !== 'initiated') return 'unchanged'
        await setState(tx, payment.id, 'pending', now)
        return 'applied'
      case 'not_found': {
        // Never reached the gateway: give the creation call time to land, then call it failed.
        const settled = now > addMinutes(payment.createdAt, CREATION_GRACE_MINUTES) || now > payment.expiresAt
        if (payment.state !== 'initiated' || !settled) return 'unchanged'
        await setState(tx, payment.id, 'failed', now, { failureReason: 'The order never reached the payment gateway.' })
        await afterFailure(tx, payable, payment.id, now)
        return 'applied'
      }
      case 'failed':
        if (payment.state === 'completed') return 'ignored_regression'
        if (final) return 'unchanged'
        await setState(tx, payment.id, 'failed', now, { failureReason: 'The payment was declined or abandoned at the gateway.' })
        await afterFailure(tx, payable, payment.id, now)
        return 'applied'
      case 'completed': {
        if (status.amountPaise !== payment.amountPaise) {
          await alertAmountMismatch(tx, { ...payment, orderId }, status.amountPaise, now)
          return 'amount_mismatch'
        }
        if (payment.state === 'completed') return 'unchanged'
        await setState(tx, payment.id, 'completed', now, { transactionId: status.transactionId, paymentMode: status.paymentMode, completedAt: now })
        await fulfilPaidOrder(tx, payment, payable, now)
        return 'applied'
      }
    }
  })
}

/**
 * Tells the lab once per order (a notification and every status check after it report the same
 * amount): the first report is recorded under a fixed key, and only the one that records it mails.
 */
const mismatchEventKey = (orderId: string) => `amount-mismatch:${orderId}`

async function alertAmountMismatch(tx: Executor, payment: { id: number; orderId: string; amountPaise: number; bookingId: number | null; campRegistrationId: number | null }, reportedPaise: number | null, now: Date) {
  logger().error({ orderId: payment.orderId, reportedPaise, expectedPaise: payment.amountPaise }, 'the gateway reports another amount than the payment is for: not confirmed')
  const [first] = await tx
    .insert(paymentEvents)
    .values({ gateway: paymentGateway().name, eventKey: mismatchEventKey(payment.orderId), source: 'status', orderId: payment.orderId, state: 'completed', amountPaise: reportedPaise, outcome: 'amount_mismatch', receivedAt: now })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id })
  // The alert names the customer: it is about their booking or registration.
  if (first) await enqueueEmail(await amountMismatchAlert(tx, { paymentId: payment.id, expectedPaise: payment.amountPaise, reportedPaise }), { bookingId: payment.bookingId, campRegistrationId: payment.campRegistrationId }, tx, now)
}

async function setState(tx: Executor, paymentId: number, state: PaymentState, now: Date, extra: Partial<typeof payments.$inferInsert> = {}) {
  const final = state === 'completed' || state === 'failed'
  await tx
    .update(payments)
    .set({ state, updatedAt: now, ...(final ? { nextCheckAt: null } : {}), ...extra })
    .where(eq(payments.id, paymentId))
}

/**
 * Asks the gateway for an order's status and applies it; the status page and reconciliation both
 * come here. A gateway that cannot answer leaves everything as it was, to be asked again.
 */
export async function refreshPayment(orderId: string, now = new Date()): Promise<{ state: PaymentState } | null> {
  const payment = await paymentByOrderId(orderId)
  if (!payment) return null
  if (payment.state === 'completed' || payment.state === 'failed') return { state: payment.state }
  let status: GatewayOrderStatus
  try {
    status = await paymentGateway().getStatus(orderId)
  } catch (error) {
    if (error instanceof GatewayError) return { state: payment.state }
    throw error
  }
  const outcome = await applyOrderStatus(orderId, status, now)
  if (outcome !== 'unchanged') await recordEvent({ source: 'status', eventKey: `status:${orderId}:${randomUUID()}`, orderId, state: status.state, amountPaise: status.amountPaise, outcome, payload: status.raw }, now)

  const after = await paymentByOrderId(orderId)
  if (after && (after.state === 'initiated' || after.state === 'pending')) {
    const gaveUp = now > addMinutes(after.expiresAt, EXPIRY_GRACE_MINUTES)
    if (gaveUp) {
      const [mismatch] = await db().select({ id: paymentEvents.id }).from(paymentEvents).where(and(eq(paymentEvents.orderId, orderId), eq(paymentEvents.eventKey, mismatchEventKey(orderId))))
      const failureReason = mismatch
        ? 'The gateway reported it paid for another amount than was asked; not confirmed (the support address was told).'
        : 'The gateway never confirmed the payment before the order expired.'
      await db().transaction(async (tx) => {
        await setState(tx, after.id, 'failed', now, { failureReason })
        await afterFailure(tx, payableOf(after), after.id, now)
      })
      return { state: 'failed' }
    }
    await db()
      .update(payments)
      .set({ lastCheckedAt: now, checkCount: sql`${payments.checkCount} + 1`, nextCheckAt: nextCheckAt(after.createdAt, now) })
      .where(eq(payments.id, after.id))
  }
  return after ? { state: after.state } : null
}

async function paymentByOrderId(orderId: string) {
  const [row] = await db()
    .select({
      id: payments.id,
      state: payments.state,
      amountPaise: payments.amountPaise,
      bookingId: payments.bookingId,
      campRegistrationId: payments.campRegistrationId,
      createdAt: payments.createdAt,
      expiresAt: payments.expiresAt,
      lastCheckedAt: payments.lastCheckedAt,
    })
    .from(payments)
    .where(eq(payments.orderId, orderId))
  return row
}

/**
 * When to ask the gateway next about an order created at `createdAt`, on the schedule PhonePe asks
 * merchants to follow: after 20 s, every 3 s for 30 s, 6 s for 60 s, 10 s for 60 s, 30 s for 60 s,
 * then every minute.
 */
export function nextCheckAt(createdAt: Date, now: Date): Date {
  const age = secondsBetween(createdAt, now)
  const wait = age < 20 ? 20 - age : age < 50 ? 3 : age < 110 ? 6 : age < 170 ? 10 : age < 230 ? 30 : 60
  return addSeconds(now, wait)
}

/** One reconciliation round: claims orders whose check is due and asks the gateway about each. */
export async function reconcileDuePayments(now = new Date(), limit = 20) {
  const orderIds = await claimDueChecks({ table: 'payments', key: 'order_id', waiting: sql`state IN ('initiated', 'pending')` }, now, limit)
  for (const orderId of orderIds) await refreshPayment(orderId, now)
  return orderIds.length
}

/** The page asks at most this often; reconciliation keeps its own schedule besides. */
const PAGE_CHECK_INTERVAL_MS = 2_500

/** The status page's check: asks the gateway unless someone asked a moment ago. */
export async function checkPaymentForPage(orderId: string, now = new Date()) {
  const payment = await paymentByOrderId(orderId)
  if (!payment || payment.state === 'completed' || payment.state === 'failed') return
  if (payment.lastCheckedAt && now.getTime() - payment.lastCheckedAt.getTime() < PAGE_CHECK_INTERVAL_MS) return
  await refreshPayment(orderId, now)
}

type NotificationOutcome = ApplyOutcome | RefundOutcome | 'duplicate' | 'ignored' | 'needs_status_check'

/**
 * A verified notification from the gateway. Recorded first under its event key, so a repeated
 * delivery is recognised and changes nothing. A notification signed over its body is applied as
 * it stands; one vouched for only by a shared credential says "ask us" — the caller then asks the
 * gateway for the status (`refreshFromNotification`) before anything is fulfilled.
 */
export async function handleNotification(gatewayName: string, notification: GatewayNotification, now = new Date()): Promise<NotificationOutcome> {
  const base = {
    gateway: gatewayName,
    eventKey: notification.eventKey,
    source: 'webhook' as const,
    payload: notification.raw as object,
    receivedAt: now,
  }
  const recorded =
    notification.kind === 'order'
      ? { ...base, orderId: notification.orderId, state: notification.state, amountPaise: notification.amountPaise }
      : notification.kind === 'refund'
        ? { ...base, orderId: notification.orderId, refundId: notification.refundId, state: notification.state, amountPaise: notification.amountPaise }
        : base
  const [event] = await db()
    .insert(paymentEvents)
    .values({ ...recorded, outcome: 'received' })
    .onConflictDoNothing({ target: [paymentEvents.gateway, paymentEvents.eventKey] })
    .returning({ id: paymentEvents.id })
  if (!event) return 'duplicate'

  let outcome: NotificationOutcome
  if (notification.kind === 'ignored') outcome = 'ignored'
  else if (notification.authenticity === 'credentials-only') outcome = 'needs_status_check'
  else if (notification.kind === 'order') outcome = await applyOrderStatus(notification.orderId, { state: notification.state, amountPaise: notification.amountPaise, transactionId: notification.transactionId, paymentMode: null }, now)
  else outcome = await applyRefundStatus(notification.refundId, { state: notification.state, gatewayRefundId: null, amountPaise: notification.amountPaise }, now)

  await db().update(paymentEvents).set({ outcome }).where(eq(paymentEvents.id, event.id))
  return outcome
}

/** The status check a credentials-only notification calls for. */
export async function refreshFromNotification(notification: GatewayNotification, now = new Date()) {
  if (notification.kind === 'order') await refreshPayment(notification.orderId, now)
  else if (notification.kind === 'refund') await refreshRefund(notification.refundId, now)
}

async function recordEvent(values: Omit<typeof paymentEvents.$inferInsert, 'gateway' | 'receivedAt'>, now: Date) {
  await db()
    .insert(paymentEvents)
    .values({ ...values, gateway: paymentGateway().name, receivedAt: now })
    .onConflictDoNothing()
}
