import { notFoundUnless } from './refusals.server'

/**
 * Refuses an address with a NUL character in a path segment or query value ('%00'): no link on
 * the site makes one, and PostgreSQL cannot compare text holding it, so looking it up would fail
 * with a 500 instead of finding nothing.
 */
export function refuseNul(request: Request, params: Record<string, string | undefined> = {}) {
  const values = [...new URL(request.url).searchParams.values(), ...Object.values(params)]
  notFoundUnless(!values.some((value) => value?.includes('\u0000')))
}
