import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { inspectImage, renderImage, widthsFor } from './images.server'
import { heicHeader, phonePhoto, plainImage } from './test-photos'

describe('inspecting an upload', () => {
  it('takes a phone photo and reports its upright size', async () => {
    const inspection = await inspectImage(await phonePhoto(), 'portrait')
    expect(inspection).toEqual({ ok: true, contentType: 'image/jpeg', width: 1200, height: 1600 })
  })

  it('takes a PNG straight from a phone too', async () => {
    const png = await phonePhoto({ format: 'png' })
    expect(await inspectImage(png, 'portrait')).toEqual({ ok: true, contentType: 'image/png', width: 1200, height: 1600 })
    const { files } = await renderImage(png, 'portrait')
    expect(files.filter((file) => file.format === 'jpeg').map((file) => [file.width, file.height])).toEqual([[160, 213], [320, 427], [640, 853]])
  })

  it('asks for a JPEG instead of an iPhone HEIC photo', async () => {
    const inspection = await inspectImage(heicHeader(), 'portrait')
    expect(inspection).toMatchObject({ ok: false, message: expect.stringContaining('HEIC') })
    expect(inspection).toMatchObject({ message: expect.stringContaining('JPEG') })
  })

  it('refuses a file that is not an image, whatever its name', async () => {
    expect(await inspectImage(new TextEncoder().encode('%PDF-1.7 not a photo'), 'lab')).toEqual({ ok: false, message: 'This file is not a photo the site can use. Upload a JPEG, PNG or WebP image.' })
    expect(await inspectImage(new Uint8Array(), 'lab')).toEqual({ ok: false, message: 'Choose a photo to upload.' })
  })

  it('refuses a damaged image', async () => {
    const photo = await phonePhoto()
    expect(await inspectImage(photo.subarray(0, 40), 'portrait')).toMatchObject({ ok: false, message: expect.stringContaining('could not be read') })
  })

  it('refuses a 100-megapixel image, which sharp itself would take, naming the limit', async () => {
    const huge = await plainImage(10_000, 10_000)
    expect(await sharp(huge).metadata()).toMatchObject({ width: 10_000, height: 10_000 })
    expect(await inspectImage(huge, 'lab')).toEqual({
      ok: false,
      message:
        'This photo is 100 megapixels (10000 × 10000); the site takes photos of up to 40 megapixels. Upload a smaller copy (a phone camera\'s usual 12-megapixel photo is fine).',
    })
  })

  it('refuses a photo too small for where it is used, counting its upright size', async () => {
    expect(await inspectImage(await plainImage(800, 600), 'lab')).toEqual({ ok: false, message: 'This photo is 800 × 600 pixels; a photo of the lab needs at least 1280 × 720 to look sharp.' })
    // Stored 400 × 300 but upright 300 × 400: too narrow for a portrait of 320 × 320.
    expect(await inspectImage(await phonePhoto({ width: 400, height: 300 }), 'portrait')).toMatchObject({ ok: false, message: expect.stringContaining('300 × 400') })
  })
})

describe('the public files of a photo', () => {
  it('turns a phone photo upright and makes every width in AVIF, WebP and JPEG', async () => {
    const { files, placeholder } = await renderImage(await phonePhoto(), 'portrait')
    expect(files.map((file) => `${file.format} ${file.width}×${file.height}`)).toEqual([
      'avif 160×213', 'webp 160×213', 'jpeg 160×213',
      'avif 320×427', 'webp 320×427', 'jpeg 320×427',
      'avif 640×853', 'webp 640×853', 'jpeg 640×853',
    ])
    for (const file of files) {
      const metadata = await sharp(file.bytes).metadata()
      expect(metadata.format).toBe(file.format === 'jpeg' ? 'jpeg' : file.format === 'webp' ? 'webp' : 'heif')
      expect([metadata.width, metadata.height]).toEqual([file.width, file.height])
      expect(file.name).toMatch(/^[0-9a-f]{32}\.(avif|webp|jpg)$/)
    }
    // Upright: the band along the stored top edge is now the right edge.
    const jpeg = files.find((file) => file.format === 'jpeg' && file.width === 640)!
    const { data, info } = await sharp(jpeg.bytes).raw().toBuffer({ resolveWithObject: true })
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)]
    expect(pixel(info.width - 5, Math.floor(info.height / 2))[0]).toBeGreaterThan(200)
    expect(pixel(5, Math.floor(info.height / 2))[2]).toBeGreaterThan(200)
    expect(placeholder).toMatch(/^data:image\/webp;base64,/)
    expect(placeholder.length).toBeLessThan(600)
  })

  it('leaves every piece of metadata behind: no GPS position, no EXIF, no XMP, no ICC profile', async () => {
    const photo = await phonePhoto()
    const before = await sharp(photo).metadata()
    expect(before.exif?.toString('latin1')).toContain('LabTestPhone')
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true) // the GPS IFD's tag
    const { files } = await renderImage(photo, 'portrait')
    for (const file of files) {
      const after = await sharp(file.bytes).metadata()
      expect(after.exif).toBeUndefined()
      expect(after.xmp).toBeUndefined()
      expect(after.icc).toBeUndefined()
      expect(after.orientation ?? 1).toBe(1)
      expect(file.bytes.includes(Buffer.from('LabTestPhone'))).toBe(false)
      expect(file.bytes.includes(Buffer.from('Exif\0\0'))).toBe(false)
    }
  })

  it('keeps a logo\'s transparency in AVIF and WebP, and puts it on white in the JPEG', async () => {
    const logo = await sharp({ create: { width: 400, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer()
    const { files } = await renderImage(logo, 'partner')
    expect((await sharp(files.find((file) => file.format === 'webp')!.bytes).metadata()).hasAlpha).toBe(true)
    const jpeg = await sharp(files.find((file) => file.format === 'jpeg')!.bytes).raw().toBuffer()
    expect([...jpeg.subarray(0, 3)]).toEqual([255, 255, 255])
  })

  it('makes the layouts\' widths up to the collection\'s widest, never wider than the photo', () => {
    expect(widthsFor(4032, 1920)).toEqual([160, 320, 640, 960, 1440, 1920])
    expect(widthsFor(1200, 1920)).toEqual([160, 320, 640, 960, 1200])
    expect(widthsFor(3000, 640)).toEqual([160, 320, 640])
  })
})
