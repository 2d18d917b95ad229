import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { instanceSecret } from '~/db/secrets.server'
import { sandboxGatewayOrders, sandboxGatewayRefunds, type SandboxOrderState } from '~/db/schema'
import { logger } from '~/lib/logger.server'

/**
 * The built-in test payment gateway: it plays the part of a payment company. Merchants (our own
 * adapter, over HTTP) create orders and refunds with a bearer key; customers choose the outcome on
 * its TEST MODE checkout page; it then POSTs a notification signed with HMAC-SHA256 of the raw
 * body to the merchant's callback URL and answers status calls. No real money moves.
 */

export const SANDBOX_KEY_NAME = 'sandbox_gateway_key'
export const SIGNATURE_HEADER = 'x-sandbox-signature'
/** A refund is "processed by the bank" this long after it was requested. */
const REFUND_PROCESSING_MS = 1_000

export type SandboxOrder = typeof sandboxGatewayOrders.$inferSelect

export type SandboxNotification = {
  eventId: string
  event: 'order.completed' | 'order.failed' | 'refund.completed' | 'refund.failed'
  merchantOrderId: string
  merchantRefundId?: string
  state: 'COMPLETED' | 'FAILED'
  amountPaise: number
  transactionId: string | null
}

export function sandboxKey() {
  return instanceSecret(SANDBOX_KEY_NAME)
}

export function sign(key: string, body: string | Buffer) {
  return createHmac('sha256', key).update(body).digest('hex')
}

/** Constant-time comparison of two secrets or signatures, whatever their lengths. */
export function sameSecret(given: string, expected: string) {
  const a = createHmac('sha256', 'compare').update(given).digest()
  const b = createHmac('sha256', 'compare').update(expected).digest()
  return timingSafeEqual(a, b)
}

export class SandboxConflictError extends Error {}

export async function createOrder(input: { merchantOrderId: string; amountPaise: number; description: string; customerName: string; redirectUrl: string; callbackUrl: string; expiresAt: Date }, now = new Date()) {
  const [row] = await db()
    .insert(sandboxGatewayOrders)
    .values({ ...input, gatewayOrderId: `SBX${randomBytes(9).toString('hex').toUpperCase()}`, state: 'PENDING', createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning()
  if (!row) throw new SandboxConflictError('This merchant order id has been used already')
  return row
}

/** An order as the gateway sees it now: an unpaid order past its expiry has failed. */
export async function findOrder(where: { merchantOrderId: string } | { gatewayOrderId: string }, now = new Date()): Promise<SandboxOrder | null> {
  const condition = 'merchantOrderId' in where ? eq(sandboxGatewayOrders.merchantOrderId, where.merchantOrderId) : eq(sandboxGatewayOrders.gatewayOrderId, where.gatewayOrderId)
  const [row] = await db().select().from(sandboxGatewayOrders).where(condition)
  if (!row) return null
  if (row.state === 'PENDING' && row.expiresAt <= now) {
    await db()
      .update(sandboxGatewayOrders)
      .set({ state: 'FAILED', updatedAt: now })
      .where(and(eq(sandboxGatewayOrders.merchantOrderId, row.merchantOrderId), eq(sandboxGatewayOrders.state, 'PENDING')))
    return { ...row, state: 'FAILED' }
  }
  return row
}

type CheckoutChoice = 'success' | 'failure' | 'pending'

/**
 * The customer's choice on the checkout page. Success and failure are final and announced to the
 * merchant; "pending" leaves the order open (a payment the bank has not settled yet).
 */
export async function chooseOutcome(gatewayOrderId: string, choice: CheckoutChoice, now = new Date()): Promise<SandboxOrder | null> {
  const order = await findOrder({ gatewayOrderId }, now)
  if (!order || order.state !== 'PENDING' || choice === 'pending') return order
  const state: SandboxOrderState = choice === 'success' ? 'COMPLETED' : 'FAILED'
  const [updated] = await db()
    .update(sandboxGatewayOrders)
    .set({
      state,
      transactionId: choice === 'success' ? `SBXT${randomBytes(8).toString('hex').toUpperCase()}` : null,
      paymentMode: choice === 'success' ? 'UPI_INTENT' : null,
      updatedAt: now,
    })
    .where(and(eq(sandboxGatewayOrders.gatewayOrderId, gatewayOrderId), eq(sandboxGatewayOrders.state, 'PENDING')))
    .returning()
  if (!updated) return findOrder({ gatewayOrderId }, now)
  void notify(updated.callbackUrl, {
    eventId: `${updated.gatewayOrderId}:${state}`,
    event: state === 'COMPLETED' ? 'order.completed' : 'order.failed',
    merchantOrderId: updated.merchantOrderId,
    state,
    amountPaise: updated.amountPaise,
    transactionId: updated.transactionId,
  })
  return updated
}

export class SandboxRefundError extends Error {}

/** Refunds a completed order; asking again with the same refund id returns the same refund. */
export async function createRefund(input: { merchantRefundId: string; merchantOrderId: string; amountPaise: number }, now = new Date()) {
  const existing = await findRefund(input.merchantRefundId, now)
  if (existing) return existing
  const order = await findOrder({ merchantOrderId: input.merchantOrderId }, now)
  if (!order || order.state !== 'COMPLETED') throw new SandboxRefundError('Only a completed order can be refunded')
  if (input.amountPaise <= 0 || input.amountPaise > order.amountPaise) throw new SandboxRefundError('The refund amount must be between 1 paisa and the amount paid')
  await db()
    .insert(sandboxGatewayRefunds)
    .values({ ...input, gatewayRefundId: `SBXR${randomBytes(8).toString('hex').toUpperCase()}`, state: 'PENDING', createdAt: now })
    .onConflictDoNothing()
  const timer = setTimeout(() => void settleRefund(input.merchantRefundId), REFUND_PROCESSING_MS)
  timer.unref()
  return (await findRefund(input.merchantRefundId, now))!
}

/** A refund as the gateway sees it now: pending for a moment, then completed. */
export async function findRefund(merchantRefundId: string, now = new Date()) {
  const [row] = await db().select().from(sandboxGatewayRefunds).where(eq(sandboxGatewayRefunds.merchantRefundId, merchantRefundId))
  if (!row) return null
  if (row.state === 'PENDING' && now.getTime() - row.createdAt.getTime() >= REFUND_PROCESSING_MS) {
    await db()
      .update(sandboxGatewayRefunds)
      .set({ state: 'COMPLETED' })
      .where(and(eq(sandboxGatewayRefunds.merchantRefundId, merchantRefundId), eq(sandboxGatewayRefunds.state, 'PENDING')))
    return { ...row, state: 'COMPLETED' as const }
  }
  return row
}

async function settleRefund(merchantRefundId: string) {
  try {
    const [settled] = await db()
      .update(sandboxGatewayRefunds)
      .set({ state: 'COMPLETED' })
      .where(and(eq(sandboxGatewayRefunds.merchantRefundId, merchantRefundId), eq(sandboxGatewayRefunds.state, 'PENDING')))
      .returning()
    if (!settled) return
    const order = await findOrder({ merchantOrderId: settled.merchantOrderId })
    if (!order) return
    await notify(order.callbackUrl, {
      eventId: `${settled.gatewayRefundId}:COMPLETED`,
      event: 'refund.completed',
      merchantOrderId: settled.merchantOrderId,
      merchantRefundId: settled.merchantRefundId,
      state: 'COMPLETED',
      amountPaise: settled.amountPaise,
      transactionId: null,
    })
  } catch (error) {
    // The database went away (a test ending, a shutdown): the status call settles it later.
    logger().warn({ err: error, merchantRefundId }, 'sandbox gateway: could not settle a refund')
  }
}

/**
 * Posts a signed notification to the merchant, trying a few times like a real gateway. A merchant
 * that never answers still learns the outcome from its status calls.
 */
async function notify(callbackUrl: string, notification: SandboxNotification) {
  const body = JSON.stringify(notification)
  const key = await sandboxKey()
  for (const delayMs of [0, 1_000, 5_000]) {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs).unref())
    try {
      const response = await fetch(callbackUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: sign(key, body) },
        body,
        signal: AbortSignal.timeout(5_000),
      })
      if (response.ok) return true
    } catch {
      // try again
    }
  }
  return false
}
