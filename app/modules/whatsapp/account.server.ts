import { eq } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { users } from '~/db/schema'
import { formatLabDate } from '~/lib/lab-time'
import { formatPhone, toE164 } from '~/lib/phone'
import { whatsappEnabled } from './config.server'
import { optInToWhatsApp, optOutOfWhatsApp, WHATSAPP_OPT_IN_WORDING, whatsappConsentOf, type WhatsAppConsent } from './consent.server'

/**
 * WhatsApp messages as an account's own page shows them: whether its number gets them, since when,
 * and the switch to turn them on or off. Always the number kept on the account, never one sent by
 * the browser, and only once the account holder has proven the number theirs (a code sent to it):
 * until then the page shows nothing of the number's consent and cannot change it, since the number
 * may be anyone's.
 */
export type AccountWhatsApp = { phone: string | null; proven: boolean; on: boolean; state: string; wording: string }

/** What an account with a number not proven yet is told, whatever its number's consent. */
export const UNPROVEN_STATE = 'off until you confirm that the number is yours'

/** The account's WhatsApp state, or null when the site sends no WhatsApp messages. */
export async function accountWhatsApp(accountId: number): Promise<AccountWhatsApp | null> {
  if (!whatsappEnabled()) return null
  const { phone, provenAt } = await accountNumber(accountId)
  if (!phone) return { phone: null, proven: false, on: false, state: 'off', wording: WHATSAPP_OPT_IN_WORDING }
  if (!provenAt) return { phone: formatPhone(phone), proven: false, on: false, state: UNPROVEN_STATE, wording: WHATSAPP_OPT_IN_WORDING }
  const consent = await whatsappConsentOf(phone)
  return { phone: formatPhone(phone), proven: true, on: consent?.optedIn === true, state: stateOf(consent), wording: WHATSAPP_OPT_IN_WORDING }
}

/** "on (since 3 March 2027)", "off (you replied STOP on 5 March 2027)", "off since 5 March 2027" or "off". */
export function stateOf(consent: WhatsAppConsent | null) {
  if (consent?.optedIn) return consent.optedInAt ? `on (since ${formatLabDate(consent.optedInAt)})` : 'on'
  if (!consent?.optedOutAt) return 'off'
  return consent.optOutSource === 'reply' ? `off (you replied STOP on ${formatLabDate(consent.optedOutAt)})` : `off since ${formatLabDate(consent.optedOutAt)}`
}

/**
 * The account holder turns WhatsApp messages to their number on (agreeing to the words shown with
 * the button) or off. They proved the number theirs, so this is its owner's word, even after a STOP.
 * False, and nothing changed, while the account has no valid number or has not proven it.
 */
export async function switchAccountWhatsApp(accountId: number, on: boolean, now = new Date()) {
  const { phone, provenAt } = await accountNumber(accountId)
  if (!phone || !provenAt) return false
  if (on) await optInToWhatsApp({ phone, source: 'account', wording: WHATSAPP_OPT_IN_WORDING }, db(), now)
  else await optOutOfWhatsApp({ phone, source: 'account' }, db(), now)
  return true
}

/** The account's address, its number (E.164, or null without a valid one) and when its owner proved the number (null while unproven). */
export async function accountNumber(accountId: number, executor: Executor = db()) {
  const [row] = await executor.select({ email: users.email, phone: users.phone, provenAt: users.phoneVerifiedAt }).from(users).where(eq(users.id, accountId))
  const phone = row?.phone ? toE164(row.phone) : null
  return { email: row?.email ?? '', phone, provenAt: phone ? (row?.provenAt ?? null) : null }
}
