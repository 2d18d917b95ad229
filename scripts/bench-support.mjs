// Shared by the load benchmarks: a throwaway PostgreSQL database, site instances on it, signed-in
// customers, and latency figures.
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import http from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import pg from 'pg'
import { createDatabase } from './postgres-admin.mjs'

export const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/** Reads `--name value` options with numeric defaults, and `--name` flags for those whose default is `false`. */
export function options(defaults) {
  const values = { ...defaults }
  const args = process.argv.slice(2)
  for (let index = 0; index < args.length; index += 1) {
    const name = args[index]?.replace(/^--/, '')
    if (!name || !(name in defaults)) throw new Error(`Unknown option ${args[index]}; known: ${Object.keys(defaults).map((key) => `--${key}`).join(' ')}`)
    if (typeof defaults[name] === 'boolean') values[name] = true
    else values[name] = Number(args[(index += 1)])
  }
  return values
}

/**
 * Keeps one core busy (a process spinning) until the returned function is called: the run then
 * shows what the site does when the machine has other work, as a shared server often has.
 */
export function busyCore() {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }
}

/** A fresh database for one run, dropped afterwards. */
export async function freshDatabase(prefix) {
  const name = `${prefix}_${Date.now()}`
  return createDatabase(ADMIN_URL, name, { connectionTimeoutMillis: 5_000 })
}

async function freePort() {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * A free port for a site under test and the settings that make the site's own address (SITE_URL)
 * the one the benchmark calls it by: its forms refuse a post whose Origin is another address.
 */
export async function siteAddress() {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  return { port, url, env: { PORT: String(port), HOST: '127.0.0.1', SITE_URL: url } }
}

/** Starts one instance of the built site (`node server.js`) against `databaseUrl`. */
export async function startInstance(databaseUrl, extraEnv = {}) {
  const { url, env } = await siteAddress()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'swimlab-bench-'))
  const child = spawn(process.execPath, ['server.js'], {
    env: { PATH: process.env.PATH, TZ: process.env.TZ, ...env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '20', LOG_LEVEL: 'warn', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`An instance exited with ${child.exitCode}:\n${output}`)
    try {
      if ((await fetch(`${url}/readyz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`An instance did not start in time:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return {
    url,
    pid: child.pid,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * Starts `node server.js` on `dataDir` (PGlite there, or the database at `databaseUrl`) with the
 * staff account `admin`, as a newcomer runs the site; resolves with its address, its pid and a way
 * to stop it. `env` adds settings of the server's own environment (which is otherwise PATH and TZ).
 */
export async function startSiteOn({ dataDir, databaseUrl, admin, env = {} }) {
  let log = ''
  const address = await siteAddress()
  const server = spawn(process.execPath, ['server.js'], {
    env: { PATH: process.env.PATH, TZ: process.env.TZ, ...env, ...address.env, DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), LOG_LEVEL: 'info', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // The log is read until the server says it is running, then dropped (every request is logged).
  let keepLog = true
  const onData = (chunk) => {
    if (keepLog) log += chunk
  }
  server.stdout.on('data', onData)
  server.stderr.on('data', onData)
  const port = await new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /"port":(\d+)[^\n]*"msg":"listening"/.exec(log)
      if (match) {
        clearInterval(timer)
        keepLog = false
        resolve(Number(match[1]))
      }
    }, 100)
    server.once('exit', (code) => reject(new Error(`The server exited with ${code}:\n${log}`)))
  })
  return {
    base: `http://127.0.0.1:${port}`,
    pid: server.pid,
    async stop() {
      server.kill('SIGTERM')
      await new Promise((resolve) => server.once('exit', resolve))
    },
  }
}

/** Signs the staff account in through /login; its session cookie ("name=value; …"). */
export async function signInStaff(base, admin) {
  const signIn = await request(`${base}/login`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base }, body: new URLSearchParams({ ...admin, website_url: '' }).toString() })
  if (signIn.status !== 302) throw new Error(`Signing in failed: ${signIn.status}`)
  return [signIn.headers['set-cookie']].flat().map((entry) => entry.split(';')[0]).join('; ')
}

/** One request with Node's HTTP client: its status, headers, body, and times to the first and last byte. */
export function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const call = http.request(url, { method, headers }, (response) => {
      const firstByteMs = Number(process.hrtime.bigint() - started) / 1e6
      const chunks = []
      response.on('data', (chunk) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks), firstByteMs, ms: Number(process.hrtime.bigint() - started) / 1e6 }))
    })
    call.on('error', reject)
    if (body && typeof body.pipe === 'function') body.pipe(call)
    else call.end(body)
  })
}

/** A process's resident memory (VmRSS) in bytes, from /proc (Linux only). */
export async function residentBytes(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024
}

/** The RSS of a process's children (the media pipeline's image renderer), summed; 0 when it has none. */
export async function childrenResidentBytes(pid) {
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean)
  const sizes = await Promise.all(children.map((child) => residentBytes(Number(child)).catch(() => 0)))
  // A child that has just exited has no VmRSS line any more.
  return sizes.filter(Number.isFinite).reduce((sum, bytes) => sum + bytes, 0)
}

/** Runs statements one after another on a connection of their own; their results. */
export async function onPostgres(url, statements) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const results = []
    for (const [text, values] of statements) results.push(await client.query(text, values))
    return results
  } finally {
    await client.end()
  }
}

/**
 * The stopped site's database, opened from the benchmark (PGlite in `dataDir` unless `databaseUrl`
 * is given): `query` as pg's, and `close`. PGlite takes one process at a time, so the site must be stopped.
 */
export async function stoppedSiteDatabase(dataDir, databaseUrl) {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    return { query: (text, values) => client.query(text, values), close: () => client.end() }
  }
  const client = new PGlite({ dataDir: path.join(dataDir, 'pglite'), extensions: { btree_gist } })
  await client.waitReady
  return { query: (text, values) => client.query(text, values), close: () => client.close() }
}

/**
 * Verified customers with a live session and one swimmer (themselves) each, written straight to the database (signing up N
 * people through the pages would measure argon2 and the rate limits instead). Returns their
 * session cookies as the site's cookie encoding writes them.
 */
export async function signedInCustomers(client, count, prefix = 'bench') {
  const cookies = []
  for (let start = 0; start < count; start += 500) {
    const batch = Array.from({ length: Math.min(500, count - start) }, (_, index) => start + index)
    const users = await client.query(
      `INSERT INTO users (name, email, password_hash, phone, is_verified) SELECT 'Swimmer ' || n, '${prefix}' || n || '@example.com', 'x', '9845012345', true FROM unnest($1::int[]) AS n RETURNING id`,
      [batch],
    )
    // Each account books for its one swimmer, the account holder, an adult.
    await client.query(
      `INSERT INTO swimmers (account_id, is_account_holder, name, age_years, age_given_on, gender, swimming_experience, academy_name, coach_name, specialization)
       SELECT id, true, 'Swimmer ' || id, 26, current_date, 'female', 'advanced', 'NA', 'NA', 'freestyle' FROM unnest($1::int[]) AS id`,
      [users.rows.map((row) => row.id)],
    )
    const tokens = users.rows.map(() => randomBytes(32).toString('base64url'))
    await client.query(
      `INSERT INTO sessions (id, user_id, expires_at) SELECT id, user_id, now() + interval '1 day' FROM unnest($1::text[], $2::int[]) AS s(id, user_id)`,
      [tokens.map((token) => createHash('sha256').update(token).digest('hex')), users.rows.map((row) => row.id)],
    )
    for (const token of tokens) cookies.push(`swimlab_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString('base64'))}`)
  }
  return cookies
}

/** A date `days` after today in Asia/Kolkata, as yyyy-mm-dd. */
export function labDate(days) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date())
  const date = new Date(`${today}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/**
 * The customers' browsers: one connection each, kept open between their requests. Node's own HTTP
 * client, which costs a third of what fetch does per request: the customers share the machine with
 * the site here, where in life they bring their own.
 */
const browsers = new http.Agent({ keepAlive: true, maxSockets: Infinity })

/** Times one request; never throws (a failed connection counts as status 0). With `keepBody`, the answer's text is kept as `text`. */
export function timed(url, { method = 'GET', headers = {}, body, keepBody = false } = {}) {
  const started = performance.now()
  const payload = body === undefined ? undefined : Buffer.from(String(body))
  return new Promise((resolve) => {
    const request = http.request(url, { method, agent: browsers, headers: { ...headers, ...(payload && { 'Content-Length': payload.length }) } }, (response) => {
      const chunks = []
      response.on('data', (chunk) => keepBody && chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode, location: response.headers.location ?? null, ms: performance.now() - started, ...(keepBody && { text: Buffer.concat(chunks).toString('utf8') }) }))
      response.on('error', () => resolve({ status: 0, location: null, ms: performance.now() - started }))
    })
    request.on('error', () => resolve({ status: 0, location: null, ms: performance.now() - started }))
    request.end(payload)
  })
}

/**
 * Signs a customer up through the pages of a running site on the local mailbox, reading the
 * verification code from the e-mail it prints (`readLog` returns what the site has printed so far),
 * with the address `email`. Returns the session cookie ("name=value").
 */
export async function signUpThroughPages(base, readLog, email = `bench.${Date.now()}@example.com`) {
  const form = { name: 'Bench Swimmer', email, password: 'butterfly-2027', phone: '9845012345', age: '26', currentLocation: 'Bengaluru', gender: 'female', swimmingExperience: 'advanced', academyName: 'NA', coachName: 'NA', specialization: 'butterfly', otherSpecialization: '', participateInEvents: 'yes', strokeBestTime: '', howDidYouKnow: 'google', otherSource: '', website_url: '' }
  const pairs = (response) => response.headers.getSetCookie().map((value) => value.split(';')[0])
  // The browser that registered keeps the cookie that lets its verification sign it in.
  let cookies = []
  const post = (pathname, body) =>
    fetch(`${base}${pathname}`, { method: 'POST', redirect: 'manual', headers: { Origin: base, 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookies.join('; ') }, body: new URLSearchParams(body) })
  const registered = await post('/registration', form)
  if (registered.status !== 302) throw new Error(`registration answered ${registered.status}`)
  cookies = pairs(registered)
  let code
  for (let attempt = 0; attempt < 100 && !code; attempt += 1) {
    code = new RegExp(`^To: ${email.replaceAll('.', '\\.')}\nSubject: .*\nCode: (\\d{6})$`, 'm').exec(readLog())?.[1]
    if (!code) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (!code) throw new Error('no verification e-mail in the log')
  const verified = await post(`/verify-email?${new URLSearchParams({ email })}`, { email, code, website_url: '' })
  const cookie = pairs(verified).find((pair) => pair.startsWith('swimlab_session='))
  if (!cookie) throw new Error(`verification did not sign in (${verified.status})`)
  return cookie
}

/**
 * CPU time (user + system, ms) the processes have used so far, from /proc (Linux only; null
 * elsewhere). Processes that have exited count as nothing.
 */
export function cpuMsOf(pids) {
  if (!existsSync('/proc/self/stat')) return null
  let ticks = 0
  for (const pid of pids) {
    try {
      // Fields after the command name (which may hold spaces) start at state; utime and stime are the 14th and 15th fields.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // exited
    }
  }
  return ticks * (1000 / CLOCK_TICKS_PER_SECOND)
}

/** Linux's USER_HZ, the unit of /proc's CPU times, is 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100

/**
 * Measures the CPU used from now until the function it returns is called, by the site's instances,
 * the database's sessions (those opened meanwhile count whole) and this process (the customers'
 * browsers), in ms; null where /proc is missing.
 */
export async function cpuMeter(client, instances) {
  const backends = async () => (await client.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((row) => row.pid)
  const sitePids = instances.map((instance) => instance.pid)
  const earlier = await backends()
  const before = { site: cpuMsOf(sitePids), database: cpuMsOf(earlier), client: process.cpuUsage() }
  return async () => {
    if (before.site === null) return null
    const client = process.cpuUsage(before.client)
    const opened = (await backends()).filter((pid) => !earlier.includes(pid))
    return {
      site: Math.round(cpuMsOf(sitePids) - before.site),
      database: Math.round(cpuMsOf(earlier) - before.database + cpuMsOf(opened)),
      client: Math.round((client.user + client.system) / 1000),
    }
  }
}

/** GPS position of the lab's pool, as a phone writes it into EXIF: the pipeline must drop it. */
const GPS = { GPSLatitudeRef: 'N', GPSLatitude: '12/1 58/1 4455/100', GPSLongitudeRef: 'E', GPSLongitude: '77/1 35/1 3371/100' }

/**
 * A photo that compresses as a camera's does (3-6 MB at 12 megapixels): a gradient with shapes of
 * its own colours under fine grain, so each of them is different; saved at JPEG quality 90 with a
 * phone's EXIF (make, model, GPS). `sideways` stores it on its side with orientation 6, as a phone
 * held upright does: a 4032 × 3024 file shown 3024 × 4032.
 */
export async function cameraPhoto(index, { width, height, sideways = index % 2 === 1 }) {
  // Loaded here: most benchmarks make no photo.
  const { default: sharp } = await import('sharp')
  const grain = await sharp({ create: { width, height, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 48 } } })
    .blur(0.5 + (index % 3) * 0.04)
    .raw()
    .toBuffer()
  const hue = (index * 67) % 360
  const shapes = Array.from({ length: 40 }, (_, shape) => {
    const x = (shape * 977 * (index + 1)) % width
    const y = (shape * 613 * (index + 2)) % height
    return `<circle cx="${x}" cy="${y}" r="${80 + ((shape * 37) % 300)}" fill="hsl(${(hue + shape * 23) % 360},80%,50%)" fill-opacity="0.5"/>`
  })
  const scene = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,35%)"/><stop offset="1" stop-color="hsl(${(hue + 140) % 360},60%,70%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}</svg>`
  const photo = sharp(Buffer.from(scene))
    .composite([{ input: grain, raw: { width, height, channels: 3 }, blend: 'soft-light' }])
    .withExif({ IFD0: { Make: 'BenchPhone', Model: `Bench ${index + 1}` }, IFD3: GPS })
  return (sideways ? photo.withMetadata({ orientation: 6 }) : photo).jpeg({ quality: 90 }).toBuffer()
}

/** The media library's upload form as a browser posts it: the multipart body and its Content-Type. */
export async function mediaUploadForm({ bytes, type = 'image/jpeg', fileName, collection, title, altText }) {
  const form = new FormData()
  form.append('intent', 'upload')
  form.append('file', new Blob([bytes], { type }), fileName)
  form.append('collection', collection)
  form.append('title', title)
  form.append('altText', altText)
  const encoded = new Response(form)
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('Content-Type') }
}

/** The media library page as staff see it (`headers` carries their session cookie). */
async function libraryPage(base, headers) {
  const page = await request(`${base}/admin/media`, { headers })
  if (page.status !== 200) throw new Error(`The library page answered ${page.status}`)
  return page.body.toString('utf8')
}

/** The library page's status of every item, counted. */
export async function libraryStatuses(base, headers) {
  const html = await libraryPage(base, headers)
  const count = (text) => html.split(`>${text}</strong>`).length - 1
  return { ready: count('Ready'), processing: count('Being processed'), failed: count('Could not be processed') }
}

/** The library's items by their name in the library, as the page lists them: title → id. */
export async function libraryIds(base, headers) {
  const html = await libraryPage(base, headers)
  const unescape = (text) => text.replaceAll('&#x27;', "'").replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&')
  return new Map([...html.matchAll(/<h3 id="media-(\d+)-title"[^>]*>([^<]*)<\/h3>/g)].map((match) => [unescape(match[2]), Number(match[1])]))
}

/**
 * The text of the newest e-mail to `to` the local mailbox printed in the site's log (`readLog`
 * returns what it has printed so far) whose text matches `pattern`, once it is there; the match.
 */
export async function mailedTo(readLog, to, pattern, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    // Each block runs from its heading to its closing rule (the log's own lines follow).
    const blocks = readLog()
      .split('──── E-mail (local mailbox) ')
      .slice(1)
      .map((block) => block.split(`\n${'─'.repeat(60)}\n`)[0])
      .filter((block) => block.includes(`\nTo: ${to}\n`))
    const found = blocks.map((block) => pattern.exec(block)).findLast(Boolean)
    if (found) return found
    if (Date.now() > deadline) throw new Error(`No e-mail to ${to} matching ${pattern} in the log`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** With BENCH_CPU_PROF=<dir>, each site instance started with these settings writes its CPU profile there when it stops. */
export function profiling() {
  const dir = process.env.BENCH_CPU_PROF
  return dir ? { NODE_OPTIONS: `--require ${fileURLToPath(new URL('./cpu-profile.cjs', import.meta.url))}`, CPU_PROF_DIR: dir } : {}
}
