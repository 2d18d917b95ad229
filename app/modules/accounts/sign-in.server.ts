import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { accountLimit, ipLimit, knownBrowserLimit } from '~/modules/rate-limit/limits.server'
import { verifyAgainstDecoy, verifyPassword } from './passwords.server'
import { createSession, revokeSession, type NewSession, type SessionMeta } from './sessions.server'
import { findUserByEmail, normalizeEmail, type PublicUser } from './users.server'

/** A browser that has signed in here before (from its signed cookie): its own id and the accounts it signed in to. */
export type KnownBrowser = { id: string; accountIds: number[] }

type SignInResult =
  | { ok: true; user: PublicUser; session: NewSession }
  | { ok: false; reason: 'invalid' }
  /** The password was right: `userId` lets this browser finish verifying and be signed in. */
  | { ok: false; reason: 'unverified'; userId: number }

/**
 * Checks an address and password. An unknown address and a wrong password take the same time and
 * give the same answer. "Unverified" is only told to someone who knows the password. A successful
 * sign-in gets a new session (the old one, if any, is revoked: the id rotates at every sign-in).
 * Attempts count against the client's address and against the account, except from a browser that
 * has signed in to the account before, which has a limit of its own: strangers who use up the
 * account's limit do not lock its owner out. Throws RateLimitedError.
 */
export async function signIn({
  email,
  password,
  ip,
  userAgent,
  previousSessionToken,
  browser = null,
  now = new Date(),
}: SessionMeta & { email: string; password: string; ip: string; previousSessionToken?: string | null; browser?: KnownBrowser | null; now?: Date }): Promise<SignInResult> {
  const address = normalizeEmail(email)
  const user = await findUserByEmail(address)
  const knownBrowser = browser && user && browser.accountIds.includes(user.id) ? browser : null
  await enforce([ipLimit('signIn', ip), knownBrowser ? knownBrowserLimit(knownBrowser.id) : accountLimit('signIn', address)], now)
  const passwordMatches = user ? await verifyPassword(user.passwordHash, password) : await verifyAgainstDecoy(password)
  if (!user || !passwordMatches) return { ok: false, reason: 'invalid' }
  if (!user.isVerified) return { ok: false, reason: 'unverified', userId: user.id }

  if (previousSessionToken) await revokeSession(previousSessionToken)
  const session = await createSession(user.id, { ip, userAgent }, now)
  const { passwordHash: _, ...publicUser } = user
  return { ok: true, user: publicUser, session }
}
