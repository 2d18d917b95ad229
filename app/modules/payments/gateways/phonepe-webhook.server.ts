import { createHash, timingSafeEqual } from 'node:crypto'
import type { GatewayNotification, GatewayRefundState, IncomingNotification, NotificationCheck } from '../gateway-contract.server'
import { integer, isRecord, latestAttempt, ORDER_STATES, parseJson, REFUND_STATES, text } from './phonepe-answers.server'

/** `pg.order.*` is what custom checkout sends; its payload has the same shape. */
const ORDER_EVENTS = new Set(['checkout.order.completed', 'checkout.order.failed', 'pg.order.completed', 'pg.order.failed'])

/**
 * Reads PhonePe's webhook calls. PhonePe signs nothing: the Authorization header carries the
 * SHA-256 of the credentials set for the webhook on its dashboard, so a notification vouches only
 * for its sender.
 */
export function phonePeNotifications(webhook: { username: string; password: string }) {
  const expectedDigest = sha256(sha256Hex(`${webhook.username}:${webhook.password}`))

  return async function parseNotification(request: IncomingNotification): Promise<NotificationCheck> {
    const received = headerValue(request.headers, 'authorization')
    if (received === undefined) return { ok: false, reason: 'missing Authorization header' }
    // Digests of both sides have the same length, so the comparison time says nothing about
    // the header's length or content.
    if (!timingSafeEqual(sha256(received.trim().toLowerCase()), expectedDigest)) {
      return { ok: false, reason: 'Authorization header does not match the webhook credentials' }
    }

    const body = parseJson(request.rawBody.toString('utf8'))
    if (!isRecord(body)) return { ok: false, reason: 'body is not a JSON object' }
    // `type` (PG_ORDER_COMPLETED …) is deprecated in favour of `event`; accept either.
    const event = text(body, 'event') ?? eventFromType(text(body, 'type'))
    if (!event) return { ok: false, reason: 'notification has no event' }
    const payload = isRecord(body.payload) ? body.payload : null
    if (!payload) return { ok: false, reason: 'notification has no payload' }
    const phonePeState = text(payload, 'state')

    if (ORDER_EVENTS.has(event)) {
      const orderId = text(payload, 'merchantOrderId')
      if (!orderId) return { ok: false, reason: `${event} without payload.merchantOrderId` }
      const state = (phonePeState ? ORDER_STATES[phonePeState] : undefined) ?? (event.endsWith('.completed') ? 'completed' : 'failed')
      const attempt = latestAttempt(payload.paymentDetails, state)
      const notification: GatewayNotification = {
        kind: 'order',
        eventKey: `phonepe:${event}:${orderId}:${phonePeState ?? ''}`,
        orderId,
        state,
        amountPaise: integer(payload, 'amount'),
        transactionId: attempt ? text(attempt, 'transactionId') : null,
        authenticity: 'credentials-only',
        raw: body,
      }
      return { ok: true, notification }
    }

    if (event.startsWith('pg.refund.')) {
      const refundId = text(payload, 'merchantRefundId')
      if (!refundId) return { ok: false, reason: `${event} without payload.merchantRefundId` }
      const state = (phonePeState ? REFUND_STATES[phonePeState] : undefined) ?? refundStateFromEvent(event)
      const notification: GatewayNotification = {
        kind: 'refund',
        eventKey: `phonepe:${event}:${refundId}:${phonePeState ?? ''}`,
        refundId,
        orderId: text(payload, 'originalMerchantOrderId'),
        state,
        amountPaise: integer(payload, 'amount'),
        authenticity: 'credentials-only',
        raw: body,
      }
      return { ok: true, notification }
    }

    const subject = text(payload, 'merchantRefundId') ?? text(payload, 'merchantOrderId')
    const attempt = latestAttempt(payload.paymentDetails, 'pending')
    const distinguisher = subject
      ? [subject, attempt ? text(attempt, 'transactionId') : null, phonePeState].filter(Boolean).join(':')
      : sha256Hex(request.rawBody.toString('utf8')).slice(0, 32)
    return { ok: true, notification: { kind: 'ignored', eventKey: `phonepe:${event}:${distinguisher}`, type: event, raw: body } }
  }
}

function refundStateFromEvent(event: string): GatewayRefundState {
  if (event.endsWith('.completed')) return 'completed'
  if (event.endsWith('.failed')) return 'failed'
  return 'pending'
}

/** CHECKOUT_ORDER_COMPLETED → checkout.order.completed */
function eventFromType(type: string | null) {
  return type ? type.toLowerCase().replaceAll('_', '.') : null
}

function headerValue(headers: Record<string, string | undefined>, name: string) {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name)
  return key === undefined ? undefined : headers[key]
}

function sha256Hex(value: string) {
  return createHash('sha256').update(value).digest('hex')
}

function sha256(value: string) {
  return createHash('sha256').update(value).digest()
}
