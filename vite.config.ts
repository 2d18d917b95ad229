import { createRequire } from 'node:module'
import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'

// How the browser's scripts are cut into files. Every page runs React, React Router and the root
// route (header, footer, banner), so each of those is one file instead of a dozen small ones: a
// page then asks for a handful of scripts, and each response's headers are paid a handful of times.
// The home page, where most visitors arrive, is one more file with every component it shows; the
// other marketing pages take those shared components from it (already cached once the visitor has
// seen the home page). The rest (a page's own code, forms and their validation, the admin screens)
// stays split by route, so a page loads only what it uses.

/** React, React DOM and React Router, with the entry that hydrates the page: one file, on every page. */
const FRAMEWORK = /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router)[\\/]|[\\/]entry\.client\.[jt]sx?$/

/** A route's module, as React Router's plugin names it in the client build. */
const routeModule = (file: string) => `${path.resolve(import.meta.dirname, file)}?__react-router-build-client-route`

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null }

const reachable = new Map<string, Set<string>>()

/** A module and everything it imports, directly or not. */
function modulesOf(entry: string, graph: ModuleGraph) {
  let found = reachable.get(entry)
  if (found) return found
  found = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const id = queue.pop()!
    if (found.has(id)) continue
    found.add(id)
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []))
  }
  reachable.set(entry, found)
  return found
}

/** A chunk named `name` holding `route` and all it imports (less what a higher-priority group took). */
const routeWithImports = (name: string, route: string, priority: number) => ({
  name: (id: string, graph: ModuleGraph) => (modulesOf(routeModule(route), graph).has(id) ? name : null),
  priority,
})

const clientChunks = {
  groups: [{ name: 'entry.client', test: FRAMEWORK, priority: 3 }, routeWithImports('root', 'app/root.tsx', 2), routeWithImports('home', 'app/routes/marketing/home.tsx', 1)],
}

/**
 * React Router's production build, in the browser and on the server: its package points every
 * bundler and Node itself at the development build, whose only difference is the warnings it
 * prints for developers (and the time it takes to check for them on every request). On the server
 * React Router is bundled into the build rather than imported from node_modules at run time, and so
 * is @react-router/node, which imports it too: every importer then reaches the one production copy.
 */
function reactRouterProductionBuild(): Plugin {
  const production = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production')
  const files: Record<string, string> = { 'react-router': 'index.mjs', 'react-router/dom': 'dom-export.mjs' }
  return {
    name: 'react-router-production-build',
    enforce: 'pre',
    configEnvironment(name) {
      if (name === 'ssr') return { resolve: { noExternal: ['react-router', '@react-router/node'] } }
    },
    resolveId(id) {
      if (id in files) return path.join(production, files[id]!)
    },
  }
}

/**
 * Lets a route's file also carry code other files import (React Router's plugin asks for exactly
 * the route's exports, which would leave the root route as a one-line file re-exporting the shared one).
 */
function routeFilesMayShareCode(): Plugin {
  return {
    name: 'route-files-may-share-code',
    options(options) {
      if (this.environment?.name === 'client') return { ...options, preserveEntrySignatures: 'allow-extension' }
    },
  }
}

// The server bundle's entry is our Express app, so the web server, background workers and the
// React Router build share one module graph (one database pool, one event hub).
export default defineConfig({
  build: { target: 'es2022' },
  environments: {
    client: { build: { rollupOptions: { output: { codeSplitting: clientChunks } } } },
    ssr: { build: { rollupOptions: { input: './server/index.ts' } } },
  },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter(), routeFilesMayShareCode(), reactRouterProductionBuild()],
})
