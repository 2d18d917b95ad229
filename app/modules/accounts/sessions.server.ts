import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { sessions, users } from '~/db/schema'
import type { Executor } from '~/modules/mail/outbox.server'
import { publicUserColumns, type PublicUser } from './users.server'

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60
/** last_seen_at is refreshed at most this often, so browsing does not write on every request. */
const TOUCH_INTERVAL_MS = 5 * 60_000

export type SessionMeta = { ip?: string | null; userAgent?: string | null }
export type NewSession = { token: string; expiresAt: Date }

/** The cookie carries the token; the database keeps only its SHA-256. */
export function sessionIdFor(token: string) {
  return createHash('sha256').update(token).digest('hex')
}

export async function createSession(userId: number, meta: SessionMeta, now = new Date(), executor: Executor = db()): Promise<NewSession> {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000)
  await executor.insert(sessions).values({
    id: sessionIdFor(token),
    userId,
    expiresAt,
    createdAt: now,
    lastSeenAt: now,
    ip: meta.ip?.slice(0, 100) ?? null,
    userAgent: meta.userAgent?.slice(0, 500) ?? null,
  })
  return { token, expiresAt }
}

/** The user a session token belongs to, if the session is live and the account is not disabled. */
export async function findSessionUser(token: string, now = new Date()): Promise<PublicUser | null> {
  const id = sessionIdFor(token)
  const [row] = await db()
    .select({ user: publicUserColumns, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, now), isNull(users.disabledAt)))
  if (!row) return null
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db().update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id))
  }
  return row.user
}

export async function revokeSession(token: string) {
  await db().delete(sessions).where(eq(sessions.id, sessionIdFor(token)))
}

/** Signs a user out everywhere (after a password reset, or when staff disable an account). */
export async function revokeAllSessions(userId: number, executor: Executor = db()) {
  await executor.delete(sessions).where(eq(sessions.userId, userId))
}

export async function pruneExpiredSessions(now = new Date()) {
  await db().delete(sessions).where(lt(sessions.expiresAt, now))
}
