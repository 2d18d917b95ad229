import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analysisClips } from '~/db/schema'
import { useTestSite } from '../support/site'
import { text, type Visitor } from '../support/visitor'
import { createUpload, fileBytes, makeVideoFile, patchFrom, prepareAnalysisFixture, residentBytes, sha256Of, uploadOffset, type AnalysisFixture, type TusCaller } from '../support/clip-uploads'
import { expectRanges } from '../support/ranges'

let fixture: AnalysisFixture
/** A clip whose poster was set before the site kept an AVIF beside the WebP: its file is written once the site has started. */
const legacyPoster = { clipId: 0, posterKey: `poster-${'e'.repeat(32)}`, bytes: Buffer.alloc(0) }
const site = useTestSite(
  {},
  {
    prepare: async (db) => {
      fixture = await prepareAnalysisFixture(db)
      const [clip] = await db
        .insert(analysisClips)
        .values({ analysisId: fixture.published, title: 'Before AVIF', angle: 'overhead', storageKey: 'e'.repeat(32), contentType: 'video/mp4', sizeBytes: 1000, posterKey: legacyPoster.posterKey, posterContentType: 'image/webp' })
        .returning({ id: analysisClips.id })
      legacyPoster.clipId = clip!.id
      legacyPoster.bytes = await sharp({ create: { width: 64, height: 36, channels: 3, background: '#1d4ed8' } }).webp().toBuffer()
    },
  },
)

const MB = 1024 * 1024
let work: string
let staff: Visitor
let staffCaller: TusCaller
beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'clip-uploads-'))
  staff = await site.sharedStaff()
  staffCaller = { url: site.url, cookie: cookieOf(staff) }
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

const cookieOf = (visitor: Visitor) => [...visitor.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
const storedFiles = () => (existsSync(path.join(site.server.dataDir, 'analysis-files')) ? readdirSync(path.join(site.server.dataDir, 'analysis-files')).sort() : [])
const storedPath = (key: string) => path.join(site.server.dataDir, 'analysis-files', key)
const clipsPage = (reference: string) => `/admin/bookings/${reference}/analysis/clips`
/** What Chrome asks for when it fetches an image, a video's poster among them. */
const CHROME_IMAGES = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'

/** Staff set a clip's poster on the booking's clips page. */
function postPoster(clipId: number, reference: string, bytes: Uint8Array, name: string) {
  const form = new FormData()
  form.set('intent', 'poster')
  form.set('clipId', String(clipId))
  form.set('poster', new File([Buffer.from(bytes)], name))
  return staff.upload(clipsPage(reference), form)
}

/** A small video (an 'ftyp' box, then `size` bytes in all), uploaded in one POST; its clip's id. */
async function smallClip(analysisId: number, title: string, size = 1000) {
  const bytes = new Uint8Array(size)
  for (let index = 0; index < size; index++) bytes[index] = (index * 31) & 0xff
  bytes.set([0, 0, 0, 0x18, ...new TextEncoder().encode('ftypisom')])
  const created = await createUpload(staffCaller, size, { analysisId, title, angle: 'underwater_side', filename: `${title}.mp4` }, bytes)
  expect(created.status, created.text).toBe(201)
  return { clipId: created.clipId, bytes, key: created.location!.split('/').pop()! }
}

describe('resumable clip uploads (tus)', () => {
  it('a 200 MB clip cut off half-way resumes from the offset the site has, arrives byte for byte, and the server\'s memory stays bounded', async () => {
    const size = 200 * MB
    const file = path.join(work, 'race.mp4')
    const sha256 = await makeVideoFile(file, size)
    const pid = site.server.process.pid!
    const baseline = await residentBytes(pid)
    let peak = baseline
    const sampler = setInterval(() => void residentBytes(pid).then((bytes) => (peak = Math.max(peak, bytes)), () => {}), 50)
    try {
      const created = await createUpload(staffCaller, size, { analysisId: fixture.published, title: '50 m freestyle, side', angle: 'underwater_side', filename: 'race.mp4' })
      expect(created.status, created.text).toBe(201)
      expect(created.location).toMatch(/^\/uploads\/clips\/[0-9a-f]{32}$/)

      expect(await patchFrom(staffCaller, created.location!, file, { offset: 0, size, cutAfter: 100 * MB })).toBe('cut')
      const after = await uploadOffset(staffCaller, created.location!)
      expect(after.status).toBe(200)
      expect(after.length).toBe(size)
      expect(after.offset).toBeGreaterThan(0)
      expect(after.offset).toBeLessThan(size)

      const finished = await patchFrom(staffCaller, created.location!, file, { offset: after.offset, size })
      expect(finished).toMatchObject({ status: 204, offset: size })
      const clipId = (finished as { clipId: number }).clipId
      expect(clipId).toBeGreaterThan(0)
      expect(await sha256Of(storedPath(created.location!.split('/').pop()!))).toBe(sha256)

      const page = await staff.get(clipsPage(fixture.references[0]!))
      expect(page.status).toBe(200)
      expect(text(page.html)).toContain('50 m freestyle, side')
      expect(page.html).toContain(`/analyses/clips/${clipId}/video`)
    } finally {
      clearInterval(sampler)
    }
    // A bound, not a speed: 200 MB went through without the server holding it.
    expect(peak - baseline).toBeLessThan(300 * MB)
  }, 180_000)

  it('refuses a file that is not a video with a message, and keeps nothing of it', async () => {
    const before = storedFiles()
    const bytes = new TextEncoder().encode('Lap times: 31.2, 30.8, 31.0\n'.repeat(40))
    const refused = await createUpload(staffCaller, bytes.length, { analysisId: fixture.published, title: 'Notes', angle: 'overhead', filename: 'notes.txt' }, bytes)
    expect(refused.status).toBe(400)
    expect(refused.text).toBe('notes.txt is not a video (mp4, webm or mov).')
    expect(storedFiles()).toEqual(before)

    // Sent in two parts, the refusal comes with the last one.
    const created = await createUpload(staffCaller, bytes.length, { analysisId: fixture.published, title: 'Notes', angle: 'overhead', filename: 'notes.txt' })
    const file = path.join(work, 'notes.txt')
    await import('node:fs/promises').then((fs) => fs.writeFile(file, bytes))
    const patched = await patchFrom(staffCaller, created.location!, file, { offset: 0, size: bytes.length })
    expect(patched).toMatchObject({ status: 400, text: 'notes.txt is not a video (mp4, webm or mov).' })
    expect(storedFiles()).toEqual(before)
    expect((await uploadOffset(staffCaller, created.location!)).status).toBe(404)
  })

  it('checks the title, the camera angle and the analysis', async () => {
    const upload = (metadata: Record<string, string | number>) => createUpload(staffCaller, 10, { analysisId: fixture.published, title: 'Start', angle: 'overhead', filename: 'start.mp4', ...metadata })
    expect(await upload({ title: ' ' })).toMatchObject({ status: 400, text: 'Give the clip a title.' })
    expect(await upload({ title: 'x'.repeat(121) })).toMatchObject({ status: 400, text: "A clip's title has at most 120 characters." })
    expect(await upload({ angle: 'drone' })).toMatchObject({ status: 400, text: 'Choose the camera angle.' })
    expect(await upload({ analysisId: 999999 })).toMatchObject({ status: 404, text: 'There is no such analysis.' })
    const tooLarge = await createUpload(staffCaller, 2 * 1024 * MB + 1, { analysisId: fixture.published, title: 'Start', angle: 'overhead', filename: 'start.mp4' })
    expect(tooLarge.status).toBe(413)
  })

  it('only signed-in staff may upload, resume or see an upload, and never from another site', async () => {
    const metadata = { analysisId: fixture.spare, title: 'Start', angle: 'overhead', filename: 'start.mp4' }
    expect((await createUpload({ url: site.url }, 10, metadata)).status).toBe(401)
    expect((await createUpload({ url: site.url, cookie: fixture.ownerCookie }, 10, metadata)).status).toBe(403)
    const crossSite = await createUpload({ ...staffCaller, origin: 'https://evil.example' }, 10, metadata)
    expect(crossSite.status).toBe(403)
    expect(crossSite.text).toContain('another site')

    const created = await createUpload(staffCaller, 10, metadata)
    expect(created.status).toBe(201)
    expect((await uploadOffset({ url: site.url }, created.location!)).status).toBe(401)
    expect((await uploadOffset({ url: site.url, cookie: fixture.strangerCookie }, created.location!)).status).toBe(403)
    const file = path.join(work, 'ten.bin')
    await import('node:fs/promises').then((fs) => fs.writeFile(file, Buffer.alloc(10)))
    expect(await patchFrom({ url: site.url, cookie: fixture.ownerCookie }, created.location!, file, { offset: 0, size: 10 })).toMatchObject({ status: 403 })
    expect((await uploadOffset(staffCaller, created.location!)).offset).toBe(0)
    const cancelled = await fetch(`${site.url}${created.location}`, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', Cookie: staffCaller.cookie!, Origin: site.url } })
    expect(cancelled.status).toBe(204)
  })

  it('an analysis has at most 4 uploads under way; a cancelled one makes room', async () => {
    const metadata = { analysisId: fixture.spare, title: 'Start', angle: 'overhead', filename: 'start.mp4' }
    const started = []
    for (let index = 0; index < 4; index++) started.push(await createUpload(staffCaller, 10 * MB, metadata))
    expect(started.map((upload) => upload.status)).toEqual([201, 201, 201, 201])
    const fifth = await createUpload(staffCaller, 10 * MB, metadata)
    expect(fifth.status).toBe(429)
    expect(fifth.text).toContain('already has 4 uploads under way')
    const cancel = (location: string | null) => fetch(`${site.url}${location}`, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', Cookie: staffCaller.cookie!, Origin: site.url } })
    expect((await cancel(started[0]!.location)).status).toBe(204)
    const sixth = await createUpload(staffCaller, 10 * MB, metadata)
    expect(sixth.status).toBe(201)
    for (const upload of [...started.slice(1), sixth]) expect((await cancel(upload.location)).status).toBe(204)
  })
})

describe('serving clips and posters', () => {
  let clip: Awaited<ReturnType<typeof smallClip>>
  let draftClip: Awaited<ReturnType<typeof smallClip>>
  beforeAll(async () => {
    clip = await smallClip(fixture.published, 'Ranges')
    draftClip = await smallClip(fixture.draft, 'Draft clip')
  })

  it('answers byte ranges from disk: first bytes, a middle, the last bytes, to the end, beyond the end (416), and HEAD', async () => {
    await expectRanges({ get: (headers, method) => fetch(`${site.url}/analyses/clips/${clip.clipId}/video`, { method, headers: { ...headers, Cookie: staffCaller.cookie! } }), bytes: clip.bytes, contentType: 'video/mp4' })
  })

  it('only to those who may see the analysis: staff, the family, a share link in force; a draft to staff only', async () => {
    const video = (id: number, cookie?: string, share?: string) => fetch(`${site.url}/analyses/clips/${id}/video${share ? `?share=${share}` : ''}`, { headers: cookie ? { Cookie: cookie } : {} })
    const statuses = async (id: number) => ({
      guest: (await video(id)).status,
      owner: (await video(id, fixture.ownerCookie)).status,
      stranger: (await video(id, fixture.strangerCookie)).status,
      staff: (await video(id, staffCaller.cookie)).status,
      share: (await video(id, undefined, fixture.share.valid)).status,
      // A coach who happens to be signed in to an account of their own.
      signedInShare: (await video(id, fixture.strangerCookie, fixture.share.valid)).status,
      revoked: (await video(id, undefined, fixture.share.revoked)).status,
      expired: (await video(id, undefined, fixture.share.expired)).status,
    })
    expect(await statuses(clip.clipId)).toEqual({ guest: 404, owner: 200, stranger: 404, staff: 200, share: 200, signedInShare: 200, revoked: 404, expired: 404 })
    expect(await statuses(draftClip.clipId)).toEqual({ guest: 404, owner: 404, stranger: 404, staff: 200, share: 404, signedInShare: 404, revoked: 404, expired: 404 })
    expect((await video(999999, staffCaller.cookie)).status).toBe(404)

    const answer = await video(clip.clipId, fixture.ownerCookie)
    expect(answer.headers.get('Cache-Control')).toBe('private, no-store')
    expect(answer.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(answer.headers.get('X-Page-Cache')).toBeNull()
    expect(Buffer.from(await answer.arrayBuffer()).equals(Buffer.from(clip.bytes))).toBe(true)
    // The address of the coach's copy holds their token: never sent on as a referrer. Refusals are as private as the file.
    const shared = await video(clip.clipId, undefined, fixture.share.valid)
    expect(shared.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(shared.headers.get('Cache-Control')).toBe('private, no-store')
    for (const refused of [await video(clip.clipId), await video(clip.clipId, undefined, fixture.share.revoked), await video(999999, staffCaller.cookie), await video(draftClip.clipId, fixture.ownerCookie)]) {
      expect(refused.status).toBe(404)
      expect(refused.headers.get('Cache-Control')).toBe('private, no-store')
      expect(refused.headers.get('Referrer-Policy')).toBe('no-referrer')
    }
  })

  it('a poster (PNG, JPEG or WebP, checked by its bytes) is served to the same viewers', async () => {
    const image = await fileBytes(path.resolve('public/og-image.png'))
    const refused = await postPoster(clip.clipId, fixture.references[0]!, new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'poster.png')
    expect(refused.status).toBe(400)
    expect(text(refused.html)).toContain('The poster must be a JPEG, PNG or WebP image.')
    expect((await postPoster(clip.clipId, fixture.references[0]!, image, 'poster.png')).status).toBe(302)

    const poster = (cookie?: string, share?: string) => fetch(`${site.url}/analyses/clips/${clip.clipId}/poster${share ? `?share=${share}` : ''}`, { headers: cookie ? { Cookie: cookie } : {} })
    const shown = await poster(fixture.ownerCookie)
    expect(shown.status).toBe(200)
    // Kept as the page shows it: a WebP, smaller than the PNG sent, to a client that does not ask for AVIF.
    expect(shown.headers.get('Content-Type')).toBe('image/webp')
    expect(shown.headers.get('Cache-Control')).toBe('private, no-store')
    expect(shown.headers.get('Vary')).toBe('Accept')
    const served = Buffer.from(await shown.arrayBuffer())
    expect(served.subarray(8, 12).toString('latin1')).toBe('WEBP')
    expect(served.length).toBeLessThan(image.length)
    const shared = await poster(undefined, fixture.share.valid)
    expect(shared.status).toBe(200)
    expect(shared.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect((await poster(fixture.strangerCookie, fixture.share.valid)).status).toBe(200)
    const hidden = await poster()
    expect(hidden.status).toBe(404)
    expect(hidden.headers.get('Cache-Control')).toBe('private, no-store')
    expect((await poster(fixture.strangerCookie)).status).toBe(404)
    expect((await poster(undefined, fixture.share.revoked)).status).toBe(404)
  })

  it('a poster is served as AVIF to a browser that asks for it, as WebP to one that does not, and to no one else either way', async () => {
    const image = await fileBytes(path.resolve('public/og-image.png'))
    expect((await postPoster(clip.clipId, fixture.references[0]!, image, 'poster.png')).status).toBe(302)
    const poster = (accept: string, cookie?: string) => fetch(`${site.url}/analyses/clips/${clip.clipId}/poster`, { headers: { Accept: accept, ...(cookie && { Cookie: cookie }) } })
    const avif = await poster(CHROME_IMAGES, fixture.ownerCookie)
    expect(avif.status).toBe(200)
    expect(avif.headers.get('Content-Type')).toBe('image/avif')
    expect(avif.headers.get('Vary')).toBe('Accept')
    expect(avif.headers.get('Cache-Control')).toBe('private, no-store')
    expect(avif.headers.get('Referrer-Policy')).toBe('no-referrer')
    const avifBytes = Buffer.from(await avif.arrayBuffer())
    expect(avifBytes.subarray(4, 12).toString('latin1')).toBe('ftypavif')

    const webp = await poster('image/webp,image/*,*/*;q=0.8', fixture.ownerCookie)
    expect(webp.headers.get('Content-Type')).toBe('image/webp')
    expect(webp.headers.get('Vary')).toBe('Accept')
    expect(Buffer.from(await webp.arrayBuffer()).subarray(8, 12).toString('latin1')).toBe('WEBP')
    expect(avifBytes.length).toBeLessThan(Number(webp.headers.get('Content-Length')))

    // Another family's account, and nobody signed in, still get nothing.
    for (const refused of [await poster(CHROME_IMAGES, fixture.strangerCookie), await poster(CHROME_IMAGES)]) {
      expect(refused.status).toBe(404)
      expect(refused.headers.get('Content-Type')).toBe('text/plain; charset=utf-8')
      expect(refused.headers.get('Cache-Control')).toBe('private, no-store')
    }
  })

  it('a poster set before the site kept an AVIF of it is served as its WebP, whatever the browser takes', async () => {
    writeFileSync(storedPath(legacyPoster.posterKey), legacyPoster.bytes)
    const answer = await fetch(`${site.url}/analyses/clips/${legacyPoster.clipId}/poster`, { headers: { Accept: CHROME_IMAGES, Cookie: fixture.ownerCookie } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('Content-Type')).toBe('image/webp')
    expect(answer.headers.get('Vary')).toBe('Accept')
    expect(Buffer.from(await answer.arrayBuffer()).equals(legacyPoster.bytes)).toBe(true)
  })

  it('the results page preloads its main clip\'s poster from the top of the head, and only when that clip has one', async () => {
    const main = await smallClip(fixture.spare, 'Start, main camera')
    const more = await smallClip(fixture.spare, 'Start, second camera')
    const page = async (path: string, cookie?: string) => {
      const answer = await fetch(`${site.url}${path}`, { headers: cookie ? { Cookie: cookie } : {} })
      expect(answer.status).toBe(200)
      return answer.text()
    }
    const preloads = (html: string) => html.slice(0, html.indexOf('</head>')).match(/<link rel="preload"[^>]*as="image"[^>]*>/g) ?? []
    const image = await fileBytes(path.resolve('public/og-image.png'))
    expect((await postPoster(more.clipId, fixture.references[2]!, image, 'poster.png')).status).toBe(302)
    expect(preloads(await page(`/analyses/${fixture.spare}`, fixture.ownerCookie))).toEqual([])

    expect((await postPoster(main.clipId, fixture.references[2]!, image, 'poster.png')).status).toBe(302)
    const html = await page(`/analyses/${fixture.spare}`, fixture.ownerCookie)
    const preload = `<link rel="preload" href="/analyses/clips/${main.clipId}/poster" as="image" fetchPriority="high"/>`
    expect(preloads(html)).toEqual([preload])
    // Fetched with the stylesheet, not after it.
    expect(html.indexOf(preload)).toBeLessThan(html.indexOf('rel="stylesheet"'))
    // A coach's copy preloads the address that carries their token.
    const shared = await page(`/shared/${fixture.share.valid}/analyses/${fixture.spare}`)
    expect(preloads(shared)).toEqual([`<link rel="preload" href="/analyses/clips/${main.clipId}/poster?share=${fixture.share.valid}" as="image" fetchPriority="high"/>`])
  })
})

describe('the staff page of an analysis\'s clips', () => {
  it('edits a clip\'s title, angle and chapters without JavaScript, refuses chapters out of order, and removing a clip deletes its files', async () => {
    const { clipId, key } = await smallClip(fixture.spare, 'Turn')
    const page = clipsPage(fixture.references[2]!)
    const shown = await staff.get(page)
    expect(shown.status).toBe(200)
    expect(shown.headers.get('Cache-Control')).toBe('private, no-store')
    expect(text(shown.html)).toContain('Uploading a clip needs JavaScript.')

    const form = (chapters: Array<[string, string]>) => {
      const body = new URLSearchParams({ intent: 'update', clipId: String(clipId), title: 'Turn at 25 m', angle: 'above_water', eventId: '' })
      for (const [kind, time] of chapters) {
        body.append('chapterKind', kind)
        body.append('chapterTime', time)
      }
      return body
    }
    const refused = await staff.post(page, form([['start', '0:05'], ['turn', '0:04']]))
    expect(refused.status).toBe(400)
    expect(text(refused.html)).toContain('Chapter 2 must come after chapter 1 (0:05).')
    expect((await staff.post(page, form([['start', '0:00'], ['turn', '0:03.2'], ['', '']]))).status).toBe(302)
    const saved = await staff.get(page)
    expect(text(saved.html)).toContain('Turn at 25 m')
    expect(saved.html).toContain('value="0:03.2"')

    expect(existsSync(storedPath(key))).toBe(true)
    expect((await staff.post(page, { intent: 'remove', clipId: String(clipId) })).status).toBe(302)
    expect(existsSync(storedPath(key))).toBe(false)
    expect(existsSync(storedPath(`${key}.json`))).toBe(false)
    expect((await fetch(`${site.url}/analyses/clips/${clipId}/video`, { headers: { Cookie: staffCaller.cookie! } })).status).toBe(404)
  })

  it('says so for a booking that is not confirmed, and opens no analysis for it', async () => {
    const page = await staff.get(clipsPage(fixture.references[3]!))
    expect(page.status).toBe(409)
    expect(text(page.html)).toContain('Only a confirmed booking can be analysed.')
    expect(text(page.html)).not.toContain('Upload a clip')
    expect((await staff.get(clipsPage('SWP-0000000000'))).status).toBe(404)
  })

  it('is for staff only', async () => {
    const page = clipsPage(fixture.references[0]!)
    expect((await fetch(`${site.url}${page}`, { redirect: 'manual' })).status).toBe(302)
    expect((await fetch(`${site.url}${page}`, { headers: { Cookie: fixture.ownerCookie } })).status).toBe(403)
  })
})
