import { and, count, eq, gt } from 'drizzle-orm'
import { lockKeys } from '~/db/advisory-locks.server'
import { db, type Executor } from '~/db/client.server'
import { outboxMessages } from '~/db/schema'
import { addHours } from '~/lib/lab-time'
import { logger } from '~/lib/logger.server'
import { toE164 } from '~/lib/phone'
import { enqueueWhatsApp } from '~/modules/mail/outbox.server'
import { whatsappEnabled } from './config.server'
import { isOptedIn } from './consent.server'
import { renderTemplate, templateParameter, WHATSAPP_TEMPLATES, type WhatsAppTemplateName } from './templates'

/**
 * The most WhatsApp messages one number is sent in a day. A family hears of a few events a day at
 * most; anyone who typed someone else's number into a form, ticked the box and then books and lets
 * payments fail in a loop must not turn the lab's number into a way to flood that person.
 */
export const WHATSAPP_MESSAGES_PER_NUMBER_PER_DAY = 20

/** Who a message goes to and what fills its template's variables. */
export type WhatsAppNotice = { phone: string | null | undefined; parameters: readonly string[] }

/**
 * Queues a template message to a person's WhatsApp number, in the transaction of the event it tells
 * of (like its e-mail), when WhatsApp is on and the number is opted in; otherwise does nothing.
 * Given as a function, the notice is read only when WhatsApp is on: an event reads nothing for a
 * message that will not be sent. Returns the outbox id, or null when nothing was queued.
 */
export async function notifyOnWhatsApp(
  name: WhatsAppTemplateName,
  notice: WhatsAppNotice | (() => Promise<WhatsAppNotice>),
  executor: Executor = db(),
  now = new Date(),
) {
  if (!whatsappEnabled()) return null
  const { phone, parameters } = typeof notice === 'function' ? await notice() : notice
  const to = phone ? toE164(phone) : null
  if (!to || !(await isOptedIn(to, executor))) return null
  const template = WHATSAPP_TEMPLATES[name]
  const values = parameters.map(templateParameter)
  if (values.length !== template.parameters.length) throw new Error(`${name} takes ${template.parameters.length} parameters, not ${values.length}`)
  return withinDailyMessages(to, executor, now, (tx) =>
    enqueueWhatsApp({ to, title: template.title, text: renderTemplate(name, values), template: { name, parameters: values } }, tx, now),
  )
}

/**
 * Queues a message to the number unless it had its WHATSAPP_MESSAGES_PER_NUMBER_PER_DAY already;
 * null then. The count and the insert happen under the number's lock, held to the end of the
 * caller's transaction, so events for one number counted at the same moment (on any instance) are
 * counted one after the other and never pass the limit together.
 */
export async function withinDailyMessages(to: string, executor: Executor, now: Date, queue: (tx: Executor) => Promise<number>) {
  return executor.transaction(async (tx) => {
    await lockNumber(tx, to)
    if ((await sentToday(to, tx, now)) >= WHATSAPP_MESSAGES_PER_NUMBER_PER_DAY) {
      logger().warn('WhatsApp message not queued: the number had its messages for the day')
      return null
    }
    return queue(tx)
  })
}

/**
 * Serialises what is decided per WhatsApp number (its messages of the day, its automatic replies,
 * its consent) until the end of the transaction `tx`, on every instance.
 */
export async function lockNumber(tx: Executor, e164: string) {
  await lockKeys(tx, [`whatsapp-number:${e164}`])
}

/** WhatsApp messages queued to the number in the last 24 hours. */
async function sentToday(to: string, executor: Executor, now: Date) {
  const [row] = await executor
    .select({ queued: count() })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.to, to), eq(outboxMessages.channel, 'whatsapp'), gt(outboxMessages.createdAt, addHours(now, -24))))
  return row?.queued ?? 0
}
