import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { s3FileStore } from '~/modules/analyses/files/s3-store.server'
import { s3SettingsOf } from '~/modules/storage/s3-settings.server'
import { startFakeS3 } from '../../../tests/support/fake-s3'
import { s3MediaStore } from './s3-media-store.server'
import { diskMediaStore, type MediaFileStore } from './store.server'

let s3: Awaited<ReturnType<typeof startFakeS3>>
beforeAll(async () => {
  s3 = await startFakeS3()
})
afterAll(async () => {
  await s3?.close()
})

const settings = () => s3SettingsOf({ ...s3.env, S3_FORCE_PATH_STYLE: true })!
const ORIGINAL = `original-${'1'.repeat(32)}`
const PUBLIC = `${'2'.repeat(32)}.avif`
/** Everything an async iterable yields (Node 20 has no Array.fromAsync). */
async function all<T>(items: AsyncIterable<T>) {
  const found: T[] = []
  for await (const item of items) found.push(item)
  return found
}
const streamed = async (stream: AsyncIterable<Buffer>) => Buffer.concat(await all(stream)).toString()

describe.each([
  ['on disk', () => diskMediaStore(mkdtempSync(path.join(tmpdir(), 'media-store-')))],
  ['in an S3 bucket', () => s3MediaStore(settings())],
] as Array<[string, () => MediaFileStore]>)('the media store %s', (_where, makeStore) => {
  it('writes, reads whole and in ranges, lists and deletes files of both kinds of name', async () => {
    const store = makeStore()
    await store.put(ORIGINAL, Buffer.from('the upload as sent'), 'image/jpeg')
    await store.put(PUBLIC, Buffer.from('0123456789'), 'image/avif')
    expect(await store.stat(PUBLIC)).toMatchObject({ size: 10 })
    expect((await store.readAll(ORIGINAL)).toString()).toBe('the upload as sent')
    expect(await streamed(await store.read(PUBLIC, { start: 2, end: 5 }))).toBe('2345')
    expect((await all(store.list())).map((file) => file.key).sort()).toEqual([PUBLIC, ORIGINAL].sort())
    await store.remove(PUBLIC)
    await store.remove(PUBLIC)
    expect(await store.stat(PUBLIC)).toBeNull()
    await store.remove(ORIGINAL)
  })

  it('refuses a name it does not make, so no name leads elsewhere', async () => {
    const store = makeStore()
    for (const key of ['../secrets', `${'2'.repeat(32)}.avif/../x`, 'original-xyz', `${'2'.repeat(32)}.png`, `media/${PUBLIC}`]) {
      await expect(store.put(key, Buffer.from('x'), 'image/png'), key).rejects.toThrow('Not a media file key')
      await expect(store.stat(key), key).rejects.toThrow('Not a media file key')
    }
  })
})

describe('the bucket the analysis files share', () => {
  it('keeps the media under media/, where the analysis files never see them', async () => {
    await s3MediaStore(settings()).put(PUBLIC, Buffer.from('photo'), 'image/avif')
    expect(s3.keys()).toContain(`media/${PUBLIC}`)
    // The analysis files' hourly sweep lists the whole bucket: none of these is one of its files.
    expect(await all(s3FileStore(settings()).list())).toEqual([])
  })
})
