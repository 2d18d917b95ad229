// Page throughput: autocannon against the home page, /pricing, /book-slot (signed in) and the
// availability data, and a static file served by the same server in the same run, for comparison.
// Prints req/s, p50, p99 and errors per target, and each page's req/s as a share of the static file's.
// Usage: npm run bench:pages [-- --duration 20 --connections 50]
// The site runs on PGlite (a newcomer's setup) unless DATABASE_URL is set.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { ensureBuild } from './ensure-build.mjs'
import { labDate, options, signUpThroughPages } from './bench-support.mjs'

const { duration, connections } = options({ duration: 20, connections: 50 })
ensureBuild()

const dataDir = mkdtempSync(path.join(tmpdir(), 'swimlab-bench-pages-'))
let log = ''
const server = spawn(process.execPath, ['server.js'], {
  env: { PATH: process.env.PATH, TZ: process.env.TZ, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) },
  stdio: ['ignore', 'pipe', 'inherit'],
})
let keepLog = true
server.stdout.on('data', (chunk) => {
  if (keepLog) log += chunk
})
const port = await new Promise((resolve, reject) => {
  const timer = setInterval(() => {
    const match = /"port":(\d+)[^\n]*The site is running/.exec(log)
    if (match) {
      clearInterval(timer)
      resolve(Number(match[1]))
    }
  }, 100)
  server.once('exit', (code) => reject(new Error(`The server exited with ${code}:\n${log}`)))
})
const base = `http://127.0.0.1:${port}`

function run(url, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers: { 'Accept-Encoding': 'br, gzip', Accept: 'text/html,application/json', ...headers } }, (error, result) => (error ? reject(error) : resolve(result)))
  })
}

const asset = readdirSync(path.resolve('build/client/assets')).find((name) => /^root-.*\.css$/.test(name))
const cookie = await signUpThroughPages(base, () => log)
// The server logs every request, as in production; the output is read and dropped from here on.
keepLog = false
const date = labDate(3)
const targets = [
  { name: `static file (/assets/${asset})`, path: `/assets/${asset}` },
  { name: 'home page (anonymous)', path: '/' },
  { name: '/pricing (anonymous)', path: '/pricing' },
  { name: '/book-slot (signed in)', path: `/book-slot?date=${date}`, headers: { Cookie: cookie } },
  { name: 'availability data (/booking/times)', path: `/booking/times?date=${date}` },
]

const rows = []
try {
  for (const target of targets) {
    // A short warm-up, so the page cache and the JIT are in the state a running site is in.
    await new Promise((resolve) => autocannon({ url: `${base}${target.path}`, connections: 5, amount: 200, headers: target.headers }, resolve))
    const result = await run(`${base}${target.path}`, target.headers)
    rows.push({
      target: target.name,
      'req/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      errors: result.errors + result.timeouts,
      'non-2xx': result.non2xx,
      'KB/s': Math.round(result.throughput.average / 1024),
    })
  }
} finally {
  server.kill('SIGTERM')
  await new Promise((resolve) => server.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
}

const staticRate = rows[0]['req/s']
for (const row of rows) row['vs static'] = `${((row['req/s'] / staticRate) * 100).toFixed(0)}%`
console.log(`${connections} connections, ${duration} s each, on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}:`)
console.table(rows)
const failures = rows.filter((row) => row.errors > 0 || row['non-2xx'] > 0)
if (failures.length > 0) {
  console.log(`Errors or non-2xx answers: ${failures.map((row) => row.target).join(', ')}`)
  process.exitCode = 1
}
