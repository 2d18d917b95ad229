// A throwaway database on a PostgreSQL server, made and dropped as the server's administrator: the
// PostgreSQL test run, the benchmarks and the test server each make their own.
import pg from 'pg'

/**
 * Runs one statement on a connection of its own (CREATE and DROP DATABASE run outside any
 * transaction). `connectionTimeoutMillis` 0, pg's default, waits as long as the server takes.
 */
export async function runAsAdmin(adminUrl, statement, { connectionTimeoutMillis = 0 } = {}) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** Creates the database `name` beside the one of `adminUrl`: its address, and how to drop it. */
export async function createDatabase(adminUrl, name, options = {}) {
  await runAsAdmin(adminUrl, `CREATE DATABASE ${name}`, options)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => runAsAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, options) }
}
