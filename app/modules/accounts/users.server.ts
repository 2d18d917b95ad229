import { and, eq, isNull } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { sessions, users } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { assertAcceptablePassword } from './password-policy.server'
import { hashPassword, verifyPassword } from './passwords.server'
import type { RegistrationInput } from './schemas'

/** Addresses are compared case-insensitively: stored and looked up lower-cased. */
export function normalizeEmail(email: string) {
  return email.trim().toLowerCase()
}

export class EmailTakenError extends DomainError {
  constructor() {
    super('conflict', 'User with this email already exists', 'email')
  }
}

/** What the rest of the site may know about a signed-in person: never the password hash. */
export const publicUserColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  phone: users.phone,
  isAdmin: users.isAdmin,
  isVerified: users.isVerified,
}
export type PublicUser = { id: number; name: string; email: string; phone: string | null; isAdmin: boolean; isVerified: boolean }

export async function findUserByEmail(email: string, executor: Executor = db()) {
  const [row] = await executor
    .select({ ...publicUserColumns, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.email, normalizeEmail(email)), isNull(users.disabledAt)))
  return row ?? null
}

/** Inserts an unverified account; a taken address (in any letter case) throws EmailTakenError. */
export async function insertCustomer(
  input: Pick<RegistrationInput, 'name' | 'email' | 'phone' | 'currentLocation'>,
  passwordHash: string,
  executor: Executor,
  now: Date,
) {
  const rows = await executor
    .insert(users)
    .values({
      name: input.name,
      email: normalizeEmail(input.email),
      passwordHash,
      phone: input.phone,
      currentLocation: input.currentLocation,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: users.email })
    .returning(publicUserColumns)
  const user = rows[0]
  if (!user) throw new EmailTakenError()
  return user
}

type AdminAccount = { email: string; password: string; name?: string }

/** Start-up refused to make an existing account the admin of ADMIN_EMAIL; the message says what to do. */
export class AdminNotPromotedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AdminNotPromotedError'
  }
}

/**
 * The admin of ADMIN_EMAIL/ADMIN_PASSWORD, at start-up. A new address becomes a verified admin.
 * An existing account is made an admin only when its password is ADMIN_PASSWORD: anyone may have
 * registered the address before the operator set it, and only the operator knows that password.
 * Nothing else of an existing account changes: a password changed since stays, and a disabled
 * account stays disabled (`disabled` tells the caller to say so). Throws AdminNotPromotedError
 * (or WeakPasswordError for a password no staff account may have).
 */
export async function ensureAdmin({ email, password, name }: AdminAccount, now = new Date()) {
  assertAcceptablePassword(password, { staff: true })
  const address = normalizeEmail(email)
  const created = await insertAdmin({ email: address, passwordHash: await hashPassword(password), name }, now)
  if (created) return { id: created.id, created: true, disabled: false }

  const [existing] = await db()
    .select({ id: users.id, isAdmin: users.isAdmin, disabledAt: users.disabledAt, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, address))
  if (!existing) throw new Error(`The account ${address} vanished while it was being made an admin`)
  if (existing.isAdmin) return { id: existing.id, created: false, disabled: existing.disabledAt !== null }
  if (!(await verifyPassword(existing.passwordHash, password))) {
    throw new AdminNotPromotedError(
      `${address} (ADMIN_EMAIL) already has a customer account whose password is not ADMIN_PASSWORD, so it was NOT made an admin: someone may have registered the address before it was set. ` +
        'If the account is yours, sign in with its password and set ADMIN_PASSWORD to it, or run `npm run admin:create -- --email <address> --password <new password> --existing`, which replaces its password and signs it out everywhere; otherwise choose another ADMIN_EMAIL.',
    )
  }
  if (existing.disabledAt) {
    throw new AdminNotPromotedError(
      `${address} (ADMIN_EMAIL) is a disabled account, so it was NOT made an admin. Re-enable it in the admin console (or run ` +
        '`npm run admin:create -- --email <address> --password <new password> --existing`), or choose another ADMIN_EMAIL.',
    )
  }
  await db().update(users).set({ isAdmin: true, isVerified: true, updatedAt: now }).where(eq(users.id, existing.id))
  return { id: existing.id, created: false, disabled: false }
}

/**
 * `npm run admin:create`: the operator, at the database, names the address and the password. A new
 * address becomes a verified admin. An existing account is taken over only with `existing`: it gets
 * this password, becomes a verified, enabled admin, and is signed out everywhere, so whoever knew
 * its old password (a customer, or someone who registered the address first) is locked out.
 */
export async function createAdmin({ email, password, name }: AdminAccount, { existing = false } = {}, now = new Date()) {
  assertAcceptablePassword(password, { staff: true })
  const address = normalizeEmail(email)
  const passwordHash = await hashPassword(password)
  const created = await insertAdmin({ email: address, passwordHash, name }, now)
  if (created) return { status: 'created' as const, id: created.id }
  if (!existing) return { status: 'exists' as const }
  return db().transaction(async (tx) => {
    const [account] = await tx
      .update(users)
      .set({ isAdmin: true, isVerified: true, disabledAt: null, passwordHash, updatedAt: now, ...(name ? { name } : {}) })
      .where(eq(users.email, address))
      .returning({ id: users.id })
    if (!account) throw new Error(`The account ${address} vanished while it was being made an admin`)
    await tx.delete(sessions).where(eq(sessions.userId, account.id))
    return { status: 'taken-over' as const, id: account.id }
  })
}

/** A new verified admin, or null when the address is taken. */
async function insertAdmin({ email, passwordHash, name }: { email: string; passwordHash: string; name?: string }, now: Date) {
  const [created] = await db()
    .insert(users)
    .values({ name: name ?? 'Admin', email, passwordHash, isAdmin: true, isVerified: true, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id })
  return created ?? null
}

/** Where the account holder lives, as they gave it (My Bookings' account information). */
export async function currentLocationOf(userId: number) {
  const [row] = await db().select({ currentLocation: users.currentLocation }).from(users).where(eq(users.id, userId))
  return row?.currentLocation ?? null
}
