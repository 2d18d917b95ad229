import { and, count, desc, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { consentRecordsOf } from '~/modules/swimmers/consent.server'
import { swimmersOf } from '~/modules/swimmers/swimmers.server'
import { accountCampRegistrations } from '~/modules/camps/account-registrations.server'
import { sessions, swimmers, users } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { customerBookings } from '~/modules/booking/bookings.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { limitsFor } from '~/modules/rate-limit/limits.server'
import { sendVerificationCode } from './registration.server'
import { revokeAllSessions } from './sessions.server'

// What staff see of customers and may do to their accounts. Staff accounts are not customers:
// they are neither listed here nor disabled from here.

export class CustomerNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'There is no such customer')
  }
}

export class CannotDisableStaffError extends DomainError {
  constructor(yourself: boolean) {
    super('conflict', yourself ? 'You cannot disable your own account.' : 'Staff accounts cannot be disabled here.')
  }
}

export class AlreadyVerifiedError extends DomainError {
  constructor() {
    super('conflict', 'This address is already verified; the customer can sign in.')
  }
}

export class AccountDisabledError extends DomainError {
  constructor() {
    super('conflict', 'This account is disabled. Re-enable it first.')
  }
}

const summaryColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  phone: users.phone,
  isVerified: users.isVerified,
  disabledAt: users.disabledAt,
  createdAt: users.createdAt,
}

/** LIKE treats % and _ as wildcards; a search for "a_b" means those characters. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`

/**
 * Customers whose name, e-mail or phone, or one of whose swimmers' names, contains `query`, in any letter case; a phone number
 * matches however it was spaced ("98450 12345" finds "+919845012345"). Newest first; without a
 * query, the newest customers.
 */
export async function searchCustomers(query: string, limit = 50) {
  const term = query.trim()
  const conditions: Array<SQL | undefined> = [eq(users.isAdmin, false)]
  if (term) {
    const like = containing(term)
    const digits = term.replace(/\D/g, '')
    conditions.push(
      or(
        ilike(users.name, like),
        ilike(users.email, like),
        ilike(users.phone, like),
        sql`EXISTS (SELECT 1 FROM ${swimmers} WHERE ${swimmers.accountId} = ${users.id} AND ${swimmers.name} ILIKE ${like})`,
        digits.length >= 4 ? sql`regexp_replace(coalesce(${users.phone}, ''), '\\D', '', 'g') LIKE ${containing(digits)}` : undefined,
      ),
    )
  }
  return db()
    .select(summaryColumns)
    .from(users)
    .where(and(...conditions))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit)
}

/** Everything staff need about one customer: the profile, their bookings and their camp registrations. */
export async function customerDetails(userId: number, now = new Date()) {
  const [customer] = await db()
    .select({
      ...summaryColumns,
      currentLocation: users.currentLocation,
    })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.isAdmin, false)))
  if (!customer) return null
  const [swimmers, bookings, registrations, [signedIn]] = await Promise.all([
    swimmersOf(customer.id),
    customerBookings(customer.id, customer.email),
    accountCampRegistrations(customer.id, customer.email),
    db()
      .select({ count: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, customer.id), gt(sessions.expiresAt, now))),
  ])
  const consents = await consentRecordsOf(swimmers.map((swimmer) => swimmer.id))
  return { customer: { ...customer, sessionCount: signedIn?.count ?? 0 }, swimmers: swimmers.map((swimmer) => ({ ...swimmer, ...consents.get(swimmer.id)! })), bookings, registrations }
}

type StaffRequest = { actor: Actor; userId: number; now?: Date }

/**
 * E-mails a customer who has not verified their address a new code (the old one stops working).
 * The same limits apply as when customers ask themselves (per address and per caller's IP), so
 * nobody's inbox can be flooded; past them this throws RateLimitedError.
 */
export async function resendVerification({ actor, userId, ip, now = new Date() }: StaffRequest & { ip: string }) {
  const [target] = await db().select({ email: users.email }).from(users).where(eq(users.id, userId))
  if (!target) throw new CustomerNotFoundError()
  await enforce(limitsFor('codeSending', { ip, email: target.email }), now)
  await db().transaction(async (tx) => {
    const customer = await lockedAccount(tx, userId)
    if (customer.isAdmin) throw new CustomerNotFoundError()
    if (customer.disabledAt) throw new AccountDisabledError()
    if (customer.isVerified) throw new AlreadyVerifiedError()
    await sendVerificationCode(tx, customer, now)
    await recordAudit(
      tx,
      actor,
      {
        action: 'customer.resend-verification',
        entityType: 'customer',
        entityId: userId,
        summary: 'E-mailed a new verification code to {email}',
        personal: { email: customer.email },
        about: { accountId: userId },
        before: { isVerified: false },
        after: { verificationCodeSent: true },
      },
      now,
    )
  })
}

async function lockedAccount(tx: Executor, userId: number) {
  const [account] = await tx
    .select({ id: users.id, name: users.name, email: users.email, isAdmin: users.isAdmin, isVerified: users.isVerified, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update')
  if (!account) throw new CustomerNotFoundError()
  return account
}

/**
 * Disables a customer's account: they are signed out everywhere at once and cannot sign in again
 * until it is re-enabled. Staff accounts (yours included) are refused. Returns false when the
 * account was already disabled.
 */
export async function disableCustomer({ actor, userId, now = new Date() }: StaffRequest) {
  if (userId === actor.id) throw new CannotDisableStaffError(true)
  return db().transaction(async (tx) => {
    const customer = await lockedAccount(tx, userId)
    if (customer.isAdmin) throw new CannotDisableStaffError(false)
    if (customer.disabledAt) return false
    const [signedIn] = await tx
      .select({ count: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    await tx.update(users).set({ disabledAt: now, updatedAt: now }).where(eq(users.id, userId))
    await revokeAllSessions(userId, tx)
    await recordAudit(
      tx,
      actor,
      {
        action: 'customer.disable',
        entityType: 'customer',
        entityId: userId,
        summary: 'Disabled the account of {customer} ({email}) and signed them out everywhere',
        personal: { customer: customer.name, email: customer.email },
        about: { accountId: userId },
        before: { disabledAt: null, signedInSessions: signedIn?.count ?? 0 },
        after: { disabledAt: now.toISOString(), signedInSessions: 0 },
      },
      now,
    )
    return true
  })
}

/** Lets a disabled customer sign in again. Returns false when the account was not disabled. */
export async function enableCustomer({ actor, userId, now = new Date() }: StaffRequest) {
  return db().transaction(async (tx) => {
    const customer = await lockedAccount(tx, userId)
    if (customer.isAdmin) throw new CustomerNotFoundError()
    if (!customer.disabledAt) return false
    await tx.update(users).set({ disabledAt: null, updatedAt: now }).where(eq(users.id, userId))
    await recordAudit(
      tx,
      actor,
      {
        action: 'customer.enable',
        entityType: 'customer',
        entityId: userId,
        summary: 'Re-enabled the account of {customer} ({email})',
        personal: { customer: customer.name, email: customer.email },
        about: { accountId: userId },
        before: { disabledAt: customer.disabledAt.toISOString() },
        after: { disabledAt: null },
      },
      now,
    )
    return true
  })
}
