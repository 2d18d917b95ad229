import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeEach, inject } from 'vitest'
import { openDatabase, pgliteDatabase, useDatabase, type Database } from '~/db/client.server'
import { seedDatabase } from '~/db/seed.server'

/**
 * A real database for a test file: PGlite loaded from the migrated dump, or, when DATABASE_URL is
 * set, a fresh PostgreSQL database of this run and worker. Tables are emptied and re-seeded before
 * each test, so every test starts from the seed data.
 */
export function useTestDatabase(options: { seedAt?: Date } = {}) {
  let database: Database | undefined
  const ready = (async () => {
    database = process.env.DATABASE_URL ? await openPostgresTestDatabase(process.env.DATABASE_URL) : await openPgliteTestDatabase()
    useDatabase(database)
    return database
  })()

  beforeEach(async () => {
    const db = (await ready).db
    await resetDatabase(db)
    await seedDatabase(db, options.seedAt)
  })
  afterAll(async () => {
    useDatabase(undefined)
    await database?.close()
  })
  return { database: () => ready }
}

async function openPgliteTestDatabase() {
  const dump = new Blob([readFileSync(inject('pgliteDump'))])
  const client = new PGlite({ loadDataDir: dump })
  await client.waitReady
  return pgliteDatabase(client)
}

async function openPostgresTestDatabase(url: string) {
  const name = `test_${inject('runId')}_${process.env.VITEST_POOL_ID ?? '0'}_${Math.random().toString(36).slice(2, 8)}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const target = new URL(url)
  target.pathname = `/${name}`
  const database = await openDatabase({ databaseUrl: target.toString(), poolSize: 20 })
  await database.migrate()
  const close = database.close
  return {
    ...database,
    async close() {
      await close()
      const cleanup = new pg.Client({ connectionString: url })
      await cleanup.connect()
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await cleanup.end()
    },
  }
}

export async function resetDatabase(db: Database['db']) {
  const result = await db.execute<{ tablename: string }>(sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)
  const tables = result.rows.map((row) => `"${row.tablename}"`)
  if (tables.length > 0) await db.execute(sql.raw(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`))
}
