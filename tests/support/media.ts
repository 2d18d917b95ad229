import { randomBytes } from 'node:crypto'
import type { Db } from '~/db/client.server'
import { mediaItems, type MediaVariant } from '~/db/schema'
import type { MediaCollection } from '~/modules/media/limits'

export const PORTRAIT = { width: 480, height: 640 }
export const BLUR = 'data:image/webp;base64,UklGRg=='

/** The files the pipeline makes of a portrait (the rows only: the pages never read the files). */
function portraitFiles(size = PORTRAIT): MediaVariant[] {
  return (['avif', 'webp', 'jpeg'] as const).flatMap((format) =>
    [160, 320, 480].map((width) => ({ format, width, height: Math.round((width * size.height) / size.width), name: `${randomBytes(16).toString('hex')}.${format === 'jpeg' ? 'jpg' : format}`, bytes: 100 })),
  )
}

/** `size` is the upright photo's (a portrait's 480 × 640 unless given). */
type LibraryPhoto = { title: string; altText: string; status: 'ready' | 'processing'; decorative?: boolean; size?: { width: number; height: number } }

/** A portrait in the media library, as the pipeline leaves it (or still waiting for it). */
export function addPortrait(db: Db, photo: LibraryPhoto) {
  return addPhoto(db, 'portrait', photo)
}

/** A photo of a collection in the media library (a partner logo, a venue), as the pipeline leaves it or still waiting for it. */
export async function addPhoto(db: Db, collection: MediaCollection, photo: LibraryPhoto) {
  const [row] = await db
    .insert(mediaItems)
    .values({
      kind: 'image',
      collection,
      decorative: photo.decorative ?? false,
      title: photo.title,
      altText: photo.altText,
      status: photo.status,
      originalKey: `original-${randomBytes(16).toString('hex')}`,
      originalType: 'image/jpeg',
      originalBytes: 1000,
      ...(photo.size ?? PORTRAIT),
      variants: photo.status === 'ready' ? portraitFiles(photo.size) : [],
      placeholder: photo.status === 'ready' ? BLUR : null,
    })
    .returning({ id: mediaItems.id, variants: mediaItems.variants })
  return row!
}
