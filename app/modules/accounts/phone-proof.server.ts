import { eq } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { users } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { toE164 } from '~/lib/phone'
import { enqueueWhatsApp } from '~/modules/mail/outbox.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { accountNumber } from '~/modules/whatsapp/account.server'
import { optInToWhatsApp, WHATSAPP_OPT_IN_WORDING, whatsappConsentOf } from '~/modules/whatsapp/consent.server'
import { lockNumber, withinDailyMessages } from '~/modules/whatsapp/numbers.server'
import { renderTemplate, WHATSAPP_TEMPLATES } from '~/modules/whatsapp/templates'
import type { CodeReply } from '~/modules/whatsapp/webhook.server'
import { CODE_REFUSED, consumeCode, consumeCodeSentTo, issueCode } from './codes.server'
import { limitsFor, numberCodeLimits } from '~/modules/rate-limit/limits.server'

/**
 * An account's WhatsApp number is typed by the account holder, who may type anyone's. It becomes
 * the account's (its consent shown and changed from the account, its messages in the account's
 * data) only once its owner proves it: the code sent to it on WhatsApp, entered on the account's
 * page or replied from the number. Proving it also turns its messages on, as the page says.
 * Changing the number (`updateProfile`) makes it unproven again.
 */

/**
 * Sends a code to the account's unproven number on WhatsApp (the Authentication template). Limited
 * like e-mailed codes, per client address and per account, and to a few a day per number, whoever
 * asks. A number whose owner replied STOP is sent nothing (they reply START first), as is one that
 * had its messages of the day; the page says the same in every case. False when the account has no
 * valid number, or it is proven already. Throws RateLimitedError.
 */
export async function sendNumberCode({ accountId, ip, now = new Date() }: { accountId: number; ip: string; now?: Date }) {
  const { email, phone, provenAt } = await accountNumber(accountId)
  if (!phone || provenAt) return false
  await enforce(numberCodeLimits({ ip, email, phone }), now)
  await db().transaction(async (tx) => {
    const consent = await whatsappConsentOf(phone, tx)
    if (consent?.optOutSource === 'reply' && !consent.optedIn) return
    const { code } = await issueCode(tx, accountId, 'verify_phone', now, { phone })
    const { title } = WHATSAPP_TEMPLATES.verification_code
    await withinDailyMessages(phone, tx, now, (inner) =>
      enqueueWhatsApp({ to: phone, title, text: renderTemplate('verification_code', [code]), template: { name: 'verification_code', parameters: [code] } }, { accountId }, inner, now),
    )
  })
  return true
}

/**
 * The account holder entered the code sent to their number: it is proven theirs, and its WhatsApp
 * messages are on. Attempts count against the same limits as e-mailed codes. Throws a DomainError
 * next to the code field, or RateLimitedError.
 */
export async function proveNumber({ accountId, code, ip, now = new Date() }: { accountId: number; code: string; ip: string; now?: Date }) {
  const { email, phone } = await accountNumber(accountId)
  await enforce(limitsFor('codeEntry', { ip, email }), now)
  const proven = phone
    ? await db().transaction(async (tx) => (await consumeCode(tx, accountId, 'verify_phone', code, now, { phone })).status === 'ok' && numberProven(tx, accountId, phone, 'account', now))
    : false
  if (!proven) throw new DomainError('invalid', CODE_REFUSED, 'code')
}

/** The webhook's answer to a code replied from a number: the account it was sent for has its number proven. */
export const proveNumberByReply: CodeReply = async (tx, phone, code, now) => {
  const accountId = await consumeCodeSentTo(tx, phone, code, now)
  return accountId !== null && numberProven(tx, accountId, phone, 'reply', now)
}

/** Records the proof, unless the account's number changed since the code was sent; its messages go on. */
async function numberProven(tx: Executor, accountId: number, phone: string, source: 'account' | 'reply', now: Date) {
  await lockNumber(tx, phone)
  const [account] = await tx.select({ phone: users.phone }).from(users).where(eq(users.id, accountId)).for('update')
  if (!account?.phone || toE164(account.phone) !== phone) return false
  await tx.update(users).set({ phone, phoneVerifiedAt: now, updatedAt: now }).where(eq(users.id, accountId))
  await optInToWhatsApp({ phone, source, wording: WHATSAPP_OPT_IN_WORDING }, tx, now)
  return true
}
