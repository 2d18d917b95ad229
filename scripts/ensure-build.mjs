// Builds the site when the build is missing or older than its sources; used by `npm start` and tests.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { precompress } from './precompress.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const builtServer = path.join(root, 'build/server/index.js')

function newestChange(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs)
  }
  return newest
}

export function buildIsStale() {
  if (!existsSync(builtServer)) return true
  const dirs = ['app', 'server', 'public'].map((dir) => path.join(root, dir)).filter(existsSync)
  const files = ['vite.config.ts', 'react-router.config.ts', 'package-lock.json'].map((file) => path.join(root, file)).filter(existsSync)
  const newest = Math.max(...dirs.map(newestChange), ...files.map((file) => statSync(file).mtimeMs))
  return newest > statSync(builtServer).mtimeMs
}

const lockDir = path.join(root, 'build.lock')

/** Several test runs or servers may start at once; one builds while the others wait for it. */
function withBuildLock(work) {
  const deadline = Date.now() + 5 * 60_000
  for (;;) {
    try {
      mkdirSync(lockDir)
      break
    } catch {
      const stale = existsSync(lockDir) && Date.now() - statSync(lockDir).mtimeMs > 5 * 60_000
      if (stale) rmSync(lockDir, { recursive: true, force: true })
      if (Date.now() > deadline) throw new Error(`Timed out waiting for another build (${lockDir})`)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500)
    }
  }
  try {
    return work()
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}

export function ensureBuild() {
  if (!buildIsStale()) return
  withBuildLock(() => {
    if (!buildIsStale()) return
    // One line for a newcomer's `npm start`: Vite's per-file sizes and warnings are for `npm run
    // build`. A failed build prints everything it said, so the error is there to read.
    process.stdout.write('Building the site (first start or changed source)… ')
    const started = performance.now()
    // Always a production build: a caller's NODE_ENV (Vitest sets "test") would otherwise ship
    // React's development bundle.
    const result = spawnSync('npx', ['react-router', 'build'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NODE_ENV: 'production' } })
    if (result.status !== 0) {
      process.stdout.write('failed:\n')
      process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? `${result.error.message}\n` : ''}`)
      process.exit(result.status ?? 1)
    }
    precompress(path.join(root, 'build/client'))
    process.stdout.write(`done in ${Math.round((performance.now() - started) / 1000)} s.\n`)
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuild()
