import { describe, expect, it } from 'vitest'
import { isDatabaseUnavailable } from './outage.server'

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code })

describe('telling a database outage from a failing query', () => {
  it('recognises refused, reset and timed-out connections, also wrapped as a query error’s cause', () => {
    expect(isDatabaseUnavailable(withCode('ECONNREFUSED'))).toBe(true)
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: withCode('ECONNRESET') }))).toBe(true)
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe(true)
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true)
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: new Error('Connection terminated unexpectedly') }))).toBe(true)
  })

  it('recognises PostgreSQL shutting down, starting up, refusing connections, and connection exceptions', () => {
    for (const code of ['57P01', '57P02', '57P03', '53300', '08006', '08003', '08001']) expect(isDatabaseUnavailable(withCode(code)), code).toBe(true)
  })

  it('leaves real errors alone: constraint violations, syntax errors, a bug', () => {
    expect(isDatabaseUnavailable(withCode('23505', 'duplicate key value violates unique constraint'))).toBe(false)
    expect(isDatabaseUnavailable(withCode('42601', 'syntax error at or near "SELEC"'))).toBe(false)
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false)
    expect(isDatabaseUnavailable(null)).toBe(false)
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false)
  })
})
