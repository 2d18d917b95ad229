import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'
import { describe, expect, it } from 'vitest'
import { siteRoutes, type SiteRoute } from '../tests/support/site-routes'
import { pageBuilds } from './page-builds'

/** The site's build as far as pageBuilds reads it: its routes, and the browser's manifest of them. */
function siteBuild() {
  const { manifest, routes } = siteRoutes()
  const build = { routes: manifest, assets: { version: 'v1', url: '/assets/manifest.js', routes: manifest }, basename: '/' }
  return { build: build as unknown as ServerBuild, routes }
}

/** The route tree of a build's routes, as React Router derives it. */
function treeOf(routes: Record<string, SiteRoute>, parentId?: string): RouteObject[] {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map((route) => (route.index ? { id: route.id, path: route.path, index: true } : { id: route.id, path: route.path, children: treeOf(routes, route.id) }))
}

/** The route ids a page's manifest lists: those its address, each parent address and "/" match. */
function manifestIds(routes: RouteObject[], address: string) {
  const segments = address.split('/').filter(Boolean)
  const paths = [address, '/', ...segments.slice(0, -1).map((_, index) => `/${segments.slice(0, index + 1).join('/')}`)]
  return [...new Set(paths.flatMap((path) => (matchRoutes(routes, path) ?? []).map((match) => match.route.id)))].sort()
}

describe('the routes a page at a fixed address is answered with', () => {
  const { build, routes } = siteBuild()
  const buildOf = pageBuilds(build)
  const fixed = ['/', '/book-slot', '/pricing', '/swimmers/new', '/account/data/delete', '/admin', '/admin/bookings/new', '/slot-payment-status/check', '/sitemap.xml', '/onboarding/quote']

  it('match each such address, its parents and "/" as all the routes do, so its page and manifest are the same', () => {
    for (const address of fixed) {
      const pageBuild = buildOf(address)!
      const pageRoutes = treeOf(pageBuild.routes as Record<string, SiteRoute>)
      expect(matchRoutes(pageRoutes, address)?.map((match) => match.route.id), address).toEqual(matchRoutes(routes, address)?.map((match) => match.route.id))
      expect(Object.keys(pageBuild.routes).sort(), address).toEqual(manifestIds(routes, address))
      expect(Object.keys(pageBuild.assets.routes).sort(), address).toEqual(Object.keys(pageBuild.routes).sort())
    }
  })

  it('are a few of the site\'s routes, with the rest of the build as it is', () => {
    const pageBuild = buildOf('/book-slot')!
    expect(Object.keys(pageBuild.routes).sort()).toEqual(['root', 'routes/booking/book-slot', 'routes/marketing/home'])
    expect(Object.keys(build.routes).length).toBeGreaterThan(80)
    expect(pageBuild.assets.version).toBe('v1')
    expect(pageBuild.basename).toBe('/')
    // A parent address no page has is React Router's missing page, listed in the manifest as well.
    expect(Object.keys(buildOf('/account/data')!.routes)).toContain('routes/marketing/not-found')
    expect(buildOf('/book-slot')).toBe(pageBuild)
  })

  it('are all the routes for an address with a parameter, written another way, or asking for data', () => {
    for (const address of ['/bookings/SWP-0000000001/cancel', '/swimmers/3/edit', '/Book-Slot', '/book-slot/', '/book-slot.data', '//book-slot', '/no-such-page', '/admin/'])
      expect(buildOf(address), address).toBeNull()
  })
})
