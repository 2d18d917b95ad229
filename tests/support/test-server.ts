import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'

export type TestServer = {
  url: string
  port: number
  logs: () => string
  stop: () => Promise<void>
  process: ChildProcess
}

/**
 * Starts the real, built site as its own process on a free port, with its own data directory
 * (PGlite) unless DATABASE_URL is given in `env` or the test environment.
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  // A known port, so SITE_URL (links in e-mails, the payment gateway's way back) is this server.
  const chosenPort = env.PORT ?? String(await freePort())
  const dataDir = mkdtempSync(path.join(tmpdir(), 'swimlab-server-'))
  // On a PostgreSQL run every server gets a database of its own, as separate installations would.
  const ownDatabase = !env.DATABASE_URL && process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : undefined
  let output = ''
  const child = spawn(process.execPath, ['server.js'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      PATH: process.env.PATH,
      TZ: process.env.TZ,
      PORT: chosenPort,
      HOST: '127.0.0.1',
      SITE_URL: `http://127.0.0.1:${chosenPort}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...(ownDatabase ? { DATABASE_URL: ownDatabase.url } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The server did not start in time:\n${output}`)), 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /"port":(\d+)[^\n]*The site is running/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(Number(match[1]))
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`The server exited with code ${code}:\n${output}`))
    })
  })
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    logs: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dataDir, { recursive: true, force: true })
      await ownDatabase?.drop()
    },
  }
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

async function createDatabase(adminUrl: string) {
  const name = `server_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await run(`CREATE DATABASE ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}
