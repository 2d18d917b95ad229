import { and, eq, isNotNull, lt, or, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { consentRequests, guardianConsents, oneTimeCodes, outboxMessages, swimmers, users } from '~/db/schema'
import { addDays } from '~/lib/lab-time'
import { logger } from '~/lib/logger.server'
import { pruneExpiredSessions } from '~/modules/accounts/sessions.server'
import { purgeUnconfirmedCityAlerts } from '~/modules/booking/city-alerts.server'
import { CONSENT_REQUEST_DAYS } from '~/modules/swimmers/consent-requests.server'
import { consentLapsedEmail } from './emails.server'
import { eraseAccount } from './erasure.server'

/** How long each kind of data is kept before the retention job removes it (see the privacy policy). */
export const RETENTION = {
  /** An account whose address was never verified. */
  unverifiedAccountDays: 7,
  /** A minor's account whose parent has not agreed (refused, or no answer within the request's 7 days). */
  unansweredConsentDays: CONSENT_REQUEST_DAYS,
  /** What a message said (an e-mail's text, HTML and attachments; a WhatsApp message's text and parameters), after it was sent (or given up on). */
  emailBodyDays: 90,
} as const

/** At most this many accounts are erased per run; the next run takes the rest. */
const ERASURES_PER_RUN = 50

/**
 * Accounts never verified within 7 days. The query only picks candidates: each erasure locks and
 * deletes the account's row in one transaction, so instances running this at once erase each
 * account once, and an account verified meanwhile is skipped by the check repeated under the lock.
 */
async function unverifiedAccounts(now: Date) {
  const cutoff = addDays(now, -RETENTION.unverifiedAccountDays)
  return db()
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isVerified, false), eq(users.isAdmin, false), lt(users.createdAt, cutoff)))
    .limit(ERASURES_PER_RUN)
}

/**
 * Accounts of minors who registered alone and whose parent refused, or did not answer before the
 * request expired: the request's swimmer is the account holder, and no consent is in force. Only
 * the newest request counts: one replaced by a link sent again is no answer, and a parent who
 * agreed to a later link and has withdrawn since leaves the account as it is.
 */
async function accountsWithoutConsent(now: Date) {
  const rows = await db()
    .select({ id: swimmers.accountId, status: consentRequests.status })
    .from(consentRequests)
    .innerJoin(swimmers, eq(swimmers.id, consentRequests.swimmerId))
    .where(
      and(
        eq(swimmers.isAccountHolder, true),
        or(eq(consentRequests.status, 'refused'), and(eq(consentRequests.status, 'waiting'), lt(consentRequests.expiresAt, now))),
        sql`NOT EXISTS (SELECT 1 FROM ${guardianConsents} WHERE ${guardianConsents.swimmerId} = ${swimmers.id} AND ${guardianConsents.withdrawnAt} IS NULL)`,
        sql`NOT EXISTS (SELECT 1 FROM ${consentRequests} later WHERE later.swimmer_id = ${swimmers.id} AND later.id > ${consentRequests.id})`,
      ),
    )
    .limit(ERASURES_PER_RUN)
  const accounts = new Map<number, boolean>()
  for (const row of rows) accounts.set(row.id, (accounts.get(row.id) ?? false) || row.status === 'refused')
  return [...accounts].map(([id, refused]) => ({ id, refused }))
}

/**
 * The retention job, run hourly by every instance: removes what is kept no longer than the privacy
 * policy says. Every step is an idempotent delete or update, or an erasure that locks its account,
 * so instances may run it side by side. Returns what it did, for the log and tests.
 */
export async function applyRetention(now = new Date()) {
  const done = { unverifiedAccounts: 0, minorsWithoutConsent: 0, codes: 0, emailBodies: 0, cityAlerts: 0 }

  for (const { id } of await unverifiedAccounts(now)) {
    const [still] = await db().select({ id: users.id }).from(users).where(and(eq(users.id, id), eq(users.isVerified, false)))
    if (!still) continue
    // The address never proved to be anyone's: nothing is e-mailed to it.
    if (await eraseAccount(id, { reason: 'The address was not verified within 7 days.', now })) done.unverifiedAccounts += 1
  }

  for (const { id, refused } of await accountsWithoutConsent(now)) {
    const erased = await eraseAccount(id, {
      reason: refused ? "The parent refused consent for a swimmer under 18." : "No parent's consent for a swimmer under 18 within 7 days.",
      now,
      farewell: ({ email, cancelled }) => consentLapsedEmail({ to: email, refused, cancelled }),
    })
    if (erased) done.minorsWithoutConsent += 1
  }

  const codes = await db().delete(oneTimeCodes).where(or(lt(oneTimeCodes.expiresAt, now), isNotNull(oneTimeCodes.usedAt))).returning({ id: oneTimeCodes.id })
  done.codes = codes.length
  await pruneExpiredSessions(now)
  done.cityAlerts = await purgeUnconfirmedCityAlerts(now)

  const cutoff = addDays(now, -RETENTION.emailBodyDays)
  const blanked = await db()
    .update(outboxMessages)
    .set({ text: '', html: null, attachments: [], templateParams: null, privateLink: null })
    .where(
      and(
        or(and(eq(outboxMessages.status, 'sent'), lt(outboxMessages.sentAt, cutoff)), and(eq(outboxMessages.status, 'failed'), lt(outboxMessages.createdAt, cutoff))),
        or(sql`${outboxMessages.text} <> ''`, isNotNull(outboxMessages.html), sql`${outboxMessages.attachments} <> '[]'::jsonb`, isNotNull(outboxMessages.templateParams)),
      ),
    )
    .returning({ id: outboxMessages.id })
  done.emailBodies = blanked.length
  if (done.unverifiedAccounts || done.minorsWithoutConsent) logger().info(done, 'retention: accounts erased')
  return done
}
