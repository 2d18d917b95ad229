import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { db, type Executor } from './client.server'
import { instanceSecrets } from './schema'

const cache = new Map<string, string>()

/**
 * A random secret this installation made for itself, the same for every instance: the first to
 * ask creates it, the others read it.
 */
export async function instanceSecret(name: string, executor: Executor = db()): Promise<string> {
  const cached = cache.get(name)
  if (cached) return cached
  await executor
    .insert(instanceSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing()
  const [row] = await executor.select({ value: instanceSecrets.value }).from(instanceSecrets).where(eq(instanceSecrets.name, name))
  if (!row) throw new Error(`The secret ${name} could not be created`)
  cache.set(name, row.value)
  return row.value
}


/**
 * A key that proves a link was made by this site for `value` (an order id, a reference): people
 * without an account open their registration or booking with it, and nothing needs storing.
 */
export async function linkKey(purpose: string, value: string, executor?: Executor): Promise<string> {
  return (await linkKeyMaker(purpose, executor))(value)
}

/**
 * The same, as a function that needs no database: fetch it before a transaction and use it inside
 * (on PGlite's single connection, a query outside the open transaction would wait for it forever).
 */
export async function linkKeyMaker(purpose: string, executor?: Executor): Promise<(value: string) => string> {
  const secret = await instanceSecret('link_keys', executor)
  return (value) => createHmac('sha256', secret).update(`${purpose}:${value}`).digest('base64url').slice(0, 32)
}

/** Checks a link key in constant time. */
export async function isLinkKey(purpose: string, value: string, given: string | null | undefined): Promise<boolean> {
  if (!given) return false
  const expected = Buffer.from(await linkKey(purpose, value))
  const actual = Buffer.from(given)
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}
