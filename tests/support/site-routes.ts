import type { RouteObject } from 'react-router'
import routeConfig from '~/routes'

type ConfigEntry = { file: string; path?: string; index?: boolean; children?: ConfigEntry[] }

export type SiteRoute = { id: string; parentId?: string; path?: string; index?: boolean }

/** The site's routes as React Router builds them: ids from file names, under the root route; as the build's manifest and as a route tree. */
export function siteRoutes() {
  const manifest: Record<string, SiteRoute> = { root: { id: 'root', path: '' } }
  const tree = (entries: ConfigEntry[], parentId: string): RouteObject[] =>
    entries.map((entry) => {
      const id = entry.file.replace(/\.tsx?$/, '')
      manifest[id] = { id, parentId, path: entry.path, index: entry.index }
      return entry.index ? { id, path: entry.path, index: true } : { id, path: entry.path, children: tree(entry.children ?? [], id) }
    })
  return { manifest, routes: [{ id: 'root', path: '', children: tree(routeConfig as ConfigEntry[], 'root') }] as RouteObject[] }
}
