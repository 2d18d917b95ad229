import type { ServerBuild } from 'react-router'

export const NOT_FOUND_ROUTE = 'routes/marketing/not-found'

type RouteEntry = { id: string; parentId?: string; path?: string; index?: boolean }

/**
 * Whether an address leads to the site's "page not found" route: true only when no other route can
 * match it. Every route's full path is compiled to one pattern once, at start, in the way React
 * Router reads paths (`:param` one segment, `?` optional, `*` the rest, any case, trailing slashes,
 * escapes decoded per segment), so an address costs a few regular-expression tests rather than
 * React Router's matching, which ranks every route again on each call. Any doubt counts as a
 * match: the page is then rendered as usual, and React Router decides.
 */
export function notFoundMatcher(build: Pick<ServerBuild, 'routes'>) {
  const routes = Object.values(build.routes).filter(Boolean) as RouteEntry[]
  if (!routes.some((route) => route.id === NOT_FOUND_ROUTE)) throw new Error(`The build has no ${NOT_FOUND_ROUTE} route`)
  const byId = new Map(routes.map((route) => [route.id, route]))
  const fullPath = (route: RouteEntry): string[] => [...(route.parentId ? fullPath(byId.get(route.parentId)!) : []), ...(route.path ? [route.path] : [])]
  const patterns = routes
    .filter((route) => route.id !== NOT_FOUND_ROUTE && (route.path !== undefined || route.index))
    .map((route) => pattern(fullPath(route).join('/')))
  return (pathname: string) => {
    const decoded = decodePath(pathname)
    // A malformed address is the site's to answer (400), not the missing page's.
    return decoded !== null && !patterns.some((candidate) => candidate.test(decoded))
  }
}

function pattern(path: string) {
  const segments = path.split('/').filter(Boolean)
  const source = segments
    .map((segment) => {
      if (segment === '*') return '(?:/.*)?'
      if (segment.startsWith(':')) return segment.endsWith('?') ? '(?:/[^/]*)?' : '/[^/]+'
      const literal = segment.replace(/\?$/, '').replace(/[\\.*+^${}|()[\]]/g, '\\$&')
      return segment.endsWith('?') ? `(?:/${literal})?` : `/${literal}`
    })
    .join('')
  return new RegExp(`^${source}/*$`, 'i')
}

/** Each segment decoded on its own, as React Router does (an escaped slash stays part of its segment). */
function decodePath(pathname: string): string | null {
  if (!pathname.includes('%')) return pathname
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/')
  } catch {
    return null
  }
}
