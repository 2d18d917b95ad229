// Runs the Vitest suite against a real PostgreSQL server: creates a fresh database for the run,
// points DATABASE_URL at it (tests derive their own per-worker databases from it) and drops it after.
// Usage: npm run test:postgres            (server at postgres://postgres@127.0.0.1:5432/postgres)
//        TEST_POSTGRES_URL=postgres://user@host:5432/postgres npm run test:postgres
import { spawnSync } from 'node:child_process'
import pg from 'pg'

const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const name = `swimlab_test_${Date.now()}`

async function run(statement) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 })
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
console.log(`Running the tests against PostgreSQL (${url.host}, database ${name})`)
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: url.toString() },
})
await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
process.exit(result.status ?? 1)
