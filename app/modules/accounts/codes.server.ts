import { createHash, randomInt, timingSafeEqual } from 'node:crypto'
import { and, desc, eq, isNull } from 'drizzle-orm'
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

/** Codes are stored as a hash bound to the user and purpose, never as the digits themselves. */
function hashCode(userId: number, purpose: OneTimeCodePurpose, code: string) {
  return createHash('sha256').update(`${userId}:${purpose}:${code}`).digest('hex')
}

/** A uniformly random six-digit code, leading zeros kept. */
function generateCode() {
  return String(randomInt(0, 1_000_000)).padStart(6, '0')
}

/** Issues a fresh code for `purpose`; any earlier code of the same purpose stops working. */
export async function issueCode(executor: Executor, userId: number, purpose: OneTimeCodePurpose, now: Date) {
  const code = generateCode()
  const expiresAt = addMinutes(now, CODE_TTL_MINUTES)
  await executor.delete(oneTimeCodes).where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose)))
  await executor.insert(oneTimeCodes).values({ userId, purpose, codeHash: hashCode(userId, purpose, code), expiresAt, createdAt: now })
  return { code, expiresAt }
}

/**
 * Checks a code and, if it is right, uses it up. Runs inside the caller's transaction with the row
 * locked, so two simultaneous submissions cannot both use one code, and a wrong attempt is counted
 * even when the caller then does nothing else.
 */
export async function consumeCode(executor: Executor, userId: number, purpose: OneTimeCodePurpose, code: string, now: Date): Promise<CodeCheck> {
  const [row] = await executor
    .select({ id: oneTimeCodes.id, codeHash: oneTimeCodes.codeHash, attempts: oneTimeCodes.attempts, expiresAt: oneTimeCodes.expiresAt })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.usedAt)))
    .orderBy(desc(oneTimeCodes.id))
    .limit(1)
    .for('update')
  if (!row) return { status: 'missing' }
  if (row.attempts >= MAX_CODE_ATTEMPTS) return { status: 'exhausted' }
  if (row.expiresAt.getTime() <= now.getTime()) return { status: 'expired' }

  const expected = Buffer.from(row.codeHash, 'hex')
  const given = Buffer.from(hashCode(userId, purpose, code), 'hex')
  if (expected.length === given.length && timingSafeEqual(expected, given)) {
    await executor.update(oneTimeCodes).set({ usedAt: now }).where(eq(oneTimeCodes.id, row.id))
    return { status: 'ok' }
  }
  const attempts = row.attempts + 1
  await executor.update(oneTimeCodes).set({ attempts }).where(eq(oneTimeCodes.id, row.id))
  return attempts >= MAX_CODE_ATTEMPTS ? { status: 'exhausted' } : { status: 'wrong', attemptsLeft: MAX_CODE_ATTEMPTS - attempts }
}
