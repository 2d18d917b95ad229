import { randomBytes } from 'node:crypto'
import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { analyses, analysisClips, analysisEvents, bookings, type ClipChapter } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addSeconds } from '~/lib/lab-time'
import { logger } from '~/lib/logger.server'
import { openAnalysis } from '~/modules/analyses/analyses.server'
import { CAMERA_ANGLES, CHAPTER_KINDS, eventLabel } from '~/modules/analyses/catalog'
import { CLIP_MAX_BYTES, CLIP_TITLE_MAX, POSTER_MAX_BYTES } from './limits'
import { renderPoster } from '~/modules/media/images.server'
import { imageTypeOf, SIGNATURE_BYTES, videoTypeOf } from '~/modules/storage/signatures'
import { analysisFileStore, assertFileKey, UPLOAD_EXPIRY_MS } from './store.server'

export { CLIP_MAX_BYTES, CLIP_TITLE_MAX, POSTER_MAX_BYTES }
const FILENAME_MAX = 255
/** Uploads of one analysis under way at once; more would only be staff forgetting tabs, or a loop. */
export const MAX_UNFINISHED_UPLOADS_PER_ANALYSIS = 4
/** Chapter marks per clip. */
export const CHAPTERS_MAX = 30

const ANGLES = new Set<string>(CAMERA_ANGLES.map((angle) => angle.value))
const KINDS = new Set<string>(CHAPTER_KINDS.map((kind) => kind.value))

export type ClipUpload = { analysisId: number; title: string; angle: string; filename: string }

/** The title, angle and analysis an upload names in its metadata, checked; the refusal says what is wrong. */
export function clipUploadOf(metadata: Record<string, string | null | undefined> | undefined): ClipUpload {
  const analysisId = Number(metadata?.analysisId)
  if (!Number.isSafeInteger(analysisId) || analysisId <= 0) throw new DomainError('invalid', 'The upload does not say which analysis it belongs to.')
  const title = (metadata?.title ?? '').trim()
  if (!title) throw new DomainError('invalid', 'Give the clip a title.', 'title')
  if (title.length > CLIP_TITLE_MAX) throw new DomainError('invalid', `A clip's title has at most ${CLIP_TITLE_MAX} characters.`, 'title')
  const angle = metadata?.angle ?? ''
  if (!ANGLES.has(angle)) throw new DomainError('invalid', 'Choose the camera angle.', 'angle')
  const filename = (metadata?.filename ?? 'The file').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, FILENAME_MAX) || 'The file'
  return { analysisId, title, angle, filename }
}

// Uploads begun and not finished, per analysis, as this instance saw them begin: each is
// forgotten when it finishes, is refused, is cancelled or expires. A bound on what one client
// can start, not a record: a restarted instance starts counting again (the unfinished uploads of
// before still expire and are deleted).
const unfinished = new Map<string, { analysisId: number; expiresAt: number }>()

function forgetExpired(now: number) {
  for (const [id, upload] of unfinished) if (upload.expiresAt <= now) unfinished.delete(id)
}

/**
 * Starts counting a new upload for its analysis, which must exist. Refused while the analysis has
 * MAX_UNFINISHED_UPLOADS_PER_ANALYSIS unfinished uploads.
 */
export async function beginClipUpload(uploadId: string, upload: ClipUpload, now = new Date()) {
  const [analysis] = await db().select({ id: analyses.id }).from(analyses).where(eq(analyses.id, upload.analysisId))
  if (!analysis) throw new DomainError('not_found', 'There is no such analysis.')
  forgetExpired(now.getTime())
  const under = [...unfinished.values()].filter((pending) => pending.analysisId === upload.analysisId).length
  if (under >= MAX_UNFINISHED_UPLOADS_PER_ANALYSIS) {
    throw new DomainError('rate_limited', `This analysis already has ${under} uploads under way. Let one finish, or wait a day for the unfinished ones to expire.`)
  }
  unfinished.set(uploadId, { analysisId: upload.analysisId, expiresAt: now.getTime() + UPLOAD_EXPIRY_MS })
}

/** The upload has ended (finished, refused or cancelled): it no longer counts. */
export function endClipUpload(uploadId: string) {
  unfinished.delete(uploadId)
}

/**
 * A finished upload becomes a clip when its first bytes are a video (mp4, mov or webm); anything
 * else is deleted and refused. The analysis may have gone while the file arrived: the file goes too.
 */
export async function recordUploadedClip({ uploadId, size, upload }: { uploadId: string; size: number; upload: ClipUpload }) {
  const store = analysisFileStore()
  endClipUpload(uploadId)
  const contentType = videoTypeOf(await store.firstBytes(assertFileKey(uploadId), SIGNATURE_BYTES))
  if (!contentType) {
    await store.uploads.remove(uploadId).catch(() => store.remove(uploadId))
    throw new DomainError('invalid', `${upload.filename} is not a video (mp4, webm or mov).`)
  }
  try {
    return await db().transaction(async (tx) => {
      const [analysis] = await tx.select({ id: analyses.id }).from(analyses).where(eq(analyses.id, upload.analysisId)).for('update')
      if (!analysis) throw new DomainError('not_found', 'The analysis was deleted while the clip was uploading.')
      const [{ next }] = (await tx.select({ next: sql<number>`coalesce(max(${analysisClips.position}) + 1, 0)` }).from(analysisClips).where(eq(analysisClips.analysisId, upload.analysisId))) as [{ next: number }]
      const [clip] = await tx
        .insert(analysisClips)
        .values({ analysisId: upload.analysisId, title: upload.title, angle: upload.angle, storageKey: uploadId, contentType, sizeBytes: size, position: Number(next) })
        .returning({ id: analysisClips.id })
      return { clipId: clip!.id, contentType }
    })
  } catch (error) {
    await removeStoredFiles([uploadId])
    throw error
  }
}

/**
 * The analysis whose clips staff manage from a booking's page, opened as a draft if staff have not
 * opened it yet (only a confirmed booking is analysed: otherwise a refusal that says so), with the
 * events a clip can belong to.
 */
export async function clipsAnalysisOfBooking(reference: string, staffId: number) {
  const [booking] = await db().select({ id: bookings.id, reference: bookings.reference, swimmerName: bookings.swimmerName }).from(bookings).where(eq(bookings.reference, reference))
  if (!booking) throw new DomainError('not_found', 'No such booking.')
  const analysisId = await openAnalysis(booking.id, staffId)
  const events = await db().select({ id: analysisEvents.id, stroke: analysisEvents.stroke, distanceMetres: analysisEvents.distanceMetres }).from(analysisEvents).where(eq(analysisEvents.analysisId, analysisId)).orderBy(asc(analysisEvents.position), asc(analysisEvents.id))
  return { analysisId, booking, events: events.map((event) => ({ id: event.id, label: eventLabel(event) })) }
}

/** An analysis's clips, in order. */
export function clipsOf(analysisId: number) {
  return db()
    .select({
      id: analysisClips.id,
      title: analysisClips.title,
      angle: analysisClips.angle,
      eventId: analysisClips.eventId,
      chapters: analysisClips.chapters,
      contentType: analysisClips.contentType,
      sizeBytes: analysisClips.sizeBytes,
      hasPoster: sql<boolean>`${analysisClips.posterKey} IS NOT NULL`,
      createdAt: analysisClips.createdAt,
    })
    .from(analysisClips)
    .where(eq(analysisClips.analysisId, analysisId))
    .orderBy(asc(analysisClips.position), asc(analysisClips.id))
}

/** What serving a clip's video or poster needs: whose it is, and where its bytes are (the poster's AVIF too, when it has one). */
export async function clipFiles(clipId: number) {
  const [clip] = await db()
    .select({
      analysisId: analysisClips.analysisId,
      storageKey: analysisClips.storageKey,
      contentType: analysisClips.contentType,
      posterKey: analysisClips.posterKey,
      posterContentType: analysisClips.posterContentType,
      posterAvifKey: analysisClips.posterAvifKey,
    })
    .from(analysisClips)
    .where(eq(analysisClips.id, clipId))
  return clip ?? null
}

/** "0:03.2", "1:05", "12.5" or "1:02:03" → seconds; null when it is not a time. */
export function parseClipTime(text: string): number | null {
  const match = /^(?:(?:(\d{1,2}):)?(\d{1,3}):)?(\d{1,5}(?:[.,]\d{1,3})?)$/.exec(text.trim())
  if (!match) return null
  const [, hours, minutes, seconds] = match
  const secondsValue = Number(seconds!.replace(',', '.'))
  if ((minutes !== undefined && secondsValue >= 60) || (hours !== undefined && Number(minutes) >= 60)) return null
  return Math.round((Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + secondsValue) * 1000) / 1000
}

/** 3.2 → "0:03.2"; 65 → "1:05". */
export function formatClipTime(seconds: number) {
  const minutes = Math.floor(seconds / 60)
  const rest = seconds - minutes * 60
  const whole = Math.floor(rest)
  const fraction = Math.round((rest - whole) * 1000)
  const fractionText = fraction ? `.${String(fraction).padStart(3, '0').replace(/0+$/, '')}` : ''
  return `${minutes}:${String(whole).padStart(2, '0')}${fractionText}`
}

export type ClipChanges = { title: string; angle: string; eventId: number | null; chapters: Array<{ kind: string; time: string }> }

/**
 * Changes a clip's title, angle, event (one of its analysis's, or none) and chapter marks. Marks
 * are a kind and a time from the clip's start; the clip's length is not known here, so a mark is
 * checked to be at 0 or later, each after the one before.
 */
export async function updateClip(analysisId: number, clipId: number, changes: ClipChanges) {
  const title = changes.title.trim()
  if (!title) throw new DomainError('invalid', 'Give the clip a title.', 'title')
  if (title.length > CLIP_TITLE_MAX) throw new DomainError('invalid', `A clip's title has at most ${CLIP_TITLE_MAX} characters.`, 'title')
  if (!ANGLES.has(changes.angle)) throw new DomainError('invalid', 'Choose the camera angle.', 'angle')
  const marks = changes.chapters.filter((mark) => mark.kind || mark.time.trim())
  if (marks.length > CHAPTERS_MAX) throw new DomainError('invalid', `A clip has at most ${CHAPTERS_MAX} chapter marks.`, 'chapters')
  const chapters: ClipChapter[] = []
  for (const [index, mark] of marks.entries()) {
    const number = index + 1
    if (!KINDS.has(mark.kind)) throw new DomainError('invalid', `Chapter ${number}: choose what happens there.`, 'chapters')
    const seconds = parseClipTime(mark.time)
    if (seconds === null) throw new DomainError('invalid', `Chapter ${number}: "${mark.time.trim()}" is not a time from the clip's start, such as 0:03.2.`, 'chapters')
    const previous = chapters.at(-1)
    if (previous && seconds <= previous.seconds) throw new DomainError('invalid', `Chapter ${number} must come after chapter ${number - 1} (${formatClipTime(previous.seconds)}).`, 'chapters')
    chapters.push({ kind: mark.kind, seconds })
  }
  await db().transaction(async (tx) => {
    await clipOf(tx, analysisId, clipId)
    if (changes.eventId !== null) {
      const [event] = await tx.select({ id: analysisEvents.id }).from(analysisEvents).where(and(eq(analysisEvents.id, changes.eventId), eq(analysisEvents.analysisId, analysisId)))
      if (!event) throw new DomainError('invalid', 'Choose one of this analysis\'s events, or none.', 'eventId')
    }
    await tx.update(analysisClips).set({ title, angle: changes.angle, eventId: changes.eventId, chapters }).where(eq(analysisClips.id, clipId))
  })
}

async function clipOf(tx: Executor, analysisId: number, clipId: number) {
  const [clip] = await tx.select({ id: analysisClips.id, posterKey: analysisClips.posterKey, posterAvifKey: analysisClips.posterAvifKey }).from(analysisClips).where(and(eq(analysisClips.id, clipId), eq(analysisClips.analysisId, analysisId))).for('update')
  if (!clip) throw new DomainError('not_found', 'There is no such clip.')
  return clip
}

/**
 * A clip's poster: a JPEG, PNG or WebP image of 5 MB at most, recognised by its bytes, kept as the
 * page shows it (see `renderPoster`: a 1920-pixel frame of half a megabyte becomes a WebP and an
 * AVIF of a few tens of kilobytes, the first thing a phone loads on the results page). It replaces
 * the one before, both its files.
 */
export async function setClipPoster(analysisId: number, clipId: number, bytes: Uint8Array) {
  if (bytes.length === 0) throw new DomainError('invalid', 'Choose an image for the poster.', 'poster')
  if (bytes.length > POSTER_MAX_BYTES) throw new DomainError('invalid', 'A poster image may be 5 MB at most.', 'poster')
  if (!imageTypeOf(bytes.subarray(0, SIGNATURE_BYTES))) throw new DomainError('invalid', 'The poster must be a JPEG, PNG or WebP image.', 'poster')
  const [existing] = await db().select({ id: analysisClips.id }).from(analysisClips).where(and(eq(analysisClips.id, clipId), eq(analysisClips.analysisId, analysisId)))
  if (!existing) throw new DomainError('not_found', 'There is no such clip.')
  const poster = await renderPoster(bytes)
  if (!poster) throw new DomainError('invalid', 'This image could not be read: the file may be damaged. Export the frame again and upload the new file.', 'poster')
  const contentType = 'image/webp'
  const key = newPosterKey()
  const avifKey = newPosterKey()
  let replaced: Array<string | null> = []
  try {
    await analysisFileStore().put(key, poster.webp, contentType)
    await analysisFileStore().put(avifKey, poster.avif, 'image/avif')
    await db().transaction(async (tx) => {
      const clip = await clipOf(tx, analysisId, clipId)
      replaced = [clip.posterKey, clip.posterAvifKey]
      await tx.update(analysisClips).set({ posterKey: key, posterContentType: contentType, posterAvifKey: avifKey }).where(eq(analysisClips.id, clipId))
    })
  } catch (error) {
    await removeStoredFiles([key, avifKey])
    throw error
  }
  await removeStoredFiles(replaced)
}

/** A poster file's key: "poster-" and 128 random bits. A new poster is written beside the one it replaces, which stays until the new one is recorded. */
const newPosterKey = () => `poster-${randomBytes(16).toString('hex')}`

/** The columns that name a clip's stored files: its video, its poster's WebP and the poster's AVIF. */
const CLIP_FILE_KEYS = { storageKey: analysisClips.storageKey, posterKey: analysisClips.posterKey, posterAvifKey: analysisClips.posterAvifKey }

function keysOfClip(row: { storageKey: string; posterKey: string | null; posterAvifKey: string | null }) {
  return [row.storageKey, row.posterKey, row.posterAvifKey].filter((key): key is string => Boolean(key))
}

/** Removes a clip and, once that is committed, its video and poster (both its files) from the store. */
export async function removeClip(analysisId: number, clipId: number) {
  const [removed] = await db()
    .delete(analysisClips)
    .where(and(eq(analysisClips.id, clipId), eq(analysisClips.analysisId, analysisId)))
    .returning({ ...CLIP_FILE_KEYS, title: analysisClips.title })
  if (!removed) throw new DomainError('not_found', 'There is no such clip.')
  await removeStoredFiles(keysOfClip(removed))
  return removed.title
}

/**
 * The stored files of these analyses' clips (videos and posters, both a poster's files), read
 * inside the transaction that deletes the analyses: the files go once it has committed
 * (`removeStoredFiles`).
 */
export async function clipFileKeysOf(tx: Executor, analysisIds: number[]) {
  if (analysisIds.length === 0) return []
  const rows = await tx.select(CLIP_FILE_KEYS).from(analysisClips).where(inArray(analysisClips.analysisId, analysisIds))
  return rows.flatMap(keysOfClip)
}

/**
 * Deletes the analyses of an erased person (those of their bookings and of their swimmer profiles)
 * inside the erasure's transaction, and returns their clips' stored files, to be deleted once it
 * has committed (`removeStoredFiles`).
 */
export async function dropAnalysesOf(tx: Executor, { bookingIds, swimmerIds }: { bookingIds: number[]; swimmerIds: number[] }) {
  if (bookingIds.length === 0 && swimmerIds.length === 0) return []
  const rows = await tx
    .select({ id: analyses.id })
    .from(analyses)
    .where(or(bookingIds.length ? inArray(analyses.bookingId, bookingIds) : sql`false`, swimmerIds.length ? inArray(analyses.swimmerId, swimmerIds) : sql`false`))
  const analysisIds = rows.map((row) => row.id)
  const keys = await clipFileKeysOf(tx, analysisIds)
  if (analysisIds.length) await tx.delete(analyses).where(inArray(analyses.id, analysisIds))
  return keys
}

/**
 * Deletes files whose rows are gone. A file that cannot be deleted now (the bucket unreachable)
 * is logged and left: the hourly sweep (`sweepAnalysisFiles`) deletes every file no clip refers
 * to, so it goes at the next sweep that reaches the store.
 */
export async function removeStoredFiles(keys: Array<string | null | undefined>) {
  for (const key of keys) {
    if (!key) continue
    try {
      await analysisFileStore().remove(key)
    } catch (error) {
      logger().error({ err: error, key }, 'could not delete an analysis file; the hourly sweep will try again')
    }
  }
}

/**
 * The store's housekeeping, hourly: unfinished uploads past their day are deleted (tus's own
 * expiry), and so is any file no clip refers to and that is older than an upload may take: left
 * behind by a delete that failed, or by an instance that stopped between a commit and a delete.
 */
export async function sweepAnalysisFiles(now = new Date()) {
  const store = analysisFileStore()
  const expired = await store.uploads.deleteExpired().catch((error: unknown) => {
    logger().warn({ err: error }, 'could not delete expired uploads')
    return 0
  })
  const olderThan = addSeconds(now, -(UPLOAD_EXPIRY_MS / 1000 + 3600))
  const candidates = new Map<string, string[]>()
  for await (const file of store.list()) {
    if (file.lastModified > olderThan) continue
    const key = file.key.replace(/\.(json|info|part)$/, '')
    candidates.set(key, [...(candidates.get(key) ?? []), file.key])
  }
  let removed = 0
  const keys = [...candidates.keys()]
  for (let index = 0; index < keys.length; index += 500) {
    const batch = keys.slice(index, index + 500)
    const referenced = await db()
      .select(CLIP_FILE_KEYS)
      .from(analysisClips)
      .where(
        or(
          inArray(analysisClips.storageKey, batch),
          and(isNotNull(analysisClips.posterKey), inArray(analysisClips.posterKey, batch)),
          and(isNotNull(analysisClips.posterAvifKey), inArray(analysisClips.posterAvifKey, batch)),
        ),
      )
    const kept = new Set(referenced.flatMap(keysOfClip))
    for (const key of batch) {
      if (kept.has(key)) continue
      await removeStoredFiles([key])
      removed += 1
    }
  }
  if (expired || removed) logger().info({ expired, removed }, 'analysis files swept')
  return { expired, removed }
}
