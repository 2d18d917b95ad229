import express from 'express'
import type pino from 'pino'
import { proveNumberByReply } from '~/modules/accounts/phone-proof.server'
import { clientNetwork } from '~/modules/rate-limit/client-network'
import { hit, type RateLimitRule } from '~/modules/rate-limit/rate-limit.server'
import { whatsappSettings } from '~/modules/whatsapp/config.server'
import { handleWhatsAppNotification, isSignedByMeta, sameSecret } from '~/modules/whatsapp/webhook.server'

export const WHATSAPP_WEBHOOK_PATH = '/webhooks/whatsapp'

/** Meta's notifications are small (a few statuses or messages); anything far larger is not one. */
const BODY_LIMIT = '256kb'

/**
 * Requests refused (a wrong verify token, a missing or forged signature) per network: past this,
 * they are answered 429 without a line in the log each. Meta's own notifications are never counted.
 */
export const REFUSED_WEBHOOK_REQUESTS: RateLimitRule = { limit: 30, windowSeconds: 600 }

/** Counts a refused request; true when its network has had too many. */
async function tooManyRefused(request: express.Request) {
  const counted = await hit(`whatsapp-webhook:refused:${clientNetwork(request.ip ?? request.socket.remoteAddress ?? '')}`, REFUSED_WEBHOOK_REQUESTS)
  return !counted.allowed
}

/**
 * The WhatsApp webhook: Meta's verification handshake (GET) and its signed notifications (POST).
 * Not found while WhatsApp is off. A notification is acted on only with a valid signature of its
 * exact bytes (the raw body, read before any JSON parsing), and answered 200 once handled, whatever
 * it carried, so Meta does not send it again.
 */
export function whatsappWebhook(logger: pino.Logger) {
  const router = express.Router()
  router.get('/', async (request, response, next) => {
    const settings = whatsappSettings()
    if (!settings) return void response.status(404).type('text/plain').send('Not found')
    const mode = request.query['hub.mode']
    const token = request.query['hub.verify_token']
    const challenge = request.query['hub.challenge']
    if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string' || challenge.length > 200 || !sameSecret(token, settings.verifyToken)) {
      try {
        if (await tooManyRefused(request)) return void response.status(429).type('text/plain').send('Too many requests')
      } catch (error) {
        return next(error)
      }
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
        try {
          if (await tooManyRefused(request)) return void response.status(429).json({ error: 'too many requests' })
        } catch (error) {
          return next(error)
        }
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
        const outcome = await handleWhatsAppNotification(payload, settings.phoneNumberId, new Date(), proveNumberByReply)
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
