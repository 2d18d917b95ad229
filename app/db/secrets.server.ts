import { randomBytes } from 'node:crypto'
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

