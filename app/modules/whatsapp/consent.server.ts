import { eq } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { whatsappConsents, type WhatsAppConsentSource } from '~/db/schema'
import { toE164 } from '~/lib/phone'

/** The words next to the opt-in checkbox, kept with each opt-in as what the person agreed to. */
export const WHATSAPP_OPT_IN_WORDING =
  'Send me booking confirmations, reminders, payment and refund updates and analysis results on WhatsApp at this number. Reply STOP at any time to stop.'

export type WhatsAppConsent = typeof whatsappConsents.$inferSelect

/** What is recorded of a number, or null when its owner never opted in nor out (or it is not a number). */
export async function whatsappConsentOf(phone: string | null | undefined, executor: Executor = db()): Promise<WhatsAppConsent | null> {
  const e164 = phone ? toE164(phone) : null
  if (!e164) return null
  const [row] = await executor.select().from(whatsappConsents).where(eq(whatsappConsents.phone, e164))
  return row ?? null
}

/** Whether messages may be sent to this number now. */
export async function isOptedIn(phone: string | null | undefined, executor: Executor = db()) {
  return (await whatsappConsentOf(phone, executor))?.optedIn === true
}

/**
 * A person ticked the opt-in box next to their number: it may receive messages from now on (again,
 * after an opt-out). The time, the words they agreed to and the form are kept.
 */
export async function optInToWhatsApp(
  { phone, source, wording = WHATSAPP_OPT_IN_WORDING }: { phone: string; source: WhatsAppConsentSource; wording?: string },
  executor: Executor = db(),
  now = new Date(),
) {
  const e164 = toE164(phone)
  if (!e164) throw new Error('optInToWhatsApp needs a valid number')
  const values = { optedIn: true, optedInAt: now, optInWording: wording, optInSource: source, updatedAt: now }
  await executor
    .insert(whatsappConsents)
    .values({ phone: e164, ...values })
    .onConflictDoUpdate({ target: whatsappConsents.phone, set: values })
}

/**
 * The number's owner wants no more messages (replied STOP, or said so in their account). Returns
 * whether it was opted in until now. A number never seen is recorded as opted out, so a later
 * form's opt-in is the only way back.
 */
export async function optOutOfWhatsApp(
  { phone, source }: { phone: string; source: WhatsAppConsentSource },
  executor: Executor = db(),
  now = new Date(),
) {
  const e164 = toE164(phone)
  if (!e164) return false
  const before = await whatsappConsentOf(e164, executor)
  const values = { optedIn: false, optedOutAt: now, optOutSource: source, updatedAt: now }
  await executor
    .insert(whatsappConsents)
    .values({ phone: e164, ...values })
    .onConflictDoUpdate({ target: whatsappConsents.phone, set: values })
  return before?.optedIn === true
}
