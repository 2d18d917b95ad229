import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { mediaItems, type MediaVariant } from '~/db/schema'
import { deleteMedia, libraryForStaff, usableMedia } from '~/modules/media/media.server'
import { diskMediaStore, useMediaFileStore } from '~/modules/media/store.server'
import type { MediaCollection } from '~/modules/media/limits'
import { useTestDatabase } from '../../../tests/support/test-database'
import { heroPictures, pagePictures } from './page-pictures.server'
import { mediaUseOf, PAGE_PICTURE_SLOTS, type PagePictureSlot } from './page-pictures'
import { PagePicturesSchema } from './schemas'
import { settingsForStaff, updatePagePictures } from './staff.server'

useTestDatabase()
beforeAll(() => useMediaFileStore(diskMediaStore(mkdtempSync(path.join(tmpdir(), 'page-pictures-')))))
afterAll(() => useMediaFileStore(undefined))

const actor = { id: null as unknown as number, email: 'staff@lab.test' }

const file = (format: MediaVariant['format'], width: number, height: number): MediaVariant => ({ format, width, height, name: `${randomBytes(16).toString('hex')}.${format === 'jpeg' ? 'jpg' : format}`, bytes: 100 })

type Item = { collection: MediaCollection; width: number; height: number; altText?: string; status?: 'ready' | 'processing' }

/** A library item as the pipeline leaves it: a photo's three formats, or a loop's MP4. */
async function add({ collection, width, height, altText = 'The pool from the deck', status = 'ready' }: Item) {
  const kind = collection === 'loop' ? 'video' : 'image'
  const variants = status !== 'ready' ? [] : kind === 'video' ? [file('mp4', width, height)] : (['avif', 'webp', 'jpeg'] as const).map((format) => file(format, 640, Math.round((640 * height) / width)))
  const [row] = await db()
    .insert(mediaItems)
    .values({ kind, collection, title: `${collection} ${width}×${height}`, altText, status, originalKey: `original-${randomBytes(16).toString('hex')}`, originalType: kind === 'video' ? 'video/mp4' : 'image/jpeg', originalBytes: 1000, width, height, variants })
    .returning({ id: mediaItems.id })
  return row!.id
}

const none = Object.fromEntries(PAGE_PICTURE_SLOTS.map((slot) => [slot, null])) as Record<PagePictureSlot, number | null>
const refusal = (input: Partial<Record<PagePictureSlot, number>>) =>
  updatePagePictures(actor, { ...none, ...input }).then(
    () => null,
    (error: { field: string; message: string }) => [error.field, error.message],
  )

describe('the pictures on the pages', () => {
  it('are chosen by staff, each checked for its place, and shown on the pages once chosen', async () => {
    const wide = await add({ collection: 'pool', width: 4032, height: 3024 })
    const upright = await add({ collection: 'underwater', width: 3024, height: 4032 })
    const loop = await add({ collection: 'loop', width: 1920, height: 1080 })
    const lab = await add({ collection: 'lab', width: 1920, height: 1280 })

    expect(await refusal({ heroWide: upright })).toEqual(['heroWide', 'That photo is not wide enough for this place: choose a landscape photo (wider than it is tall).'])
    expect(await refusal({ heroPhone: wide })).toEqual(['heroPhone', 'That photo is wider than it is tall: choose an upright photo for this place.'])
    expect(await refusal({ heroLoop: wide, heroWide: wide })).toEqual(['heroLoop', 'Choose a video loop from the media library.'])
    expect(await refusal({ heroLoop: loop })).toEqual(['heroLoop', 'Choose the photo for computers and tablets too: it shows until the loop starts, and wherever it does not play.'])
    expect(await refusal({ raceAnalysis: loop })).toEqual(['raceAnalysis', 'Choose a photo from the media library.'])
    const portrait = await add({ collection: 'portrait', width: 800, height: 800 })
    expect(await refusal({ cameras: portrait })).toEqual(['cameras', 'Choose a photo of the lab or a pool photo or an underwater still from the media library.'])
    expect(await refusal({ story: await add({ collection: 'lab', width: 1920, height: 1080, altText: '' }) })).toEqual(['story', 'That photo has no alt text yet. Describe it in the media library first.'])
    expect(await refusal({ story: await add({ collection: 'lab', width: 1920, height: 1080, status: 'processing' }) })).toEqual(['story', 'That photo is still being processed (or could not be): choose it once the library shows it ready.'])
    expect((await settingsForStaff()).pagePictures).toEqual({})

    expect(await updatePagePictures(actor, { ...none, heroWide: wide, heroPhone: upright, heroLoop: loop, biomechanics: lab })).toBe(true)
    expect(await updatePagePictures(actor, { ...none, heroWide: wide, heroPhone: upright, heroLoop: loop, biomechanics: lab })).toBe(false)
    expect((await settingsForStaff()).pagePictures).toEqual({ heroWide: wide, heroPhone: upright, heroLoop: loop, biomechanics: lab })

    const hero = await heroPictures(false)
    expect(hero.wide).toMatchObject({ alt: 'The pool from the deck', width: 4032, height: 3024, avif: expect.stringMatching(/^\/media\/[0-9a-f]{32}\.avif 640w$/) })
    expect(hero.phone).toMatchObject({ width: 3024, height: 4032 })
    expect(hero.loop).toEqual({ src: expect.stringMatching(/^\/media\/[0-9a-f]{32}\.mp4$/), width: 1920, height: 1080 })
    // A browser saving data is not even told where the loop is.
    expect((await heroPictures(true)).loop).toBeNull()
    expect(await pagePictures(['raceAnalysis', 'biomechanics'])).toEqual({ raceAnalysis: null, biomechanics: expect.objectContaining({ width: 1920 }) })
  })

  it('keep a chosen item from being deleted, and list only what suits each place', async () => {
    const wide = await add({ collection: 'lab', width: 2000, height: 1200 })
    const square = await add({ collection: 'lab', width: 1600, height: 1500 })
    await updatePagePictures(actor, { ...none, heroWide: wide })
    await expect(deleteMedia(actor, wide)).rejects.toMatchObject({ kind: 'conflict', message: expect.stringContaining('the pictures on the pages (settings)') })
    expect((await libraryForStaff()).find((item) => item.id === wide)?.usedBy).toEqual(['the pictures on the pages (settings)'])

    expect((await usableMedia(mediaUseOf('heroWide'))).map((item) => item.id)).toEqual([wide])
    expect((await usableMedia(mediaUseOf('heroPhone'))).map((item) => item.id)).toEqual([])
    expect((await usableMedia(mediaUseOf('story'))).map((item) => item.id).sort()).toEqual([wide, square].sort())

    await updatePagePictures(actor, none)
    await deleteMedia(actor, wide)
    expect((await heroPictures(false)).wide).toBeNull()
  })

  it('are read from the form as ids, or none for an empty choice', () => {
    expect(PagePicturesSchema.parse({ heroWide: '12', heroPhone: '' })).toMatchObject({ heroWide: 12, heroPhone: null, heroLoop: null })
    expect(PagePicturesSchema.safeParse({ heroWide: 'pool.jpg' }).error?.issues[0]?.message).toBe('Choose a photo from the list')
  })
})
