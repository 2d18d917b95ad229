import { mkdtempSync, readdirSync, readFileSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, mediaItems } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { updateCoach, updateTeamMember } from '~/modules/site/staff.server'
import { useTestDatabase } from '../../../tests/support/test-database'
import { createVenue } from '~/modules/venues/venues.server'
import { deleteMedia, libraryForStaff, RendererStoppedError, MAX_PROCESSING, processPendingMedia, publicPictures, sweepMediaFiles, updateMediaDetails, uploadMedia, usablePhotos, type UploadInput } from './media.server'
import { diskMediaStore, PUBLIC_MEDIA_NAME, useMediaFileStore } from './store.server'
import { heicHeader, phonePhoto, plainImage } from './test-photos'

useTestDatabase()

const actor = { id: null as unknown as number, email: 'staff@lab.test' }

let directory: string
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'media-'))
  useMediaFileStore(diskMediaStore(directory))
})
afterAll(() => useMediaFileStore(undefined))

const storedNames = () => readdirSync(directory).sort()

async function upload(overrides: Partial<UploadInput> = {}) {
  return uploadMedia(actor, { collection: 'portrait', title: 'Coach Priya', altText: '', decorative: false, fileName: 'IMG_0042.JPG', bytes: await phonePhoto(), ...overrides })
}

const itemOf = async (id: number) => (await db().select().from(mediaItems).where(eq(mediaItems.id, id)))[0]!

describe('an upload', () => {
  it('is stored privately as sent and waits for the pipeline, with its upright size', async () => {
    const id = await upload()
    const item = await itemOf(id)
    expect(item).toMatchObject({ kind: 'image', collection: 'portrait', status: 'processing', width: 1200, height: 1600, originalType: 'image/jpeg', variants: [] })
    expect(storedNames()).toEqual([item.originalKey])
    expect(item.originalKey).not.toMatch(PUBLIC_MEDIA_NAME)
    expect(await db().select({ action: auditLog.action }).from(auditLog)).toEqual([{ action: 'media.upload' }])
  })

  it('is refused, with a message for the file field, when it is not a photo the site can use', async () => {
    const refusal = (bytes: Uint8Array, collection: UploadInput['collection'] = 'portrait') => upload({ bytes, collection }).then(() => null, (error: DomainError) => [error.field, error.message])
    expect(await refusal(new TextEncoder().encode('GIF89a not really'))).toEqual(['file', 'This file is not a photo the site can use. Upload a JPEG, PNG or WebP image.'])
    expect((await refusal(heicHeader()))?.[1]).toContain('HEIC')
    expect((await refusal(await plainImage(800, 600), 'lab'))?.[1]).toBe('This photo is 800 × 600 pixels; a photo of the lab needs at least 1280 × 720 to look sharp.')
    expect((await refusal(await phonePhoto(), 'loop'))?.[1]).toBe('This file is not an MP4 video.')
    expect(await db().select().from(mediaItems)).toEqual([])
    expect(storedNames()).toEqual([])
  })

  it(`is refused while ${MAX_PROCESSING} uploads are waiting for the pipeline`, async () => {
    const bytes = await phonePhoto({ width: 400, height: 400 })
    for (let count = 0; count < MAX_PROCESSING; count += 1) await upload({ bytes })
    await expect(upload({ bytes })).rejects.toMatchObject({ kind: 'rate_limited', field: 'file' })
    expect(storedNames()).toHaveLength(MAX_PROCESSING)
  })
})

describe('the pipeline', () => {
  it('makes the public files of a phone photo with its GPS position and every other piece of metadata left behind', async () => {
    const id = await upload()
    expect(await processPendingMedia()).toBe(1)
    const item = await itemOf(id)
    expect(item).toMatchObject({ status: 'ready', claimedUntil: null, attempts: 1 })
    expect(item.variants.map((variant) => `${variant.format} ${variant.width}`)).toEqual(['avif 160', 'webp 160', 'jpeg 160', 'avif 320', 'webp 320', 'jpeg 320', 'avif 640', 'webp 640', 'jpeg 640'])
    expect(storedNames()).toEqual([item.originalKey, ...item.variants.map((variant) => variant.name)].sort())
    for (const variant of item.variants) {
      const bytes = readFileSync(path.join(directory, variant.name))
      expect(variant.name).toMatch(PUBLIC_MEDIA_NAME)
      expect(bytes.length).toBe(variant.bytes)
      const metadata = await sharp(bytes).metadata()
      expect([metadata.width, metadata.height, metadata.exif, metadata.xmp]).toEqual([variant.width, variant.height, undefined, undefined])
      expect(bytes.includes(Buffer.from('LabTestPhone'))).toBe(false)
    }
    // The upload as sent still carries them, and is never a public file.
    expect(readFileSync(path.join(directory, item.originalKey)).includes(Buffer.from('LabTestPhone'))).toBe(true)
  })

  it('shows a photo on the public pages only once it is described, or marked decorative', async () => {
    const id = await upload()
    await processPendingMedia()
    expect((await publicPictures()).has(id)).toBe(false)
    expect(await usablePhotos('portrait')).toEqual([])

    await updateMediaDetails(actor, { id, title: 'Coach Priya', altText: 'Coach Priya on the pool deck', decorative: false, posterId: null })
    const picture = (await publicPictures()).get(id)
    expect(picture).toMatchObject({ alt: 'Coach Priya on the pool deck', width: 1200, height: 1600, placeholder: expect.stringMatching(/^data:image\/webp;base64,/) })
    expect(picture?.avif.split(', ').map((entry) => entry.split(' ')[1])).toEqual(['160w', '320w', '640w'])
    expect(picture?.src).toMatch(/^\/media\/[0-9a-f]{32}\.jpg$/)
    expect(await usablePhotos('portrait')).toEqual([{ id, title: 'Coach Priya', altText: 'Coach Priya on the pool deck' }])
    expect(await usablePhotos('lab')).toEqual([])

    await updateMediaDetails(actor, { id, title: 'Coach Priya', altText: '', decorative: true, posterId: null })
    expect((await publicPictures()).get(id)?.alt).toBe('')
  })

  it('processes each upload once when two workers run side by side', async () => {
    const bytes = await phonePhoto({ width: 600, height: 400 })
    const ids = [await upload({ bytes }), await upload({ bytes }), await upload({ bytes })]
    const [first, second] = await Promise.all([processPendingMedia(), processPendingMedia()])
    expect(first + second).toBe(3)
    for (const id of ids) expect(await itemOf(id)).toMatchObject({ status: 'ready', attempts: 1 })
  })

  it('marks a file it cannot decode as failed, with a reason staff can act on', async () => {
    const id = await upload()
    const { originalKey } = await itemOf(id)
    const photo = await phonePhoto()
    // The header was whole when it was checked; the rest of the file is not.
    await diskMediaStore(directory).put(originalKey, Buffer.concat([photo.subarray(0, 2000), Buffer.alloc(4000, 7)]), 'image/jpeg')
    await processPendingMedia()
    expect(await itemOf(id)).toMatchObject({ status: 'failed', failure: 'This file could not be processed: it may be damaged. Export it again and upload the new file.', variants: [] })
  })

  it('takes over an upload whose worker stopped, and gives up after three tries', async () => {
    const id = await upload()
    const past = new Date(Date.now() - 1000)
    await db().update(mediaItems).set({ claimedUntil: past, attempts: 1 }).where(eq(mediaItems.id, id))
    expect(await processPendingMedia()).toBe(1)
    expect(await itemOf(id)).toMatchObject({ status: 'ready', attempts: 2 })

    const stuck = await upload()
    await db().update(mediaItems).set({ claimedUntil: past, attempts: 3 }).where(eq(mediaItems.id, stuck))
    expect(await processPendingMedia()).toBe(0)
    expect(await itemOf(stuck)).toMatchObject({ status: 'failed', failure: expect.stringContaining('could not be processed') })
  })

  it('leaves an upload to be tried again when the process making it stops', async () => {
    const id = await upload()
    await expect(processPendingMedia(undefined, () => Promise.reject(new RendererStoppedError()))).rejects.toBeInstanceOf(RendererStoppedError)
    expect(await itemOf(id)).toMatchObject({ status: 'processing', attempts: 1, claimedUntil: expect.any(Date) })
  })

  it('leaves an upload alone while another worker holds it', async () => {
    const id = await upload()
    await db().update(mediaItems).set({ claimedUntil: new Date(Date.now() + 60_000) }).where(eq(mediaItems.id, id))
    expect(await processPendingMedia()).toBe(0)
    expect(await itemOf(id)).toMatchObject({ status: 'processing' })
  })
})

describe('using and deleting', () => {
  async function readyPortrait(altText = 'Coach Priya on the pool deck', bytes?: Buffer) {
    const id = await upload({ altText, ...(bytes && { bytes }) })
    await processPendingMedia()
    return id
  }

  it('puts a ready, described portrait on the team and the coach, and refuses one that is not', async () => {
    const id = await readyPortrait()
    await updateTeamMember(actor, { index: 0, name: 'Priya Rao', role: 'Head coach', bio: 'Former national swimmer.', photoId: id })
    await updateCoach(actor, { name: 'Priya Rao', credentials: 'Former national swimmer', photoId: id })
    expect((await libraryForStaff()).find((item) => item.id === id)?.usedBy).toEqual(['the camp coach (banner)', 'team member 1 (Priya Rao)'])

    const waiting = await upload({ altText: 'A second photo' })
    await expect(updateTeamMember(actor, { index: 1, name: 'Meera', role: 'Sports scientist', bio: 'Biomechanics.', photoId: waiting })).rejects.toMatchObject({ field: 'photoId', message: expect.stringContaining('still being processed') })
    await processPendingMedia()
    const undescribed = await readyPortrait('')
    await expect(updateCoach(actor, { name: 'Priya Rao', credentials: 'Coach', photoId: undescribed })).rejects.toMatchObject({ field: 'photoId', message: 'That photo has no alt text yet. Describe it in the media library first.' })
    await expect(updateCoach(actor, { name: 'Priya Rao', credentials: 'Coach', photoId: 999_999 })).rejects.toMatchObject({ field: 'photoId' })
  })

  it('puts a photo of the venue collection on a venue, and keeps it while the venue shows it', async () => {
    const id = await upload({ collection: 'venue', title: 'Balewadi pool', altText: 'The 50-metre pool at Balewadi' })
    await processPendingMedia()
    const venue = { name: 'Balewadi Aquatics', address: 'Balewadi', city: 'Pune', stateCode: '27' as const, mapUrl: null, hostName: null, hostEmail: null, hostPhone: null, travelMinutes: 60 }
    await expect(createVenue(actor, { ...venue, photoId: await readyPortrait() })).rejects.toMatchObject({ field: 'photoId' })
    await createVenue(actor, { ...venue, photoId: id })
    await expect(deleteMedia(actor, id)).rejects.toMatchObject({ message: '"Balewadi pool" is shown as the photo of the venue Balewadi Aquatics. Choose another there first.' })
  })

  it('refuses to delete a photo the site shows, and deletes it with its files once it is not', async () => {
    const id = await readyPortrait()
    await updateTeamMember(actor, { index: 2, name: 'Priya Rao', role: 'Head coach', bio: 'Former national swimmer.', photoId: id })
    await expect(deleteMedia(actor, id)).rejects.toMatchObject({ kind: 'conflict', message: '"Coach Priya" is shown as team member 3 (Priya Rao). Choose another there first.' })

    await updateTeamMember(actor, { index: 2, name: 'Priya Rao', role: 'Head coach', bio: 'Former national swimmer.', photoId: null })
    await deleteMedia(actor, id)
    expect(await db().select().from(mediaItems)).toEqual([])
    expect(storedNames()).toEqual([])
    await expect(deleteMedia(actor, id)).rejects.toMatchObject({ kind: 'not_found' })
  })

  it('keeps the public files a second upload of the same photo shares', async () => {
    const bytes = await phonePhoto()
    const first = await readyPortrait('First', bytes)
    const second = await readyPortrait('Second', bytes)
    const names = (await itemOf(second)).variants.map((variant) => variant.name)
    expect((await itemOf(first)).variants.map((variant) => variant.name)).toEqual(names)
    await deleteMedia(actor, first)
    expect(storedNames()).toEqual([(await itemOf(second)).originalKey, ...names].sort())
  })

  it('sweeps stored files no item refers to once they are a day old', async () => {
    const id = await readyPortrait()
    const store = diskMediaStore(directory)
    await store.put(`original-${'a'.repeat(32)}`, new Uint8Array([1]), 'image/jpeg')
    await store.put(`${'b'.repeat(32)}.jpg`, new Uint8Array([1]), 'image/jpeg')
    await store.put(`${'c'.repeat(32)}.webp`, new Uint8Array([1]), 'image/webp')
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000)
    for (const name of [`original-${'a'.repeat(32)}`, `${'b'.repeat(32)}.jpg`, ...storedNames().filter((name) => !name.startsWith('c'))]) utimesSync(path.join(directory, name), twoDaysAgo, twoDaysAgo)
    expect(await sweepMediaFiles()).toBe(2)
    const item = await itemOf(id)
    expect(storedNames()).toEqual([item.originalKey, ...item.variants.map((variant) => variant.name), `${'c'.repeat(32)}.webp`].sort())
  })
})
