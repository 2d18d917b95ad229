import { randomBytes } from 'node:crypto'
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { mediaItems, partners, siteSettings, testimonials, venues, type MediaVariant } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addSeconds, durationMs } from '~/lib/lab-time'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { cachedContent } from '~/db/content-cache.server'
import { contentName, inspectImage, renderImage, type RenderedImage } from './images.server'
import { COLLECTION_CODES, COLLECTIONS, fitsShape, isCollection, type MediaCollection, type MediaShape } from './limits'
import { stripMp4Metadata } from './mp4-metadata.server'
import { mediaPath, pictureOf, type Picture } from './picture'
import { mediaFileStore } from './store.server'
import { inspectVideoLoop } from './video-loop.server'

/** Uploads waiting for the pipeline at once: a bound on what a burst of uploads makes the workers owe. */
export const MAX_PROCESSING = 20
/** How long a worker has to make an upload's files before another may take the upload over. */
const CLAIM_SECONDS = 600
/** Tries before an upload that keeps stopping its worker (it runs out of memory, say) is given up. */
const MAX_ATTEMPTS = 3

const queuedListeners = new Set<() => void>()

/** Lets the pipeline start on an upload as soon as it is stored instead of at its next poll. */
export function onMediaQueued(listener: () => void) {
  queuedListeners.add(listener)
  return () => queuedListeners.delete(listener)
}

/** The process making a photo stopped (out of memory, or it took too long): the upload is tried again, not failed. */
export class RendererStoppedError extends Error {
  constructor() {
    super('The image renderer stopped')
  }
}

/** Makes a photo's public files: in this process (`renderImage`), or in a child process of the site's. */
export type ImageRenderer = (bytes: Uint8Array, collection: MediaCollection) => Promise<RenderedImage>

export class MediaNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'That photo or video is no longer in the library.')
  }
}

export type UploadInput = { collection: MediaCollection; title: string; altText: string; decorative: boolean; fileName: string; bytes: Uint8Array }

/** What an upload is, or the message for the file field when it cannot be used where staff said. */
async function inspectUpload(bytes: Uint8Array, collection: MediaCollection) {
  if (COLLECTIONS[collection].kind === 'image') {
    const image = await inspectImage(bytes, collection)
    return image.ok ? { ...image, kind: 'image' as const, durationMs: null, hasSound: null } : image
  }
  const video = inspectVideoLoop(bytes)
  if (!video.ok) return video
  const rule = COLLECTIONS[collection]
  if (video.width < rule.minWidth || video.height < rule.minHeight) {
    return { ok: false as const, message: `This video is ${video.width} × ${video.height} pixels; ${rule.noun} needs at least ${rule.minWidth} × ${rule.minHeight}.` }
  }
  return { ok: true as const, kind: 'video' as const, contentType: video.contentType, width: video.width, height: video.height, durationMs: video.durationMs, hasSound: video.hasSound }
}

/**
 * Takes an upload into the library: checked by its bytes (a message for the file field when it
 * cannot be used), stored privately as sent, and queued for the pipeline, which makes the public
 * files in the background. Returns the new item's id.
 */
export async function uploadMedia(actor: Actor, input: UploadInput, now = new Date()) {
  const inspection = await inspectUpload(input.bytes, input.collection)
  if (!inspection.ok) throw new DomainError('invalid', inspection.message, 'file')
  const [waiting] = await db().select({ total: count() }).from(mediaItems).where(eq(mediaItems.status, 'processing'))
  if ((waiting?.total ?? 0) >= MAX_PROCESSING) throw new DomainError('rate_limited', `${MAX_PROCESSING} uploads are still being processed. Wait a minute for them to finish, then upload again.`, 'file')
  const originalKey = `original-${randomBytes(16).toString('hex')}`
  const store = mediaFileStore()
  await store.put(originalKey, input.bytes, inspection.contentType)
  try {
    const id = await db().transaction(async (tx) => {
      const [row] = await tx
        .insert(mediaItems)
        .values({
          kind: inspection.kind,
          collection: input.collection,
          title: input.title || input.fileName || 'Untitled',
          altText: input.decorative ? '' : input.altText,
          decorative: input.decorative,
          originalKey,
          originalType: inspection.contentType,
          originalBytes: input.bytes.length,
          width: inspection.width,
          height: inspection.height,
          durationMs: inspection.durationMs,
          hasSound: inspection.hasSound,
          uploadedBy: actor.id,
          createdAt: now,
        })
        .returning({ id: mediaItems.id })
      await recordAudit(tx, actor, { action: 'media.upload', entityType: 'media_item', entityId: row!.id, summary: `Uploaded ${inspection.kind === 'image' ? 'the photo' : 'the video'} "${input.title || input.fileName}" (${COLLECTIONS[input.collection].label})` }, now)
      return row!.id
    })
    for (const listener of queuedListeners) listener()
    return id
  } catch (error) {
    await store.remove(originalKey).catch(() => {})
    throw error
  }
}

export type MediaDetailsInput = { id: number; title: string; altText: string; decorative: boolean; posterId: number | null }

/** Renames an item, sets its alt text (or marks it decorative) and, for a video, its poster photo. */
export async function updateMediaDetails(actor: Actor, input: MediaDetailsInput, now = new Date()) {
  return db().transaction(async (tx) => {
    const [item] = await tx.select({ id: mediaItems.id, kind: mediaItems.kind, title: mediaItems.title }).from(mediaItems).where(eq(mediaItems.id, input.id)).for('update')
    if (!item) throw new MediaNotFoundError()
    if (item.kind === 'video' && input.posterId !== null) await requireUsablePhoto(tx, input.posterId, null, 'posterId')
    await tx
      .update(mediaItems)
      .set({ title: input.title, altText: input.decorative ? '' : input.altText, decorative: input.decorative, posterId: item.kind === 'video' ? input.posterId : null })
      .where(eq(mediaItems.id, input.id))
    await recordAudit(tx, actor, { action: 'media.update', entityType: 'media_item', entityId: input.id, summary: `Changed the details of "${item.title}"` }, now)
  })
}

/** What a place on the site takes: a photo or a video loop, of some collections, in a shape. */
export type MediaUse = { kind: 'image' | 'video'; collections: MediaCollection[]; shape?: MediaShape }

const SHAPE_REFUSALS: Record<MediaShape, string> = {
  landscape: 'That photo is not wide enough for this place: choose a landscape photo (wider than it is tall).',
  upright: 'That photo is wider than it is tall: choose an upright photo for this place.',
}

/**
 * Whether an item may be shown where staff are choosing it: in the library, of the right kind,
 * collection and shape, its files made, and described (alt text, or marked decorative by choice).
 * Read in the transaction that puts it on a page.
 */
export async function requireUsableMedia(executor: Executor, id: number, use: MediaUse, field: string) {
  const [item] = await executor
    .select({ kind: mediaItems.kind, collection: mediaItems.collection, status: mediaItems.status, altText: mediaItems.altText, decorative: mediaItems.decorative, width: mediaItems.width, height: mediaItems.height })
    .from(mediaItems)
    .where(eq(mediaItems.id, id))
    .for('share')
  const what = use.kind === 'image' ? 'photo' : 'video loop'
  if (!item || item.kind !== use.kind) throw new DomainError('invalid', `Choose a ${what} from the media library.`, field)
  if (!use.collections.includes(item.collection as MediaCollection)) {
    throw new DomainError('invalid', `Choose ${use.collections.map((collection) => COLLECTIONS[collection].noun).join(' or ')} from the media library.`, field)
  }
  if (item.status !== 'ready') throw new DomainError('invalid', `That ${what} is still being processed (or could not be): choose it once the library shows it ready.`, field)
  if (!item.altText && !item.decorative) throw new DomainError('invalid', `That ${what} has no alt text yet. Describe it in the media library first.`, field)
  if (use.shape && !fitsShape(use.shape, item.width, item.height)) throw new DomainError('invalid', SHAPE_REFUSALS[use.shape], field)
}

/** A photo of one collection (or any, for null), as `requireUsableMedia`. */
export function requireUsablePhoto(executor: Executor, id: number, collection: MediaCollection | null, field: string) {
  return requireUsableMedia(executor, id, { kind: 'image', collections: collection ? [collection] : COLLECTION_CODES.filter((code) => COLLECTIONS[code].kind === 'image') }, field)
}

/** Where each item is shown: the team, the coach and the pages' pictures from the settings, partners' and venues' logos, the venues' photos, videos that use a photo as their poster, and testimonials. */
async function usagesIn(executor: Executor) {
  const usages = new Map<number, string[]>()
  const use = (id: number | null | undefined, where: string) => {
    if (id) usages.set(id, [...(usages.get(id) ?? []), where])
  }
  const [settings] = await executor.select({ coach: siteSettings.coach, team: siteSettings.team, pagePictures: siteSettings.pagePictures }).from(siteSettings).where(eq(siteSettings.id, 1))
  use(settings?.coach.photoId, 'the camp coach (banner)')
  settings?.team.forEach((member, index) => use(member.photoId, `team member ${index + 1} (${member.name})`))
  for (const id of Object.values(settings?.pagePictures ?? {})) use(id, 'the pictures on the pages (settings)')
  const posters = await executor.select({ id: mediaItems.id, title: mediaItems.title, posterId: mediaItems.posterId }).from(mediaItems).where(sql`${mediaItems.posterId} IS NOT NULL`)
  for (const video of posters) use(video.posterId, `the poster of "${video.title}"`)
  const logos = await executor.select({ name: partners.name, logoId: partners.logoId }).from(partners).where(sql`${partners.logoId} IS NOT NULL`)
  for (const partner of logos) use(partner.logoId, `the logo of ${partner.name} (partners and venues)`)
  const places = await executor.select({ name: venues.name, photoId: venues.photoId }).from(venues).where(sql`${venues.photoId} IS NOT NULL`)
  for (const venue of places) use(venue.photoId, `the photo of the venue ${venue.name}`)
  const quoted = await executor.select({ id: testimonials.id, name: testimonials.name, photoId: testimonials.photoId }).from(testimonials).where(sql`${testimonials.photoId} IS NOT NULL`)
  for (const testimonial of quoted) use(testimonial.photoId, `the photo of ${testimonial.name}'s testimonial`)
  return usages
}

/**
 * Removes an item that nothing shows any more, then its files (those no other item shares: the
 * same photo uploaded twice has the same public files). Refused, naming where, while it is used.
 */
export async function deleteMedia(actor: Actor, id: number, now = new Date()) {
  const removed = await db().transaction(async (tx) => {
    // The settings row is locked first, as choosing a photo for the team does: one waits for the other.
    await tx.select({ id: siteSettings.id }).from(siteSettings).where(eq(siteSettings.id, 1)).for('update')
    const [item] = await tx.select({ title: mediaItems.title, originalKey: mediaItems.originalKey, variants: mediaItems.variants }).from(mediaItems).where(eq(mediaItems.id, id)).for('update')
    if (!item) throw new MediaNotFoundError()
    const usedBy = (await usagesIn(tx)).get(id)
    if (usedBy) throw new DomainError('conflict', `"${item.title}" is shown as ${usedBy.join(' and ')}. Choose another there first.`)
    await tx.delete(mediaItems).where(eq(mediaItems.id, id))
    await recordAudit(tx, actor, { action: 'media.delete', entityType: 'media_item', entityId: id, summary: `Deleted "${item.title}" from the media library` }, now)
    return item
  })
  await removeFiles([removed.originalKey, ...removed.variants.map((variant) => variant.name)])
}

/** Deletes stored files no item refers to any more; a failure is left to the sweep. */
async function removeFiles(keys: string[]) {
  const kept = await referencedKeys()
  const store = mediaFileStore()
  await Promise.all(keys.filter((key) => !kept.has(key)).map((key) => store.remove(key).catch(() => {})))
}

/** Every stored file some item refers to. The library holds tens or hundreds of items, not millions. */
async function referencedKeys() {
  const rows = await db().select({ originalKey: mediaItems.originalKey, variants: mediaItems.variants }).from(mediaItems)
  return new Set(rows.flatMap((row) => [row.originalKey, ...row.variants.map((variant) => variant.name)]))
}

/** Takes the oldest upload no worker holds, for CLAIM_SECONDS; skips those another worker has. */
async function claimUpload(now: Date) {
  const result = await db().execute<{ id: number; kind: 'image' | 'video'; collection: string; original_key: string; attempts: number; width: number; height: number }>(sql`
    UPDATE media_items
       SET claimed_until = ${addSeconds(now, CLAIM_SECONDS).toISOString()}::timestamptz, attempts = attempts + 1
     WHERE id = (
       SELECT id FROM media_items
        WHERE status = 'processing' AND (claimed_until IS NULL OR claimed_until <= ${now.toISOString()}::timestamptz)
        ORDER BY created_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
    RETURNING id, kind, collection, original_key, attempts, width, height`)
  const [row] = result.rows
  return row && { ...row, id: Number(row.id), attempts: Number(row.attempts), width: Number(row.width), height: Number(row.height) }
}

type Claimed = NonNullable<Awaited<ReturnType<typeof claimUpload>>>

/** The public files of one upload: a photo's widths and formats, or a video without its metadata. */
async function makeFiles(upload: Claimed, original: Buffer, render: ImageRenderer): Promise<{ files: Array<MediaVariant & { bytes: number; data: Uint8Array; contentType: string }>; placeholder: string | null }> {
  if (upload.kind === 'video') {
    const data = stripMp4Metadata(original)
    const name = contentName(data, 'mp4')
    return { files: [{ format: 'mp4', width: upload.width, height: upload.height, name, bytes: data.length, data, contentType: 'video/mp4' }], placeholder: null }
  }
  const collection = isCollection(upload.collection) ? upload.collection : 'lab'
  const rendered = await render(original, collection)
  const contentTypes = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' }
  return {
    files: rendered.files.map((file) => ({ format: file.format, width: file.width, height: file.height, name: file.name, bytes: file.bytes.length, data: file.bytes, contentType: contentTypes[file.format] })),
    placeholder: rendered.placeholder,
  }
}

const failed = (id: number, failure: string) => db().update(mediaItems).set({ status: 'failed', failure, claimedUntil: null }).where(and(eq(mediaItems.id, id), eq(mediaItems.status, 'processing')))

/**
 * The pipeline: makes the public files of every waiting upload, one at a time (a photo is
 * decoded whole, so one at a time keeps the memory a worker needs to one photo's), and marks each
 * ready, or failed with a reason staff can act on. Any number of instances may run it side by
 * side. Returns how many uploads it finished.
 */
export async function processPendingMedia(now: () => Date = () => new Date(), render: ImageRenderer = renderImage) {
  let finished = 0
  for (let upload = await claimUpload(now()); upload; upload = await claimUpload(now())) {
    if (upload.attempts > MAX_ATTEMPTS) {
      await failed(upload.id, 'This upload could not be processed. Upload it again; if it fails again, try a smaller copy.')
      continue
    }
    const store = mediaFileStore()
    // A store that cannot be read is thrown: the claim runs out and the upload is tried again.
    const original = await store.readAll(upload.original_key)
    let made: Awaited<ReturnType<typeof makeFiles>>
    try {
      made = await makeFiles(upload, original, render)
    } catch (error) {
      // Tried again once the claim runs out (and given up after MAX_ATTEMPTS).
      if (error instanceof RendererStoppedError) throw error
      // The header was sound when it was checked, the pixels after it are not.
      await failed(upload.id, 'This file could not be processed: it may be damaged. Export it again and upload the new file.')
      continue
    }
    for (const file of made.files) await store.put(file.name, file.data, file.contentType)
    const variants = made.files.map(({ format, width, height, name, bytes }) => ({ format, width, height, name, bytes }))
    const [done] = await db()
      .update(mediaItems)
      .set({ status: 'ready', variants, placeholder: made.placeholder, claimedUntil: null, processedAt: now(), failure: null })
      .where(and(eq(mediaItems.id, upload.id), eq(mediaItems.status, 'processing')))
      .returning({ id: mediaItems.id })
    // Deleted while its files were being made: they go too.
    if (!done) await removeFiles(variants.map((variant) => variant.name))
    else finished += 1
  }
  return finished
}

/** Files in the store that no item refers to, older than a day (an upload whose row never came, a delete that failed). */
export async function sweepMediaFiles(now = new Date()) {
  const kept = await referencedKeys()
  const store = mediaFileStore()
  const before = now.getTime() - durationMs({ days: 1 })
  let removed = 0
  for await (const file of store.list()) {
    if (kept.has(file.key) || file.lastModified.getTime() > before) continue
    await store.remove(file.key)
    removed += 1
  }
  return removed
}

export type LibraryItem = Awaited<ReturnType<typeof libraryForStaff>>[number]

/** The library as the staff page lists it, newest first, with where each item is shown. */
export async function libraryForStaff() {
  const rows = await db()
    .select({
      id: mediaItems.id,
      kind: mediaItems.kind,
      collection: mediaItems.collection,
      title: mediaItems.title,
      altText: mediaItems.altText,
      decorative: mediaItems.decorative,
      status: mediaItems.status,
      failure: mediaItems.failure,
      width: mediaItems.width,
      height: mediaItems.height,
      originalBytes: mediaItems.originalBytes,
      variants: mediaItems.variants,
      placeholder: mediaItems.placeholder,
      posterId: mediaItems.posterId,
      durationMs: mediaItems.durationMs,
      hasSound: mediaItems.hasSound,
      createdAt: mediaItems.createdAt,
    })
    .from(mediaItems)
    .orderBy(desc(mediaItems.createdAt), desc(mediaItems.id))
  const usages = await usagesIn(db())
  return rows.map(({ variants, ...row }) => {
    const thumbnail = variants.filter((variant) => variant.format === 'webp' || variant.format === 'mp4').sort((a, b) => a.width - b.width)[0]
    return { ...row, thumbnail: thumbnail && row.kind === 'image' ? mediaPath(thumbnail.name) : null, video: row.kind === 'video' && thumbnail ? mediaPath(thumbnail.name) : null, usedBy: usages.get(row.id) ?? [] }
  })
}

/** The photos staff may choose for a place on the site: ready and described, of one collection. */
export async function usablePhotos(collection: MediaCollection) {
  return db()
    .select({ id: mediaItems.id, title: mediaItems.title, altText: mediaItems.altText })
    .from(mediaItems)
    .where(and(eq(mediaItems.kind, 'image'), eq(mediaItems.collection, collection), eq(mediaItems.status, 'ready'), sql`(${mediaItems.altText} <> '' OR ${mediaItems.decorative})`))
    .orderBy(asc(mediaItems.title), asc(mediaItems.id))
}

/** The items staff may choose for a place (see `requireUsableMedia`): ready and described, of its kind, collections and shape. */
export async function usableMedia(use: MediaUse) {
  const rows = await db()
    .select({ id: mediaItems.id, title: mediaItems.title, width: mediaItems.width, height: mediaItems.height })
    .from(mediaItems)
    .where(and(eq(mediaItems.kind, use.kind), inArray(mediaItems.collection, use.collections), eq(mediaItems.status, 'ready'), sql`(${mediaItems.altText} <> '' OR ${mediaItems.decorative})`))
    .orderBy(asc(mediaItems.title), asc(mediaItems.id))
  return rows.filter((row) => fitsShape(use.shape, row.width, row.height)).map(({ id, title }) => ({ id, title }))
}

/**
 * The photos the public pages may show, by id: ready and described. Kept with the rest of the
 * pages' content (cleared on every change to the library, announced by the database).
 */
export function publicPictures(): Promise<Map<number, Picture>> {
  return cachedContent('media', async () => {
    const rows = await db()
      .select({ id: mediaItems.id, altText: mediaItems.altText, decorative: mediaItems.decorative, width: mediaItems.width, height: mediaItems.height, placeholder: mediaItems.placeholder, variants: mediaItems.variants })
      .from(mediaItems)
      .where(and(eq(mediaItems.kind, 'image'), eq(mediaItems.status, 'ready'), sql`(${mediaItems.altText} <> '' OR ${mediaItems.decorative})`))
    return new Map(rows.map((row) => [row.id, pictureOf(row)]))
  })
}

/** A video loop as a page plays it: its MP4 and the photo shown before and instead of it. */
export type PublicLoop = { src: string; width: number; height: number; posterId: number | null }

/** The video loops the public pages may play, by id: ready and described (or decorative by choice). */
export function publicLoops(): Promise<Map<number, PublicLoop>> {
  return cachedContent('media-loops', async () => {
    const rows = await db()
      .select({ id: mediaItems.id, width: mediaItems.width, height: mediaItems.height, variants: mediaItems.variants, posterId: mediaItems.posterId })
      .from(mediaItems)
      .where(and(eq(mediaItems.kind, 'video'), eq(mediaItems.status, 'ready'), sql`(${mediaItems.altText} <> '' OR ${mediaItems.decorative})`))
    const loops = new Map<number, PublicLoop>()
    for (const { id, variants, ...loop } of rows) {
      const file = variants.find((variant) => variant.format === 'mp4')
      if (file) loops.set(id, { ...loop, src: mediaPath(file.name) })
    }
    return loops
  })
}
