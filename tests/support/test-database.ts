import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeEach, inject } from 'vitest'
import { openDatabase, PGLITE_OPTIONS, pgliteDatabase, useDatabase, type Database } from '~/db/client.server'
import { seedDatabase } from '~/db/seed.server'
import { testDatabasePrefix } from './global-setup'

/**
 * A real database for a test file: PGlite loaded from the migrated dump, or, when DATABASE_URL is
 * set, a PostgreSQL database of this run and worker. Tables are emptied and re-seeded before each
 * test, so every test starts from the seed data.
 *
 * One database serves all the files a worker runs (opening one costs 2-3 s of CPU, a reset a few ms):
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
  const client = new PGlite({ loadDataDir: dump, ...PGLITE_OPTIONS })
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

type ResetQueries = { tablesWithRows: string; restartSequences: string }
const resetQueries = new WeakMap<Database['db'], ResetQueries>()

/**
 * Empties every table and restarts every id sequence, as a new installation's database is after
 * its migrations. Only the tables that hold rows are truncated (a test writes to a few of them, and
 * truncating all forty took 65 ms a test); a truncated table starts a new heap, so rows come back
 * in the order they are written, as in a new database.
 */
export async function resetDatabase(db: Database['db']) {
  let queries = resetQueries.get(db)
  if (!queries) {
    const tables = await db.execute<{ name: string }>(sql`SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'`)
    const sequences = await db.execute<{ name: string }>(sql`SELECT quote_ident(sequence_name) AS name FROM information_schema.sequences WHERE sequence_schema = 'public'`)
    queries = {
      tablesWithRows: tables.rows.map((table) => `SELECT '${table.name}' AS name WHERE EXISTS (SELECT 1 FROM ${table.name})`).join(' UNION ALL '),
      // Also those of empty tables: an insert that failed has used up an id all the same.
      restartSequences: `SELECT ${sequences.rows.map((sequence) => `setval('${sequence.name}', 1, false)`).join(', ')}`,
    }
    resetQueries.set(db, queries)
  }
  const dirty = await db.execute<{ name: string }>(sql.raw(queries.tablesWithRows))
  if (dirty.rows.length > 0) await db.execute(sql.raw(`TRUNCATE ${dirty.rows.map((row) => row.name).join(', ')} CASCADE`))
  await db.execute(sql.raw(queries.restartSequences))
}
