import { createHash, randomBytes } from 'node:crypto'
import { config } from '~/config.server'
import type { Executor } from '~/db/client.server'
import { consentRequests } from '~/db/schema'
import { addDays, formatLabDateTime } from '~/lib/lab-time'
import { PRODUCT_NAME } from '~/lib/seo'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'

/** A minor's data is kept this long while their parent has not answered; then it is erased. */
export const CONSENT_REQUEST_DAYS = 7

/** The consent link's token is random; only its SHA-256 is stored, so the table cannot be used to answer. */
export function consentTokenHash(token: string) {
  return createHash('sha256').update(token).digest('hex')
}

export function consentLink(token: string) {
  return `${config().SITE_URL}/consent/${token}`
}

/**
 * Asks the parent of a swimmer under 18 who registered alone for consent: a single-use link, valid
 * for CONSENT_REQUEST_DAYS, e-mailed in the caller's transaction.
 */
export async function requestParentConsent(
  executor: Executor,
  { swimmerId, swimmerName, parentEmail, now }: { swimmerId: number; swimmerName: string; parentEmail: string; now: Date },
) {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = addDays(now, CONSENT_REQUEST_DAYS)
  await executor.insert(consentRequests).values({ swimmerId, parentEmail: parentEmail.toLowerCase(), tokenHash: consentTokenHash(token), expiresAt, createdAt: now })
  await enqueueEmail(
    letter({
      to: parentEmail.toLowerCase(),
      subject: `${swimmerName} asks for your consent at ${PRODUCT_NAME}`,
      name: 'parent or guardian',
      paragraphs: [
        `${swimmerName} has created an account at ${PRODUCT_NAME}, the swimming analysis lab in Bangalore, and gave your e-mail address as their parent's or guardian's.`,
        `Because ${swimmerName} is under 18, the law asks us for your consent before we keep their details or book anything for them. Please read how we use a swimmer's data and tell us whether you agree.`,
        `If nobody answers by ${formatLabDateTime(expiresAt)}, we erase ${swimmerName}'s account and everything in it.`,
      ],
      action: { label: 'Read and answer', url: consentLink(token) },
      closing: 'If you do not know this swimmer, you can ignore this e-mail: the account will be erased.',
    }),
    executor,
    now,
  )
  return { token, expiresAt }
}
