import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, eq, inArray, ne } from 'drizzle-orm'
import { config } from '~/config.server'
import { db, type Executor } from '~/db/client.server'
import { consentRequests, swimmers, users, type WeakConsentReason } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addDays, formatLabDateTime, labToday } from '~/lib/lab-time'
import { CONSENT_WITHDRAWAL_LINK, privateLinkUrl } from '~/lib/private-links.server'
import { firstNameOf } from '~/lib/person-name'
import { PRODUCT_NAME } from '~/lib/seo'
import { consentRequestLimits, limitsFor } from '~/modules/rate-limit/limits.server'
import { recordAudit } from '~/modules/audit/audit.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { consentStatusOf, onlyAddressToAsk, PRIVACY_NOTICE_VERSION, recordConsent } from './consent.server'
import { isMinor, type Swimmer } from './swimmers.server'
import { parentConsentLink } from '~/lib/links'
import { href } from 'react-router'

/** A minor's data is kept this long while their parent has not answered; then it is erased. */
export const CONSENT_REQUEST_DAYS = 7

/** The consent link's token is random; only its SHA-256 is stored, so the table cannot be used to answer. */
export function consentTokenHash(token: string) {
  return createHash('sha256').update(token).digest('hex')
}

export function consentLink(token: string) {
  return `${config().SITE_URL}${parentConsentLink(token)}`
}

/**
 * Keeps, for a swimmer under 18 registering alone, the parent's address they named, without asking
 * anyone yet: the address of whoever registers is not proved to be theirs until it is verified, and
 * the site e-mails nobody on behalf of an address nobody has proved. sendHeldConsentRequests asks
 * the parent once the browser that registered verifies it; otherwise the owner sends the link from
 * their consent page (sendConsentRequestAgain).
 */
export async function holdParentConsentRequest(executor: Executor, { swimmerId, parentEmail, now }: { swimmerId: number; parentEmail: string; now: Date }) {
  await executor.insert(consentRequests).values({ swimmerId, parentEmail: parentEmail.toLowerCase(), status: 'unsent', tokenHash: null, expiresAt: addDays(now, CONSENT_REQUEST_DAYS), createdAt: now })
}

/** The account's address is verified: each parent its swimmers named is asked now, with a link valid from now. */
export async function sendHeldConsentRequests(executor: Executor, accountId: number, now: Date) {
  const held = await executor
    .delete(consentRequests)
    .where(and(eq(consentRequests.status, 'unsent'), inArray(consentRequests.swimmerId, executor.select({ id: swimmers.id }).from(swimmers).where(eq(swimmers.accountId, accountId)))))
    .returning({ swimmerId: consentRequests.swimmerId, parentEmail: consentRequests.parentEmail })
  for (const request of held) {
    const [swimmer] = await executor.select({ name: swimmers.name }).from(swimmers).where(eq(swimmers.id, request.swimmerId))
    await requestParentConsent(executor, { swimmerId: request.swimmerId, swimmerName: swimmer!.name, parentEmail: request.parentEmail, now })
  }
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
  if (!request?.tokenHash || !timingSafeEqual(Buffer.from(request.tokenHash), Buffer.from(hash))) return null
  return request
}

async function swimmerAndAccount(executor: Executor, swimmerId: number) {
  const [row] = await executor
    .select({ swimmerName: swimmers.name, accountId: users.id, accountName: users.name, accountEmail: users.email, accountCreatedAt: users.createdAt })
    .from(swimmers)
    .innerJoin(users, eq(users.id, swimmers.accountId))
    .where(eq(swimmers.id, swimmerId))
  return row!
}

/**
 * Why the address that answers a swimmer's consent link may be the swimmer's own, or null: an
 * account with that address was registered the same day (Bangalore) as the swimmer's, or the
 * address has answered for swimmers of other accounts. A real parent can be either; staff then
 * confirm the consent before anything is booked.
 */
async function weaknessOf(executor: Executor, parentEmail: string, account: { accountId: number; accountCreatedAt: Date }): Promise<WeakConsentReason | null> {
  const sameAddress = await executor.select({ createdAt: users.createdAt }).from(users).where(and(eq(users.email, parentEmail), ne(users.id, account.accountId)))
  if (sameAddress.some((other) => labToday(other.createdAt) === labToday(account.accountCreatedAt))) return 'same_day_account'
  const [forOthers] = await executor
    .select({ id: consentRequests.id })
    .from(consentRequests)
    .innerJoin(swimmers, eq(swimmers.id, consentRequests.swimmerId))
    .where(and(eq(consentRequests.parentEmail, parentEmail), inArray(consentRequests.status, ['agreed', 'refused']), ne(swimmers.accountId, account.accountId)))
    .limit(1)
  return forOthers ? 'answers_for_others' : null
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
    const { swimmerName, accountName, accountEmail, ...account } = await swimmerAndAccount(tx, request.swimmerId)
    const swimmerFirstName = firstNameOf(swimmerName)
    const state = linkStateOf(request, now)
    if (state !== 'open') return { outcome: state === 'answered' ? ('already_answered' as const) : ('expired' as const), swimmerFirstName }
    const parent = { id: null, email: request.parentEmail }
    if (answer.agree) {
      const weakBecause = await weaknessOf(tx, request.parentEmail, account)
      const consentId = await recordConsent(tx, { swimmerId: request.swimmerId, guardianName: answer.guardianName, guardianEmail: request.parentEmail, emailVerifiedBy: 'consent_link', method: 'consent_link', weakBecause, now })
      const canBook = weakBecause ? `${swimmerFirstName} can book sessions and camps with us once the lab has checked it.` : `${swimmerFirstName} can now book sessions and camps with us.`
      await tx.update(consentRequests).set({ status: 'agreed', answeredAt: now }).where(eq(consentRequests.id, request.id))
      // The parent has no account: the e-mail confirming their consent is how they withdraw it.
      await enqueueEmail(
        letter({
          to: request.parentEmail,
          subject: `Your consent for ${swimmerFirstName} at ${PRODUCT_NAME}`,
          name: answer.guardianName,
          paragraphs: [
            `Thank you: your consent for ${swimmerFirstName} is recorded (${formatLabDateTime(now)}, privacy notice ${PRIVACY_NOTICE_VERSION}). ${canBook}`,
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
          subject: weakBecause ? `Your parent has agreed at ${PRODUCT_NAME}` : `Your parent has agreed: you can book at ${PRODUCT_NAME}`,
          name: accountName,
          paragraphs: [
            weakBecause
              ? 'Your parent or guardian has given their consent. The lab checks it before anything is booked; we will e-mail you once you can book.'
              : `Your parent or guardian has given their consent, so you can now book sessions and camps at ${PRODUCT_NAME}.`,
          ],
          action: { label: 'Book a session', url: `${config().SITE_URL}${href('/book-slot')}` },
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

/** After a withdrawal, the swimmer named an address other than the one that withdrew. */
export class OnlyWithdrawingParentError extends DomainError {
  constructor(address: string) {
    super('conflict', `Your parent or guardian at ${address} withdrew their consent, so a new link can go only to that address. If it is no longer right, please write to us.`, 'parentEmail')
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
 * After a parent withdrew, only the address that withdrew may be asked (OnlyWithdrawingParentError),
 * until staff re-open asking another: a swimmer cannot send the request to an address of their own
 * and agree. Limited per swimmer (one every few minutes, a handful a day), per parent's address and
 * per client address, so nobody's inbox can be flooded.
 */
export async function sendConsentRequestAgain({ account, swimmer, parentEmail, ip, now = new Date() }: { account: { id: number; email: string }; swimmer: Swimmer; parentEmail: string; ip: string; now?: Date }) {
  const address = parentEmail.trim().toLowerCase()
  if (address === account.email.toLowerCase()) throw new ParentEmailIsOwnError()
  if (!swimmer.isAccountHolder || !isMinor(swimmer, now)) throw new ConsentRequestNotNeededError()
  const status = await consentStatusOf(swimmer, now)
  if (status.state === 'given' || status.state === 'checking' || status.state === 'not_needed') throw new ConsentRequestNotNeededError()
  if (status.state === 'refused') throw new ConsentRefusedError()
  const onlyAddress = await onlyAddressToAsk(swimmer.id)
  if (onlyAddress && onlyAddress !== address) throw new OnlyWithdrawingParentError(onlyAddress)
  await enforce([...consentRequestLimits(swimmer.id, ip), ...limitsFor('codeSending', { ip, email: address })], now)
  return db().transaction(async (tx) => {
    await tx.update(consentRequests).set({ status: 'expired' }).where(and(eq(consentRequests.swimmerId, swimmer.id), eq(consentRequests.status, 'waiting')))
    await tx.delete(consentRequests).where(and(eq(consentRequests.swimmerId, swimmer.id), eq(consentRequests.status, 'unsent')))
    return requestParentConsent(tx, { swimmerId: swimmer.id, swimmerName: swimmer.name, parentEmail: address, now })
  })
}
