import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { PGLITE_OPTIONS, pgliteDatabase } from '~/db/client.server'

/**
 * Once per test run: build the site (HTTP tests run the real server) and prepare one migrated
 * PGlite database, which every test file and every test server starts from in a fraction of the
 * time a fresh one takes (creating a PGlite database is most of a server's start-up): as a dump
 * that test files load in memory, and as a data directory that servers get a copy of.
 */
export default async function setup(project: TestProject) {
  const build = spawnSync('node', ['scripts/ensure-build.mjs'], { stdio: 'inherit' })
  if (build.status !== 0) throw new Error('The build failed')

  const dir = mkdtempSync(path.join(tmpdir(), 'swimlab-test-'))
  if (!process.env.DATABASE_URL) {
    // Where a server keeps its PGlite database: DATA_DIR/pglite.
    const dataDir = path.join(dir, 'migrated-data-dir')
    const location = path.join(dataDir, 'pglite')
    mkdirSync(location, { recursive: true })
    const client = new PGlite({ dataDir: location, ...PGLITE_OPTIONS })
    const database = pgliteDatabase(client)
    await database.migrate()
    const dump = await client.dumpDataDir('none')
    const file = path.join(dir, 'migrated.tar')
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
    await database.close()
    project.provide('pgliteDump', file)
    project.provide('pgliteDataDir', dataDir)
  }
  const runId = path.basename(dir).replace(/[^a-z0-9]/gi, '').toLowerCase()
  project.provide('runId', runId)
  return async () => {
    rmSync(dir, { recursive: true, force: true })
    if (process.env.DATABASE_URL) await dropTestDatabases(process.env.DATABASE_URL, runId)
  }
}

/** The prefix of the PostgreSQL databases a test run's workers create (one each). */
export const testDatabasePrefix = (runId: string) => `test_${runId}_`

/** Drops the databases the run's workers created, once they have all finished. */
async function dropTestDatabases(url: string, runId: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [testDatabasePrefix(runId)])
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
  } finally {
    await client.end()
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string
    /** A DATA_DIR holding a migrated, unseeded PGlite database, as a server's first start leaves it before seeding. */
    pgliteDataDir: string
    runId: string
  }
}
