import { eq } from 'drizzle-orm'
import { config } from '~/config.server'
import { db, type Executor } from '~/db/client.server'
import { DomainError } from '~/lib/domain-error'
import { users } from '~/db/schema'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { verificationEmail } from '~/modules/mail/templates.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { recordConsent } from '~/modules/swimmers/consent.server'
import { holdParentConsentRequest, sendHeldConsentRequests } from '~/modules/swimmers/consent-requests.server'
import { whatsappEnabled } from '~/modules/whatsapp/config.server'
import { requestWhatsAppMessages } from '~/modules/whatsapp/consent.server'
import { insertSwimmer, isMinor } from '~/modules/swimmers/swimmers.server'
import { consumeCode, issueCode, type CodeCheck } from './codes.server'
import { limitsFor } from '~/modules/rate-limit/limits.server'
import { assertAcceptablePassword } from './password-policy.server'
import { hashPassword } from './passwords.server'
import type { RegistrationInput } from './schemas'
import { createSession, revokeAllSessions, type NewSession, type SessionMeta } from './sessions.server'
import { findUserByEmail, insertCustomer, normalizeEmail, type PublicUser } from './users.server'
import { verifyEmailLink } from '~/lib/links'

type Caller = { ip: string; now?: Date }

/** The link in the verification e-mail opens the page with the code filled in; a button sends it. */
function verificationLink(email: string, code: string) {
  return `${config().SITE_URL}${verifyEmailLink({ email, code })}`
}

export async function sendVerificationCode(executor: Executor, user: { id: number; name: string; email: string }, now: Date) {
  const { code, expiresAt } = await issueCode(executor, user.id, 'verify_email', now)
  await enqueueEmail(verificationEmail({ to: user.email, name: user.name, code, expiresAt, link: verificationLink(user.email, code) }), { accountId: user.id }, executor, now)
}

/**
 * Creates an unverified account and its first swimmer (the account holder, or their child) and
 * e-mails a verification code, in one transaction (no account without its e-mail, no e-mail for an
 * account that was not created). For a child under 18 the guardian's declaration in the form is
 * recorded as their consent; a swimmer under 18 registering alone gets an account that cannot book
 * until the parent they named agrees through the e-mailed link, sent once the swimmer's own address
 * is verified. A ticked WhatsApp box (shown only while the site sends WhatsApp messages) asks the
 * number's owner to confirm.
 * Throws WeakPasswordError, EmailTakenError or RateLimitedError.
 */
export async function registerCustomer(input: RegistrationInput, { ip, now = new Date() }: Caller) {
  assertAcceptablePassword(input.password, { staff: false })
  const email = normalizeEmail(input.email)
  await enforce(limitsFor('codeSending', { ip, email }), now)
  if (input.parentEmail) await enforce(limitsFor('codeSending', { ip, email: normalizeEmail(input.parentEmail) }), now)
  const passwordHash = await hashPassword(input.password)
  return db().transaction(async (tx) => {
    const user = await insertCustomer(input, passwordHash, tx, now)
    const forChild = input.whoSwims === 'child'
    const swimmer = await insertSwimmer(tx, user.id, forChild ? input.swimmerName! : input.name, input, { isAccountHolder: !forChild, now })
    if (isMinor(swimmer, now)) {
      if (forChild) {
        await recordConsent(tx, { swimmerId: swimmer.id, guardianName: user.name, guardianEmail: user.email, emailVerifiedBy: 'account_code', method: 'registration_form', now })
      } else {
        await holdParentConsentRequest(tx, { swimmerId: swimmer.id, parentEmail: input.parentEmail!, now })
      }
    }
    if (input.whatsappOptIn && whatsappEnabled()) await requestWhatsAppMessages({ phone: input.phone, source: 'registration' }, tx, now)
    await sendVerificationCode(tx, user, now)
    return user
  })
}

/**
 * Sends a new verification code if the address belongs to an account still waiting for one. The
 * caller answers the same way whether or not anything was sent.
 */
export async function resendVerificationCode({ email, ip, now = new Date() }: Caller & { email: string }) {
  const address = normalizeEmail(email)
  await enforce(limitsFor('codeSending', { ip, email: address }), now)
  const user = await findUserByEmail(address)
  if (!user || user.isVerified) return
  await db().transaction((tx) => sendVerificationCode(tx, user, now))
}

type VerifyResult = { ok: true; user: PublicUser; session: NewSession } | { ok: false; check: Exclude<CodeCheck, { status: 'ok' }> }

/** A browser that did not register the account verifies its address only by choosing the password there. */
export class PasswordNeededError extends DomainError {
  constructor() {
    super('invalid', 'Please choose a password for your account', 'password')
  }
}

/**
 * Whether this browser registered the account of `email` (or proved its password while it was
 * unverified): `pendingAccountId` comes from the browser's signed cookie. Anyone else holding the
 * e-mailed code has proved the mailbox but not the password.
 */
export async function registeredInThisBrowser(email: string, pendingAccountId: number | null) {
  return pendingAccountId !== null && isRegisteringBrowser(await findUserByEmail(email), pendingAccountId)
}

function isRegisteringBrowser(user: { id: number; isVerified: boolean } | null, pendingAccountId: number | null) {
  return user !== null && !user.isVerified && user.id === pendingAccountId
}

/**
 * Checks the e-mailed code; if right, marks the address verified and signs this browser in. Whoever
 * registered an address may not be its owner (anyone can type anyone's address), so the owner must
 * prove the mailbox and the password in one browser: the browser that registered the account
 * (`pendingAccountId`) proved the password already; any other browser chooses one (`newPassword`,
 * PasswordNeededError without it), which replaces the registrant's and signs out every session of
 * the account. Only then does the account see what was booked as a guest under its address. The
 * parent a swimmer under 18 named when registering alone is asked now if this browser registered
 * the account; otherwise the parent's address, typed by someone who may not be the owner, waits for
 * the owner to send the link from their consent page. An unknown address, or one with no code
 * waiting, is answered as a code that is not valid, after the same work. Throws
 * PasswordNeededError, WeakPasswordError or RateLimitedError.
 */
export async function verifyEmail({
  email,
  code,
  newPassword = null,
  ip,
  userAgent,
  pendingAccountId = null,
  now = new Date(),
}: Caller & SessionMeta & { email: string; code: string; newPassword?: string | null; pendingAccountId?: number | null }): Promise<VerifyResult> {
  const address = normalizeEmail(email)
  await enforce(limitsFor('codeEntry', { ip, email: address }), now)
  const user = await findUserByEmail(address)
  let passwordHash: string | null = null
  if (!isRegisteringBrowser(user, pendingAccountId)) {
    if (!newPassword) throw new PasswordNeededError()
    assertAcceptablePassword(newPassword, { staff: false })
    // Hashed for an unknown address too, so the answer takes as long either way.
    passwordHash = await hashPassword(newPassword)
  }
  if (!user) return { ok: false, check: { status: 'missing' } }
  return db().transaction(async (tx) => {
    const check = await consumeCode(tx, user.id, 'verify_email', code, now)
    if (check.status !== 'ok') return { ok: false as const, check }
    await tx.update(users).set({ isVerified: true, updatedAt: now, ...(passwordHash ? { passwordHash } : {}) }).where(eq(users.id, user.id))
    if (passwordHash) await revokeAllSessions(user.id, tx)
    // The parent's address was typed by whoever registered; only when that was the owner is it asked
    // at once. An owner who verifies elsewhere sees it on their consent page and sends it themselves.
    else await sendHeldConsentRequests(tx, user.id, now)
    const session = await createSession(user.id, { ip, userAgent }, now, tx)
    const { passwordHash: _, ...publicUser } = user
    return { ok: true as const, user: { ...publicUser, isVerified: true }, session }
  })
}
