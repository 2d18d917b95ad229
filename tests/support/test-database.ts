import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeEach, inject } from 'vitest'
import { openDatabase, pgliteDatabase, useDatabase, type Database } from '~/db/client.server'
import { seedDatabase } from '~/db/seed.server'
import { testDatabasePrefix } from './global-setup'

/**
 * A real database for a test file: PGlite loaded from the migrated dump, or, when DATABASE_URL is
 * set, a PostgreSQL database of this run and worker. Tables are emptied and re-seeded before each
 * test, so every test starts from the seed data.
 *
 * One database serves all the files a worker runs (opening one costs 2-3 s of CPU, a reset 70 ms):
 * files run one after another in a worker, and each test starts from the seed whatever the file
 * before it wrote. PostgreSQL's are dropped at the end of the run (global-setup.ts).
 */
export function useTestDatabase(options: { seedAt?: Date } = {}) {
  const ready = workerDatabase().then((database) => {
    useDatabase(database)
    return database
  })

  beforeEach(async () => {
    const db = (await ready).db
    await resetDatabase(db)
    await seedDatabase(db, options.seedAt)
  })
  afterAll(() => {
    useDatabase(undefined)
  })
  return { database: () => ready }
}

let opened: Promise<Database> | undefined

/** The worker's database, opened by the first file that asks. */
function workerDatabase() {
  opened ??= process.env.DATABASE_URL ? openPostgresTestDatabase(process.env.DATABASE_URL) : openPgliteTestDatabase()
  return opened
}

async function openPgliteTestDatabase() {
  const dump = new Blob([readFileSync(inject('pgliteDump'))])
  const client = new PGlite({ loadDataDir: dump })
  await client.waitReady
  return pgliteDatabase(client)
}

async function openPostgresTestDatabase(url: string) {
  const name = `${testDatabasePrefix(inject('runId'))}${process.env.VITEST_POOL_ID ?? '0'}_${Math.random().toString(36).slice(2, 8)}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const target = new URL(url)
  target.pathname = `/${name}`
  const database = await openDatabase({ databaseUrl: target.toString(), poolSize: 20 })
  await database.migrate()
  return database
}

const resetScripts = new WeakMap<Database['db'], string>()

/**
 * Empties every table and restarts every id sequence, as a new installation's database is after
 * its migrations. Rows are deleted with triggers and foreign keys off for the moment (TRUNCATE of
 * every table takes five times as long as deleting the few rows a test writes).
 */
export async function resetDatabase(db: Database['db']) {
  let script = resetScripts.get(db)
  if (!script) {
    const tables = await db.execute<{ name: string }>(sql`SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'`)
    const sequences = await db.execute<{ name: string }>(sql`SELECT quote_ident(sequence_name) AS name FROM information_schema.sequences WHERE sequence_schema = 'public'`)
    script = [
      'BEGIN',
      'SET LOCAL session_replication_role = replica',
      ...tables.rows.map((table) => `DELETE FROM ${table.name}`),
      ...sequences.rows.map((sequence) => `SELECT setval('${sequence.name}', 1, false)`),
      'COMMIT',
    ].join(';\n')
    resetScripts.set(db, script)
  }
  // Several statements in one round trip: PGlite's exec, or a simple query on PostgreSQL.
  const client = (db as unknown as { $client: { exec?: (script: string) => Promise<unknown>; query: (script: string) => Promise<unknown> } }).$client
  await (client.exec ? client.exec(script) : client.query(script))
}
