import { and, count, eq, gt } from 'drizzle-orm'
import { lockKeys } from '~/db/advisory-locks.server'
import type { Executor } from '~/db/client.server'
import { outboxMessages } from '~/db/schema'
import { addHours } from '~/lib/lab-time'
import { logger } from '~/lib/logger.server'

/**
 * The most WhatsApp messages one number is sent in a day. A family hears of a few events a day at
 * most; anyone who typed someone else's number into a form, ticked the box and then books and lets
 * payments fail in a loop must not turn the lab's number into a way to flood that person.
 */
export const WHATSAPP_MESSAGES_PER_NUMBER_PER_DAY = 20

/**
 * Serialises what is decided per WhatsApp number (its messages of the day, its automatic replies,
 * its consent) until the end of the transaction `tx`, on every instance.
 */
export async function lockNumber(tx: Executor, e164: string) {
  await lockKeys(tx, [`whatsapp-number:${e164}`])
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

/** WhatsApp messages queued to the number in the last 24 hours. */
async function sentToday(to: string, executor: Executor, now: Date) {
  const [row] = await executor
    .select({ queued: count() })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.to, to), eq(outboxMessages.channel, 'whatsapp'), gt(outboxMessages.createdAt, addHours(now, -24))))
  return row?.queued ?? 0
}
