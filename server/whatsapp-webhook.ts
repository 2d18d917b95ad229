import express from 'express'
import type pino from 'pino'
import { whatsappSettings } from '~/modules/whatsapp/config.server'
import { handleWhatsAppNotification, isSignedByMeta, sameSecret } from '~/modules/whatsapp/webhook.server'

export const WHATSAPP_WEBHOOK_PATH = '/webhooks/whatsapp'

/** Meta's notifications are small (a few statuses or messages); anything far larger is not one. */
const BODY_LIMIT = '256kb'

/**
 * The WhatsApp webhook: Meta's verification handshake (GET) and its signed notifications (POST).
 * Not found while WhatsApp is off. A notification is acted on only with a valid signature of its
 * exact bytes (the raw body, read before any JSON parsing), and answered 200 once handled, whatever
 * it carried, so Meta does not send it again.
 */
export function whatsappWebhook(logger: pino.Logger) {
  const router = express.Router()
  router.get('/', (request, response) => {
    const settings = whatsappSettings()
    if (!settings) return void response.status(404).type('text/plain').send('Not found')
    const mode = request.query['hub.mode']
    const token = request.query['hub.verify_token']
    const challenge = request.query['hub.challenge']
    if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string' || !sameSecret(token, settings.verifyToken)) {
      logger.warn({ requestId: response.locals.requestId }, 'WhatsApp webhook verification refused')
      return void response.status(403).type('text/plain').send('Forbidden')
    }
    logger.info('WhatsApp webhook verified by Meta')
    response.status(200).type('text/plain').send(challenge)
  })
  router.post(
    '/',
    (_request, response, next) => (whatsappSettings() ? next() : void response.status(404).type('text/plain').send('Not found')),
    express.raw({ type: () => true, limit: BODY_LIMIT }),
    async (request, response, next) => {
      const settings = whatsappSettings()
      if (!settings) return void response.status(404).type('text/plain').send('Not found')
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      if (!isSignedByMeta(rawBody, request.get('X-Hub-Signature-256'), settings.appSecret)) {
        logger.warn({ requestId: response.locals.requestId }, 'WhatsApp notification rejected: missing or wrong signature')
        return void response.status(401).json({ error: 'signature not valid' })
      }
      let payload: unknown
      try {
        payload = JSON.parse(rawBody.toString('utf8'))
      } catch {
        return void response.status(400).json({ error: 'not JSON' })
      }
      try {
        const outcome = await handleWhatsAppNotification(payload, settings.phoneNumberId)
        if (outcome.statuses || outcome.messages) logger.info({ ...outcome }, 'WhatsApp notification')
        response.json({ received: true })
      } catch (error) {
        // Nothing was recorded (each event is acted on in its own transaction): Meta sends it again.
        next(error)
      }
    },
  )
  return router
}
