import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { heicHeader, phonePhoto, plainImage } from '~/modules/media/test-photos'
import { eventually } from '../support/eventually'
import { useTestSite } from '../support/site'
import { decodeHtml, text, Visitor } from '../support/visitor'

const site = useTestSite()

let staff: Visitor
beforeAll(async () => {
  staff = await site.sharedStaff()
})

/** The processes the site has started and that are still running. */
const childProcessesOf = (pid: number) =>
  spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.includes('media:render'))

const mediaDirectory = () => path.join(site.server.dataDir, 'media')
const storedNames = () => (existsSync(mediaDirectory()) ? readdirSync(mediaDirectory()).sort() : [])

function uploadForm(file: Uint8Array, name: string, fields: Record<string, string> = {}) {
  const form = new FormData()
  form.set('intent', 'upload')
  form.set('file', new File([Buffer.from(file)], name, { type: 'image/jpeg' }))
  form.set('collection', 'portrait')
  for (const [field, value] of Object.entries(fields)) form.set(field, value)
  return form
}

/** The message shown next to the file field of the upload form. */
function fileFieldMessage(html: string) {
  return text(/<p id="[^"]*-file-error"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '').trim()
}

describe('the media library', () => {
  it('takes a phone photo with a GPS position, and serves its files without it, cached for a year', async () => {
    const before = storedNames()
    const uploaded = await staff.upload('/admin/media', uploadForm(await phonePhoto(), 'IMG_0042.JPG', { title: 'Coach on deck', altText: 'The head coach on the pool deck' }))
    expect(uploaded.status).toBe(302)
    expect(uploaded.location).toBe('/admin/media')

    // The pipeline runs in the background: the library shows the photo ready once its files are made.
    const page = await eventually(() => staff.get('/admin/media'), (answer) => /\/media\/[0-9a-f]{32}\.webp/.test(answer.html))
    const thumbnail = decodeHtml(page.html).match(/\/media\/[0-9a-f]{32}\.webp/)?.[0]
    expect(thumbnail).toBeDefined()
    // The photo was made in a child process of the site's, which ends with the work (and gives its memory back).
    expect(await eventually(() => childProcessesOf(site.server.process.pid!), (children) => children.length === 0)).toEqual([])

    const file = await new Visitor(site.url).get(thumbnail!)
    expect(file.status).toBe(200)
    expect(file.headers.get('Content-Type')).toBe('image/webp')
    expect(file.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(file.headers.get('Set-Cookie')).toBeNull()
    expect(Buffer.from(file.bytes).includes(Buffer.from('LabTestPhone'))).toBe(false)
    expect(Buffer.from(file.bytes).includes(Buffer.from('Exif'))).toBe(false)

    // The upload as sent is kept, with its metadata, and has no address.
    const original = storedNames().find((name) => name.startsWith('original-') && !before.includes(name))!
    expect(readFileSync(path.join(mediaDirectory(), original)).includes(Buffer.from('LabTestPhone'))).toBe(true)
    for (const address of [`/media/${original}`, `/media/${original.slice('original-'.length)}`, `/media/${original.slice('original-'.length)}.jpg`, '/media/..%2Fmedia%2Foriginal']) {
      const answer = await new Visitor(site.url).get(address)
      expect(answer.status, address).toBe(404)
      expect(answer.headers.get('Cache-Control'), address).not.toContain('immutable')
    }
  })

  it('answers a file it does not make with a message next to the file field, and keeps nothing', async () => {
    const before = storedNames()
    const cases: Array<[Uint8Array, string, string]> = [
      [new TextEncoder().encode('%PDF-1.7 a price list'), 'prices.pdf', 'This file is not a photo the site can use. Upload a JPEG, PNG or WebP image.'],
      [heicHeader(), 'IMG_0043.HEIC', 'This is an iPhone HEIC photo'],
      [await plainImage(10_000, 10_000), 'panorama.jpg', 'This photo is 100 megapixels (10000 × 10000); the site takes photos of up to 40 megapixels.'],
      [await plainImage(200, 150), 'thumb.jpg', 'This photo is 200 × 150 pixels; a team or coach portrait needs at least 320 × 320 to look sharp.'],
    ]
    for (const [bytes, name, message] of cases) {
      const answer = await staff.upload('/admin/media', uploadForm(bytes, name))
      expect(answer.status, name).toBe(400)
      expect(fileFieldMessage(answer.html), name).toContain(message)
      expect(answer.html).toMatch(/aria-invalid="true"[^>]*type="file"|type="file"[^>]*aria-invalid="true"/)
    }
    const empty = await staff.upload('/admin/media', uploadForm(new Uint8Array(), 'empty.jpg'))
    expect(fileFieldMessage(empty.html)).toBe('Choose a file to upload.')
    expect(storedNames()).toEqual(before)
  })

  it('refuses an upload larger than the limit before reading it, saying the limit next to the file field', async () => {
    const answer = await staff.upload('/admin/media', uploadForm(new Uint8Array(40 * 1024 * 1024), 'huge.jpg'))
    expect(answer.status).toBe(413)
    expect(fileFieldMessage(answer.html)).toBe('This file is too large: a photo may be 32 MB at most, a video loop 20 MB.')
  })

  it('takes a short MP4 loop and serves it, in byte ranges, without where it was filmed', async () => {
    const filmed = readFileSync(new URL('../fixtures/loop-location.mp4', import.meta.url))
    const form = uploadForm(filmed, 'pool-loop.mp4', { collection: 'loop', title: 'Pool loop', decorative: 'on' })
    form.set('file', new File([filmed], 'pool-loop.mp4', { type: 'video/mp4' }))
    expect((await staff.upload('/admin/media', form)).status).toBe(302)
    // Its public file appears in the library once the pipeline has made it.
    const page = await eventually(() => staff.get('/admin/media'), (answer) => /\/media\/[0-9a-f]{32}\.mp4/.test(answer.html))
    const address = decodeHtml(page.html).match(/\/media\/[0-9a-f]{32}\.mp4/)?.[0]
    expect(address).toBeDefined()
    const whole = await new Visitor(site.url).get(address!)
    expect(whole.headers.get('Content-Type')).toBe('video/mp4')
    expect(whole.bytes.length).toBe(filmed.length)
    expect(Buffer.from(whole.bytes).includes(Buffer.from('+12.9716+077.5946'))).toBe(false)
    const part = await new Visitor(site.url).request(address!, { headers: { Range: 'bytes=0-99' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('Content-Range')).toBe(`bytes 0-99/${filmed.length}`)

    const long = readFileSync(new URL('../fixtures/loop-long.mp4', import.meta.url))
    const refused = uploadForm(long, 'long.mp4', { collection: 'loop' })
    refused.set('file', new File([long], 'long.mp4', { type: 'video/mp4' }))
    const answer = await staff.upload('/admin/media', refused)
    expect(answer.status).toBe(400)
    expect(fileFieldMessage(answer.html)).toContain('30 seconds at most')
  })

  it('asks for alt text or a decorative mark, never both', async () => {
    const answer = await staff.upload('/admin/media', uploadForm(await phonePhoto(), 'IMG_0044.JPG', { altText: 'A swimmer', decorative: 'on' }))
    expect(answer.status).toBe(400)
    expect(decodeHtml(text(answer.html))).toContain('A decorative image has no alt text: clear the field, or untick "decorative".')
  })
})
