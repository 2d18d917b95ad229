import { GatewayError, type GatewayNotification, type GatewayOrderStatus, type GatewayRefundStatus, type PaymentGateway } from '../gateway-contract.server'
import { sameSecret, sign, SIGNATURE_HEADER, type SandboxNotification } from './sandbox-gateway-orders.server'

type SandboxOptions = {
  /** The sandbox gateway's address (this site's /sandbox-gateway); a function, as the port may be known late. */
  baseUrl: () => string
  /** Our webhook, where the sandbox posts its notifications. */
  callbackUrl: () => string
  key: string
  timeoutMs?: number
  /** Origins of its checkout page other than this site's (a sandbox running elsewhere). */
  checkoutOrigins?: string[]
}

type OrderAnswer = { merchantOrderId: string; gatewayOrderId: string; state: 'PENDING' | 'COMPLETED' | 'FAILED'; amountPaise: number; transactionId: string | null; paymentMode: string | null; checkoutUrl?: string }
type RefundAnswer = { merchantRefundId: string; gatewayRefundId: string; state: 'PENDING' | 'COMPLETED' | 'FAILED'; amountPaise: number }

const ORDER_STATES = { PENDING: 'pending', COMPLETED: 'completed', FAILED: 'failed' } as const

/** The adapter for the built-in sandbox gateway: the same HTTP round trips as a real gateway. */
export function createSandboxGateway({ baseUrl, callbackUrl, key, timeoutMs = 10_000, checkoutOrigins = [] }: SandboxOptions): PaymentGateway {
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; data: T | null }> {
    let response: Response
    try {
      response = await fetch(`${baseUrl()}${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      throw new GatewayError(`sandbox ${method} ${path}: ${(error as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable'}`, true)
    }
    if (response.status === 404) return { status: 404, data: null }
    if (!response.ok) throw new GatewayError(`sandbox ${method} ${path}: HTTP ${response.status}`, response.status >= 500, response.status)
    return { status: response.status, data: (await response.json()) as T }
  }

  return {
    name: 'sandbox',
    checkoutOrigins,
    async createPayment(input) {
      const { data } = await call<OrderAnswer>('POST', '/api/orders', {
        merchantOrderId: input.orderId,
        amountPaise: input.amountPaise,
        description: input.description,
        customerName: input.customer.name,
        redirectUrl: input.redirectUrl,
        callbackUrl: callbackUrl(),
        expiresAt: input.expiresAt.toISOString(),
      })
      if (!data?.checkoutUrl) throw new GatewayError('sandbox POST /api/orders: no checkout URL in the answer', false)
      return { redirectUrl: data.checkoutUrl, gatewayOrderId: data.gatewayOrderId }
    },
    async getStatus(orderId): Promise<GatewayOrderStatus> {
      const { data } = await call<OrderAnswer>('GET', `/api/orders/${encodeURIComponent(orderId)}`)
      if (!data) return { state: 'not_found', amountPaise: null, transactionId: null, paymentMode: null, raw: null }
      return { state: ORDER_STATES[data.state], amountPaise: data.amountPaise, transactionId: data.transactionId, paymentMode: data.paymentMode, raw: data }
    },
    async parseNotification({ headers, rawBody }) {
      const signature = headers[SIGNATURE_HEADER]
      if (!signature || !sameSecret(signature, sign(key, rawBody))) return { ok: false, reason: 'bad or missing signature' }
      let body: SandboxNotification
      try {
        body = JSON.parse(rawBody.toString('utf8')) as SandboxNotification
      } catch {
        return { ok: false, reason: 'body is not JSON' }
      }
      const state = ORDER_STATES[body.state]
      let notification: GatewayNotification
      if ((body.event === 'order.completed' || body.event === 'order.failed') && state) {
        notification = { kind: 'order', eventKey: body.eventId, orderId: body.merchantOrderId, state, amountPaise: body.amountPaise, transactionId: body.transactionId, authenticity: 'signed-body', raw: body }
      } else if ((body.event === 'refund.completed' || body.event === 'refund.failed') && body.merchantRefundId && state) {
        notification = { kind: 'refund', eventKey: body.eventId, refundId: body.merchantRefundId, orderId: body.merchantOrderId, state, amountPaise: body.amountPaise, authenticity: 'signed-body', raw: body }
      } else {
        notification = { kind: 'ignored', eventKey: String(body.eventId), type: String(body.event), raw: body }
      }
      return { ok: true, notification }
    },
    async refund(input): Promise<GatewayRefundStatus> {
      const { data } = await call<RefundAnswer>('POST', '/api/refunds', { merchantRefundId: input.refundId, merchantOrderId: input.orderId, amountPaise: input.amountPaise })
      if (!data) throw new GatewayError('sandbox POST /api/refunds: order not found', false, 404)
      return refundStatus(data)
    },
    async getRefundStatus(refundId): Promise<GatewayRefundStatus> {
      const { data } = await call<RefundAnswer>('GET', `/api/refunds/${encodeURIComponent(refundId)}`)
      if (!data) throw new GatewayError(`sandbox GET /api/refunds/${refundId}: not found`, false, 404)
      return refundStatus(data)
    },
  }
}

function refundStatus(data: RefundAnswer): GatewayRefundStatus {
  return { state: ORDER_STATES[data.state], gatewayRefundId: data.gatewayRefundId, amountPaise: data.amountPaise, raw: data }
}
