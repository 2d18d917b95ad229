import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { database, db, type Database, type Executor } from './client.server'
import { instanceSecrets } from './schema'

/** The secrets read, by the database they came from: a process that opens several (a test's) keeps each one's apart. */
const cache = new WeakMap<Database, Map<string, string>>()

/**
 * A random secret this installation made for itself, the same for every instance: the first to
 * ask creates it, the others read it.
 */
export async function instanceSecret(name: string, executor: Executor = db()): Promise<string> {
  let secrets = cache.get(database())
  if (!secrets) cache.set(database(), (secrets = new Map()))
  const cached = secrets.get(name)
  if (cached) return cached
  await executor
    .insert(instanceSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing()
  const [row] = await executor.select({ value: instanceSecrets.value }).from(instanceSecrets).where(eq(instanceSecrets.name, name))
  if (!row) throw new Error(`The secret ${name} could not be created`)
  secrets.set(name, row.value)
  return row.value
}

