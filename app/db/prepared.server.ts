import { db, type Db } from './client.server'

const statements = new WeakMap<Db, Map<string, unknown>>()

/**
 * A query built once per database and kept as a prepared statement, for the few that nearly every
 * request of a rush runs: building a query's SQL costs more than sending it, and PostgreSQL then
 * plans it once per connection instead of on every call. `name` must be unique to the query.
 */
export function prepared<T>(name: string, build: (database: Db) => T): T {
  const database = db()
  let built = statements.get(database)
  if (!built) {
    built = new Map()
    statements.set(database, built)
  }
  if (!built.has(name)) built.set(name, build(database))
  return built.get(name) as T
}
