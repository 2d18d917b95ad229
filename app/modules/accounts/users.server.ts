import { and, eq, isNull } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { users } from '~/db/schema'
import type { Executor } from '~/modules/mail/outbox.server'
import { hashPassword } from './passwords.server'
import type { RegistrationInput } from './schemas'

/** Addresses are compared case-insensitively: stored and looked up lower-cased. */
export function normalizeEmail(email: string) {
  return email.trim().toLowerCase()
}

export class EmailTakenError extends Error {
  constructor() {
    super('User with this email already exists')
    this.name = 'EmailTakenError'
  }
}

/** What the rest of the site may know about a signed-in person: never the password hash. */
export const publicUserColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  phone: users.phone,
  swimmingExperience: users.swimmingExperience,
  isAdmin: users.isAdmin,
  isVerified: users.isVerified,
}
export type PublicUser = { id: number; name: string; email: string; phone: string | null; swimmingExperience: string | null; isAdmin: boolean; isVerified: boolean }

/** The spec's rule: date of birth is 1 January of (current year − age), the year taken in Asia/Kolkata. */
export function dobFromAge(age: number, labToday: string) {
  const year = Number(labToday.slice(0, 4)) - age
  return `${String(year).padStart(4, '0')}-01-01`
}

export async function findUserByEmail(email: string, executor: Executor = db()) {
  const [row] = await executor
    .select({ ...publicUserColumns, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.email, normalizeEmail(email)), isNull(users.disabledAt)))
  return row ?? null
}

export async function getUserById(id: number): Promise<PublicUser | null> {
  const [row] = await db().select(publicUserColumns).from(users).where(eq(users.id, id))
  return row ?? null
}

/** Inserts an unverified customer; a taken address (in any letter case) throws EmailTakenError. */
export async function insertCustomer(input: RegistrationInput & { dob: string }, passwordHash: string, executor: Executor, now: Date) {
  const rows = await executor
    .insert(users)
    .values({
      name: input.name,
      email: normalizeEmail(input.email),
      passwordHash,
      phone: input.phone,
      dob: input.dob,
      gender: input.gender,
      swimmingExperience: input.swimmingExperience,
      currentLocation: input.currentLocation,
      academyName: input.academyName,
      coachName: input.coachName,
      specialization: input.specialization,
      otherSpecialization: input.otherSpecialization || null,
      participateInEvents: input.participateInEvents === 'yes',
      strokeBestTime: input.strokeBestTime || null,
      howDidYouKnow: input.howDidYouKnow,
      otherSource: input.otherSource || null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: users.email })
    .returning(publicUserColumns)
  const user = rows[0]
  if (!user) throw new EmailTakenError()
  return user
}

export type AdminAccount = { email: string; password: string; name?: string }

/**
 * Creates a verified admin account, or makes an existing account an admin. With `resetPassword`
 * (the command line) an existing account also gets the given password; at start-up
 * (ADMIN_EMAIL/ADMIN_PASSWORD) an existing password is left alone, so a changed one survives restarts.
 */
export async function ensureAdmin({ email, password, name }: AdminAccount, { resetPassword = false } = {}, now = new Date()) {
  const address = normalizeEmail(email)
  const existing = await findUserByEmailIncludingDisabled(address)
  if (!existing) {
    const [created] = await db()
      .insert(users)
      .values({ name: name ?? 'Admin', email: address, passwordHash: await hashPassword(password), isAdmin: true, isVerified: true, createdAt: now, updatedAt: now })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id })
    if (created) return { id: created.id, created: true }
  }
  await db()
    .update(users)
    .set({
      isAdmin: true,
      isVerified: true,
      disabledAt: null,
      updatedAt: now,
      ...(resetPassword ? { passwordHash: await hashPassword(password) } : {}),
      ...(name ? { name } : {}),
    })
    .where(eq(users.email, address))
  const again = await findUserByEmailIncludingDisabled(address)
  return { id: again!.id, created: false }
}

async function findUserByEmailIncludingDisabled(email: string) {
  const [row] = await db().select({ id: users.id }).from(users).where(eq(users.email, email))
  return row ?? null
}
