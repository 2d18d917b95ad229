import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { TestProject } from 'vitest/node'
import { pgliteDatabase } from '~/db/client.server'

/**
 * Once per test run: build the site (HTTP tests run the real server) and prepare one migrated
 * PGlite data directory that every test file loads in a fraction of the time a fresh one takes.
 */
export default async function setup(project: TestProject) {
  const build = spawnSync('node', ['scripts/ensure-build.mjs'], { stdio: 'inherit' })
  if (build.status !== 0) throw new Error('The build failed')

  const dir = mkdtempSync(path.join(tmpdir(), 'swimlab-test-'))
  if (!process.env.DATABASE_URL) {
    const client = new PGlite()
    const database = pgliteDatabase(client)
    await database.migrate()
    const dump = await client.dumpDataDir('none')
    const file = path.join(dir, 'migrated.tar')
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
    await database.close()
    project.provide('pgliteDump', file)
  }
  project.provide('runId', path.basename(dir).replace(/[^a-z0-9]/gi, '').toLowerCase())
  return () => rmSync(dir, { recursive: true, force: true })
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string
    runId: string
  }
}
