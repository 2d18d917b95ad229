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
import sharp from 'sharp'
import { ensureBuild } from './ensure-build.mjs'
import { childrenResidentBytes, cpuMsOf, freshDatabase, options, request, residentBytes, signInStaff, startSiteOn, stoppedSiteDatabase } from './bench-support.mjs'

const { photos, megapixels, postgres } = options({ photos: 5, megapixels: 12, postgres: false })
const MB = 1024 * 1024
const GROWTH_LIMIT = 300 * MB
const ADMIN = { email: 'bench.staff@lab.example', password: 'bench-staff-password-1' }
/** GPS position of the lab's pool, as a phone writes it into EXIF: the pipeline must drop it. */
/** The settings of the memory allocator the server is given from this command's environment. */
const ALLOCATOR_ENV = Object.fromEntries(['MALLOC_ARENA_MAX', 'LD_PRELOAD'].filter((name) => process.env[name]).map((name) => [name, process.env[name]]))
const GPS = { GPSLatitudeRef: 'N', GPSLatitude: '12/1 58/1 4455/100', GPSLongitudeRef: 'E', GPSLongitude: '77/1 35/1 3371/100' }
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

/**
 * A photo that compresses as a camera's does (3-6 MB at 12 megapixels): a gradient with shapes of
 * its own colours under fine grain, so each of them is different; saved at JPEG quality 90 with a
 * phone's EXIF (make, model, GPS), every other one stored on its side with orientation 6.
 */
async function cameraPhoto(index, { width, height }) {
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
  return (index % 2 === 1 ? photo.withMetadata({ orientation: 6 }) : photo).jpeg({ quality: 90 }).toBuffer()
}

/** The upload form as a browser posts it: the multipart body and its Content-Type. */
async function uploadForm(bytes, index) {
  const form = new FormData()
  form.append('intent', 'upload')
  form.append('file', new Blob([bytes], { type: 'image/jpeg' }), `IMG_${4200 + index}.jpg`)
  form.append('collection', 'lab')
  form.append('title', `Bench photo ${index + 1}`)
  form.append('altText', `Bench photo ${index + 1}: the lab's pool from the starting blocks`)
  const encoded = new Response(form)
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('Content-Type') }
}

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

/** The library page's status of every item, counted. */
async function libraryStatuses(base, headers) {
  const page = await request(`${base}/admin/media`, { headers })
  if (page.status !== 200) throw new Error(`The library page answered ${page.status}`)
  const html = page.body.toString('utf8')
  const count = (text) => html.split(`>${text}</strong>`).length - 1
  return { ready: count('Ready'), processing: count('Being processed'), failed: count('Could not be processed') }
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
