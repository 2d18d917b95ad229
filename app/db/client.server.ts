import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import * as schema from './schema'

/**
 * Both drivers speak the same PostgreSQL and expose the same Drizzle query API; domain modules are
 * written against this one type.
 */
export type Db = NodePgDatabase<typeof schema>

/**
 * A database handle or an open transaction: what runs a query, so a write can join its caller's
 * transaction. Inside a transaction on PGlite, only the transaction may be used (it holds the one connection).
 */
export type Executor = Db | Parameters<Parameters<Db['transaction']>[0]>[0]

export type Database = {
  kind: 'postgres' | 'pglite'
  db: Db
  /** Subscribes to a NOTIFY channel; returns the function that unsubscribes. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>
  /**
   * Whether every notification since the subscriptions began has been heard. False while the
   * listening connection is lost and until its subscribers have been told to re-read, so what is
   * kept in memory on the strength of notifications is not trusted meanwhile.
   */
  listening(): boolean
  migrate(): Promise<void>
  ping(): Promise<void>
  close(): Promise<void>
}

type DatabaseOptions = { databaseUrl?: string; dataDir?: string; poolSize?: number; onError?: (error: Error) => void }

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options.dataDir)
}

/** A fixed key for the advisory lock that lets exactly one instance migrate at a time. */
const MIGRATION_LOCK_KEY = 724_310_001

async function openPostgres(databaseUrl: string, options: DatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    // In a rush, requests queue for a connection; better a wait than an error page.
    connectionTimeoutMillis: 15_000,
    idleTimeoutMillis: 30_000,
  })
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', (error) => options.onError?.(error))
  const db = drizzlePg(pool, { schema })
  const listener = new PostgresListener(databaseUrl, options.onError)

  return {
    kind: 'postgres',
    db,
    listen: (channel, onNotify) => listener.listen(channel, onNotify),
    listening: () => listener.listening,
    async migrate() {
      const client = await pool.connect()
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: migrationsFolder() })
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {})
        client.release()
      }
    },
    async ping() {
      await db.execute(sql`SELECT 1`)
    },
    async close() {
      await listener.close()
      await pool.end()
    },
  }
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  let location: string | undefined
  if (dataDir) {
    location = path.join(dataDir, 'pglite')
    mkdirSync(location, { recursive: true })
  }
  const client = new PGlite({ dataDir: location, ...PGLITE_OPTIONS })
  await client.waitReady
  return pgliteDatabase(client)
}

/**
 * PGlite's PostgreSQL keeps 32 MB of pages in its own memory instead of PostgreSQL's default 128 MB:
 * a small lab's whole database, and the rest comes from the operating system's file cache. It
 * starts with 0.4 s less CPU and holds 100 MB less. btree_gist lets the database refuse a kit or a
 * person in two places at once (drizzle/0034); every PGlite that opens the lab's data loads it.
 */
export const PGLITE_OPTIONS = { postgresqlconf: 'shared_buffers=32MB', extensions: { btree_gist } }

/** Wraps an already opened PGlite instance (tests share one per worker). */
export function pgliteDatabase(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db
  return {
    kind: 'pglite',
    db,
    async listen(channel, onNotify) {
      const unsubscribe = await client.listen(channel, onNotify)
      return async () => unsubscribe()
    },
    // Notifications are delivered within the process itself: none can be missed.
    listening: () => !client.closed,
    async migrate() {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: migrationsFolder() })
    },
    async ping() {
      await client.query('SELECT 1')
    },
    async close() {
      if (!client.closed) await client.close()
    },
  }
}

/**
 * One dedicated connection for LISTEN, reconnecting with back-off after the database restarts, so
 * live updates resume on their own.
 */
class PostgresListener {
  private client: pg.Client | undefined
  private connecting: Promise<pg.Client> | undefined
  private readonly handlers = new Map<string, Set<(payload: string) => void>>()
  private closed = false
  private retryTimer: NodeJS.Timeout | undefined
  /** From losing the connection until the subscribers have been told that anything may have changed. */
  private recovering = false

  constructor(
    private readonly databaseUrl: string,
    private readonly onError?: (error: Error) => void,
  ) {}

  async listen(channel: string, onNotify: (payload: string) => void) {
    let set = this.handlers.get(channel)
    if (!set) {
      set = new Set()
      this.handlers.set(channel, set)
      const client = await this.connect()
      await client.query(`LISTEN ${quoteIdentifier(channel)}`)
    }
    set.add(onNotify)
    return async () => {
      set.delete(onNotify)
    }
  }

  get listening() {
    return this.client !== undefined && !this.recovering && !this.closed
  }

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client)
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: 5_000 })
      client.on('notification', (message) => {
        for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '')
      })
      client.on('error', (error) => {
        this.onError?.(error)
        this.reconnectSoon()
      })
      client.on('end', () => this.reconnectSoon())
      try {
        await client.connect()
        for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quoteIdentifier(channel)}`)
      } catch (error) {
        this.connecting = undefined
        client.end().catch(() => {})
        throw error
      }
      this.client = client
      this.connecting = undefined
      return client
    })()
    return this.connecting
  }

  private reconnectSoon(attempt = 1) {
    if (this.closed || this.retryTimer) return
    this.recovering = true
    const stale = this.client
    this.client = undefined
    stale?.removeAllListeners('end')
    stale?.end().catch(() => {})
    this.retryTimer = setTimeout(
      async () => {
        this.retryTimer = undefined
        if (this.closed) return
        try {
          await this.connect()
          // Anything may have changed while we were deaf: tell every subscriber to re-read.
          for (const [, set] of this.handlers) for (const handler of set) handler('')
          this.recovering = false
        } catch {
          this.reconnectSoon(attempt + 1)
        }
      },
      Math.min(30_000, 250 * 2 ** attempt),
    )
    this.retryTimer.unref()
  }

  async close() {
    this.closed = true
    clearTimeout(this.retryTimer)
    const client = this.client
    this.client = undefined
    if (client) {
      client.removeAllListeners('end')
      await client.end().catch(() => {})
    }
  }
}

function quoteIdentifier(name: string) {
  return `"${name.replaceAll('"', '""')}"`
}

/** The committed migrations, found from wherever this module was bundled to. */
function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 6; i += 1) {
    const candidate = path.join(dir, 'drizzle')
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate
    dir = path.dirname(dir)
  }
  const fromCwd = path.resolve('drizzle')
  if (existsSync(fromCwd)) return fromCwd
  throw new Error('Cannot find the drizzle/ migrations folder')
}

let current: Database | undefined

/** The process's database, opened at start-up (or by a test's setup). */
export function database(): Database {
  if (!current) throw new Error('The database has not been opened yet')
  return current
}

export function db(): Db {
  return database().db
}

export function useDatabase(next: Database | undefined) {
  current = next
}
