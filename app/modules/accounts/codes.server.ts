import { createHash, randomInt, timingSafeEqual } from 'node:crypto'
import { and, desc, eq, gt, isNull, lt } from 'drizzle-orm'
import { oneTimeCodes, type OneTimeCodePurpose } from '~/db/schema'
import { addMinutes } from '~/lib/lab-time'
import type { Executor } from '~/db/client.server'

export const CODE_TTL_MINUTES = 30
/** The fifth wrong entry invalidates the code; even the right code is refused after it. */
export const MAX_CODE_ATTEMPTS = 5

export type CodeCheck =
  | { status: 'ok' }
  | { status: 'wrong'; attemptsLeft: number }
  | { status: 'exhausted' }
  | { status: 'expired' }
  | { status: 'missing' }

/**
 * The one message a person sees for any refused code. Telling "wrong, 4 tries left" from "no such
 * code" would tell a stranger which addresses have an account (or a code waiting).
 */
export const CODE_REFUSED = `That code is not valid. Please check it, or request a new code (a code works for ${CODE_TTL_MINUTES} minutes and ${MAX_CODE_ATTEMPTS} tries).`

/**
 * Codes are stored as a hash bound to the user and purpose (and, for a number, to the number it was
 * sent to), never as the digits themselves.
 */
function hashCode(userId: number, purpose: OneTimeCodePurpose, code: string, phone: string | null = null) {
  return createHash('sha256').update(phone === null ? `${userId}:${purpose}:${code}` : `${userId}:${purpose}:${phone}:${code}`).digest('hex')
}

function sameHash(stored: string, given: string) {
  const expected = Buffer.from(stored, 'hex')
  const actual = Buffer.from(given, 'hex')
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

/** A uniformly random six-digit code, leading zeros kept. */
function generateCode() {
  return String(randomInt(0, 1_000_000)).padStart(6, '0')
}

/**
 * Issues a fresh code for `purpose`; any earlier code of the same purpose stops working. A code that
 * proves a phone number ('verify_phone') is kept with the number it is sent to, and proves only that one.
 */
export async function issueCode(executor: Executor, userId: number, purpose: OneTimeCodePurpose, now: Date, { phone = null }: { phone?: string | null } = {}) {
  const code = generateCode()
  const expiresAt = addMinutes(now, CODE_TTL_MINUTES)
  await executor.delete(oneTimeCodes).where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose)))
  await executor.insert(oneTimeCodes).values({ userId, purpose, phone, codeHash: hashCode(userId, purpose, code, phone), expiresAt, createdAt: now })
  return { code, expiresAt }
}

/**
 * Checks a code and, if it is right, uses it up. Runs inside the caller's transaction with the row
 * locked, so two simultaneous submissions cannot both use one code, and a wrong attempt is counted
 * even when the caller then does nothing else.
 */
export async function consumeCode(
  executor: Executor,
  userId: number,
  purpose: OneTimeCodePurpose,
  code: string,
  now: Date,
  { phone = null }: { phone?: string | null } = {},
): Promise<CodeCheck> {
  const [row] = await executor
    .select({ id: oneTimeCodes.id, codeHash: oneTimeCodes.codeHash, attempts: oneTimeCodes.attempts, expiresAt: oneTimeCodes.expiresAt })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), phone === null ? isNull(oneTimeCodes.phone) : eq(oneTimeCodes.phone, phone), isNull(oneTimeCodes.usedAt)))
    .orderBy(desc(oneTimeCodes.id))
    .limit(1)
    .for('update')
  if (!row) return { status: 'missing' }
  if (row.attempts >= MAX_CODE_ATTEMPTS) return { status: 'exhausted' }
  if (row.expiresAt.getTime() <= now.getTime()) return { status: 'expired' }

  if (sameHash(row.codeHash, hashCode(userId, purpose, code, phone))) {
    await executor.update(oneTimeCodes).set({ usedAt: now }).where(eq(oneTimeCodes.id, row.id))
    return { status: 'ok' }
  }
  const attempts = row.attempts + 1
  await executor.update(oneTimeCodes).set({ attempts }).where(eq(oneTimeCodes.id, row.id))
  return attempts >= MAX_CODE_ATTEMPTS ? { status: 'exhausted' } : { status: 'wrong', attemptsLeft: MAX_CODE_ATTEMPTS - attempts }
}

/**
 * A code sent to a number, replied from that number: uses up the code of whichever account it was
 * sent for (its owner may have been asked by more than one) and returns that account's id, or null.
 * A wrong reply counts as a wrong attempt on each of the number's codes in force.
 */
export async function consumeCodeSentTo(executor: Executor, phone: string, code: string, now: Date) {
  const waiting = await executor
    .select({ id: oneTimeCodes.id, userId: oneTimeCodes.userId, codeHash: oneTimeCodes.codeHash, attempts: oneTimeCodes.attempts })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.purpose, 'verify_phone'), eq(oneTimeCodes.phone, phone), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now), lt(oneTimeCodes.attempts, MAX_CODE_ATTEMPTS)))
    .orderBy(oneTimeCodes.id)
    .for('update')
  const right = waiting.find((row) => sameHash(row.codeHash, hashCode(row.userId, 'verify_phone', code, phone)))
  if (right) {
    await executor.update(oneTimeCodes).set({ usedAt: now }).where(eq(oneTimeCodes.id, right.id))
    return right.userId
  }
  for (const row of waiting) await executor.update(oneTimeCodes).set({ attempts: row.attempts + 1 }).where(eq(oneTimeCodes.id, row.id))
  return null
}
