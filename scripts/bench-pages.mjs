// Page throughput, side by side with nginx serving the same bytes in the same run: the cached home
// page and /pricing, the stylesheet, the missing page (a page that needs no data), /book-slot with a
// date as a signed-in customer, and the availability data of the public booking form. The site runs
// on PGlite (a newcomer's setup), then on PostgreSQL (a throwaway database, when the server at
// TEST_POSTGRES_URL or 127.0.0.1:5432 answers).
// Prints req/s, p50, p99 and errors per target, with nginx's rate for the same bytes and the share.
// Usage: npm run bench:pages [-- --duration 10 --connections 50]
// The load comes from wrk when it is installed (Debian's package), else from autocannon; nginx from
// Debian's nginx-light, started and stopped here (its rows are skipped, saying so, when it is missing).
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { get } from 'node:http'
import { availableParallelism, tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { ensureBuild } from './ensure-build.mjs'
import { freshDatabase, labDate, options, signUpThroughPages, siteAddress } from './bench-support.mjs'

const { duration, connections } = options({ duration: 10, connections: 50 })
const WARM_UP_SECONDS = 8
const WORKERS = availableParallelism()
const ACCEPT = { 'Accept-Encoding': 'br, gzip', Accept: 'text/html,application/json' }
ensureBuild()
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0
const nginxBinary = ['/usr/sbin/nginx', 'nginx'].find((candidate) => spawnSync(candidate, ['-v']).status === 0)
const loadTool = has('wrk') ? 'wrk' : 'autocannon'

/** Starts `node server.js` on a fresh data directory; resolves with its address, and a way to read its log and stop it. */
async function startSite(env) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'swimlab-bench-pages-'))
  let log = ''
  let keepLog = true
  const address = await siteAddress()
  const server = spawn(process.execPath, ['server.js'], {
    env: { PATH: process.env.PATH, TZ: process.env.TZ, ...address.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  server.stdout.on('data', (chunk) => {
    if (keepLog) log += chunk
  })
  const port = await new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /"port":(\d+)[^\n]*"msg":"listening"/.exec(log)
      if (match) {
        clearInterval(timer)
        resolve(Number(match[1]))
      }
    }, 100)
    server.once('exit', (code) => reject(new Error(`The server exited with ${code}:\n${log}`)))
  })
  return {
    base: `http://127.0.0.1:${port}`,
    log: () => log,
    // The server logs every request, as in production; the output is read and dropped once the customer is signed up.
    dropLog: () => ((keepLog = false), (log = '')),
    async stop() {
      server.kill('SIGTERM')
      await new Promise((resolve) => server.once('exit', resolve))
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** nginx with one worker, serving each target's bytes exactly as the site sent them (brotli). */
async function startNginx(files) {
  const root = mkdtempSync(path.join(tmpdir(), 'swimlab-bench-nginx-'))
  mkdirSync(path.join(root, 'www'))
  const locations = files.map(({ name, body, contentType }) => {
    writeFileSync(path.join(root, 'www', name), body)
    return `location = /${name} { default_type "${contentType}"; add_header Content-Encoding br; add_header Vary Accept-Encoding; try_files /${name} =404; }`
  })
  // Below the range the kernel picks outgoing ports from, where the load's own connections live.
  const port = 20000 + Math.floor(Math.random() * 12000)
  writeFileSync(
    path.join(root, 'nginx.conf'),
    `worker_processes 1; daemon off; pid ${root}/nginx.pid; error_log ${root}/error.log;
events { worker_connections 4096; }
http { access_log off; types {} server { listen 127.0.0.1:${port}; root ${root}/www; ${locations.join('\n')} } }`,
  )
  const child = spawn(nginxBinary, ['-c', path.join(root, 'nginx.conf'), '-p', root], { stdio: 'ignore' })
  for (let attempt = 0; ; attempt += 1) {
    try {
      await fetch(`http://127.0.0.1:${port}/`)
      break
    } catch (error) {
      if (attempt > 50) throw new Error(`nginx did not start: ${readFileSync(path.join(root, 'error.log'), 'utf8')}`, { cause: error })
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  return {
    base: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGQUIT')
      await new Promise((resolve) => child.once('exit', resolve))
      rmSync(root, { recursive: true, force: true })
    },
  }
}

/** req/s, p50 and p99 in ms, errors and non-2xx/3xx answers (a 404 page counts as expected when `status` says so). */
async function load(url, headers = {}, seconds = duration) {
  if (loadTool === 'wrk') {
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...Object.entries({ ...ACCEPT, ...headers }).flatMap(([name, value]) => ['-H', `${name}: ${value}`]), url]
    const output = execFileSync('wrk', args, { encoding: 'utf8' })
    const ms = (label) => {
      const match = new RegExp(`^\\s+${label}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(output)
      return match ? Number((Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[match[2]]).toFixed(1)) : NaN
    }
    const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)
    return {
      rate: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(output)[1])),
      p50: ms(50),
      p99: ms(99),
      errors: socketErrors ? socketErrors.slice(1).reduce((sum, value) => sum + Number(value), 0) : 0,
      unexpected: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    }
  }
  const result = await new Promise((resolve, reject) => autocannon({ url, connections, duration: seconds, headers: { ...ACCEPT, ...headers } }, (error, value) => (error ? reject(error) : resolve(value))))
  return { rate: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts, unexpected: result.non2xx }
}

async function measure(site, nginx, targets) {
  const rows = []
  for (const target of targets) {
    // Warm-up, so the page cache, the JIT and the database's connections are in the state a
    // running site is in: the same load for a few seconds first (300 requests left /book-slot's
    // p99 several times its steady figure, the optimising compiler still at work).
    await load(`${site.base}${target.path}`, target.headers, WARM_UP_SECONDS)
    const result = await load(`${site.base}${target.path}`, target.headers)
    const reference = nginx && target.nginx ? await load(`${nginx.base}/${target.nginx}`) : undefined
    rows.push({
      target: target.name,
      'req/s': result.rate,
      'p50 ms': result.p50,
      'p99 ms': result.p99,
      errors: result.errors,
      unexpected: target.status === 404 ? 0 : result.unexpected,
      'nginx req/s': reference ? reference.rate : '-',
      'vs nginx': reference ? `${((result.rate / reference.rate) * 100).toFixed(0)}%` : '-',
    })
  }
  return rows
}

/** The bytes the site sends for a path, brotli-compressed as a browser receives them (fetch would decode them). */
function bytesOf(base, pathname) {
  return new Promise((resolve, reject) => {
    get(`${base}${pathname}`, { headers: { 'Accept-Encoding': 'br' } }, (answer) => {
      const chunks = []
      answer.on('data', (chunk) => chunks.push(chunk))
      answer.on('end', () => resolve({ body: Buffer.concat(chunks), contentType: answer.headers['content-type'] }))
    }).on('error', reject)
  })
}

async function run(database) {
  // On PostgreSQL a worker per core, as in production; PGlite lives in one process.
  const env = database ? { DATABASE_URL: database.url, WEB_CONCURRENCY: String(WORKERS) } : {}
  const site = await startSite(env)
  let nginx
  try {
    const cookie = await signUpThroughPages(site.base, site.log)
    site.dropLog()
    const stylesheet = readdirSync(path.resolve('build/client/assets')).find((name) => /^root-.*\.css$/.test(name))
    const date = labDate(3)
    const targets = [
      { name: 'home page (cached)', path: '/', nginx: 'home' },
      { name: '/pricing (cached)', path: '/pricing', nginx: 'pricing' },
      { name: `stylesheet (${stylesheet})`, path: `/assets/${stylesheet}`, nginx: 'stylesheet' },
      { name: 'missing page (anonymous)', path: '/no-such-page', status: 404, nginx: 'missing' },
      { name: '/book-slot?date=… (signed in)', path: `/book-slot?date=${date}`, headers: { Cookie: cookie } },
      { name: '/booking/times?date=…', path: `/booking/times?date=${date}` },
    ]
    if (nginxBinary) {
      const files = []
      for (const target of targets.filter((candidate) => candidate.nginx)) files.push({ name: target.nginx, ...(await bytesOf(site.base, target.path)) })
      nginx = await startNginx(files)
    }
    return await measure(site, nginx, targets)
  } finally {
    await nginx?.stop()
    await site.stop()
  }
}

async function postgresDatabase() {
  try {
    return await freshDatabase('swimlab_bench_pages')
  } catch (error) {
    console.log(`PostgreSQL is not reachable (${error.message}): the PostgreSQL run is skipped.`)
    return undefined
  }
}

console.log(`${connections} connections, ${duration} s per target, load from ${loadTool}${nginxBinary ? ', nginx with 1 worker serving the same bytes' : '; nginx is not installed (apt-get install nginx-light): its column is skipped'}.`)
let failed = false
for (const kind of ['PGlite', 'PostgreSQL']) {
  const database = kind === 'PostgreSQL' ? await postgresDatabase() : undefined
  if (kind === 'PostgreSQL' && !database) continue
  try {
    const rows = await run(database)
    console.log(`\nOn ${kind}${database ? ` (WEB_CONCURRENCY=${WORKERS})` : ' (one process)'}:`)
    console.table(rows)
    const failures = rows.filter((row) => row.errors > 0 || row.unexpected > 0)
    if (failures.length > 0) {
      console.log(`Errors or unexpected answers: ${failures.map((row) => row.target).join(', ')}`)
      failed = true
    }
  } finally {
    await database?.drop()
  }
}
if (failed) process.exitCode = 1
