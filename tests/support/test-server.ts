import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { openDatabase, type Database, type Db } from '~/db/client.server'
import { seedDatabase } from '~/db/seed.server'
import { testDatabasePrefix } from './global-setup'
import { createDatabase as createPostgresDatabase } from '../../scripts/postgres-admin.mjs'

export type TestServer = {
  url: string
  port: number
  logs: () => string
  stop: () => Promise<void>
  /** Ends the process with SIGKILL, as a crash or an OOM kill would: no shutdown, the data is kept for `restartOf`. */
  kill: () => Promise<void>
  process: ChildProcess
  /** The PGlite data directory (also on a PostgreSQL run, for the session secret and reports). */
  dataDir: string
  /** The server's own PostgreSQL database on a PostgreSQL run (the real address, not `databaseVia`'s). */
  databaseUrl: string | undefined
}

export type TestServerOptions = {
  /** The address the server is given for its database, from the real one: a proxy the test can cut. */
  databaseVia?: (databaseUrl: string) => string
  /**
   * Starts on the data of a stopped or killed server (its data directory, its database, its port),
   * as the same installation coming back up. The new server then owns the data and cleans it up.
   */
  restartOf?: TestServer
  /**
   * Data a new installation starts with (accounts with several swimmers, say): written to its
   * database, migrated and seeded, before the server first starts. PGlite and PostgreSQL alike.
   * `installation` is that database (for the site's own functions, through `useDatabase`) and the
   * address the server will have.
   */
  prepare?: (db: Db, installation: { database: Database; siteUrl: string }) => Promise<void>
}

/**
 * A test server lives for seconds to minutes: V8 runs PGlite's WebAssembly with its baseline compiler
 * only, instead of also recompiling the hot part of it with the optimising one in the background,
 * which was half the CPU of a server's start-up (2 s of 4.5) and is not earned back in a test's life.
 */
const TEST_SERVER_NODE_FLAGS = ['--liftoff-only']

/**
 * A test server's PostgreSQL connections (per process: a server started with WEB_CONCURRENCY=2 has
 * two pools), besides the one each keeps for LISTEN. Test files run side by side, two per core,
 * each with its worker's database and the servers it starts: at 3 (+1) per server the run stays
 * well within PostgreSQL's 100 connections, where the site's default of 10 outgrew them. A request
 * waits for a connection rather than failing; a test that needs more passes DATABASE_POOL_SIZE.
 */
const TEST_SERVER_POOL_SIZE = '3'

/** Data a server leaves behind, and which server removes it when stopped (the last one started on it). */
type Installation = { dataDir: string; database: { url: string; drop: () => void } | undefined; port: string; owner: object }
const installations = new WeakMap<TestServer, Installation>()

/**
 * Starts the real, built site as its own process on a free port, with its own data directory
 * (PGlite, or the DATA_DIR given in `env`, which the server then owns) unless DATABASE_URL is
 * given in `env` or the test environment.
 */
export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const previous = options.restartOf ? installations.get(options.restartOf) : undefined
  if (options.restartOf && !previous) throw new Error('restartOf: not a server started by startTestServer')
  // A known port, so SITE_URL (links in e-mails, the payment gateway's way back) is this server.
  const chosenPort = env.PORT ?? previous?.port ?? String(await freePort())
  const dataDir = previous?.dataDir ?? env.DATA_DIR ?? (env.DATABASE_URL ? mkdtempSync(path.join(tmpdir(), 'swimlab-server-')) : migratedDataDir())
  // On a PostgreSQL run every server gets a database of its own, as separate installations would.
  const ownDatabase = previous ? previous.database : !env.DATABASE_URL && process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : undefined
  const installation: Installation = previous ?? { dataDir, database: ownDatabase, port: chosenPort, owner: {} }
  const owner = {}
  installation.owner = owner
  if (options.prepare && !previous) {
    const databaseUrl = env.DATABASE_URL ?? ownDatabase?.url
    const database = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 2 } : { dataDir })
    try {
      await database.migrate()
      await seedDatabase(database.db)
      await options.prepare(database.db, { database, siteUrl: env.SITE_URL ?? `http://127.0.0.1:${chosenPort}` })
    } finally {
      await database.close()
    }
  }
  const serverEnv: Record<string, string> = {
    ...(process.env.PATH && { PATH: process.env.PATH }),
    ...(process.env.TZ && { TZ: process.env.TZ }),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    DATABASE_POOL_SIZE: TEST_SERVER_POOL_SIZE,
    ...(ownDatabase ? { DATABASE_URL: options.databaseVia ? options.databaseVia(ownDatabase.url) : ownDatabase.url } : {}),
    ...env,
  }
  // A free port is picked, then given to the server: another process may take it in between. That
  // server exits at once, and another port is tried (a port the test chose is not changed).
  const portChosenHere = !env.PORT && !previous
  let launched = await launch(chosenPort, serverEnv)
  for (let attempt = 1; portChosenHere && launched.portTaken && attempt < 5; attempt++) {
    installation.port = String(await freePort())
    launched = await launch(installation.port, serverEnv)
  }
  if (launched.error) throw launched.error
  const running = launched
  const { child, port } = running
  const exit = (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill(signal)
    return exited.then(() => {})
  }
  const server: TestServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    dataDir,
    databaseUrl: ownDatabase?.url,
    logs: () => running.output,
    kill: () => exit('SIGKILL'),
    async stop() {
      await exit('SIGTERM')
      if (installation.owner !== owner) return
      rmSync(dataDir, { recursive: true, force: true })
      ownDatabase?.drop()
    },
  }
  installations.set(server, installation)
  return server
}

/**
 * Starts a server on a new installation whose seed data `edit` changed before its first start, as
 * a lab that has edited its prices and settings. PGlite only: the data is the server's directory.
 */
export async function startTestServerOnEditedData(edit: (db: Db) => Promise<void>): Promise<TestServer> {
  const dataDir = migratedDataDir()
  const database = await openDatabase({ dataDir })
  try {
    await database.migrate()
    await seedDatabase(database.db)
    await edit(database.db)
  } finally {
    await database.close()
  }
  return startTestServer({ DATA_DIR: dataDir })
}

/**
 * A new data directory whose PGlite database is migrated and not yet seeded, as a new installation's
 * is after its first migration (a copy of the run's, made once: creating a database takes seconds).
 * On a PostgreSQL run there is none to copy, and the directory starts empty.
 */
export function migratedDataDir(): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'swimlab-server-'))
  const migrated = inject('pgliteDataDir')
  if (migrated) cpSync(migrated, dataDir, { recursive: true })
  return dataDir
}

type Launched = { child: ChildProcess; port: number; output: string; error?: undefined; portTaken?: undefined } | { error: Error; portTaken: boolean; output: string; child?: undefined; port?: undefined }

/** Starts server.js on `port` and waits until it says it is running, or has exited. */
function launch(port: string, env: Record<string, string>): Promise<Launched> {
  let output = ''
  const child = spawn(process.execPath, [...TEST_SERVER_NODE_FLAGS, 'server.js'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...env, PORT: port, SITE_URL: env.SITE_URL ?? `http://127.0.0.1:${port}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise<Launched>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      resolve({ error: new Error(`The server did not start in time:\n${output}`), portTaken: false, output })
    }, 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output)
      if (match) {
        clearTimeout(timer)
        const launched: Launched = { child, port: Number(match[1]), output }
        child.stdout.on('data', (more: Buffer) => (launched.output += more.toString()))
        child.stderr.on('data', (more: Buffer) => (launched.output += more.toString()))
        child.stdout.off('data', onData)
        child.stderr.off('data', onData)
        resolve(launched)
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ error: new Error(`The server exited with code ${code}:\n${output}`), portTaken: output.includes('EADDRINUSE'), output })
    })
  })
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/**
 * A database of the run's own (named with its prefix). It is dropped without waiting: PostgreSQL's
 * DROP DATABASE waits for a checkpoint, which took from 20 s to two minutes on a busy disk, longer than
 * a test may take. A drop not finished when the run ends is done by the run's clean-up, by prefix.
 */
async function createDatabase(adminUrl: string) {
  const name = `${testDatabasePrefix(inject('runId'))}server_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const { url, drop } = await createPostgresDatabase(adminUrl, name)
  return { url, drop: () => void drop().catch(() => {}) }
}
