import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

type RouteEntry = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean }

/**
 * The build React Router needs to answer a page at a fixed address (no parameter, no splat): the
 * same build holding only the routes that page uses; null for any other address.
 *
 * React Router's work per page grows with the number of routes, not with the page: it matches the
 * address against every route to choose a handler and again to load the data, matches "/" and each
 * parent address to list the routes the browser is told of (its route manifest), and converts every
 * route into its router's form for each render: with the site's 85 routes, a tenth of a signed-in
 * page's CPU. The routes a page uses are exactly those of its manifest (the ones its address, its
 * parent addresses and "/" match, with their parents); React Router ranks routes in one fixed
 * order, so among them the address matches the same route as among all, and the page (its HTML,
 * its manifest, its data) is the same. An address written any other way (other letter case, a
 * trailing slash, a route's data request) gets the whole build.
 */
export function pageBuilds(build: ServerBuild): (pathname: string) => ServerBuild | null {
  const entries = Object.values(build.routes).filter(Boolean) as RouteEntry[]
  const byId = new Map(entries.map((route) => [route.id, route]))
  const addresses = new Set(entries.map((route) => fixedAddress(route, byId)).filter((address) => address !== null))
  const tree = routeTree(entries)
  // Matching flattens and ranks every route each time: each address is matched once, on the first request that needs it.
  const matched = new Map<string, string[]>()
  const routesOf = (path: string) => {
    let ids = matched.get(path)
    if (!ids) matched.set(path, (ids = (matchRoutes(tree, path) ?? []).map((match) => match.route.id!)))
    return ids
  }
  const builds = new Map<string, ServerBuild>()
  return (pathname) => {
    if (!addresses.has(pathname)) return null
    let pageBuild = builds.get(pathname)
    if (!pageBuild) {
      const used = new Set([pathname, ...parentAddresses(pathname)].flatMap(routesOf))
      builds.set(pathname, (pageBuild = withRoutes(build, used)))
    }
    return pageBuild
  }
}

/** The routes as React Router's own route objects, children under their parents in the build's order. */
function routeTree(entries: RouteEntry[]): RouteObject[] {
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    entries
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, path: route.path, index: true, caseSensitive: route.caseSensitive }
          : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: childrenOf(route.id) },
      )
  return childrenOf(undefined)
}

/** The one address of a page route whose path and parents' paths have no parameter or splat; null for the others. */
function fixedAddress(route: RouteEntry, byId: Map<string, RouteEntry>): string | null {
  if (!route.index && route.path === undefined) return null
  const segments: string[] = []
  for (let current: RouteEntry | undefined = route; current; current = current.parentId ? byId.get(current.parentId) : undefined) {
    if (current.path) segments.unshift(...current.path.split('/').filter(Boolean))
  }
  if (segments.some((segment) => segment.startsWith(':') || segment.includes('*') || segment.endsWith('?'))) return null
  return `/${segments.join('/')}`
}

/** "/" and every address above this one, as React Router lists them for a page's route manifest. */
function parentAddresses(address: string): string[] {
  const segments = address.split('/').filter(Boolean)
  const parents = ['/']
  for (let length = segments.length - 1; length > 0; length -= 1) parents.push(`/${segments.slice(0, length).join('/')}`)
  return parents
}

function withRoutes(build: ServerBuild, ids: Set<string>): ServerBuild {
  const keep = <Entry>(routes: Record<string, Entry>) => Object.fromEntries(Object.entries(routes).filter(([id]) => ids.has(id)))
  return { ...build, routes: keep(build.routes), assets: { ...build.assets, routes: keep(build.assets.routes) } }
}
