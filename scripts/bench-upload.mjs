// A 1 GB clip uploaded with tus while a page is requested in a loop, on the built server with PGlite
// (a newcomer's setup, files on disk). Reports the server's peak memory (RSS) during the upload, the
// other page's latency before and during it, the upload's rate, and the time to the first byte of
// a range request for the video ("the video's start time"), at its start and in its middle.
// Usage: npm run bench:upload [-- --size-mb 1024 --idle-seconds 5 --postgres]
// --postgres: the site on a fresh database of the PostgreSQL server at BENCH_POSTGRES_URL
// (default postgres://postgres@127.0.0.1:5432/postgres), as in production, instead of PGlite.
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ensureBuild } from './ensure-build.mjs'
import { onPostgres, options, percentile, request, residentBytes, signInStaff, startSiteOn, stoppedSiteDatabase } from './bench-support.mjs'

const { 'size-mb': sizeMb, 'idle-seconds': idleSeconds, postgres } = options({ 'size-mb': 1024, 'idle-seconds': 5, postgres: false })
const MB = 1024 * 1024
const SIZE = sizeMb * MB
const ADMIN = { email: 'bench.staff@lab.example', password: 'bench-staff-password-1' }
ensureBuild()

const work = mkdtempSync(path.join(tmpdir(), 'swimlab-bench-upload-'))
const dataDir = path.join(work, 'data')
const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const databaseName = `swimlab_bench_upload_${Date.now()}`
const databaseUrl = postgres ? Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString() : undefined

if (postgres) await onPostgres(adminUrl, [[`CREATE DATABASE ${databaseName}`]])

const startSite = () => startSiteOn({ dataDir, databaseUrl, admin: ADMIN })

/** A confirmed booking with an analysis, written straight into the stopped site's database. */
async function addAnalysis() {
  const client = await stoppedSiteDatabase(dataDir, databaseUrl)
  const reference = 'SWP-0000012345'
  const booking = await client.query(
    `INSERT INTO bookings (reference, product_code, swimmer_name, customer_name, customer_email, start_time, end_time, amount_paise, status, origin, confirmed_at)
     VALUES ($1, (SELECT code FROM catalogue_items ORDER BY code LIMIT 1), 'Bench Swimmer', 'Bench Parent', 'bench.parent@example.com', '09:00', '10:00', 0, 'confirmed', 'complimentary', now()) RETURNING id`,
    [reference],
  )
  const analysis = await client.query('INSERT INTO analyses (booking_id) VALUES ($1) RETURNING id', [booking.rows[0].id])
  await client.close()
  return { reference, analysisId: analysis.rows[0].id }
}

async function makeVideoFile(file) {
  const out = createWriteStream(file)
  const block = Buffer.alloc(MB)
  for (let index = 0; index < block.length; index++) block[index] = (index * 7919) & 0xff
  Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0]).copy(block)
  for (let chunk = 0; chunk < sizeMb; chunk++) {
    const piece = Buffer.from(block)
    if (chunk > 0) piece.writeUInt32BE(chunk, 0)
    if (!out.write(piece)) await new Promise((resolve) => out.once('drain', resolve))
  }
  await new Promise((resolve) => out.end(resolve))
}

/** Requests `url` one after another until `until()` is true; the latencies in ms. */
async function pageLoop(url, headers, until) {
  const latencies = []
  let failures = 0
  while (!until()) {
    const answer = await request(url, { headers })
    if (answer.status !== 200) failures += 1
    latencies.push(answer.ms)
  }
  return { latencies: latencies.sort((a, b) => a - b), failures }
}

const summary = ({ latencies, failures }) => `${latencies.length} requests, p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1).toFixed(1)} ms${failures ? `, ${failures} failed` : ''}`

let site
try {
  site = await startSite()
  await site.stop()
  const { reference, analysisId } = await addAnalysis()
  site = await startSite()
  const { base, pid } = site
  const cookie = await signInStaff(base, ADMIN)
  const staffHeaders = { Cookie: cookie }
  const page = `${base}/admin/bookings/${reference}/analysis/clips`
  if ((await request(page, { headers: staffHeaders })).status !== 200) throw new Error('The clips page did not answer 200')

  const file = path.join(work, 'clip.mp4')
  await makeVideoFile(file)
  process.stdout.write(`Upload of ${sizeMb} MB with tus on ${postgres ? 'PostgreSQL' : 'PGlite'} (files on disk), ${new Date().toISOString()}\n`)

  const idleUntil = Date.now() + idleSeconds * 1000
  const idle = await pageLoop(page, staffHeaders, () => Date.now() > idleUntil)
  const baseline = await residentBytes(pid)

  const tus = { 'Tus-Resumable': '1.0.0', Cookie: cookie, Origin: base }
  const metadata = Object.entries({ analysisId, title: 'Bench clip', angle: 'underwater_side', filename: 'clip.mp4' }).map(([name, value]) => `${name} ${Buffer.from(String(value)).toString('base64')}`).join(',')
  const created = await request(`${base}/uploads/clips`, { method: 'POST', headers: { ...tus, 'Upload-Length': String(SIZE), 'Upload-Metadata': metadata } })
  if (created.status !== 201) throw new Error(`Creating the upload failed: ${created.status} ${created.body}`)

  let peak = baseline
  const sampler = setInterval(() => void residentBytes(pid).then((bytes) => (peak = Math.max(peak, bytes)), () => {}), 50)
  let uploading = true
  const started = Date.now()
  const during = pageLoop(page, staffHeaders, () => !uploading)
  const patched = await request(`${base}${created.headers.location}`, { method: 'PATCH', headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(SIZE) }, body: createReadStream(file, { highWaterMark: 256 * 1024 }) })
  const seconds = (Date.now() - started) / 1000
  uploading = false
  clearInterval(sampler)
  const loaded = await during
  if (patched.status !== 204) throw new Error(`The upload failed: ${patched.status} ${patched.body}`)
  const clipId = patched.headers['clip-id']

  const firstBytes = async (range) => {
    const times = []
    for (let run = 0; run < 20; run++) {
      const answer = await request(`${base}/analyses/clips/${clipId}/video`, { headers: { ...staffHeaders, Range: range } })
      if (answer.status !== 206) throw new Error(`Range ${range}: ${answer.status}`)
      times.push(answer.firstByteMs)
    }
    return times.sort((a, b) => a - b)
  }
  const start = await firstBytes('bytes=0-1048575')
  const middle = await firstBytes(`bytes=${Math.floor(SIZE / 2)}-${Math.floor(SIZE / 2) + MB - 1}`)

  process.stdout.write(
    [
      `upload: ${seconds.toFixed(1)} s, ${(sizeMb / seconds).toFixed(0)} MB/s`,
      `server RSS: ${(baseline / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB during (+${((peak - baseline) / MB).toFixed(0)} MB)`,
      `the clips page (staff, rendered from the database), idle ${idleSeconds} s: ${summary(idle)}`,
      `the clips page while uploading: ${summary(loaded)}`,
      `the video's start time (first byte of bytes=0-1048575, 20 runs): p50 ${percentile(start, 50).toFixed(1)} ms, max ${start.at(-1).toFixed(1)} ms`,
      `a range from the middle (first byte, 20 runs): p50 ${percentile(middle, 50).toFixed(1)} ms, max ${middle.at(-1).toFixed(1)} ms`,
      '',
    ].join('\n'),
  )
} finally {
  await site?.stop().catch(() => {})
  rmSync(work, { recursive: true, force: true })
  if (postgres) await onPostgres(adminUrl, [[`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`]])
}
