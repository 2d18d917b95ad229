import { eq } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { whatsappConsents, type WhatsAppConsentSource } from '~/db/schema'
import { addHours } from '~/lib/lab-time'
import { toE164 } from '~/lib/phone'
import { enqueueWhatsApp } from '~/modules/mail/outbox.server'
import { whatsappEnabled } from './config.server'
import { lockNumber, withinDailyMessages } from './numbers.server'
import { renderTemplate, WHATSAPP_TEMPLATES } from './templates'

/** The words next to the opt-in checkbox, kept with each opt-in as what the person agreed to. */
export const WHATSAPP_OPT_IN_WORDING =
  'Send me booking confirmations, reminders, payment and refund updates and analysis results on WhatsApp at this number. Reply STOP at any time to stop.'

/** A number asked about by forms is sent the request to confirm at most this often. */
export const CONFIRMATION_REQUEST_EVERY_HOURS = 24

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

/** What a form asking for WhatsApp messages did: nothing to do (on already), nothing it may do (its owner replied STOP), or asked the owner. */
export type WhatsAppRequest = 'on' | 'stopped' | 'requested'

/**
 * A form's WhatsApp box was ticked next to a number. Whoever typed it may not be its owner, so the
 * number is not opted in: it is asked, with one message a day at most, to reply START, and hears
 * nothing else until its owner does (or proves it is theirs with a code on their account). A number
 * whose owner replied STOP is not even asked: a form never undoes a STOP.
 */
export async function requestWhatsAppMessages(
  { phone, source, wording = WHATSAPP_OPT_IN_WORDING }: { phone: string; source: WhatsAppConsentSource; wording?: string },
  executor: Executor = db(),
  now = new Date(),
): Promise<WhatsAppRequest> {
  const e164 = toE164(phone)
  if (!e164) throw new Error('requestWhatsAppMessages needs a valid number')
  return executor.transaction(async (tx) => {
    await lockNumber(tx, e164)
    const consent = await whatsappConsentOf(e164, tx)
    if (consent?.optedIn) return 'on'
    if (consent?.optOutSource === 'reply') return 'stopped'
    const askAgain = !consent?.confirmationSentAt || consent.confirmationSentAt <= addHours(now, -CONFIRMATION_REQUEST_EVERY_HOURS)
    const request = { requestedAt: now, requestSource: source, requestWording: wording, updatedAt: now, ...(askAgain ? { confirmationSentAt: now } : {}) }
    await tx
      .insert(whatsappConsents)
      .values({ phone: e164, optedIn: false, ...request })
      .onConflictDoUpdate({ target: whatsappConsents.phone, set: request })
    if (askAgain) {
      const { title } = WHATSAPP_TEMPLATES.confirm_whatsapp_messages
      await withinDailyMessages(e164, tx, now, (inner) =>
        enqueueWhatsApp({ to: e164, title, text: renderTemplate('confirm_whatsapp_messages', []), template: { name: 'confirm_whatsapp_messages', parameters: [] } }, {}, inner, now),
      )
    }
    return 'requested'
  })
}

/** A form's WhatsApp box: the number typed next to it, whether it was ticked, and which form it is on. */
export type WhatsAppBox = { phone: string | null | undefined; ticked: boolean | undefined; source: WhatsAppConsentSource }

/**
 * What a form does with its WhatsApp box once what it asked for is made: the number is asked to
 * confirm (requestWhatsAppMessages) only when the box was ticked next to a number while the site
 * sends WhatsApp messages (the box shows only then); otherwise nothing, and null.
 */
export async function requestIfTicked({ phone, ticked, source }: WhatsAppBox, executor: Executor = db(), now = new Date()): Promise<WhatsAppRequest | null> {
  if (!phone || !ticked || !whatsappEnabled()) return null
  return requestWhatsAppMessages({ phone, source }, executor, now)
}

/**
 * The number's owner wants messages: they replied START, entered the code sent to the number, or
 * turned messages on from the account whose number they proved. The time, the words they agreed to
 * and how are kept; a form's request waiting for them is answered.
 */
export async function optInToWhatsApp(
  { phone, source, wording = WHATSAPP_OPT_IN_WORDING }: { phone: string; source: WhatsAppConsentSource; wording?: string },
  executor: Executor = db(),
  now = new Date(),
) {
  const e164 = toE164(phone)
  if (!e164) throw new Error('optInToWhatsApp needs a valid number')
  const values = { optedIn: true, optedInAt: now, optInWording: wording, optInSource: source, requestedAt: null, requestSource: null, requestWording: null, updatedAt: now }
  await executor
    .insert(whatsappConsents)
    .values({ phone: e164, ...values })
    .onConflictDoUpdate({ target: whatsappConsents.phone, set: values })
}

/**
 * The number's owner wants no more messages (replied STOP, or said so in their account). Returns
 * whether it was opted in until now. A number never seen is recorded as opted out, so only its owner
 * can turn messages on again; a form's request waiting for them is dropped.
 */
export async function optOutOfWhatsApp(
  { phone, source }: { phone: string; source: WhatsAppConsentSource },
  executor: Executor = db(),
  now = new Date(),
) {
  const e164 = toE164(phone)
  if (!e164) return false
  const before = await whatsappConsentOf(e164, executor)
  const values = { optedIn: false, optedOutAt: now, optOutSource: source, requestedAt: null, requestSource: null, requestWording: null, updatedAt: now }
  await executor
    .insert(whatsappConsents)
    .values({ phone: e164, ...values })
    .onConflictDoUpdate({ target: whatsappConsents.phone, set: values })
  return before?.optedIn === true
}
