// Runs the Vitest suite against a real PostgreSQL server: creates a fresh database for the run,
// points DATABASE_URL at it (tests derive their own per-worker databases from it) and drops it after.
// Usage: npm run test:postgres            (server at postgres://postgres@127.0.0.1:5432/postgres)
//        TEST_POSTGRES_URL=postgres://user@host:5432/postgres npm run test:postgres
import { spawnSync } from 'node:child_process'
import { createDatabase } from './postgres-admin.mjs'

const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const name = `swimlab_test_${Date.now()}`

const database = await createDatabase(adminUrl, name, { connectionTimeoutMillis: 5_000 })
console.log(`Running the tests against PostgreSQL (${new URL(database.url).host}, database ${name})`)
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: database.url },
})
await database.drop()
process.exit(result.status ?? 1)
