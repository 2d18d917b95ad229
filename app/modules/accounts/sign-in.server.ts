import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { limitsFor } from './limits.server'
import { verifyAgainstDecoy, verifyPassword } from './passwords.server'
import { createSession, revokeSession, type NewSession, type SessionMeta } from './sessions.server'
import { findUserByEmail, normalizeEmail, type PublicUser } from './users.server'

export type SignInResult = { ok: true; user: PublicUser; session: NewSession } | { ok: false; reason: 'invalid' | 'unverified' }

/**
 * Checks an address and password. An unknown address and a wrong password take the same time and
 * give the same answer. "Unverified" is only told to someone who knows the password. A successful
 * sign-in gets a new session (the old one, if any, is revoked: the id rotates at every sign-in).
 * Throws RateLimitedError.
 */
export async function signIn({
  email,
  password,
  ip,
  userAgent,
  previousSessionToken,
  now = new Date(),
}: SessionMeta & { email: string; password: string; ip: string; previousSessionToken?: string | null; now?: Date }): Promise<SignInResult> {
  const address = normalizeEmail(email)
  await enforce(limitsFor('signIn', { ip, email: address }), now)
  const user = await findUserByEmail(address)
  const passwordMatches = user ? await verifyPassword(user.passwordHash, password) : await verifyAgainstDecoy(password)
  if (!user || !passwordMatches) return { ok: false, reason: 'invalid' }
  if (!user.isVerified) return { ok: false, reason: 'unverified' }

  if (previousSessionToken) await revokeSession(previousSessionToken)
  const session = await createSession(user.id, { ip, userAgent }, now)
  const { passwordHash: _, ...publicUser } = user
  return { ok: true, user: publicUser, session }
}
