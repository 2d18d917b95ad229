import { mkdir, rm, writeFile, open } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { FileStore } from '@tus/file-store'
import type { DataStore } from '@tus/utils'
import { durationMs } from '~/lib/lab-time'
import { listFiles, readFileRange, statFile } from '~/modules/storage/disk-files.server'
import type { S3Settings } from '~/modules/storage/s3-settings.server'
import type { ByteRange, StoredFile } from '~/modules/storage/stored-file'
export type { ByteRange, StoredFile } from '~/modules/storage/stored-file'

/** An unfinished upload is forgotten (and its bytes deleted) this long after it began. */
export const UPLOAD_EXPIRY_MS = durationMs({ hours: 24 })


/**
 * Where analysis files live: the clips staff upload (through the tus data store, `uploads`, which
 * writes to the same place) and their poster images. Files are read as streams, a byte range at a
 * time, never whole into memory: a clip may be 2 GB.
 */
export type AnalysisFileStore = {
  kind: 'disk' | 's3'
  /** The resumable uploads' store (tus): a finished upload's id is the clip's key. */
  uploads: DataStore
  stat(key: string): Promise<StoredFile | null>
  read(key: string, range?: ByteRange): Promise<Readable>
  /** The first `count` bytes (fewer for a smaller file), to recognise what kind of file it is. */
  firstBytes(key: string, count: number): Promise<Uint8Array>
  /** A small file written whole (a poster of 5 MB at most). */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>
  /** Deletes a file and whatever the upload kept beside it; a file already gone is no error. */
  remove(key: string): Promise<void>
  /** Every file's key with when it was last written, for the sweep of files nothing refers to. */
  list(): AsyncIterable<{ key: string; lastModified: Date }>
}

/**
 * Keys are made by the site: a tus upload's id (32 hex digits) or a poster's ("poster-" and 32 hex
 * digits). Anything else is refused, so no key can lead outside the store's directory.
 */
const SAFE_KEY = /^(?:poster-)?[0-9a-f]{32}$/

export function assertFileKey(key: string) {
  if (!SAFE_KEY.test(key)) throw new Error(`Not an analysis file key: ${key}`)
  return key
}

/** The files tus keeps beside an upload: its description (disk: .json; S3: .info) and, on S3, an unfinished part. */
const COMPANIONS = ['.json', '.info', '.part']

/** Whether a stored name is a file of the site's or one tus keeps beside it (an upload's description belongs to the upload). */
export function isStoredFileName(name: string) {
  const companion = COMPANIONS.find((suffix) => name.endsWith(suffix))
  return SAFE_KEY.test(companion ? name.slice(0, -companion.length) : name)
}

export function diskFileStore(directory: string): AnalysisFileStore {
  const fileOf = (key: string) => path.join(directory, assertFileKey(key))
  const uploads = new FileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS })
  return {
    kind: 'disk',
    uploads,
    stat: async (key) => statFile(fileOf(key)),
    read: async (key, range) => readFileRange(fileOf(key), range),
    async firstBytes(key, count) {
      const handle = await open(fileOf(key), 'r')
      try {
        const buffer = Buffer.alloc(count)
        const { bytesRead } = await handle.read(buffer, 0, count, 0)
        return buffer.subarray(0, bytesRead)
      } finally {
        await handle.close()
      }
    },
    async put(key, bytes) {
      const file = fileOf(key)
      await mkdir(directory, { recursive: true })
      await writeFile(file, bytes, { flag: 'wx' })
    },
    async remove(key) {
      const file = fileOf(key)
      await Promise.all(['', '.json'].map((suffix) => rm(`${file}${suffix}`, { force: true })))
    },
    list: () => listFiles(directory, isStoredFileName),
  }
}

let current: AnalysisFileStore | undefined

export function analysisFileStore(): AnalysisFileStore {
  if (!current) throw new Error('Analysis file storage has not been set up')
  return current
}

export function useAnalysisFileStore(store: AnalysisFileStore | undefined) {
  current = store
}

/**
 * The store of the configuration: the bucket when S3 is configured, else DATA_DIR/analysis-files.
 * The S3 client is loaded only for a bucket (it is a third of a second of the site's start-up).
 */
export async function fileStoreFor(settings: S3Settings | null, dataDir: string): Promise<AnalysisFileStore> {
  if (!settings) return diskFileStore(path.join(dataDir, 'analysis-files'))
  const { s3FileStore } = await import('./s3-store.server')
  return s3FileStore(settings)
}
