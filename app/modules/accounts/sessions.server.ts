import { createHash, randomBytes } from 'node:crypto'
import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { prepared } from '~/db/prepared.server'
import { sessions, users } from '~/db/schema'
import { batchedReader } from '~/lib/batched.server'
import { KeptCache, type Kept } from '~/lib/kept-cache.server'
import { addSeconds, durationMs } from '~/lib/lab-time'
import { publicUserColumns, type PublicUser } from './users.server'

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60
/** last_seen_at is refreshed at most this often, so browsing does not write on every request. */
const TOUCH_INTERVAL_MS = durationMs({ minutes: 5 })

export type SessionMeta = { ip?: string | null; userAgent?: string | null }
export type NewSession = { token: string; expiresAt: Date }

/** The cookie carries the token; the database keeps only its SHA-256. */
function sessionIdFor(token: string) {
  return createHash('sha256').update(token).digest('hex')
}

export async function createSession(userId: number, meta: SessionMeta, now = new Date(), executor: Executor = db()): Promise<NewSession> {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = addSeconds(now, SESSION_TTL_SECONDS)
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

type LiveSession = { user: PublicUser; lastSeenAt: number }

/**
 * Live sessions by id, each read once and kept until its account or the session changes (the
 * database announces it on every instance, see drizzle/0009) or it expires. Only sessions that
 * exist are kept: a made-up cookie is a read each time, never an entry.
 */
const liveSessions = new KeptCache<string, LiveSession | null>(10_000)

/** The user a session token belongs to, if the session is live and the account is not disabled. */
export async function findSessionUser(token: string, now = new Date()): Promise<PublicUser | null> {
  const id = sessionIdFor(token)
  const session = await liveSessions.get(id, () => readSession(id, now), now.getTime())
  if (!session) return null
  if (now.getTime() - session.lastSeenAt > TOUCH_INTERVAL_MS) {
    session.lastSeenAt = now.getTime()
    await db().update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id))
  }
  return session.user
}

/**
 * The sessions (with their accounts) of the ids asked for: in a rush of signed-in customers, each
 * seen by this instance for the first time, one query reads many of them.
 */
const readLiveSessions = batchedReader(async (ids: string[]) => {
  const rows = await prepared('live_sessions', (database) =>
    database
      .select({ id: sessions.id, user: publicUserColumns, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(sql`${sessions.id} = ANY(${sql.placeholder('ids')})`, isNull(users.disabledAt)))
      .prepare('live_sessions'),
  ).execute({ ids })
  return new Map(rows.map((row) => [row.id, row]))
})

async function readSession(id: string, now: Date): Promise<Kept<LiveSession | null>> {
  const row = await readLiveSessions(id)
  if (!row || row.expiresAt <= now) return { value: null, until: 0 }
  return { value: { user: row.user, lastSeenAt: row.lastSeenAt.getTime() }, until: row.expiresAt.getTime() }
}

/**
 * Forgets the kept sessions of an account whose sessions or details changed (`accountId` as the
 * database announced it), or of every account when it is empty: anything may have changed.
 */
export function forgetSessionsOf(accountId: string) {
  const id = Number(accountId)
  if (accountId === '' || !Number.isSafeInteger(id)) liveSessions.clear()
  else liveSessions.dropWhere((session) => session?.user.id === id)
}

export async function revokeSession(token: string) {
  const id = sessionIdFor(token)
  await db().delete(sessions).where(eq(sessions.id, id))
  // This instance forgets it at once; the others when the database's notification reaches them.
  liveSessions.drop(id)
}

/** Signs a user out everywhere (after a password reset, or when staff disable an account). */
export async function revokeAllSessions(userId: number, executor: Executor = db()) {
  await executor.delete(sessions).where(eq(sessions.userId, userId))
  liveSessions.dropWhere((session) => session?.user.id === userId)
}

export async function pruneExpiredSessions(now = new Date()) {
  await db().delete(sessions).where(lt(sessions.expiresAt, now))
}
