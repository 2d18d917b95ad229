import { and, desc, eq, inArray, lt, type SQL } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { outboxMessages, type MessageChannel } from '~/db/schema'
import { formatLabDateTime } from '~/lib/lab-time'
import { formatPhone, toE164 } from '~/lib/phone'

export const MESSAGES_PER_PAGE = 50

const listed = {
  id: outboxMessages.id,
  channel: outboxMessages.channel,
  to: outboxMessages.to,
  subject: outboxMessages.subject,
  text: outboxMessages.text,
  templateName: outboxMessages.templateName,
  status: outboxMessages.status,
  attempts: outboxMessages.attempts,
  lastError: outboxMessages.lastError,
  createdAt: outboxMessages.createdAt,
  sentAt: outboxMessages.sentAt,
  deliveryStatus: outboxMessages.deliveryStatus,
  deliveryError: outboxMessages.deliveryError,
  deliveryUpdatedAt: outboxMessages.deliveryUpdatedAt,
}

export type ListedMessage = Awaited<ReturnType<typeof listMessages>>['messages'][number]

/**
 * Who a search for messages means: an e-mail address (as written, or lower-cased as accounts store
 * it) or a phone number in any form people type it (stored in E.164).
 */
function recipientsOf(search: string) {
  const typed = search.trim()
  const phone = toE164(typed)
  return [...new Set([typed, typed.toLowerCase(), ...(phone ? [phone] : [])])]
}

/**
 * The messages of every channel, newest first, a page at a time (`before`: the oldest id already
 * shown), optionally of one channel or to one recipient. One more than a page is read to know
 * whether older messages remain.
 */
export async function listMessages({ channel, to, before }: { channel?: MessageChannel; to?: string; before?: number } = {}) {
  const conditions: SQL[] = []
  if (channel) conditions.push(eq(outboxMessages.channel, channel))
  if (to?.trim()) conditions.push(inArray(outboxMessages.to, recipientsOf(to)))
  if (before) conditions.push(lt(outboxMessages.id, before))
  const rows = await db()
    .select(listed)
    .from(outboxMessages)
    .where(and(...conditions))
    .orderBy(desc(outboxMessages.id))
    .limit(MESSAGES_PER_PAGE + 1)
  return { messages: rows.slice(0, MESSAGES_PER_PAGE), olderFrom: rows.length > MESSAGES_PER_PAGE ? rows[MESSAGES_PER_PAGE - 1]!.id : null }
}

/** The newest messages to a customer's e-mail address or WhatsApp number, for their page in the admin. */
export async function messagesToCustomer({ email, phone }: { email: string; phone: string | null }, limit = 20) {
  const recipients = [email, ...(phone ? [toE164(phone) ?? phone] : [])]
  return db().select(listed).from(outboxMessages).where(inArray(outboxMessages.to, recipients)).orderBy(desc(outboxMessages.id)).limit(limit)
}

const DELIVERY_LABELS = { sent: 'Sent to the phone', delivered: 'Delivered', read: 'Read', failed: 'Not delivered' } as const

/**
 * What staff see of a message. The text of an e-mail is shown only while e-mails stay in the local
 * mailbox: once messages really reach people, they may carry sign-in codes and private links, and
 * staff see who was written to, what about and whether it arrived, not what was written.
 */
export function messageView(message: ListedMessage, { localMailbox }: { localMailbox: boolean }) {
  const whatsapp = message.channel === 'whatsapp'
  return {
    id: message.id,
    channel: whatsapp ? 'WhatsApp' : 'E-mail',
    to: whatsapp ? formatPhone(message.to) : message.to,
    title: message.subject,
    template: message.templateName,
    status: message.status,
    attempts: message.attempts,
    lastError: message.lastError,
    queuedAt: formatLabDateTime(message.createdAt),
    delivery:
      whatsapp && message.deliveryStatus
        ? `${DELIVERY_LABELS[message.deliveryStatus]}${message.deliveryUpdatedAt ? ` ${formatLabDateTime(message.deliveryUpdatedAt)}` : ''}`
        : null,
    deliveryError: message.deliveryError,
    text: !whatsapp && localMailbox ? message.text : null,
  }
}

export type MessageView = ReturnType<typeof messageView>
