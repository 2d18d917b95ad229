/** What the media library takes, shared by the server's checks and the staff page's fields. */

/** A phone camera's photo is 3-12 MB; a PNG export of one can be 30. */
export const IMAGE_MAX_BYTES = 32 * 1024 * 1024

/**
 * The most pixels an upload may have. The largest layout needs 1920 pixels across; a 48-megapixel
 * phone photo is taken at 12 by default. sharp's own limit (about 268 megapixels) would let one
 * upload hold a gigabyte of memory while it is decoded.
 */
export const IMAGE_MAX_PIXELS = 40_000_000

/** The widths the layouts ask for, up to a full-width hero on a large screen. */
export const IMAGE_WIDTHS = [160, 320, 640, 960, 1440, 1920] as const

export type MediaCollection = 'portrait' | 'lab' | 'pool' | 'underwater' | 'venue' | 'partner' | 'loop'

type CollectionRule = {
  label: string
  /** The collection in a sentence: "a photo of the lab needs at least …". */
  noun: string
  kind: 'image' | 'video'
  /** The smallest upload that still looks sharp where the collection is used (the shorter side for portraits). */
  minWidth: number
  minHeight: number
  /** The widest file worth making for where it is shown. */
  maxWidth: number
}

export const COLLECTIONS: Record<MediaCollection, CollectionRule> = {
  portrait: { label: 'Team and coach portrait', noun: 'a team or coach portrait', kind: 'image', minWidth: 320, minHeight: 320, maxWidth: 640 },
  lab: { label: 'The lab', noun: 'a photo of the lab', kind: 'image', minWidth: 1280, minHeight: 720, maxWidth: 1920 },
  pool: { label: 'Pool', noun: 'a pool photo', kind: 'image', minWidth: 1280, minHeight: 720, maxWidth: 1920 },
  underwater: { label: 'Underwater still', noun: 'an underwater still', kind: 'image', minWidth: 1280, minHeight: 720, maxWidth: 1920 },
  venue: { label: 'Venue', noun: 'a venue photo', kind: 'image', minWidth: 960, minHeight: 540, maxWidth: 1440 },
  partner: { label: 'Partner logo', noun: 'a partner logo', kind: 'image', minWidth: 160, minHeight: 80, maxWidth: 640 },
  loop: { label: 'Video loop for the hero', noun: 'a video loop', kind: 'video', minWidth: 640, minHeight: 360, maxWidth: 1920 },
}

export const COLLECTION_CODES = Object.keys(COLLECTIONS) as MediaCollection[]

export function isCollection(value: string): value is MediaCollection {
  return Object.hasOwn(COLLECTIONS, value)
}

/** How a place crops a photo: it needs one wider than tall, or taller than wide. */
export type MediaShape = 'landscape' | 'upright'

/** Whether a photo's proportions suit a place: a landscape one is wider than tall by a fifth, an upright one taller than wide. */
export function fitsShape(shape: MediaShape | undefined, width: number, height: number) {
  if (shape === 'landscape') return width >= height * 1.2
  if (shape === 'upright') return height > width
  return true
}

/** The largest video loop: it starts on the first visit, often over a phone's mobile data. */
export const VIDEO_LOOP_MAX_BYTES = 20 * 1024 * 1024
/** The longest loop: a longer one is a film, not a background, and costs visitors its bytes. */
export const VIDEO_LOOP_MAX_SECONDS = 30

/** The longest alt text: a sentence or two. Screen readers read it whole. */
export const ALT_TEXT_MAX = 250
export const MEDIA_TITLE_MAX = 120

/** "32 MB": a limit as a message states it. */
export function megabytes(bytes: number) {
  return `${Math.round(bytes / (1024 * 1024))} MB`
}
