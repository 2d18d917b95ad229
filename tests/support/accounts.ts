import { desc, eq } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { outboxMessages, users } from '~/db/schema'
import { registerCustomer, verifyEmail } from '~/modules/accounts/registration.server'
import { registrationSchema, type RegistrationInput } from '~/modules/accounts/schemas'
import { swimmerSchema, type SwimmerInput } from '~/modules/swimmers/schemas'
import { labToday } from '~/lib/lab-time'

/** A valid registration form, as the schema returns it. */
export function registrationInput(overrides: Partial<Record<string, string>> = {}): RegistrationInput {
  return registrationSchema(labToday()).parse({
    whoSwims: 'myself',
    name: 'Asha Rao',
    email: 'asha@example.com',
    password: 'butterfly-2027',
    phone: '+91 98450 12345',
    age: '26',
    currentLocation: 'Bengaluru',
    gender: 'female',
    swimmingExperience: 'advanced',
    academyName: 'Basavanagudi Aquatic Centre',
    coachName: 'NA',
    specialization: 'butterfly',
    participateInEvents: 'yes',
    strokeBestTime: '01:02.45',
    howDidYouKnow: 'friends_referrals',
    ...overrides,
  })
}

/** A valid form adding a swimmer to an account (a child of 12 unless told otherwise), as the schema returns it. */
export function swimmerInput(overrides: Partial<Record<string, string>> = {}): SwimmerInput {
  return swimmerSchema(labToday()).parse({
    name: 'Kavya Rao',
    age: '12',
    gender: 'female',
    swimmingExperience: 'intermediate',
    academyName: 'NA',
    coachName: 'NA',
    specialization: 'freestyle',
    participateInEvents: 'no',
    howDidYouKnow: 'friends_referrals',
    guardianDeclaration: 'on',
    ...overrides,
  })
}

/** The six-digit code in the newest e-mail to `to` (from the outbox, which is the local mailbox). */
export async function latestCodeSentTo(to: string) {
  const [mail] = await db()
    .select({ text: outboxMessages.text, subject: outboxMessages.subject })
    .from(outboxMessages)
    .where(eq(outboxMessages.to, to.toLowerCase()))
    .orderBy(desc(outboxMessages.id))
    .limit(1)
  const code = mail ? /^\s+(\d{6})$/m.exec(mail.text)?.[1] : undefined
  if (!code || !mail) throw new Error(`No code has been e-mailed to ${to}`)
  return { code, subject: mail.subject, text: mail.text }
}

export async function mailCount(to: string) {
  const rows = await db().select({ id: outboxMessages.id }).from(outboxMessages).where(eq(outboxMessages.to, to.toLowerCase()))
  return rows.length
}

/** Registers and verifies a customer, as the verify page would in the browser that registered. */
export async function createVerifiedCustomer(overrides: Partial<Record<string, string>> = {}, ip = '203.0.113.10') {
  const input = registrationInput(overrides)
  const registered = await registerCustomer(input, { ip })
  const { code } = await latestCodeSentTo(input.email)
  const result = await verifyEmail({ email: input.email, code, ip, pendingAccountId: registered.id })
  if (!result.ok || !result.session) throw new Error('verification failed')
  return { ...result, session: result.session, password: input.password }
}

export async function userRow(email: string) {
  const [row] = await db().select().from(users).where(eq(users.email, email.toLowerCase()))
  return row
}

/** A code that is certainly not `code`. */
export function wrongCode(code: string) {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0')
}
