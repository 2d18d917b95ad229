import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeEach, inject } from 'vitest'
import { openDatabase, PGLITE_OPTIONS, pgliteDatabase, useDatabase, type Database } from '~/db/client.server'
import { seedDatabase } from '~/db/seed.server'
import { labToday } from '~/lib/lab-time'
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
    await resetToSeed((await ready).db, options.seedAt)
  })
  afterAll(() => {
    useDatabase(undefined)
  })
  return { database: () => ready }
}

let opened: Promise<Database> | undefined

/**
 * Connections of a worker's PostgreSQL database: enough for tests of operations racing each other
 * to run side by side, few enough that every worker, with the servers its files start, stays well
 * within PostgreSQL's 100 connections (see test-server.ts).
 */
const TEST_DATABASE_POOL_SIZE = 6

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
  const database = await openDatabase({ databaseUrl: target.toString(), poolSize: TEST_DATABASE_POOL_SIZE })
  await database.migrate()
  return database
}

type Reset = {
  /** Which tables hold rows, in one query. */
  look: string
  restartSequences: string
  /** What the seed wrote: the seeded tables' content and where the sequences stood after it. */
  seeded: { day: string; hashes: Record<string, string>; sequences: string; look: string } | undefined
  tables: string[]
}
const resets = new WeakMap<Database['db'], Reset>()

/**
 * Brings the database back to a new installation's right after seeding (as `seedDatabase(db, seedAt)`
 * leaves it), rows, ids and sequences alike, doing as little as it can: a reset is paid before every
 * test. The tables a test changed are emptied, a seeded one gets the seed's rows back, and the
 * sequences are set back; a seed for another day, or PostgreSQL (below), seeds afresh.
 */
export async function resetToSeed(db: Database['db'], seedAt?: Date) {
  const reset = resets.get(db) ?? (await prepareReset(db))
  const seeded = reset.seeded
  const day = labToday(seedAt)
  if (!seeded || seeded.day !== day || !DELETED_ROWS_KEEP_ORDER) {
    await seedAfresh(db, reset, seedAt, day)
    return
  }
  const { rows } = await db.execute<{ name: string; hash: string }>(sql.raw(seeded.look))
  const changed = rows.filter((row) => (row.name in seeded.hashes ? row.hash !== seeded.hashes[row.name] : row.hash !== EMPTY)).map((row) => row.name)
  await db.transaction(async (tx) => {
    // Deleted, not truncated: a truncation makes new files for the table, its indexes and every table
    // referencing it (80 ms of CPU for a test that signed someone up, on PGlite). Foreign keys are not
    // checked meanwhile: every table that changed is emptied, and the seed's rows refer only to each other.
    await tx.execute(sql`SET LOCAL session_replication_role = replica`)
    for (const table of changed) {
      await tx.execute(sql.raw(`DELETE FROM ${table}`))
      if (table in seeded.hashes) await tx.execute(sql.raw(`INSERT INTO ${table} SELECT * FROM ${SEED_COPIES}.${table}`))
    }
    await tx.execute(sql.raw(seeded.sequences))
  })
}

/**
 * Rows written after others were deleted come back in the order written only while nothing makes the
 * deleted rows' room reusable: so on PGlite, which runs no autovacuum. PostgreSQL's autovacuum does,
 * and a query without ORDER BY could see rows in another order than a new database gives; there every
 * reset truncates and seeds afresh, as a new installation.
 */
const DELETED_ROWS_KEEP_ORDER = !process.env.DATABASE_URL

/** Where the rows the seed wrote are kept, to be put back in a table a test changed. */
const SEED_COPIES = 'test_seed_copies'

/** Empties every table holding rows, sets every sequence back to its start and seeds, as a new installation does. */
async function seedAfresh(db: Database['db'], reset: Reset, seedAt: Date | undefined, day: string) {
  const { rows } = await db.execute<{ name: string; hash: string }>(sql.raw(reset.look))
  const holdingRows = rows.filter((row) => row.hash !== EMPTY).map((row) => row.name)
  if (holdingRows.length > 0) await db.execute(sql.raw(`TRUNCATE ${holdingRows.join(', ')} CASCADE`))
  // Also the sequences of empty tables: an insert that failed has used up an id all the same.
  await db.execute(sql.raw(reset.restartSequences))
  await seedDatabase(db, seedAt)
  reset.seeded = DELETED_ROWS_KEEP_ORDER ? await seededState(db, reset, day) : undefined
}

/** Whether a table holds rows, or its content hashed (`EMPTY` for no rows either way). */
const EMPTY = ''
const holdsRows = (table: string) => `SELECT '${table}' AS name, CASE WHEN EXISTS (SELECT 1 FROM ${table}) THEN 'rows' ELSE '${EMPTY}' END AS hash`
const contentHash = (table: string) => `SELECT '${table}' AS name, coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS hash FROM ${table} t`

async function prepareReset(db: Database['db']): Promise<Reset> {
  const tables = await db.execute<{ name: string }>(sql`SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'`)
  const sequences = await db.execute<{ name: string }>(sql`SELECT quote_ident(sequence_name) AS name FROM information_schema.sequences WHERE sequence_schema = 'public'`)
  const reset: Reset = {
    tables: tables.rows.map((table) => table.name),
    look: tables.rows.map((table) => holdsRows(table.name)).join(' UNION ALL '),
    restartSequences: `SELECT ${sequences.rows.map((sequence) => `setval('${sequence.name}', 1, false)`).join(', ')}`,
    seeded: undefined,
  }
  resets.set(db, reset)
  return reset
}

/** The seed's tables and sequences as `seedDatabase` just left them. */
async function seededState(db: Database['db'], reset: Reset, day: string): Promise<NonNullable<Reset['seeded']>> {
  const { rows } = await db.execute<{ name: string; hash: string }>(sql.raw(reset.tables.map(contentHash).join(' UNION ALL ')))
  const hashes = Object.fromEntries(rows.filter((row) => row.hash !== EMPTY).map((row) => [row.name, row.hash]))
  await db.execute(sql.raw(`DROP SCHEMA IF EXISTS ${SEED_COPIES} CASCADE`))
  await db.execute(sql.raw(`CREATE SCHEMA ${SEED_COPIES}`))
  for (const table of Object.keys(hashes)) await db.execute(sql.raw(`CREATE TABLE ${SEED_COPIES}.${table} AS SELECT * FROM ${table}`))
  const sequences = await db.execute<{ name: string; value: string; called: boolean }>(
    sql`SELECT quote_ident(sequencename) AS name, coalesce(last_value, 1)::text AS value, last_value IS NOT NULL AS called FROM pg_sequences WHERE schemaname = 'public'`,
  )
  // After the seed, only the seeded tables' content is hashed; the others need only say whether they hold rows.
  const look = reset.tables.map((table) => (table in hashes ? contentHash(table) : holdsRows(table))).join(' UNION ALL ')
  return { day, hashes, look, sequences: `SELECT ${sequences.rows.map((sequence) => `setval('${sequence.name}', ${sequence.value}, ${sequence.called})`).join(', ')}` }
}
