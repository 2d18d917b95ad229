import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { analyses, bookings, shareLinks, swimmers } from '~/db/schema'
import { durationMs } from '~/lib/lab-time'
import type { PublicUser } from '~/modules/accounts/users.server'

/**
 * Who may see an analysis and its files. Staff see every analysis, drafts included; an account sees
 * the published analyses of its own bookings and swimmers; a coach's share link sees the published
 * analyses it covers (a whole swimmer or one analysis) while it is neither revoked nor expired.
 * Nobody else learns whether an analysis exists: every refusal is "not found".
 */
export type AnalysisViewer =
  | { kind: 'staff'; userId: number }
  | { kind: 'account'; accountId: number; email?: string }
  | { kind: 'share'; shareId: number; swimmerId: number; analysisId: number | null }

/** An account also sees the analysis of a booking made as a guest with its (verified) e-mail address, as it sees that booking's report. */
export function viewerOfUser(user: Pick<PublicUser, 'id' | 'isAdmin' | 'email'>): AnalysisViewer {
  return user.isAdmin ? { kind: 'staff', userId: user.id } : { kind: 'account', accountId: user.id, email: user.email.toLowerCase() }
}

/** A share link's token: 32 random bytes, in the link as base64url; only its SHA-256 is stored. */
export function newShareToken() {
  const token = randomBytes(32).toString('base64url')
  return { token, tokenHash: shareTokenHash(token) }
}

export function shareTokenHash(token: string) {
  return createHash('sha256').update(token).digest('hex')
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/

/**
 * The viewer a share link's token stands for, or null when the token is unknown, revoked or
 * expired. Opening it records when it was last opened (what the account sees on its list).
 */
export async function shareViewer(token: string | null | undefined, now = new Date()): Promise<Extract<AnalysisViewer, { kind: 'share' }> | null> {
  if (!token || !TOKEN.test(token)) return null
  const [link] = await db()
    .select({ id: shareLinks.id, swimmerId: shareLinks.swimmerId, analysisId: shareLinks.analysisId, lastOpenedAt: shareLinks.lastOpenedAt })
    .from(shareLinks)
    .where(and(eq(shareLinks.tokenHash, shareTokenHash(token)), isNull(shareLinks.revokedAt), gt(shareLinks.expiresAt, now)))
  if (!link) return null
  // A page and its video's range requests come together: the time is written once a minute at most.
  if (!link.lastOpenedAt || now.getTime() - link.lastOpenedAt.getTime() >= LAST_OPENED_PRECISION_MS) await db().update(shareLinks).set({ lastOpenedAt: now }).where(eq(shareLinks.id, link.id))
  return { kind: 'share', shareId: link.id, swimmerId: link.swimmerId, analysisId: link.analysisId }
}

const LAST_OPENED_PRECISION_MS = durationMs({ minutes: 1 })

/** The analysis's owner and state, for deciding who may see it. */
async function analysisOwnership(analysisId: number) {
  const [row] = await db()
    .select({ id: analyses.id, swimmerId: analyses.swimmerId, publishedAt: analyses.publishedAt, bookingUserId: bookings.userId, bookingEmail: bookings.customerEmail, swimmerAccountId: swimmers.accountId })
    .from(analyses)
    .innerJoin(bookings, eq(bookings.id, analyses.bookingId))
    .leftJoin(swimmers, eq(swimmers.id, analyses.swimmerId))
    .where(eq(analyses.id, analysisId))
  return row ?? null
}

/** Whether this viewer may see the analysis (published, unless staff). */
export async function maySeeAnalysis(viewer: AnalysisViewer | null, analysisId: number): Promise<boolean> {
  if (!viewer) return false
  const analysis = await analysisOwnership(analysisId)
  if (!analysis) return false
  if (viewer.kind === 'staff') return true
  if (!analysis.publishedAt) return false
  if (viewer.kind === 'account') {
    const guestBookingOfThisAddress = analysis.bookingUserId === null && viewer.email !== undefined && analysis.bookingEmail.toLowerCase() === viewer.email
    return analysis.bookingUserId === viewer.accountId || analysis.swimmerAccountId === viewer.accountId || guestBookingOfThisAddress
  }
  return analysis.swimmerId === viewer.swimmerId && (viewer.analysisId === null || viewer.analysisId === analysisId)
}

/** Whether this viewer may see a swimmer's results over time (progress, compare). */
export async function maySeeSwimmer(viewer: AnalysisViewer | null, swimmerId: number): Promise<boolean> {
  if (!viewer) return false
  if (viewer.kind === 'share') return viewer.swimmerId === swimmerId && viewer.analysisId === null
  const [swimmer] = await db().select({ accountId: swimmers.accountId }).from(swimmers).where(eq(swimmers.id, swimmerId))
  if (!swimmer) return false
  return viewer.kind === 'staff' || swimmer.accountId === viewer.accountId
}

/** The published analyses of a swimmer, oldest first (for progress and the "previous value"). */
export function publishedAnalysesOf(swimmerId: number) {
  return db()
    .select({ id: analyses.id, bookingId: analyses.bookingId, publishedAt: analyses.publishedAt })
    .from(analyses)
    .where(and(eq(analyses.swimmerId, swimmerId), isNotNull(analyses.publishedAt)))
    .orderBy(analyses.publishedAt, analyses.id)
}
