import { createHash } from 'node:crypto'
import type { Metadata } from 'sharp'
import { imageTypeOf } from '~/modules/storage/signatures'
import { COLLECTIONS, IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS, IMAGE_WIDTHS, megabytes, type MediaCollection } from './limits'

let library: Promise<typeof import('sharp').default> | undefined

/**
 * sharp and its libvips, loaded at the first upload rather than when the site starts: tens of
 * milliseconds and about 20 MB in every process, most of which never sees a photo. libvips keeps
 * decoded images and open files in a cache of its own (by default up to 50 MB and 100 operations):
 * nothing here reads the same upload twice, so the cache would only hold memory.
 */
function loadSharp() {
  library ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false)
    return sharp
  })
  return library
}

export type ImageInspection =
  | { ok: true; contentType: 'image/jpeg' | 'image/png' | 'image/webp'; width: number; height: number }
  | { ok: false; message: string }

const refuse = (message: string): ImageInspection => ({ ok: false, message })

/**
 * An iPhone saves photos as HEIF ('High Efficiency'): an ISO media file ('ftyp' at byte 4) of one
 * of these brands. sharp's prebuilt libvips has no HEVC decoder, so such a photo gets a message
 * that says what to do instead of one that says the file is broken.
 */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'])

function isHeif(bytes: Uint8Array) {
  if (bytes.length < 12 || String.fromCharCode(...bytes.subarray(4, 8)) !== 'ftyp') return false
  return HEIF_BRANDS.has(String.fromCharCode(...bytes.subarray(8, 12)))
}

/** EXIF orientations 5 to 8 turn the picture a quarter: its upright width is the stored height. */
function uprightSize(width: number, height: number, orientation: number | undefined) {
  return orientation && orientation >= 5 ? { width: height, height: width } : { width, height }
}

/**
 * Whether an upload can become a photo of `collection`: an image by its bytes (not its name), within
 * the size and pixel limits, and large enough for where it is shown, upright. Reads only the header,
 * so it is quick enough for the request; the pixels are decoded later, by the pipeline.
 */
export async function inspectImage(bytes: Uint8Array, collection: MediaCollection): Promise<ImageInspection> {
  if (bytes.length === 0) return refuse('Choose a photo to upload.')
  if (isHeif(bytes)) {
    return refuse('This is an iPhone HEIC photo, which the site cannot read yet. Upload it as a JPEG: on the iPhone, choose Settings › Camera › Formats › Most Compatible, or share the photo as JPEG.')
  }
  const contentType = imageTypeOf(bytes)
  if (!contentType) return refuse('This file is not a photo the site can use. Upload a JPEG, PNG or WebP image.')
  if (bytes.length > IMAGE_MAX_BYTES) return refuse(`This photo is ${megabytes(bytes.length)}; a photo may be ${megabytes(IMAGE_MAX_BYTES)} at most.`)
  const sharp = await loadSharp()
  let metadata: Metadata
  try {
    metadata = await sharp(bytes).metadata()
  } catch {
    return refuse('This photo could not be read: the file may be damaged. Export it again and upload the new file.')
  }
  if (!metadata.width || !metadata.height) return refuse('This photo could not be read: the file may be damaged. Export it again and upload the new file.')
  const pixels = metadata.width * metadata.height
  if (pixels > IMAGE_MAX_PIXELS) {
    return refuse(
      `This photo is ${Math.round(pixels / 1_000_000)} megapixels (${metadata.width} × ${metadata.height}); the site takes photos of up to ${IMAGE_MAX_PIXELS / 1_000_000} megapixels. Upload a smaller copy (a phone camera's usual 12-megapixel photo is fine).`,
    )
  }
  const upright = uprightSize(metadata.width, metadata.height, metadata.orientation)
  const rule = COLLECTIONS[collection]
  if (upright.width < rule.minWidth || upright.height < rule.minHeight) {
    return refuse(`This photo is ${upright.width} × ${upright.height} pixels; ${rule.noun} needs at least ${rule.minWidth} × ${rule.minHeight} to look sharp.`)
  }
  return { ok: true, contentType, ...upright }
}

/** How the site's photos are encoded as AVIF: the media library's files and the clips' posters alike. */
const PHOTO_AVIF = { quality: 50, effort: 4 } as const

export type RenderedFile = { format: 'avif' | 'webp' | 'jpeg'; width: number; height: number; name: string; bytes: Buffer }
export type RenderedImage = { files: RenderedFile[]; placeholder: string }

const EXTENSIONS = { avif: 'avif', webp: 'webp', jpeg: 'jpg' } as const

/** A public file's name: the first 128 bits of its SHA-256 and its extension, so a new picture is a new address. */
export function contentName(bytes: Uint8Array, extension: string) {
  return `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${extension}`
}

/** The widths worth making: those of the layouts up to the collection's widest, and the photo's own when it is narrower. */
export function widthsFor(uprightWidth: number, maxWidth: number) {
  const widest = Math.min(uprightWidth, maxWidth)
  const widths: number[] = IMAGE_WIDTHS.filter((width) => width < widest)
  return [...widths, widest]
}

/**
 * The public files of a photo: turned upright from its EXIF orientation first, converted to sRGB,
 * then each width in AVIF, WebP and a JPEG for browsers that take neither (transparency flattened
 * onto white), and a tiny blurred copy for the moment before it loads. Nothing of the upload's
 * metadata is carried over: no EXIF (a phone's GPS position, its make and serial number), no XMP,
 * no ICC profile, no comment. The upload is decoded once, to at most the widest width needed.
 */
export async function renderImage(bytes: Uint8Array, collection: MediaCollection): Promise<RenderedImage> {
  const sharp = await loadSharp()
  const upright = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS })
    .autoOrient()
    .resize({ width: COLLECTIONS[collection].maxWidth, withoutEnlargement: true })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true })
  const { width, height, channels } = upright.info
  const source = () => sharp(upright.data, { raw: { width, height, channels } })
  const files: RenderedFile[] = []
  for (const target of widthsFor(width, COLLECTIONS[collection].maxWidth)) {
    const targetHeight = Math.max(1, Math.round((height * target) / width))
    const resized = await source().resize({ width: target, height: targetHeight }).raw().toBuffer({ resolveWithObject: true })
    const at = () => sharp(resized.data, { raw: { width: resized.info.width, height: resized.info.height, channels: resized.info.channels } })
    const encoded = {
      avif: await at().avif(PHOTO_AVIF).toBuffer(),
      webp: await at().webp({ quality: 76, effort: 4 }).toBuffer(),
      jpeg: await at().flatten({ background: '#ffffff' }).jpeg({ quality: 78, mozjpeg: true }).toBuffer(),
    }
    for (const format of ['avif', 'webp', 'jpeg'] as const) {
      files.push({ format, width: target, height: targetHeight, name: contentName(encoded[format], EXTENSIONS[format]), bytes: encoded[format] })
    }
  }
  const tiny = await source().resize({ width: 16 }).blur(1).webp({ quality: 40 }).toBuffer()
  return { files, placeholder: `data:image/webp;base64,${tiny.toString('base64')}` }
}

/** The widest a clip's poster is kept: the results page's video is at most about 1100 CSS pixels across. */
export const POSTER_WIDTH = 1280

/** A clip's poster in the two formats it is served in: `avif` to the browsers that take it, `webp` to the others. */
export type RenderedPoster = { webp: Uint8Array; avif: Uint8Array }

/**
 * A clip's poster as the results page shows it before the video plays: upright, at most
 * `POSTER_WIDTH` pixels wide, in sRGB, as WebP (which every browser that plays the clips shows) and
 * as AVIF encoded like the site's photos (fewer bytes for the largest thing a phone paints first on
 * the results page), without any of the upload's metadata (a frame saved on a phone
 * may carry where it was taken). The upload is decoded once for both. Null when the image cannot be read.
 */
export async function renderPoster(bytes: Uint8Array): Promise<RenderedPoster | null> {
  const sharp = await loadSharp()
  try {
    const upright = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS })
      .autoOrient()
      .resize({ width: POSTER_WIDTH, withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true })
    const { width, height, channels } = upright.info
    const poster = () => sharp(upright.data, { raw: { width, height, channels } })
    const webp = await poster().webp({ quality: 72, effort: 4 }).toBuffer()
    const avif = await poster().avif(PHOTO_AVIF).toBuffer()
    return { webp: new Uint8Array(webp), avif: new Uint8Array(avif) }
  } catch {
    return null
  }
}
