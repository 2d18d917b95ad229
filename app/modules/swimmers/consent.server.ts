import { and, desc, eq, isNull } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { guardianConsents, type ConsentMethod } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { recordAudit } from '~/modules/audit/audit.server'
import { isMinor, type Swimmer } from './swimmers.server'

/**
 * The version of the privacy notice a parent is shown when they consent, kept with each consent:
 * change it whenever the privacy policy's text on children's data changes.
 */
export const PRIVACY_NOTICE_VERSION = '2026-11-26'

type ConsentGiven = {
  swimmerId?: number | null
  campRegistrationId?: number | null
  guardianName: string
  guardianEmail: string
  emailVerifiedBy: 'account_code' | 'consent_link' | 'unverified'
  method: ConsentMethod
  now: Date
}

/** Records a parent's consent, and that it was given in the audit log, in the caller's transaction. */
export async function recordConsent(executor: Executor, consent: ConsentGiven) {
  const [row] = await executor
    .insert(guardianConsents)
    .values({
      swimmerId: consent.swimmerId ?? null,
      campRegistrationId: consent.campRegistrationId ?? null,
      guardianName: consent.guardianName,
      guardianEmail: consent.guardianEmail.toLowerCase(),
      emailVerifiedBy: consent.emailVerifiedBy,
      noticeVersion: PRIVACY_NOTICE_VERSION,
      method: consent.method,
      givenAt: consent.now,
    })
    .returning({ id: guardianConsents.id })
  const subject = consent.swimmerId ? { entityType: 'swimmer', entityId: consent.swimmerId } : { entityType: 'camp_registration', entityId: consent.campRegistrationId! }
  await recordAudit(
    executor,
    { id: null, email: consent.guardianEmail.toLowerCase() },
    { action: 'consent.give', ...subject, summary: `Parent's consent given (${consent.method.replace('_', ' ')}, privacy notice ${PRIVACY_NOTICE_VERSION})`, after: { consentId: row!.id } },
    consent.now,
  )
  return row!.id
}

/** The swimmer's consent in force (given and not withdrawn), if any. */
export async function consentInForce(swimmerId: number, executor: Executor = db()) {
  const [consent] = await executor
    .select()
    .from(guardianConsents)
    .where(and(eq(guardianConsents.swimmerId, swimmerId), isNull(guardianConsents.withdrawnAt)))
    .orderBy(desc(guardianConsents.id))
    .limit(1)
  return consent ?? null
}

export const CONSENT_NEEDED_MESSAGE = "A swimmer under 18 can be booked only with a parent's or guardian's consent. Please ask your parent to agree through the link we e-mailed them."

/** A swimmer under 18 without a parent's consent in force is not booked or registered. */
export class ConsentNeededError extends DomainError {
  constructor(field?: string) {
    super('conflict', CONSENT_NEEDED_MESSAGE, field)
  }
}

/** Whether the swimmer may be booked or registered now: an adult, or a minor with a parent's consent in force. */
export async function mayBeBooked(swimmer: Pick<Swimmer, 'id' | 'birthDate' | 'ageYears' | 'ageGivenOn'>, now = new Date(), executor: Executor = db()) {
  if (!isMinor(swimmer, now)) return true
  return (await consentInForce(swimmer.id, executor)) !== null
}

export async function assertMayBeBooked(swimmer: Pick<Swimmer, 'id' | 'birthDate' | 'ageYears' | 'ageGivenOn'>, now = new Date(), executor: Executor = db(), field?: string) {
  if (!(await mayBeBooked(swimmer, now, executor))) throw new ConsentNeededError(field)
}
