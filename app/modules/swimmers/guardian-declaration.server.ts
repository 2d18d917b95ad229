import { and, eq, inArray } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { consentRequests, swimmers } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { isMinor } from './swimmers.server'

export const NO_GUARDIAN_DECLARATION_MESSAGE =
  "Your account is of a swimmer under 18, so it cannot declare to be anyone's parent or guardian. Please book as one of your account's swimmers: that needs your parent's consent."

/** A signed-in account of a swimmer under 18 (or one waiting for a parent's consent) made a guest form's declaration. */
export class GuardianDeclarationRefusedError extends DomainError {
  constructor() {
    super('conflict', NO_GUARDIAN_DECLARATION_MESSAGE, 'guardianDeclaration')
  }
}

/**
 * Whether a signed-in account may book or register through a guest form's declaration ("I am the
 * swimmer's parent or guardian"). An account whose holder is under 18, or that waits for a parent's
 * consent, may not: the site knows its holder is a minor, so they book only through their account's
 * swimmers, checked like any booking (assertMayBeBooked).
 */
export async function assertMayDeclareAsGuardian(accountId: number, now = new Date(), executor: Executor = db()) {
  const own = await executor
    .select({ id: swimmers.id, isAccountHolder: swimmers.isAccountHolder, birthDate: swimmers.birthDate, ageYears: swimmers.ageYears, ageGivenOn: swimmers.ageGivenOn })
    .from(swimmers)
    .where(eq(swimmers.accountId, accountId))
  const holder = own.find((swimmer) => swimmer.isAccountHolder)
  if (holder && isMinor(holder, now)) throw new GuardianDeclarationRefusedError()
  if (own.length === 0) return
  const [waiting] = await executor
    .select({ id: consentRequests.id })
    .from(consentRequests)
    .where(
      and(
        inArray(
          consentRequests.swimmerId,
          own.map((swimmer) => swimmer.id),
        ),
        eq(consentRequests.status, 'waiting'),
      ),
    )
    .limit(1)
  if (waiting) throw new GuardianDeclarationRefusedError()
}
