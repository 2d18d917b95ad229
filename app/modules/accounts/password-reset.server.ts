import { eq } from 'drizzle-orm'
import { config } from '~/config.server'
import { db } from '~/db/client.server'
import { users } from '~/db/schema'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { passwordResetEmail } from '~/modules/mail/templates.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { consumeCode, issueCode, type CodeCheck } from './codes.server'
import { limitsFor } from '~/modules/rate-limit/limits.server'
import { assertAcceptablePassword } from './password-policy.server'
import { hashPassword } from './passwords.server'
import { revokeAllSessions } from './sessions.server'
import { findUserByEmail, normalizeEmail } from './users.server'
import { forgotPasswordLink } from '~/lib/links'

type Caller = { ip: string; now?: Date }

/** The link in the reset e-mail opens step 2 with the code filled in. */
function passwordResetLink(email: string, code: string) {
  return `${config().SITE_URL}${forgotPasswordLink({ email, code })}`
}

/**
 * Step 1: e-mails a one-time code if the address has an account. Returns nothing either way, so
 * the page cannot tell whether the address is registered. Throws RateLimitedError.
 */
export async function requestPasswordReset({ email, ip, now = new Date() }: Caller & { email: string }) {
  const address = normalizeEmail(email)
  await enforce(limitsFor('codeSending', { ip, email: address }), now)
  const user = await findUserByEmail(address)
  if (!user) return
  await db().transaction(async (tx) => {
    const { code, expiresAt } = await issueCode(tx, user.id, 'reset_password', now)
    await enqueueEmail(passwordResetEmail({ to: user.email, name: user.name, code, expiresAt, link: passwordResetLink(user.email, code) }), { accountId: user.id }, tx, now)
  })
}

type ResetResult = { ok: true; userId: number } | { ok: false; check: Exclude<CodeCheck, { status: 'ok' }> }

/**
 * Step 2: with the right code, sets the new password, marks the address verified (the code proved
 * it) and signs the account out everywhere. An address without an account does the same work (the
 * new password is hashed either way) and gets the answer of a code that is not valid, so neither
 * the answer nor its time tells whether the address is registered. Whether the account is staff's
 * (a longer password) is told only to someone with the right code. Throws WeakPasswordError or
 * RateLimitedError.
 */
export async function resetPassword({ email, code, password, ip, now = new Date() }: Caller & { email: string; code: string; password: string }): Promise<ResetResult> {
  assertAcceptablePassword(password, { staff: false })
  const address = normalizeEmail(email)
  await enforce(limitsFor('codeEntry', { ip, email: address }), now)
  const user = await findUserByEmail(address)
  const passwordHash = await hashPassword(password)
  if (!user) return { ok: false, check: { status: 'missing' } }
  return db().transaction(async (tx) => {
    const check = await consumeCode(tx, user.id, 'reset_password', code, now)
    if (check.status !== 'ok') return { ok: false as const, check }
    // Thrown inside the transaction, so the code stays unused for a second try with a longer password.
    if (user.isAdmin) assertAcceptablePassword(password, { staff: true })
    await tx.update(users).set({ passwordHash, isVerified: true, updatedAt: now }).where(eq(users.id, user.id))
    await revokeAllSessions(user.id, tx)
    return { ok: true as const, userId: user.id }
  })
}
