import { randomBytes, randomInt } from 'node:crypto'

/**
 * The one interface every payment gateway adapter implements (the built-in sandbox, PhonePe, …).
 * Amounts are integer paise. Adapters speak HTTP to their gateway; they never touch our database.
 */

/** Our view of an order at the gateway. `not_found`: the gateway has never heard of this order id. */
export type GatewayOrderState = 'pending' | 'completed' | 'failed' | 'not_found'

export type GatewayOrderStatus = {
  state: GatewayOrderState
  /** What the gateway says was (or is to be) paid; checked against what we stored. */
  amountPaise: number | null
  transactionId: string | null
  /** UPI, card, net banking … when the gateway tells. */
  paymentMode: string | null
  /** The gateway's answer as received, for the payment's history (no secrets in it). */
  raw: unknown
}

export type CreatePaymentInput = {
  /** Our unique order id, at most 63 characters of [A-Za-z0-9_-]. */
  orderId: string
  amountPaise: number
  description: string
  customer: { name: string; email: string; phone: string | null }
  /** Where the gateway sends the customer's browser back to, whatever the outcome. */
  redirectUrl: string
  /** After this instant the gateway must no longer accept payment for the order. */
  expiresAt: Date
  /** Identifies what is being paid for (booking id, …); shown in the gateway's dashboard. */
  meta: Record<string, string>
}

export type CreatePaymentResult = {
  /** The gateway's hosted payment page for this order. */
  redirectUrl: string
  gatewayOrderId: string | null
}

export type RefundInput = {
  /** The order whose payment is refunded. */
  orderId: string
  /** Our unique id for this refund, at most 63 characters of [A-Za-z0-9_-]. */
  refundId: string
  amountPaise: number
}

export type GatewayRefundState = 'pending' | 'completed' | 'failed'

export type GatewayRefundStatus = {
  state: GatewayRefundState
  gatewayRefundId: string | null
  amountPaise: number | null
  raw: unknown
}

/**
 * A notification whose authenticity the adapter verified. `authenticity` says how far it can be
 * trusted: a signature over the body vouches for its content; a shared credential only for its
 * sender, so its state must be confirmed with a status call before anything is fulfilled.
 */
export type GatewayNotification =
  | {
      kind: 'order'
      /** Unique per event at this gateway, so a repeated delivery is recognised. */
      eventKey: string
      orderId: string
      state: Exclude<GatewayOrderState, 'not_found'>
      amountPaise: number | null
      transactionId: string | null
      authenticity: 'signed-body' | 'credentials-only'
      raw: unknown
    }
  | {
      kind: 'refund'
      eventKey: string
      refundId: string
      orderId: string | null
      state: GatewayRefundState
      amountPaise: number | null
      authenticity: 'signed-body' | 'credentials-only'
      raw: unknown
    }
  | {
      /** Verified, but of a kind we do not act on: logged and acknowledged. */
      kind: 'ignored'
      eventKey: string
      type: string
      raw: unknown
    }

export type IncomingNotification = { headers: Record<string, string | undefined>; rawBody: Buffer }

export type NotificationCheck = { ok: true; notification: GatewayNotification } | { ok: false; reason: string }

/** A gateway call that failed or timed out; `retryable` when asking again later may succeed. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | null = null,
  ) {
    super(message)
    this.name = 'GatewayError'
  }
}

export interface PaymentGateway {
  readonly name: 'sandbox' | 'phonepe'
  /** Origins the browser is sent to (the hosted checkout), allowed by our CSP's form-action. */
  readonly checkoutOrigins: string[]
  createPayment(input: CreatePaymentInput): Promise<CreatePaymentResult>
  getStatus(orderId: string): Promise<GatewayOrderStatus>
  /** Verifies a notification posted to our webhook; never trusts an unverified one. */
  parseNotification(request: IncomingNotification): Promise<NotificationCheck>
  refund(input: RefundInput): Promise<GatewayRefundStatus>
  getRefundStatus(refundId: string): Promise<GatewayRefundStatus>
}

/**
 * Order ids: {PREFIX}_{ms timestamp}_{0-999}_{8 random characters}, the prefix saying what is paid
 * for, with enough entropy that two instances creating orders in the same millisecond never collide.
 */
export function newOrderId(prefix: string, now = new Date()): string {
  const entropy = Array.from(randomBytes(8), (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('')
  return `${prefix}_${now.getTime()}_${randomInt(0, 1000)}_${entropy}`
}

const ID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'
