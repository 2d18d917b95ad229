import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { listFiles, readFileRange, statFile } from '~/modules/storage/disk-files.server'
import type { S3Settings } from '~/modules/storage/s3-settings.server'
import type { ByteRange, StoredFile } from '~/modules/storage/stored-file'

/**
 * Where the media library's files live: beside the analysis files (the same disk or bucket) but
 * apart from them, in DATA_DIR/media or under the bucket's `media/` prefix, so neither sweep ever
 * sees the other's files. Two kinds of key: an upload as staff sent it (`original-` and 32 hex
 * digits, private: no route serves it), and a public file named after its content (32 hex digits
 * of its SHA-256 and its extension).
 */
export type MediaFileStore = {
  kind: 'disk' | 's3'
  stat(key: string): Promise<StoredFile | null>
  read(key: string, range?: ByteRange): Promise<Readable>
  /** A whole file into memory: an upload for the pipeline (the site's limits keep it to tens of MB). */
  readAll(key: string): Promise<Buffer>
  /** Writes a file whole; writing a public name again is harmless (the same name is the same bytes). */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>
  /** Deletes a file; one already gone is no error. */
  remove(key: string): Promise<void>
  list(): AsyncIterable<{ key: string; lastModified: Date }>
}

const ORIGINAL_KEY = /^original-[0-9a-f]{32}$/
/** A public file's name: what `/media/:name` answers for. */
export const PUBLIC_MEDIA_NAME = /^[0-9a-f]{32}\.(avif|webp|jpg|mp4)$/

export function isMediaKey(key: string) {
  return ORIGINAL_KEY.test(key) || PUBLIC_MEDIA_NAME.test(key)
}

function assertMediaKey(key: string) {
  if (!isMediaKey(key)) throw new Error(`Not a media file key: ${key}`)
  return key
}

export function diskMediaStore(directory: string): MediaFileStore {
  const fileOf = (key: string) => path.join(directory, assertMediaKey(key))
  return {
    kind: 'disk',
    stat: async (key) => statFile(fileOf(key)),
    read: async (key, range) => readFileRange(fileOf(key), range),
    readAll: async (key) => readFile(fileOf(key)),
    async put(key, bytes) {
      const file = fileOf(key)
      await mkdir(directory, { recursive: true })
      // Written beside and renamed into place, so a reader never sees half a file; two workers
      // writing the same public file (the same photo uploaded twice) each write their own part.
      const partial = `${file}.${randomBytes(8).toString('hex')}.part`
      await writeFile(partial, bytes)
      await rename(partial, file)
    },
    async remove(key) {
      await rm(fileOf(key), { force: true })
    },
    list: () => listFiles(directory, isMediaKey),
  }
}

let current: MediaFileStore | undefined

export function mediaFileStore(): MediaFileStore {
  if (!current) throw new Error('Media file storage has not been set up')
  return current
}

export function useMediaFileStore(store: MediaFileStore | undefined) {
  current = store
}

/** The store of the configuration: the analysis files' bucket under `media/`, else DATA_DIR/media. */
export async function mediaStoreFor(settings: S3Settings | null, dataDir: string): Promise<MediaFileStore> {
  if (!settings) return diskMediaStore(path.join(dataDir, 'media'))
  const { s3MediaStore } = await import('./s3-media-store.server')
  return s3MediaStore(settings)
}
