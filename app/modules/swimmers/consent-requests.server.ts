import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { config } from '~/config.server'
import { db, type Executor } from '~/db/client.server'
import { consentRequests, swimmers, users } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addDays, formatLabDateTime } from '~/lib/lab-time'
import { CONSENT_WITHDRAWAL_LINK, privateLinkUrl } from '~/lib/private-links.server'
import { PRODUCT_NAME } from '~/lib/seo'
import { consentRequestLimits, limitsFor } from '~/modules/accounts/limits.server'
import { recordAudit } from '~/modules/audit/audit.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { consentStatusOf, PRIVACY_NOTICE_VERSION, recordConsent } from './consent.server'
import { isMinor, type Swimmer } from './swimmers.server'

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
    { swimmerId },
    executor,
    now,
  )
  return { token, expiresAt }
}

/** A token as the site makes them: 32 random bytes in base64url. Anything else is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

/** Where a link stands for the parent who opens it. */
export type ConsentLinkState = 'open' | 'answered' | 'expired'

type LinkRequest = typeof consentRequests.$inferSelect

function linkStateOf(request: LinkRequest, now: Date): ConsentLinkState {
  if (request.status === 'agreed' || request.status === 'refused') return 'answered'
  // 'expired' without an answer: replaced by a newer link, or ran out.
  if (request.status === 'expired' || request.expiresAt <= now) return 'expired'
  return 'open'
}

/** The request a link's token opens, or null for a token the site never made (or one of a swimmer since erased). */
async function requestOfToken(executor: Executor, token: string, { lock }: { lock: boolean }) {
  if (!TOKEN_SHAPE.test(token)) return null
  const hash = consentTokenHash(token)
  const query = executor.select().from(consentRequests).where(eq(consentRequests.tokenHash, hash))
  const [request] = lock ? await query.for('update') : await query
  // The index found the row by its hash; comparing again in constant time costs nothing and leaves
  // no timing to learn from.
  if (!request || !timingSafeEqual(Buffer.from(request.tokenHash), Buffer.from(hash))) return null
  return request
}

async function swimmerAndAccount(executor: Executor, swimmerId: number) {
  const [row] = await executor
    .select({ swimmerName: swimmers.name, accountName: users.name, accountEmail: users.email })
    .from(swimmers)
    .innerJoin(users, eq(users.id, swimmers.accountId))
    .where(eq(swimmers.id, swimmerId))
  return row!
}

/** "Kiran" of "Kiran Rao": the page a link opens names the swimmer no more than needed. */
export function firstNameOf(name: string) {
  return name.trim().split(/\s+/)[0] ?? name
}

/** What the parent's page shows for the link: null for a link that does not exist (404). */
export async function consentLinkView(token: string, now = new Date()) {
  const request = await requestOfToken(db(), token, { lock: false })
  if (!request) return null
  const { swimmerName } = await swimmerAndAccount(db(), request.swimmerId)
  return { state: linkStateOf(request, now), swimmerFirstName: firstNameOf(swimmerName), expiresAt: request.expiresAt, status: request.status }
}

/**
 * The parent's answer through the link: agreeing records their consent (their address is proved by
 * the link it was sent to) and tells the swimmer they can book; refusing marks the request refused,
 * and the swimmer's account is then erased. A link answers once, and not after it expired or was
 * replaced: those return the state and change nothing. Null for a link that does not exist.
 */
export async function answerConsentLink(
  token: string,
  answer: { agree: true; guardianName: string } | { agree: false },
  now = new Date(),
): Promise<{ outcome: 'agreed' | 'refused' | 'already_answered' | 'expired'; swimmerFirstName: string } | null> {
  return db().transaction(async (tx) => {
    const request = await requestOfToken(tx, token, { lock: true })
    if (!request) return null
    const { swimmerName, accountName, accountEmail } = await swimmerAndAccount(tx, request.swimmerId)
    const swimmerFirstName = firstNameOf(swimmerName)
    const state = linkStateOf(request, now)
    if (state !== 'open') return { outcome: state === 'answered' ? ('already_answered' as const) : ('expired' as const), swimmerFirstName }
    const parent = { id: null, email: request.parentEmail }
    if (answer.agree) {
      const consentId = await recordConsent(tx, { swimmerId: request.swimmerId, guardianName: answer.guardianName, guardianEmail: request.parentEmail, emailVerifiedBy: 'consent_link', method: 'consent_link', now })
      await tx.update(consentRequests).set({ status: 'agreed', answeredAt: now }).where(eq(consentRequests.id, request.id))
      // The parent has no account: the e-mail confirming their consent is how they withdraw it.
      await enqueueEmail(
        letter({
          to: request.parentEmail,
          subject: `Your consent for ${swimmerFirstName} at ${PRODUCT_NAME}`,
          name: answer.guardianName,
          paragraphs: [
            `Thank you: your consent for ${swimmerFirstName} is recorded (${formatLabDateTime(now)}, privacy notice ${PRIVACY_NOTICE_VERSION}). ${swimmerFirstName} can now book sessions and camps with us.`,
            `You can withdraw your consent at any time through the link below. We will then book nothing more for ${swimmerFirstName} and cancel their sessions and camp places still to come under our refund policy. Please keep this e-mail.`,
          ],
          action: { label: 'Withdraw my consent', url: await privateLinkUrl(CONSENT_WITHDRAWAL_LINK, consentId, tx) },
        }),
        { swimmerId: request.swimmerId },
        tx,
        now,
      )
      await enqueueEmail(
        letter({
          to: accountEmail,
          subject: `Your parent has agreed: you can book at ${PRODUCT_NAME}`,
          name: accountName,
          paragraphs: [`Your parent or guardian has given their consent, so you can now book sessions and camps at ${PRODUCT_NAME}.`],
          action: { label: 'Book a session', url: `${config().SITE_URL}/book-slot` },
        }),
        { swimmerId: request.swimmerId },
        tx,
        now,
      )
    } else {
      await tx.update(consentRequests).set({ status: 'refused', answeredAt: now }).where(eq(consentRequests.id, request.id))
      await recordAudit(tx, parent, { action: 'consent.refuse', entityType: 'swimmer', entityId: request.swimmerId, summary: 'Parent refused consent for {swimmer}; the account is to be erased', personal: { swimmer: swimmerName }, about: { swimmerId: request.swimmerId }, after: { consentRequestId: request.id } }, now)
    }
    return { outcome: answer.agree ? ('agreed' as const) : ('refused' as const), swimmerFirstName }
  })
}

export class ConsentRequestNotNeededError extends DomainError {
  constructor() {
    super('conflict', 'This swimmer does not need a parent to agree: nothing was sent.')
  }
}

export class ConsentRefusedError extends DomainError {
  constructor() {
    super('conflict', 'Your parent or guardian has said no, so your account will be erased. Nothing was sent.')
  }
}

export class ParentEmailIsOwnError extends DomainError {
  constructor() {
    super('invalid', "Enter your parent's or guardian's own e-mail address, not yours", 'parentEmail')
  }
}

/**
 * A swimmer under 18 who holds the account asks their parent again, at the address they give now
 * (corrected, or the same): the earlier links stop working, the new one runs CONSENT_REQUEST_DAYS.
 * Limited per swimmer (one every few minutes, a handful a day), per parent's address and per
 * client address, so nobody's inbox can be flooded.
 */
export async function sendConsentRequestAgain({ account, swimmer, parentEmail, ip, now = new Date() }: { account: { id: number; email: string }; swimmer: Swimmer; parentEmail: string; ip: string; now?: Date }) {
  const address = parentEmail.trim().toLowerCase()
  if (address === account.email.toLowerCase()) throw new ParentEmailIsOwnError()
  if (!swimmer.isAccountHolder || !isMinor(swimmer, now)) throw new ConsentRequestNotNeededError()
  const status = await consentStatusOf(swimmer, now)
  if (status.state === 'given' || status.state === 'not_needed') throw new ConsentRequestNotNeededError()
  if (status.state === 'refused') throw new ConsentRefusedError()
  await enforce([...consentRequestLimits(swimmer.id, ip), ...limitsFor('codeSending', { ip, email: address })], now)
  return db().transaction(async (tx) => {
    await tx.update(consentRequests).set({ status: 'expired' }).where(and(eq(consentRequests.swimmerId, swimmer.id), eq(consentRequests.status, 'waiting')))
    return requestParentConsent(tx, { swimmerId: swimmer.id, swimmerName: swimmer.name, parentEmail: address, now })
  })
}
