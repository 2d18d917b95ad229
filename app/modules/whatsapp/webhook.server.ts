import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { and, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm'
import { config } from '~/config.server'
import { db, type Executor } from '~/db/client.server'
import { outboxMessages, siteSettings, whatsappWebhookEvents, type WhatsAppDeliveryStatus } from '~/db/schema'
import { addDays, addHours } from '~/lib/lab-time'
import { formatPhone, toE164 } from '~/lib/phone'
import { enqueueWhatsApp } from '~/modules/mail/outbox.server'
import { isPlaceholder } from '~/modules/site/schemas'
import { optInToWhatsApp, optOutOfWhatsApp, WHATSAPP_OPT_IN_WORDING, whatsappConsentOf } from './consent.server'
import { lockNumber } from './numbers.server'
import { href } from 'react-router'

/**
 * What WhatsApp tells the site through its webhook: the fate of the messages sent (sent, delivered,
 * read, failed) and the messages people write to the lab's number. Each event acted on is recorded
 * under its key in the transaction that acts on it, so a notification sent again, or replayed,
 * changes nothing twice.
 */

/** Incoming messages older than this are not acted on (a replay of an old notification). */
export const INCOMING_MESSAGE_MAX_AGE_DAYS = 7
/** Events are remembered this long, well beyond the age of the incoming messages still acted on. */
export const WEBHOOK_EVENTS_KEPT_DAYS = 30
/** A number that keeps writing gets one automatic reply of each kind per this many hours. */
export const AUTOMATIC_REPLY_EVERY_HOURS = 24

export const STOP_WORDS = new Set(['stop', 'stop all', 'unsubscribe', 'cancel', 'end', 'quit'])
export const START_WORDS = new Set(['start', 'unstop', 'subscribe'])

export const OPTED_OUT_REPLY_TITLE = 'Reply: opted out of WhatsApp'
export const OPTED_IN_REPLY_TITLE = 'Reply: opted in to WhatsApp'
export const NUMBER_CONFIRMED_REPLY_TITLE = 'Reply: number confirmed'
export const NOT_READ_REPLY_TITLE = 'Reply: this number is not read'

/**
 * A code replied from a number, in the transaction that answers the message: true when it is the
 * code sent to that number for an account, which the number's owner has so proven theirs. Given by
 * whoever starts the webhook: the codes belong to the accounts.
 */
export type CodeReply = (tx: Executor, phone: string, code: string, now: Date) => Promise<boolean>

/** Whether `header` (X-Hub-Signature-256) is "sha256=" and the HMAC-SHA256 of the raw body with the app secret. */
export function isSignedByMeta(rawBody: Buffer, header: string | undefined, appSecret: string) {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '')
  if (!match) return false
  const given = Buffer.from(match[1]!, 'hex')
  const expected = createHmac('sha256', appSecret).update(rawBody).digest()
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** Compares two secrets in constant time, whatever their lengths. */
export function sameSecret(given: string, expected: string) {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest()
  return timingSafeEqual(digest(given), digest(expected))
}

type StatusEvent = { id: string; status: WhatsAppDeliveryStatus; error: string | null }
type IncomingMessage = { id: string; from: string; timestamp: number | null; type: string; text: string | null }

export type WebhookOutcome = { statuses: number; messages: number; ignored: number }

/**
 * Acts on a notification (its JSON already parsed, its signature checked). Changes for another
 * phone number than the lab's are ignored. `codeReply` checks a code someone replies with.
 */
export async function handleWhatsAppNotification(payload: unknown, phoneNumberId: string, now = new Date(), codeReply?: CodeReply): Promise<WebhookOutcome> {
  const outcome: WebhookOutcome = { statuses: 0, messages: 0, ignored: 0 }
  for (const value of changeValues(payload, phoneNumberId)) {
    for (const status of statusesIn(value)) {
      if (await recordStatus(status, now)) outcome.statuses += 1
      else outcome.ignored += 1
    }
    for (const message of messagesIn(value)) {
      if (await answerIncoming(message, now, codeReply)) outcome.messages += 1
      else outcome.ignored += 1
    }
  }
  return outcome
}

/** The `value` of each change of field "messages" for this phone number. */
function changeValues(payload: unknown, phoneNumberId: string): Record<string, unknown>[] {
  const values: Record<string, unknown>[] = []
  for (const entry of arrayOf(objectOf(payload)?.entry).slice(0, 100)) {
    for (const change of arrayOf(objectOf(entry)?.changes).slice(0, 100)) {
      const { field, value } = objectOf(change) ?? {}
      const body = objectOf(value)
      if (field !== 'messages' || !body) continue
      const metadataId = objectOf(body.metadata)?.phone_number_id
      if (metadataId !== undefined && String(metadataId) !== phoneNumberId) continue
      values.push(body)
    }
  }
  return values
}

const DELIVERY_STATUSES = new Set<WhatsAppDeliveryStatus>(['sent', 'delivered', 'read', 'failed'])

function statusesIn(value: Record<string, unknown>): StatusEvent[] {
  return arrayOf(value.statuses).flatMap((item) => {
    const status = objectOf(item)
    const id = status?.id
    const state = status?.status
    if (typeof id !== 'string' || !id || id.length > 200 || typeof state !== 'string' || !DELIVERY_STATUSES.has(state as WhatsAppDeliveryStatus)) return []
    const errors = arrayOf(status!.errors)
      .map(objectOf)
      .filter((error) => error !== null)
      .map((error) => {
        const details = objectOf(error.error_data)?.details
        const words = [error.title, error.message, details].filter((part, index, all) => typeof part === 'string' && part && all.indexOf(part) === index).join(': ')
        return `WhatsApp error ${String(error.code ?? '?')}${words ? `: ${words}` : ''}`
      })
    return [{ id, status: state as WhatsAppDeliveryStatus, error: errors.length ? errors.join('; ').slice(0, 1000) : null }]
  })
}

function messagesIn(value: Record<string, unknown>): IncomingMessage[] {
  return arrayOf(value.messages).flatMap((item) => {
    const message = objectOf(item)
    const { id, from, timestamp, type } = message ?? {}
    if (typeof id !== 'string' || !id || id.length > 200 || typeof from !== 'string' || !/^\d{6,15}$/.test(from)) return []
    const seconds = Number(timestamp)
    const text =
      stringOf(objectOf(message!.text)?.body) ?? stringOf(objectOf(message!.button)?.text) ?? stringOf(objectOf(objectOf(message!.interactive)?.button_reply)?.title)
    return [{ id, from, timestamp: Number.isFinite(seconds) && seconds > 0 ? seconds : null, type: typeof type === 'string' ? type : 'unknown', text }]
  })
}

/** Claims an event key in `tx`; false when it was acted on already. */
async function firstTime(tx: Executor, eventKey: string, now: Date) {
  const inserted = await tx.insert(whatsappWebhookEvents).values({ eventKey, receivedAt: now }).onConflictDoNothing().returning({ eventKey: whatsappWebhookEvents.eventKey })
  return inserted.length > 0
}

/** The statuses each status may follow: a message's status only moves forward, and a failure is final. */
const MAY_FOLLOW: Record<WhatsAppDeliveryStatus, WhatsAppDeliveryStatus[]> = {
  sent: [],
  delivered: ['sent'],
  read: ['sent', 'delivered'],
  failed: ['sent'],
}

/** Records a delivery status on the message with that WhatsApp id; false when it changed nothing. */
async function recordStatus(event: StatusEvent, now: Date) {
  return db().transaction(async (tx) => {
    if (!(await firstTime(tx, `status:${event.id}:${event.status}`, now))) return false
    const earlier = MAY_FOLLOW[event.status]
    const updated = await tx
      .update(outboxMessages)
      .set({ deliveryStatus: event.status, deliveryError: event.status === 'failed' ? (event.error ?? 'WhatsApp reported the message failed') : null, deliveryUpdatedAt: now })
      .where(
        and(
          eq(outboxMessages.channel, 'whatsapp'),
          eq(outboxMessages.providerMessageId, event.id),
          earlier.length ? or(isNull(outboxMessages.deliveryStatus), inArray(outboxMessages.deliveryStatus, earlier)) : isNull(outboxMessages.deliveryStatus),
        ),
      )
      .returning({ id: outboxMessages.id })
    return updated.length > 0
  })
}

/** A person's text as a command: trimmed, in lower case, without punctuation around it. */
function wordsOf(text: string | null) {
  return (text ?? '')
    .trim()
    .toLowerCase()
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '')
    .replace(/\s+/g, ' ')
}

/** Whether a person's text asks for no more messages: STOP, stop, "Unsubscribe." and the like. */
export function isStopRequest(text: string | null) {
  return STOP_WORDS.has(wordsOf(text))
}

/** Whether a person's text asks for messages: START, "start!" and the like. */
export function isStartRequest(text: string | null) {
  return START_WORDS.has(wordsOf(text))
}

/** The six digits of a code replied on its own (spaces around it allowed), or null. */
function codeIn(text: string | null) {
  return /^\s*(\d{6})\s*$/.exec(text ?? '')?.[1] ?? null
}

/**
 * Someone wrote to the lab's number, and only its owner can: STOP opts the number out and START in
 * (each with a confirmation); the code sent to it for an account proves the number is the account
 * holder's; anything else gets a reply saying the number is not read and where to write instead.
 * False when not acted on.
 */
async function answerIncoming(message: IncomingMessage, now: Date, codeReply?: CodeReply) {
  // Reactions and WhatsApp's own system notices are not someone writing.
  if (message.type === 'reaction' || message.type === 'system') return false
  if (message.timestamp === null || message.timestamp * 1000 < addDays(now, -INCOMING_MESSAGE_MAX_AGE_DAYS).getTime()) return false
  const phone = toE164(`+${message.from}`)
  if (!phone) return false
  return db().transaction(async (tx) => {
    if (!(await firstTime(tx, `message:${message.id}`, now))) return false
    // Messages of one number are answered one after the other, so that two arriving together get one reply.
    await lockNumber(tx, phone)
    if (isStopRequest(message.text)) {
      await optOutOfWhatsApp({ phone, source: 'reply' }, tx, now)
      await replyOnce(tx, phone, OPTED_OUT_REPLY_TITLE, 'You will get no more WhatsApp messages from the Swimming Sport Science Lab. To get them again, reply START.', now)
      return true
    }
    if (isStartRequest(message.text)) {
      const asked = await whatsappConsentOf(phone, tx)
      await optInToWhatsApp({ phone, source: 'reply', wording: asked?.requestWording ?? WHATSAPP_OPT_IN_WORDING }, tx, now)
      await replyOnce(tx, phone, OPTED_IN_REPLY_TITLE, 'You will get booking confirmations, reminders, payment and refund updates and analysis results from the Swimming Sport Science Lab on WhatsApp at this number. Reply STOP at any time to stop.', now)
      return true
    }
    const code = codeIn(message.text)
    if (code && codeReply && (await codeReply(tx, phone, code, now))) {
      await replyOnce(tx, phone, NUMBER_CONFIRMED_REPLY_TITLE, 'Thank you: this number is confirmed as yours on your account with the Swimming Sport Science Lab, and you will get its WhatsApp messages here. Reply STOP at any time to stop.', now)
      return true
    }
    if (!(await repliedLately(tx, phone, NOT_READ_REPLY_TITLE, now))) {
      await enqueueWhatsApp({ to: phone, title: NOT_READ_REPLY_TITLE, text: await notReadReply(tx) }, {}, tx, now)
    }
    return true
  })
}

/** Sends an automatic reply of this kind unless the number had one lately. */
async function replyOnce(tx: Executor, phone: string, title: string, text: string, now: Date) {
  if (!(await repliedLately(tx, phone, title, now))) await enqueueWhatsApp({ to: phone, title, text }, {}, tx, now)
}

/** Whether this number was sent this automatic reply in the last day: a chatty sender, or another bot answering ours, gets one. */
async function repliedLately(tx: Executor, phone: string, title: string, now: Date) {
  const [row] = await tx
    .select({ id: outboxMessages.id })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.channel, 'whatsapp'), eq(outboxMessages.to, phone), eq(outboxMessages.subject, title), gt(outboxMessages.createdAt, addHours(now, -AUTOMATIC_REPLY_EVERY_HOURS))))
    .limit(1)
  return row !== undefined
}

/** The reply to anything but STOP: where to write instead, with the lab's support e-mail and phone once the lab has given them. */
async function notReadReply(tx: Executor) {
  const [settings] = await tx
    .select({ supportEmail: siteSettings.supportEmail, phone: siteSettings.phone, phoneHours: siteSettings.phoneHours })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
  const given = (value: string | null | undefined) => (value && !isPlaceholder(value) ? value : null)
  const email = given(settings?.supportEmail)
  const typedPhone = given(settings?.phone)
  const phone = typedPhone ? formatPhone(toE164(typedPhone) ?? typedPhone) : null
  const hours = given(settings?.phoneHours)
  const ways = [email ? `write to ${email}` : null, phone ? `call ${phone}${hours ? ` (${hours})` : ''}` : null].filter(Boolean)
  const instead = ways.length ? `Please ${ways.join(' or ')}.` : `Please contact the lab through ${config().SITE_URL}${href('/contact')}.`
  return `Thank you for your message. This WhatsApp number of the Swimming Sport Science Lab only sends booking updates and does not read replies. ${instead}`
}

/** Forgets events older than WEBHOOK_EVENTS_KEPT_DAYS; run by the housekeeping job. */
export async function pruneWhatsAppWebhookEvents(now = new Date(), keepDays = WEBHOOK_EVENTS_KEPT_DAYS) {
  await db().delete(whatsappWebhookEvents).where(lt(whatsappWebhookEvents.receivedAt, addDays(now, -keepDays)))
}

function objectOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

function stringOf(value: unknown) {
  return typeof value === 'string' ? value : null
}
