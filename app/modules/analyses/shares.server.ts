import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm'
import { config } from '~/config.server'
import { db } from '~/db/client.server'
import { analyses, shareLinks, swimmers, users } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addDays, formatLabDate } from '~/lib/lab-time'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { enforce, type RateLimitRule } from '~/modules/rate-limit/rate-limit.server'
import { newShareToken } from './access.server'
import { firstNameOf } from '~/lib/person-name'
import { sharedLink } from '~/lib/links'

/** Links that work at one time for one swimmer: enough for every coach a family has, not a flood. */
export const MAX_ACTIVE_SHARE_LINKS = 20

/** Links an account may make in an hour: each may e-mail a stranger's address, so they are few. */
export const SHARE_LINKS_PER_HOUR: RateLimitRule = { limit: 10, windowSeconds: 60 * 60 }

export class TooManyShareLinksError extends DomainError {
  constructor() {
    super('conflict', `${MAX_ACTIVE_SHARE_LINKS} links for this swimmer already work. Please revoke one you no longer need first.`)
  }
}

/** The address of a coach's link. */
export const sharedUrl = (token: string) => `${config().SITE_URL}${sharedLink(token)}`

/**
 * A link for a coach to this swimmer's results, all of them or one published analysis, for `days`
 * days. The swimmer must be the account's, the analysis one of the swimmer's published ones (a
 * refusal says "not found", as for someone else's). With a coach's address, the link goes to them by
 * e-mail. The token is returned once: only its hash is kept.
 */
export async function createShareLink({ accountId, swimmerId, analysisId, days, coachEmail, now = new Date() }: { accountId: number; swimmerId: number; analysisId: number | null; days: number; coachEmail?: string | null; now?: Date }) {
  await enforce([{ key: `share-links:${accountId}`, rule: SHARE_LINKS_PER_HOUR }], now)
  return db().transaction(async (tx) => {
    // The swimmer's row is locked, so two links made at once cannot both pass the limit.
    const [swimmer] = await tx
      .select({ id: swimmers.id, name: swimmers.name, accountId: swimmers.accountId })
      .from(swimmers)
      .where(and(eq(swimmers.id, swimmerId), eq(swimmers.accountId, accountId)))
      .for('update')
    if (!swimmer) throw new DomainError('not_found', 'No such swimmer.')
    if (analysisId !== null) {
      const [analysis] = await tx
        .select({ id: analyses.id })
        .from(analyses)
        .where(and(eq(analyses.id, analysisId), eq(analyses.swimmerId, swimmerId), sql`${analyses.publishedAt} IS NOT NULL`))
      if (!analysis) throw new DomainError('not_found', 'No such analysis.')
    }
    const [{ active }] = (await tx
      .select({ active: sql<number>`count(*)::int` })
      .from(shareLinks)
      .where(and(eq(shareLinks.swimmerId, swimmerId), isNull(shareLinks.revokedAt), gt(shareLinks.expiresAt, now)))) as [{ active: number }]
    if (active >= MAX_ACTIVE_SHARE_LINKS) throw new TooManyShareLinksError()
    const { token, tokenHash } = newShareToken()
    const expiresAt = addDays(now, days)
    const email = coachEmail ? coachEmail.toLowerCase() : null
    const [link] = await tx.insert(shareLinks).values({ accountId, swimmerId, analysisId, tokenHash, coachEmail: email, createdAt: now, expiresAt }).returning({ id: shareLinks.id })
    const url = sharedUrl(token)
    if (email) {
      const [account] = await tx.select({ name: users.name }).from(users).where(eq(users.id, accountId))
      const first = firstNameOf(swimmer.name)
      await enqueueEmail(
        letter({
          to: email,
          subject: `${first}'s swimming analysis results`,
          name: 'coach',
          paragraphs: [
            `${account?.name ?? 'A parent'} has shared ${first}'s ${analysisId === null ? 'swimming analysis results' : 'swimming analysis'} from the lab with you.`,
            `The link works until ${formatLabDate(expiresAt)}, unless they stop it sooner. Please keep it to yourself: anyone with the link can see the results.`,
          ],
          action: { label: 'See the results', url },
        }),
        { swimmerId },
        tx,
        now,
      )
    }
    return { id: link!.id, token, url, expiresAt }
  })
}

export type ShareLinkRow = { id: number; swimmerId: number; analysisId: number | null; coachEmail: string | null; createdAt: Date; expiresAt: Date; revokedAt: Date | null; lastOpenedAt: Date | null; state: 'active' | 'revoked' | 'expired' }

/** The account's links for a swimmer, newest first, with whether each still works. */
export async function shareLinksOf(accountId: number, swimmerId: number, now = new Date()): Promise<ShareLinkRow[]> {
  const rows = await db()
    .select({ id: shareLinks.id, swimmerId: shareLinks.swimmerId, analysisId: shareLinks.analysisId, coachEmail: shareLinks.coachEmail, createdAt: shareLinks.createdAt, expiresAt: shareLinks.expiresAt, revokedAt: shareLinks.revokedAt, lastOpenedAt: shareLinks.lastOpenedAt })
    .from(shareLinks)
    .where(and(eq(shareLinks.accountId, accountId), eq(shareLinks.swimmerId, swimmerId)))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id))
  return rows.map((row) => ({ ...row, state: row.revokedAt ? 'revoked' : row.expiresAt <= now ? 'expired' : 'active' }))
}

/** Stops one of the account's links at once; someone else's link, or none, is "not found". Revoking twice changes nothing. */
export async function revokeShareLink(accountId: number, linkId: number, now = new Date()) {
  const [link] = await db().select({ id: shareLinks.id, revokedAt: shareLinks.revokedAt }).from(shareLinks).where(and(eq(shareLinks.id, linkId), eq(shareLinks.accountId, accountId)))
  if (!link) throw new DomainError('not_found', 'No such link.')
  if (!link.revokedAt) await db().update(shareLinks).set({ revokedAt: now }).where(and(eq(shareLinks.id, linkId), isNull(shareLinks.revokedAt)))
}
