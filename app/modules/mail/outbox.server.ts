import { and, desc, eq, gt, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { outboxMessages, type MailAttachment, type OutboxStatus } from '~/db/schema'
import type { MailTransport, OutgoingMail } from './transport.server'
import { addDays, addMinutes, addSeconds } from '~/lib/lab-time'

export type NewEmail = { to: string; subject: string; text: string; html?: string | null; attachments?: MailAttachment[] }

/** After this many failed deliveries a message is marked failed and left for an admin to see. */
export const MAX_DELIVERY_ATTEMPTS = 8
/** A claimed message is someone's for this long; if its sender dies, another instance retries it. */
export const CLAIM_LEASE_SECONDS = 120

const queuedListeners = new Set<() => void>()

/** Lets the worker start delivering as soon as a message is queued instead of at its next poll. */
export function onEmailQueued(listener: () => void) {
  queuedListeners.add(listener)
  return () => queuedListeners.delete(listener)
}

/** Writes a message to the outbox; the background worker delivers it. */
export async function enqueueEmail(mail: NewEmail, executor: Executor = db(), now = new Date()) {
  const [row] = await executor
    .insert(outboxMessages)
    .values({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      attachments: mail.attachments ?? [],
      nextAttemptAt: now,
      createdAt: now,
    })
    .returning({ id: outboxMessages.id })
  for (const listener of queuedListeners) listener()
  return row!.id
}

/**
 * A WhatsApp message for the outbox: an approved template with its parameters, or plain text (only
 * as a reply to someone who wrote to the lab). `to` is an E.164 number; `title` and `text` are what
 * staff see in the messages list.
 */
export type NewWhatsAppMessage = { to: string; title: string; text: string; template?: { name: string; parameters: string[] } }

/** Writes a WhatsApp message to the outbox, like an e-mail; whether it may be sent at all is the caller's to decide. */
export async function enqueueWhatsApp(message: NewWhatsAppMessage, executor: Executor = db(), now = new Date()) {
  const [row] = await executor
    .insert(outboxMessages)
    .values({
      channel: 'whatsapp',
      to: message.to,
      subject: message.title,
      text: message.text,
      templateName: message.template?.name ?? null,
      templateParams: message.template?.parameters ?? null,
      nextAttemptAt: now,
      createdAt: now,
    })
    .returning({ id: outboxMessages.id })
  for (const listener of queuedListeners) listener()
  return row!.id
}

type ClaimedEmail = OutgoingMail & { id: number; attempts: number }

/**
 * Takes up to `limit` due messages for this worker. Rows another instance is claiming right now are
 * skipped (FOR UPDATE SKIP LOCKED), and a claimed row is pushed out of reach for the lease, so no
 * two workers ever send the same message at the same time.
 */
export async function claimDueEmails(now = new Date(), limit = 10): Promise<ClaimedEmail[]> {
  const leaseUntil = addSeconds(now, CLAIM_LEASE_SECONDS)
  const result = await db().execute<{
    id: number
    to: string
    subject: string
    text: string
    html: string | null
    attachments: MailAttachment[]
    attempts: number
  }>(sql`
    UPDATE outbox_messages
       SET attempts = attempts + 1, next_attempt_at = ${leaseUntil.toISOString()}::timestamptz
     WHERE id IN (
       SELECT id FROM outbox_messages
        WHERE channel = 'email' AND status IN ('queued', 'retrying') AND next_attempt_at <= ${now.toISOString()}::timestamptz
        ORDER BY next_attempt_at, id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING id, "to", subject, text, html, attachments, attempts`)
  return result.rows.map((row) => ({ ...row, id: Number(row.id), attempts: Number(row.attempts) }))
}

async function markEmailSent(id: number, now = new Date()) {
  await db().update(outboxMessages).set({ status: 'sent', sentAt: now, lastError: null }).where(eq(outboxMessages.id, id))
}

/** Minutes to wait before the next try: 1, 2, 4, … capped at an hour. */
export function retryDelayMinutes(attempts: number) {
  return Math.min(60, 2 ** Math.max(0, attempts - 1))
}

async function markEmailFailedAttempt(email: { id: number; attempts: number }, error: unknown, now = new Date()) {
  const finalAttempt = email.attempts >= MAX_DELIVERY_ATTEMPTS
  const status: OutboxStatus = finalAttempt ? 'failed' : 'retrying'
  await db()
    .update(outboxMessages)
    .set({
      status,
      lastError: String(error instanceof Error ? error.message : error).slice(0, 1000),
      nextAttemptAt: addMinutes(now, retryDelayMinutes(email.attempts)),
    })
    .where(eq(outboxMessages.id, email.id))
  return status
}

/**
 * Whether the mail server was unreachable at this process's last try, per transport. Unknown at
 * start-up, which counts as unreachable: messages may have piled up before a restart.
 */
const serverWasDown = new WeakMap<MailTransport, boolean>()

/** Delivers every due message through `transport`; one message failing never stops the others (an unreachable server does). */
export async function processOutbox(transport: MailTransport, now = () => new Date(), batchSize = 10) {
  const outcome = { sent: 0, failed: 0 }
  for (;;) {
    const batch = await claimDueEmails(now(), batchSize)
    let caughtUp = 0
    for (const [index, email] of batch.entries()) {
      try {
        await transport.send(email)
        await markEmailSent(email.id, now())
        outcome.sent += 1
        if (serverWasDown.get(transport) !== false) {
          serverWasDown.set(transport, false)
          caughtUp = await retryWaitingEmailsNow(now())
        }
      } catch (error) {
        await markEmailFailedAttempt(email, error, now())
        outcome.failed += 1
        if (isMailServerDown(error)) {
          serverWasDown.set(transport, true)
          // Each further message would wait out the same connection timeout, one after another,
          // until the batch outlived its claim lease and another instance could send those
          // messages too. They count as tried; the next round tries the server again.
          for (const untried of batch.slice(index + 1)) await markEmailFailedAttempt(untried, error, now())
          outcome.failed += batch.length - index - 1
          return outcome
        }
      }
    }
    if (batch.length < batchSize && caughtUp === 0) return outcome
  }
}

/**
 * The mail server answers again after an outage: messages it failed are sent now rather than at
 * the end of their back-off (up to an hour). Only rows due beyond a claim lease are moved, because
 * a row claimed by a worker (maybe another instance's, sending it right now) is due exactly one
 * lease after its claim; those waiting less are due soon anyway.
 */
async function retryWaitingEmailsNow(now = new Date()) {
  const beyondAnyClaim = addSeconds(now, CLAIM_LEASE_SECONDS)
  const moved = await db()
    .update(outboxMessages)
    .set({ nextAttemptAt: now })
    .where(and(eq(outboxMessages.channel, 'email'), eq(outboxMessages.status, 'retrying'), gt(outboxMessages.nextAttemptAt, beyondAnyClaim)))
    .returning({ id: outboxMessages.id })
  return moved.length
}

/** A failure of the connection to the mail server (refused, timed out, cut, "421 service not available"), not of one message. */
function isMailServerDown(error: unknown) {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown }
  return (typeof code === 'string' && MAIL_SERVER_DOWN_CODES.has(code)) || responseCode === 421
}

/** Nodemailer's codes for a connection that could not be made or was lost (not EAUTH, EENVELOPE, EMESSAGE…). */
const MAIL_SERVER_DOWN_CODES = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EDNS', 'ECONNREFUSED', 'ECONNRESET'])

/** The most recent messages, newest first, for the admin mailbox page. */
export async function listRecentEmails(limit = 50) {
  return db()
    .select({
      id: outboxMessages.id,
      to: outboxMessages.to,
      subject: outboxMessages.subject,
      text: outboxMessages.text,
      status: outboxMessages.status,
      attempts: outboxMessages.attempts,
      lastError: outboxMessages.lastError,
      createdAt: outboxMessages.createdAt,
      sentAt: outboxMessages.sentAt,
    })
    .from(outboxMessages)
    .orderBy(desc(outboxMessages.id))
    .limit(limit)
}

/** Removes delivered messages older than `keepDays`; failed ones stay for an admin to inspect. */
export async function pruneSentEmails(now = new Date(), keepDays = 90) {
  const cutoff = addDays(now, -keepDays)
  await db().execute(sql`DELETE FROM outbox_messages WHERE status = 'sent' AND sent_at < ${cutoff.toISOString()}::timestamptz`)
}
