// Five phone photos of 12 megapixels uploaded to the media library at the same moment, on the built
// server with PGlite (a newcomer's setup, files on disk). Reports the server's resident memory (RSS)
// before and at its peak while the uploads arrive and the pipeline makes their files, the time
// from the first upload to all of them ready, and each photo's time in the pipeline. Exits 1 when
// the server grew by more than 300 MB.
// Usage: npm run bench:media [-- --photos 5 --megapixels 12 --postgres]
// --postgres: the site on a fresh database of the PostgreSQL server at TEST_POSTGRES_URL
// (default postgres://postgres@127.0.0.1:5432/postgres), as in production, instead of PGlite.
// MALLOC_ARENA_MAX and LD_PRELOAD, when set, are handed to the server: how many arenas glibc's
// malloc gives its threads, or another allocator (LD_PRELOAD=/lib/x86_64-linux-gnu/libjemalloc.so.2).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ensureBuild } from './ensure-build.mjs'
import { cameraPhoto, childrenResidentBytes, cpuMsOf, freshDatabase, libraryStatuses, mediaUploadForm, options, request, residentBytes, signInStaff, startSiteOn, stoppedSiteDatabase } from './bench-support.mjs'

const { photos, megapixels, postgres } = options({ photos: 5, megapixels: 12, postgres: false })
const MB = 1024 * 1024
const GROWTH_LIMIT = 300 * MB
const ADMIN = { email: 'bench.staff@lab.example', password: 'bench-staff-password-1' }
/** The settings of the memory allocator the server is given from this command's environment. */
const ALLOCATOR_ENV = Object.fromEntries(['MALLOC_ARENA_MAX', 'LD_PRELOAD'].filter((name) => process.env[name]).map((name) => [name, process.env[name]]))
ensureBuild()

const work = mkdtempSync(path.join(tmpdir(), 'swimlab-bench-media-'))
const dataDir = path.join(work, 'data')
const database = postgres ? await freshDatabase('swimlab_bench_media') : undefined
const databaseUrl = database?.url

/** A phone camera's 4:3 frame, scaled from its 12-megapixel 4032 × 3024 to `megapixels`. */
function frameSize() {
  const scale = Math.sqrt(megapixels / 12)
  return { width: Math.round(4032 * scale), height: Math.round(3024 * scale) }
}

/** The upload form of the `index`th photo, as a browser posts it. */
const uploadForm = (bytes, index) =>
  mediaUploadForm({ bytes, fileName: `IMG_${4200 + index}.jpg`, collection: 'lab', title: `Bench photo ${index + 1}`, altText: `Bench photo ${index + 1}: the lab's pool from the starting blocks` })

/**
 * Waits until the server is idle: under 2 % of a core used and its RSS moved by less than 2 MB, for
 * three seconds in a row (the start's work done, what it freed given back). Its RSS then.
 */
async function settledResidentBytes(pid) {
  const deadline = Date.now() + 60_000
  let quiet = 0
  for (let cpu = cpuMsOf([pid]), rss = await residentBytes(pid); Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const [nowCpu, nowRss] = [cpuMsOf([pid]), await residentBytes(pid)]
    quiet = nowCpu - cpu < 20 && Math.abs(nowRss - rss) < 2 * MB ? quiet + 1 : 0
    if (quiet === 3) return nowRss
    ;[cpu, rss] = [nowCpu, nowRss]
  }
  throw new Error('The server did not settle within a minute')
}

/** Each photo's time in the pipeline, which takes one upload at a time: from when it was stored, or the previous one was done, to its own end. */
async function pipelineTimes() {
  const client = await stoppedSiteDatabase(dataDir, databaseUrl)
  try {
    const { rows } = await client.query('SELECT title, created_at, processed_at FROM media_items ORDER BY processed_at')
    let previous = 0
    return rows.map((row) => {
      const stored = new Date(row.created_at).getTime()
      const done = new Date(row.processed_at).getTime()
      const ms = done - Math.max(stored, previous)
      previous = done
      return { title: row.title, ms }
    })
  } finally {
    await client.close()
  }
}

const mb = (bytes) => `${(bytes / MB).toFixed(0)} MB`

let site
try {
  const size = frameSize()
  const images = []
  for (let index = 0; index < photos; index++) images.push(await cameraPhoto(index, size))
  const forms = await Promise.all(images.map(uploadForm))

  site = await startSiteOn({ dataDir, databaseUrl, admin: ADMIN, env: ALLOCATOR_ENV })
  const { base, pid } = site
  const cookie = await signInStaff(base, ADMIN)
  const staffHeaders = { Cookie: cookie }
  await libraryStatuses(base, staffHeaders)
  const baseline = await settledResidentBytes(pid)
  process.stdout.write(
    `${photos} photos of ${size.width} × ${size.height} (${images.map((bytes) => (bytes.length / MB).toFixed(1)).join(', ')} MB) uploaded at once on ${postgres ? 'PostgreSQL' : 'PGlite'} (files on disk)${Object.entries(ALLOCATOR_ENV).map(([name, value]) => `, ${name}=${value}`).join('')}, ${new Date().toISOString()}\n`,
  )

  // The lowest RSS seen too: memory the server gives back during the run was not part of its baseline.
  // The growth is the largest rise of the RSS above the lowest it had been before: a server that
  // gives back start-up memory during the run (a collection of the heap) and then grows counts from there.
  let rise = 0
  let peak = { bytes: baseline, atMs: 0 }
  let lowest = baseline
  // The image renderer, a child process that lives while photos are made: its own peak, and the peak of both together.
  let rendererPeak = 0
  let togetherPeak = baseline
  const started = Date.now()
  const sampler = setInterval(
    () =>
      void Promise.all([residentBytes(pid), childrenResidentBytes(pid)]).then(
        ([bytes, children]) => {
          if (bytes > peak.bytes) peak = { bytes, atMs: Date.now() - started }
          lowest = Math.min(lowest, bytes)
          rise = Math.max(rise, bytes - lowest)
          rendererPeak = Math.max(rendererPeak, children)
          togetherPeak = Math.max(togetherPeak, bytes + children)
        },
        () => {},
      ),
    50,
  )
  const answers = await Promise.all(
    forms.map(({ body, contentType }) => request(`${base}/admin/media`, { method: 'POST', headers: { ...staffHeaders, Origin: base, 'Content-Type': contentType, 'Content-Length': String(body.length) }, body })),
  )
  const uploadedMs = Date.now() - started
  const afterUploads = await residentBytes(pid)
  for (const answer of answers) if (answer.status !== 302) throw new Error(`An upload answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`)
  // The server's RSS as each photo shows ready: what the pipeline keeps between one photo and the next.
  const atReady = []
  for (;;) {
    const statuses = await libraryStatuses(base, staffHeaders)
    if (statuses.failed) throw new Error(`${statuses.failed} of the photos could not be processed`)
    if (statuses.ready > atReady.length) {
      const bytes = await residentBytes(pid)
      while (atReady.length < statuses.ready) atReady.push(bytes)
    }
    if (statuses.ready === photos) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const readyMs = Date.now() - started
  clearInterval(sampler)
  const end = await residentBytes(pid)
  await site.stop()
  site = undefined
  const times = await pipelineTimes()

  const growth = rise
  process.stdout.write(
    [
      `uploads answered: ${(uploadedMs / 1000).toFixed(1)} s for all ${photos} (each ${answers.map((answer) => (answer.ms / 1000).toFixed(1)).join(', ')} s); RSS then ${mb(afterUploads)}`,
      `server RSS: baseline ${mb(baseline)}, lowest during the run ${mb(lowest)}, peak ${mb(peak.bytes)} at ${(peak.atMs / 1000).toFixed(1)} s, when all were ready ${mb(end)}`,
      `server RSS as the photos showed ready: ${atReady.map(mb).join(', ')}`,
      `growth (the largest rise above the lowest RSS before it, from the baseline on): ${mb(growth)} (bound: ${mb(GROWTH_LIMIT)})`,
      `image renderer (child process) peak RSS: ${mb(rendererPeak)}; server and renderer together: peak ${mb(togetherPeak)}, ${mb(togetherPeak - Math.min(baseline, lowest))} above the server's baseline`,
      `first upload to all ready: ${(readyMs / 1000).toFixed(1)} s`,
      `each photo in the pipeline: ${times.map((time) => `${(time.ms / 1000).toFixed(1)} s`).join(', ')} (mean ${(times.reduce((sum, time) => sum + time.ms, 0) / times.length / 1000).toFixed(1)} s)`,
      '',
    ].join('\n'),
  )
  if (growth > GROWTH_LIMIT) {
    process.stdout.write(`The server grew by more than ${mb(GROWTH_LIMIT)}.\n`)
    process.exitCode = 1
  }
} finally {
  await site?.stop().catch(() => {})
  rmSync(work, { recursive: true, force: true })
  await database?.drop()
}
