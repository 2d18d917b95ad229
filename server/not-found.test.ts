import { matchRoutes } from 'react-router'
import { describe, expect, it } from 'vitest'
import { siteRoutes } from '../tests/support/site-routes'
import { NOT_FOUND_ROUTE, notFoundMatcher } from './not-found'

describe('which addresses lead to the missing-page page', () => {
  const { manifest, routes } = siteRoutes()
  const isNotFound = notFoundMatcher({ routes: manifest } as never)
  const reactRouterSays = (pathname: string) => {
    // React Router warns of a malformed address and matches it undecoded; the site answers it with 400 before.
    if (/%(?![0-9a-f]{2})|%E0%A4%A$/i.test(pathname)) return false
    return matchRoutes(routes, pathname)?.at(-1)?.route.id === NOT_FOUND_ROUTE
  }

  it('agrees with React Router on every page of the site, spelled every way, and on addresses near them', () => {
    const pages = Object.values(manifest).map((route) => {
      const parts: string[] = []
      for (let current: typeof route | undefined = route; current; current = current.parentId ? manifest[current.parentId] : undefined) if (current.path) parts.unshift(current.path)
      return `/${parts.join('/')}`.replace(/:\w+/g, 'SWP-0000000001').replace(/\/\*$/, '/anything')
    })
    const addresses = pages.flatMap((page) => [page, `${page}/`, page.toUpperCase(), `${page}/extra`, `${page}/extra/more`, `${page}.data`, page.replace(/[a-z]/, (letter) => `%${letter.charCodeAt(0).toString(16)}`), `${page}%2Fx`, `${page}/%E0%A4%A`])
    addresses.push('/', '//', '/no-such-page', '/admin/nothing/here', '/receipts/1/2', '/assets/missing.js', '/%', '/a%2Fb')
    const disagreements = addresses.filter((address) => isNotFound(address) !== reactRouterSays(address))
    expect(disagreements).toEqual([])
    expect(addresses.filter(isNotFound).length).toBeGreaterThan(20)
    expect(isNotFound('/no-such-page')).toBe(true)
    expect(isNotFound('/pricing')).toBe(false)
  })

  it('refuses a build without that page', () => {
    const { [NOT_FOUND_ROUTE]: _, ...others } = manifest
    expect(() => notFoundMatcher({ routes: others } as never)).toThrow(/not-found/)
  })
})
