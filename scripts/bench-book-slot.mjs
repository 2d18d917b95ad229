// A signed-in /book-slot?date=… under load from one process on PostgreSQL, with the site's CPU per
// page: the server's user + system time (/proc/<pid>/stat) over the run, divided by the pages served.
// Starts `node server.js` (one process, a throwaway database), signs a customer up through the pages,
// loads the page for 8 s to warm it, then measures for --duration s with --connections connections
// (wrk, Debian's package, when installed; else autocannon). SITE_DIR runs the server.js of another
// checkout (built), to compare code side by side with the same command.
// Usage: npm run bench:book-slot [-- --duration 10 --connections 50]
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { ensureBuild } from './ensure-build.mjs'
import { cpuMsOf, freshDatabase, labDate, options, signUpThroughPages, siteAddress } from './bench-support.mjs'

const { duration, connections } = options({ duration: 10, connections: 50 })
const WARM_UP_SECONDS = 8
const siteDir = path.resolve(process.env.SITE_DIR ?? '.')
if (!process.env.SITE_DIR) ensureBuild()
const useWrk = spawnSync('sh', ['-c', 'command -v wrk']).status === 0

/** req/s, mean, p50, p99 (ms), requests and errors of one run. */
async function load(url, headers, seconds) {
  if (useWrk) {
    const output = execFileSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]), url], { encoding: 'utf8' })
    const ms = (pattern) => {
      const match = pattern.exec(output)
      return match ? Number((Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[match[2]]).toFixed(1)) : NaN
    }
    const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)
    return {
      requests: Number(/(\d+) requests in/.exec(output)[1]),
      rate: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(output)[1])),
      mean: ms(/Latency\s+([\d.]+)(us|ms|s)/),
      p50: ms(/^\s+50%\s+([\d.]+)(us|ms|s)/m),
      p99: ms(/^\s+99%\s+([\d.]+)(us|ms|s)/m),
      errors: (socketErrors ? socketErrors.slice(1).reduce((sum, value) => sum + Number(value), 0) : 0) + Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    }
  }
  const result = await new Promise((resolve, reject) => autocannon({ url, connections, duration: seconds, headers }, (error, value) => (error ? reject(error) : resolve(value))))
  return { requests: result.requests.total, rate: Math.round(result.requests.average), mean: result.latency.mean, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx }
}

const database = await freshDatabase('swimlab_bench_book_slot')
const dataDir = mkdtempSync(path.join(tmpdir(), 'swimlab-bench-book-slot-'))
const address = await siteAddress()
const server = spawn(process.execPath, ['server.js'], {
  cwd: siteDir,
  env: { PATH: process.env.PATH, TZ: process.env.TZ, ...address.env, DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'info' },
  stdio: ['ignore', 'pipe', 'inherit'],
})
let log = ''
server.stdout.on('data', (chunk) => {
  if (log.length < 1_000_000) log += chunk
})
try {
  for (let waited = 0; !/"msg":"listening"/.test(log); waited += 100) {
    if (server.exitCode !== null || waited > 120_000) throw new Error(`The site did not start:\n${log}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const cookie = await signUpThroughPages(address.url, () => log)
  const url = `${address.url}/book-slot?date=${labDate(3)}`
  const headers = { 'Accept-Encoding': 'br, gzip', Accept: 'text/html,application/json', Cookie: cookie }
  await load(url, headers, WARM_UP_SECONDS)
  const machineLoad = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
  const cpuBefore = cpuMsOf([server.pid])
  const result = await load(url, headers, duration)
  const cpu = cpuMsOf([server.pid]) - cpuBefore
  console.log(`${siteDir}: ${connections} connections, ${duration} s, ${useWrk ? 'wrk' : 'autocannon'}; load average before the run ${machineLoad}`)
  console.table([{ 'req/s': result.rate, 'mean ms': result.mean, 'p50 ms': result.p50, 'p99 ms': result.p99, 'p99 / mean': Number((result.p99 / result.mean).toFixed(2)), 'site CPU ms/page': Number((cpu / result.requests).toFixed(2)), errors: result.errors }])
  if (result.errors > 0) process.exitCode = 1
} finally {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  }
  rmSync(dataDir, { recursive: true, force: true })
  await database.drop()
}
