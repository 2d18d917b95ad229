import type express from 'express'
import type pino from 'pino'
import type { PaymentGateway } from '~/modules/payments/gateway-contract.server'
import { handleNotification, refreshFromNotification } from '~/modules/payments/payments.server'

/**
 * Notifications from the gateway: verified by the adapter (a forgery gets 401), recorded under
 * their event key (a repeat changes nothing) and answered quickly. One that the gateway vouches for
 * only with a shared credential is confirmed with a status call after the answer.
 */
export function paymentWebhook(gateway: PaymentGateway, logger: pino.Logger) {
  return async (request: express.Request, response: express.Response) => {
    if (request.params.gateway !== gateway.name) return void response.status(404).json({ error: 'unknown gateway' })
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]))
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
    const check = await gateway.parseNotification({ headers, rawBody })
    if (!check.ok) {
      logger.warn({ reason: check.reason, requestId: response.locals.requestId }, 'payment notification rejected')
      return void response.status(401).json({ error: 'notification not accepted' })
    }
    const outcome = await handleNotification(gateway.name, check.notification)
    logger.info({ kind: check.notification.kind, eventKey: check.notification.eventKey, outcome }, 'payment notification')
    response.json({ received: true })
    if (outcome === 'needs_status_check') {
      refreshFromNotification(check.notification).catch((error) => logger.error({ err: error }, 'status check after a notification failed'))
    }
  }
}

