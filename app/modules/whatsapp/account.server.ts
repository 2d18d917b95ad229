import { eq } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { users } from '~/db/schema'
import { formatLabDate } from '~/lib/lab-time'
import { formatPhone, toE164 } from '~/lib/phone'
import { whatsappEnabled } from './config.server'
import { optInToWhatsApp, optOutOfWhatsApp, WHATSAPP_OPT_IN_WORDING, whatsappConsentOf, type WhatsAppConsent } from './consent.server'

/**
 * WhatsApp messages as an account's own page shows them: whether its number gets them, since when,
 * and the switch to turn them on or off. Always the number kept on the account, never one sent by
 * the browser, so an account changes only its own number's consent.
 */
export type AccountWhatsApp = { phone: string | null; on: boolean; state: string; wording: string }

/** The account's WhatsApp state, or null when the site sends no WhatsApp messages. */
export async function accountWhatsApp(accountId: number): Promise<AccountWhatsApp | null> {
  if (!whatsappEnabled()) return null
  const phone = await accountNumber(accountId)
  if (!phone) return { phone: null, on: false, state: 'off', wording: WHATSAPP_OPT_IN_WORDING }
  const consent = await whatsappConsentOf(phone)
  return { phone: formatPhone(phone), on: consent?.optedIn === true, state: stateOf(consent), wording: WHATSAPP_OPT_IN_WORDING }
}

/** "on (since 3 March 2027)", "off (you replied STOP on 5 March 2027)", "off since 5 March 2027" or "off". */
export function stateOf(consent: WhatsAppConsent | null) {
  if (consent?.optedIn) return consent.optedInAt ? `on (since ${formatLabDate(consent.optedInAt)})` : 'on'
  if (!consent?.optedOutAt) return 'off'
  return consent.optOutSource === 'reply' ? `off (you replied STOP on ${formatLabDate(consent.optedOutAt)})` : `off since ${formatLabDate(consent.optedOutAt)}`
}

/**
 * The account holder turns WhatsApp messages to their number on (agreeing to the words shown with
 * the button) or off. False, and nothing changed, while the account has no valid number.
 */
export async function switchAccountWhatsApp(accountId: number, on: boolean, now = new Date()) {
  const phone = await accountNumber(accountId)
  if (!phone) return false
  if (on) await optInToWhatsApp({ phone, source: 'account', wording: WHATSAPP_OPT_IN_WORDING }, db(), now)
  else await optOutOfWhatsApp({ phone, source: 'account' }, db(), now)
  return true
}

async function accountNumber(accountId: number) {
  const [row] = await db().select({ phone: users.phone }).from(users).where(eq(users.id, accountId))
  return row?.phone ? toE164(row.phone) : null
}
