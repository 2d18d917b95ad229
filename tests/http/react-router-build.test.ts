import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/test-server'
import { Visitor } from '../support/visitor'

// The server runs React Router's production build, bundled into build/server: the package itself
// points Node at its development build. Every part of the server (the routes, `data()` and
// `redirect()` in them, the request handler, @react-router/node) must reach that one copy: with two,
// a `data()` made by one is not recognised by the other and its status and headers are lost.

const root = path.resolve(import.meta.dirname, '../..')
const scratch = mkdtempSync(path.join(tmpdir(), 'swimlab-modules-'))
const loadedModulesFile = path.join(scratch, 'loaded.txt')
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ NODE_OPTIONS: `--import=${path.join(root, 'tests/support/record-loaded-modules.mjs')}`, LOADED_MODULES_FILE: loadedModulesFile })
})
afterAll(async () => {
  await server?.stop()
  rmSync(scratch, { recursive: true, force: true })
})

/** Every JavaScript file of the built server, with its text. */
function serverBundle() {
  const dir = path.join(root, 'build/server')
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, text: readFileSync(path.join(dir, file), 'utf8') }))
}

/** The text of the build of React Router that Node itself would load. */
function developmentBuild() {
  const dir = path.dirname(createRequire(import.meta.url).resolve('react-router'))
  expect(path.basename(dir)).toBe('development')
  return readdirSync(dir)
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .join('\n')
}

describe('React Router in the built server', () => {
  it('is one copy, the production build, inside the bundle: the running server loads no React Router package', async () => {
    // Served once, so whatever a page loads on demand is loaded too.
    expect((await new Visitor(server.url).get('/login')).status).toBe(200)
    const loaded = readFileSync(loadedModulesFile, 'utf8').split('\n').filter(Boolean)
    expect(loaded.some((file) => file.endsWith(path.join('build', 'server', 'index.js')))).toBe(true)
    expect(loaded.filter((file) => /[\\/]node_modules[\\/](?:react-router|@react-router[\\/][^\\/]+)[\\/]/.test(file))).toEqual([])
    // sharp and its libvips load at the first photo uploaded, not with every page the site serves.
    expect(loaded.filter((file) => /[\\/]node_modules[\\/](?:sharp|@img)[\\/]/.test(file))).toEqual([])

    const bundle = serverBundle().map(({ text }) => text).join('\n')
    expect(bundle.match(/\bfunction createStaticHandler\(/g)).toHaveLength(1)
    // A warning only the development build prints, which the production build leaves out.
    const developmentOnly = 'No routes matched location'
    expect(developmentBuild()).toContain(developmentOnly)
    expect(bundle).not.toContain(developmentOnly)
  })

  it("answers a form's data() with its status", async () => {
    const visitor = new Visitor(server.url)
    const refused = await visitor.post('/login', { email: '', password: '' })
    expect(refused.status).toBe(400)
    expect(refused.html).toContain('<form')
  })

  it("answers a loader's redirect() with its status and address", async () => {
    const refused = await new Visitor(server.url).get('/my-bookings')
    expect(refused.status).toBe(302)
    expect(refused.location).toBe('/login?redirectTo=%2Fmy-bookings')
  })

  it('shows a data() a loader threw on the error page of its status (isRouteErrorResponse)', async () => {
    const missing = await new Visitor(server.url).get('/consent/no-such-token')
    expect(missing.status).toBe(404)
    expect(missing.html).toContain('Oops! Page not found')
  })

  it("answers the missing page's data() with 404, also when rendered for one visitor", async () => {
    const missing = await new Visitor(server.url).get('/no-such-page?from=a-link')
    expect(missing.status).toBe(404)
    expect(missing.html).toContain('Oops! Page not found')
  })
})
