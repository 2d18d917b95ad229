import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { analysisFilesConfigProblems } from '~/config/analysis-files-env.server'
import { db } from '~/db/client.server'
import { analysisClips, bookings, swimmers } from '~/db/schema'
import { addHours } from '~/lib/lab-time'
import { phonePhoto, plainImage } from '~/modules/media/test-photos'
import { eraseAccount, eraseSwimmer } from '~/modules/privacy/erasure.server'
import { confirmedBookings, recordedAnalysis } from '../../../../tests/support/analyses'
import { createCustomers } from '../../../../tests/support/booking'
import { useTestDatabase } from '../../../../tests/support/test-database'
import { clipUploadOf, formatClipTime, parseClipTime, removeClip, setClipPoster, sweepAnalysisFiles, updateClip } from './clips.server'
import { imageTypeOf, videoTypeOf } from '~/modules/storage/signatures'
import { diskFileStore, useAnalysisFileStore, type AnalysisFileStore } from './store.server'

useTestDatabase()

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82])
const MP4_START = new Uint8Array([0, 0, 0, 0x18, ...new TextEncoder().encode('ftypisom'), 0, 0, 2, 0])

let directory: string
let store: AnalysisFileStore
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'analysis-files-'))
  store = diskFileStore(directory)
  useAnalysisFileStore(store)
})
afterAll(() => useAnalysisFileStore(undefined))

const storedNames = () => readdirSync(directory).sort()

/** A clip of the analysis, its video (and a poster) written to the store as an upload leaves them. */
async function storedClip(analysisId: number, name: string) {
  const key = name.padEnd(32, '0')
  await store.put(key, MP4_START, 'video/mp4')
  const [clip] = await db().insert(analysisClips).values({ analysisId, title: name, angle: 'underwater_side', storageKey: key, contentType: 'video/mp4', sizeBytes: MP4_START.length }).returning({ id: analysisClips.id })
  await setClipPoster(analysisId, clip!.id, await plainImage(64, 36))
  return clip!.id
}

describe('recognising files by their first bytes', () => {
  it('knows mp4, mov and webm videos and jpeg, png and webp images, and nothing else', () => {
    expect(videoTypeOf(MP4_START)).toBe('video/mp4')
    expect(videoTypeOf(new Uint8Array([0, 0, 0, 0x14, ...new TextEncoder().encode('ftypqt  ')]))).toBe('video/quicktime')
    expect(videoTypeOf(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1]))).toBe('video/webm')
    expect(videoTypeOf(new TextEncoder().encode('hello, this is not a video'))).toBeNull()
    expect(videoTypeOf(PNG)).toBeNull()
    expect(imageTypeOf(PNG)).toBe('image/png')
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg')
    expect(imageTypeOf(new TextEncoder().encode('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('image/webp')
    expect(imageTypeOf(MP4_START)).toBeNull()
  })
})

describe('an upload\'s metadata and a clip\'s details', () => {
  it('needs an analysis, a title of at most 120 characters and one of the camera angles', () => {
    expect(clipUploadOf({ analysisId: '7', title: ' Start ', angle: 'overhead', filename: 'start.mp4' })).toEqual({ analysisId: 7, title: 'Start', angle: 'overhead', filename: 'start.mp4' })
    expect(() => clipUploadOf({ title: 'Start', angle: 'overhead' })).toThrow('The upload does not say which analysis it belongs to.')
    expect(() => clipUploadOf({ analysisId: '7', title: ' ', angle: 'overhead' })).toThrow('Give the clip a title.')
    expect(() => clipUploadOf({ analysisId: '7', title: 'x'.repeat(121), angle: 'overhead' })).toThrow('at most 120 characters')
    expect(() => clipUploadOf({ analysisId: '7', title: 'Start', angle: 'drone' })).toThrow('Choose the camera angle.')
  })

  it('reads chapter times as minutes and seconds and writes them back the same way', () => {
    expect(parseClipTime('0:03.2')).toBe(3.2)
    expect(parseClipTime('12.5')).toBe(12.5)
    expect(parseClipTime('1:05')).toBe(65)
    expect(parseClipTime('1:02:03')).toBe(3723)
    expect(parseClipTime('0:75')).toBeNull()
    expect(parseClipTime('-1')).toBeNull()
    expect(parseClipTime('soon')).toBeNull()
    expect(formatClipTime(3.2)).toBe('0:03.2')
    expect(formatClipTime(65)).toBe('1:05')
  })

  it('keeps chapter marks at 0 or later, each after the one before, and events of the same analysis only', async () => {
    const { bookings: booked } = await confirmedBookings(['2030-03-04', '2030-06-03'])
    const mine = await recordedAnalysis(booked[0]!.bookingId)
    const other = await recordedAnalysis(booked[1]!.bookingId)
    const clipId = await storedClip(mine.analysisId, 'a1')
    const base = { title: 'Start', angle: 'above_water', eventId: mine.eventId }
    await updateClip(mine.analysisId, clipId, { ...base, chapters: [{ kind: 'start', time: '0:00' }, { kind: 'underwater', time: '0:03.2' }, { kind: '', time: '' }] })
    const [saved] = await db().select().from(analysisClips).where(eq(analysisClips.id, clipId))
    expect(saved).toMatchObject({ title: 'Start', angle: 'above_water', eventId: mine.eventId, chapters: [{ kind: 'start', seconds: 0 }, { kind: 'underwater', seconds: 3.2 }] })

    await expect(updateClip(mine.analysisId, clipId, { ...base, chapters: [{ kind: 'start', time: '0:05' }, { kind: 'turn', time: '0:04' }] })).rejects.toThrow('Chapter 2 must come after chapter 1 (0:05).')
    await expect(updateClip(mine.analysisId, clipId, { ...base, chapters: [{ kind: 'start', time: 'later' }] })).rejects.toThrow('"later" is not a time')
    await expect(updateClip(mine.analysisId, clipId, { ...base, chapters: [{ kind: 'dive', time: '0:01' }] })).rejects.toThrow('Chapter 1: choose what happens there.')
    await expect(updateClip(mine.analysisId, clipId, { ...base, eventId: other.eventId, chapters: [] })).rejects.toMatchObject({ field: 'eventId' })
    await expect(updateClip(other.analysisId, clipId, { ...base, eventId: null, chapters: [] })).rejects.toMatchObject({ kind: 'not_found' })
  })

  it('takes a poster that is a JPEG, PNG or WebP of 5 MB at most, by its bytes, keeps it as the page shows it, and deletes the one it replaces', async () => {
    const { bookings: booked } = await confirmedBookings(['2030-03-04'])
    const { analysisId } = await recordedAnalysis(booked[0]!.bookingId)
    const clipId = await storedClip(analysisId, 'b1')
    const first = storedNames().filter((name) => name.startsWith('poster-'))
    expect(first).toHaveLength(2)
    await expect(setClipPoster(analysisId, clipId, new TextEncoder().encode('<svg onload="alert(1)"></svg>'))).rejects.toThrow('The poster must be a JPEG, PNG or WebP image.')
    await expect(setClipPoster(analysisId, clipId, new Uint8Array(5 * 1024 * 1024 + 1))).rejects.toThrow('A poster image may be 5 MB at most.')
    await expect(setClipPoster(analysisId, clipId, PNG)).rejects.toMatchObject({ field: 'poster', message: expect.stringContaining('could not be read') })
    expect(storedNames().filter((name) => name.startsWith('poster-'))).toEqual(first)

    // A frame saved on a phone: 2400 × 1800 stored, upright 1800 × 2400, carrying the phone's make and where it was.
    const frame = await phonePhoto({ width: 2400, height: 1800 })
    await setClipPoster(analysisId, clipId, frame)
    // Both files of the poster before are gone: the WebP and the AVIF.
    const second = storedNames().filter((name) => name.startsWith('poster-'))
    expect(second).toHaveLength(2)
    expect(second.filter((name) => first.includes(name))).toEqual([])
    const [clip] = await db().select({ posterKey: analysisClips.posterKey, posterContentType: analysisClips.posterContentType, posterAvifKey: analysisClips.posterAvifKey }).from(analysisClips).where(eq(analysisClips.id, clipId))
    expect(clip?.posterContentType).toBe('image/webp')
    expect([clip?.posterKey, clip?.posterAvifKey].sort()).toEqual(second)
    const webp = readFileSync(path.join(directory, clip!.posterKey!))
    expect(imageTypeOf(webp)).toBe('image/webp')
    const avif = readFileSync(path.join(directory, clip!.posterAvifKey!))
    expect(avif.subarray(4, 12).toString('latin1')).toBe('ftypavif')
    for (const [stored, format] of [[webp, 'webp'], [avif, 'heif']] as const) {
      // Upright (the phone's orientation 6 turns the stored 2400 × 1800 a quarter clockwise), at most 1280 pixels wide.
      const metadata = await sharp(stored).metadata()
      expect(metadata).toMatchObject({ format, width: 1280, height: Math.round((1280 * 2400) / 1800) })
      expect([metadata.orientation, metadata.exif, metadata.icc, metadata.xmp]).toEqual([undefined, undefined, undefined, undefined])
      expect(stored.length).toBeLessThan(frame.length)
      expect(stored.includes(Buffer.from('LabTestPhone'))).toBe(false)
      // The red band along the frame's stored top is on the right once upright; the rest is blue, in sRGB.
      const { data, info } = await sharp(stored).raw().toBuffer({ resolveWithObject: true })
      const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)]
      expect(pixel(info.width - 10, Math.floor(info.height / 2)).map((value) => Math.round(value / 32))).toEqual([8, 0, 0])
      expect(pixel(10, Math.floor(info.height / 2)).map((value) => Math.round(value / 32))).toEqual([0, 0, 8])
    }
    expect(avif.length).toBeLessThan(webp.length)
  })
})

describe('deleting clip files', () => {
  it('removing a clip deletes its video and poster, both its files', async () => {
    const { bookings: booked } = await confirmedBookings(['2030-03-04'])
    const { analysisId } = await recordedAnalysis(booked[0]!.bookingId)
    const keep = await storedClip(analysisId, 'c1')
    const gone = await storedClip(analysisId, 'c2')
    expect(storedNames()).toHaveLength(6)
    expect(await removeClip(analysisId, gone)).toBe('c2')
    expect(storedNames()).toHaveLength(3)
    expect(storedNames()).toContain('c1'.padEnd(32, '0'))
    await expect(removeClip(analysisId, keep + 1000)).rejects.toMatchObject({ kind: 'not_found' })
  })

  it('erasing a swimmer deletes the clips and posters of their analyses, and no one else\'s', async () => {
    const { customer, bookings: booked } = await confirmedBookings(['2030-03-04', '2030-06-03'])
    const [child] = await db()
      .insert(swimmers)
      .values({ accountId: customer.userId!, name: 'Kavya Test', ageYears: 10, ageGivenOn: '2026-01-01', gender: 'female', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' })
      .returning({ id: swimmers.id })
    await db().update(bookings).set({ swimmerId: child!.id, swimmerName: 'Kavya Test' }).where(eq(bookings.id, booked[0]!.bookingId))
    const childs = await recordedAnalysis(booked[0]!.bookingId)
    const parents = await recordedAnalysis(booked[1]!.bookingId)
    await storedClip(childs.analysisId, 'd1')
    await storedClip(parents.analysisId, 'd2')
    expect(storedNames()).toHaveLength(6)

    await eraseSwimmer(customer.userId!, child!.id, { reason: 'Deleted by the account holder.' })
    expect(storedNames()).toHaveLength(3)
    expect(storedNames()).toContain('d2'.padEnd(32, '0'))
    expect(await db().select().from(analysisClips)).toHaveLength(1)
  })

  it('erasing an account deletes the clips and posters of all its analyses', async () => {
    const { customer, bookings: booked } = await confirmedBookings(['2030-03-04', '2030-06-03', '2030-09-02'])
    const [stranger] = await createCustomers(1, 'stranger')
    await db().update(bookings).set({ userId: stranger!.userId, swimmerId: stranger!.swimmerId, customerEmail: stranger!.email }).where(eq(bookings.id, booked[2]!.bookingId))
    const first = await recordedAnalysis(booked[0]!.bookingId)
    const second = await recordedAnalysis(booked[1]!.bookingId, { publishedAt: null })
    const someoneElses = await recordedAnalysis(booked[2]!.bookingId)
    await storedClip(first.analysisId, 'e1')
    await storedClip(second.analysisId, 'e2')
    await storedClip(someoneElses.analysisId, 'e3')

    await eraseAccount(customer.userId!, { reason: 'The account holder deleted the account.' })
    expect(storedNames()).toHaveLength(3)
    expect(storedNames()).toContain('e3'.padEnd(32, '0'))
  })

  it('the sweep deletes files no clip refers to once they are older than an upload may take, and keeps the rest', async () => {
    const { bookings: booked } = await confirmedBookings(['2030-03-04'])
    const { analysisId } = await recordedAnalysis(booked[0]!.bookingId)
    await storedClip(analysisId, 'f1')
    await store.put('f2'.padEnd(32, '0'), MP4_START, 'video/mp4')
    expect(await sweepAnalysisFiles()).toEqual({ expired: 0, removed: 0 })
    // The clip's video and both files of its poster are kept.
    expect(await sweepAnalysisFiles(addHours(new Date(), 26))).toEqual({ expired: 0, removed: 1 })
    expect(storedNames()).toHaveLength(3)
    expect(storedNames()).not.toContain('f2'.padEnd(32, '0'))
  })
})

describe('configuration of the S3 bucket', () => {
  it('is all or nothing, and names what is missing', () => {
    expect(analysisFilesConfigProblems({})).toEqual([])
    const problems = analysisFilesConfigProblems({ S3_BUCKET: 'lab-clips', S3_ENDPOINT: 'http://127.0.0.1:9000' })
    expect(problems.map((problem) => problem.path)).toEqual(['S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'])
    expect(problems[0]!.message).toContain('required when analysis files are kept in S3 (S3_BUCKET, S3_ENDPOINT are set)')
    expect(analysisFilesConfigProblems({ S3_BUCKET: 'b', S3_REGION: 'auto', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' })).toEqual([])
  })
})
