import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { outboxMessages, type About, type MailAttachment, type MessageChannel, type MessageLinkReference, type OutboxStatus } from '~/db/schema'
import type { OutgoingMail } from './transport.server'
import { addDays, addMinutes, addSeconds } from '~/lib/lab-time'

export type NewEmail = { to: string; subject: string; text: string; html?: string | null; attachments?: MailAttachment[] }

/** After this many failed deliveries a message is marked failed and left for an admin to see. */
export const MAX_DELIVERY_ATTEMPTS = 8
/** A claimed message is someone's for this long; if its sender dies, another instance retries it. */
export const CLAIM_LEASE_SECONDS = 120

const queuedListeners = new Set<(channel: MessageChannel) => void>()

/** Lets the worker of a channel start delivering as soon as a message is queued instead of at its next poll. */
export function onMessageQueued(listener: (channel: MessageChannel) => void) {
  queuedListeners.add(listener)
  return () => queuedListeners.delete(listener)
}

/** The columns that say whose message it is, from what the caller says it is about. */
function aboutColumns(about: About) {
  return { accountId: about.accountId ?? null, swimmerId: about.swimmerId ?? null, bookingId: about.bookingId ?? null, campRegistrationId: about.campRegistrationId ?? null }
}

/**
 * Writes a message to the outbox; the background worker delivers it. `about` says whose data it
 * is (the account, swimmer, booking or camp registration it tells of): erasure and the data export
 * find a person's messages by it.
 */
export async function enqueueEmail(mail: NewEmail, about: About, executor: Executor = db(), now = new Date()) {
  const [row] = await executor
    .insert(outboxMessages)
    .values({
      ...aboutColumns(about),
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      attachments: mail.attachments ?? [],
      nextAttemptAt: now,
      createdAt: now,
    })
    .returning({ id: outboxMessages.id })
  for (const listener of queuedListeners) listener('email')
  return row!.id
}

/**
 * A WhatsApp message for the outbox: an approved template with its parameters, or plain text (only
 * as a reply to someone who wrote to the lab). `to` is an E.164 number; `title` and `text` are what
 * staff see in the messages list. A private link among the parameters is kept without its key, with
 * `privateLink` saying what it points to; the sender makes it whole.
 */
export type NewWhatsAppMessage = { to: string; title: string; text: string; template?: { name: string; parameters: string[] }; privateLink?: MessageLinkReference }

/** Writes a WhatsApp message to the outbox, like an e-mail (`about` too); whether it may be sent at all is the caller's to decide. */
export async function enqueueWhatsApp(message: NewWhatsAppMessage, about: About, executor: Executor = db(), now = new Date()) {
  const [row] = await executor
    .insert(outboxMessages)
    .values({
      ...aboutColumns(about),
      channel: 'whatsapp',
      to: message.to,
      subject: message.title,
      text: message.text,
      templateName: message.template?.name ?? null,
      templateParams: message.template?.parameters ?? null,
      privateLink: message.privateLink ?? null,
      nextAttemptAt: now,
      createdAt: now,
    })
    .returning({ id: outboxMessages.id })
  for (const listener of queuedListeners) listener('whatsapp')
  return row!.id
}

/** A message taken from the outbox for delivery: what either channel needs to send it. */
export type OutboxMessage = OutgoingMail & {
  id: number
  channel: MessageChannel
  attempts: number
  /** A WhatsApp template's name and parameters; null for an e-mail or a plain-text WhatsApp reply. */
  templateName: string | null
  templateParams: string[] | null
  /** The private link among the parameters, kept without its key: made whole when sent. */
  privateLink: MessageLinkReference | null
}

/**
 * What became of a failed delivery: `down`, the service itself did not answer (the batch stops and
 * the waiting messages are retried as soon as it answers again); `permanent`, this message can never
 * be delivered (failed at once, for staff to see); `retry`, this message was refused for now (tried
 * again after its back-off).
 */
export type DeliveryFailure = 'down' | 'permanent' | 'retry'

/**
 * Delivers the outbox messages of one channel: the mail transport for e-mail, the Cloud API for
 * WhatsApp. `send` resolves once the service took the message, with its id for the message if it
 * gives one; `classify` tells what a thrown error means.
 */
export type OutboxSender = {
  channel: MessageChannel
  /** For the log: which service this is ('smtp', 'local', 'cloud-api'). */
  kind: string
  send(message: OutboxMessage): Promise<{ providerMessageId?: string | null } | void>
  classify(error: unknown): DeliveryFailure
  close(): void
}

/**
 * Takes up to `limit` due messages of `channel` for this worker. Rows another instance is claiming
 * right now are skipped (FOR UPDATE SKIP LOCKED), and a claimed row is pushed out of reach for the
 * lease, so no two workers ever send the same message at the same time.
 */
export async function claimDueMessages(channel: MessageChannel, now = new Date(), limit = 10): Promise<OutboxMessage[]> {
  const leaseUntil = addSeconds(now, CLAIM_LEASE_SECONDS)
  const result = await db().execute<{
    id: number
    channel: MessageChannel
    to: string
    subject: string
    text: string
    html: string | null
    attachments: MailAttachment[]
    template_name: string | null
    template_params: string[] | null
    private_link: MessageLinkReference | null
    attempts: number
  }>(sql`
    UPDATE outbox_messages
       SET attempts = attempts + 1, next_attempt_at = ${leaseUntil.toISOString()}::timestamptz
     WHERE id IN (
       SELECT id FROM outbox_messages
        WHERE channel = ${channel} AND status IN ('queued', 'retrying') AND next_attempt_at <= ${now.toISOString()}::timestamptz
        ORDER BY next_attempt_at, id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING id, channel, "to", subject, text, html, attachments, template_name, template_params, private_link, attempts`)
  return result.rows.map(({ template_name, template_params, private_link, ...row }) => ({
    ...row,
    id: Number(row.id),
    attempts: Number(row.attempts),
    templateName: template_name,
    templateParams: template_params,
    privateLink: private_link,
  }))
}

/** The e-mails due, claimed as `claimDueMessages` does. */
export function claimDueEmails(now = new Date(), limit = 10) {
  return claimDueMessages('email', now, limit)
}

async function markSent(id: number, providerMessageId: string | null, now = new Date()) {
  await db().update(outboxMessages).set({ status: 'sent', sentAt: now, lastError: null, providerMessageId }).where(eq(outboxMessages.id, id))
}

/** Minutes to wait before the next try: 1, 2, 4, … capped at an hour. */
export function retryDelayMinutes(attempts: number) {
  return Math.min(60, 2 ** Math.max(0, attempts - 1))
}

async function markFailedAttempt(message: { id: number; attempts: number }, error: unknown, now = new Date(), permanent = false) {
  const finalAttempt = permanent || message.attempts >= MAX_DELIVERY_ATTEMPTS
  const status: OutboxStatus = finalAttempt ? 'failed' : 'retrying'
  await db()
    .update(outboxMessages)
    .set({
      status,
      lastError: String(error instanceof Error ? error.message : error).slice(0, 1000),
      nextAttemptAt: addMinutes(now, retryDelayMinutes(message.attempts)),
    })
    .where(eq(outboxMessages.id, message.id))
  return status
}

/**
 * Whether the sender's service was unreachable at this process's last try, per sender. Unknown at
 * start-up, which counts as unreachable: messages may have piled up before a restart.
 */
const serviceWasDown = new WeakMap<OutboxSender, boolean>()

/**
 * Delivers every due message of the sender's channel; one message failing never stops the others
 * (an unreachable service does, for its own channel only).
 */
export async function processOutbox(sender: OutboxSender, now = () => new Date(), batchSize = 10) {
  const outcome = { sent: 0, failed: 0 }
  for (;;) {
    const batch = await claimDueMessages(sender.channel, now(), batchSize)
    const claimedAt = performance.now()
    let caughtUp = 0
    let released = false
    for (const [index, message] of batch.entries()) {
      // A slow service (each answer just inside its timeout) must not keep the batch past its
      // claim lease, when another instance could claim and send the rest too: they go back, untried.
      if (performance.now() - claimedAt > (CLAIM_LEASE_SECONDS * 1000) / 2) {
        await releaseUntried(batch.slice(index), now())
        released = true
        break
      }
      let sent: Awaited<ReturnType<OutboxSender['send']>>
      try {
        sent = await sender.send(message)
      } catch (error) {
        const failure = sender.classify(error)
        await markFailedAttempt(message, error, now(), failure === 'permanent')
        outcome.failed += 1
        if (failure === 'down') {
          serviceWasDown.set(sender, true)
          // Each further message would wait out the same connection timeout, one after another,
          // until the batch outlived its claim lease and another instance could send those
          // messages too. They count as tried; the next round tries the service again.
          for (const untried of batch.slice(index + 1)) await markFailedAttempt(untried, error, now())
          outcome.failed += batch.length - index - 1
          return outcome
        }
        continue
      }
      await markSent(message.id, sent?.providerMessageId ?? null, now())
      outcome.sent += 1
      if (serviceWasDown.get(sender) !== false) {
        serviceWasDown.set(sender, false)
        caughtUp = await retryWaitingMessagesNow(sender.channel, now())
      }
    }
    if (batch.length < batchSize && caughtUp === 0 && !released) return outcome
  }
}

/** Claimed messages not tried after all: due again now, their claim not counted as an attempt. */
async function releaseUntried(messages: OutboxMessage[], now = new Date()) {
  if (messages.length === 0) return
  await db()
    .update(outboxMessages)
    .set({ nextAttemptAt: now, attempts: sql`${outboxMessages.attempts} - 1` })
    .where(inArray(outboxMessages.id, messages.map((message) => message.id)))
}

/**
 * The service answers again after an outage: messages of its channel it failed are sent now rather
 * than at the end of their back-off (up to an hour). Only rows due beyond a claim lease are moved,
 * because a row claimed by a worker (maybe another instance's, sending it right now) is due exactly
 * one lease after its claim; those waiting less are due soon anyway.
 */
async function retryWaitingMessagesNow(channel: MessageChannel, now = new Date()) {
  const beyondAnyClaim = addSeconds(now, CLAIM_LEASE_SECONDS)
  const moved = await db()
    .update(outboxMessages)
    .set({ nextAttemptAt: now })
    .where(and(eq(outboxMessages.channel, channel), eq(outboxMessages.status, 'retrying'), gt(outboxMessages.nextAttemptAt, beyondAnyClaim)))
    .returning({ id: outboxMessages.id })
  return moved.length
}

/** Removes delivered messages older than `keepDays`; failed ones stay for an admin to inspect. */
export async function pruneSentEmails(now = new Date(), keepDays = 90) {
  const cutoff = addDays(now, -keepDays)
  await db().execute(sql`DELETE FROM outbox_messages WHERE status = 'sent' AND sent_at < ${cutoff.toISOString()}::timestamptz`)
}
