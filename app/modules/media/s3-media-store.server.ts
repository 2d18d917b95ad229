import type { Readable } from 'node:stream'
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { notFound, s3ClientConfig, type S3Settings } from '~/modules/storage/s3-settings.server'
import { isMediaKey, type MediaFileStore } from './store.server'

const PREFIX = 'media/'

/** The media library in the analysis files' bucket, every key under `media/`. */
export function s3MediaStore(settings: S3Settings): MediaFileStore {
  const client = new S3Client(s3ClientConfig(settings))
  const Bucket = settings.bucket
  const keyOf = (key: string) => {
    if (!isMediaKey(key)) throw new Error(`Not a media file key: ${key}`)
    return `${PREFIX}${key}`
  }
  const body = async (key: string, Range?: string) => (await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key), Range }))).Body as Readable & { transformToByteArray(): Promise<Uint8Array> }
  return {
    kind: 's3',
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }))
        return { size: Number(head.ContentLength ?? 0), lastModified: head.LastModified ?? null }
      } catch (error) {
        if (notFound(error)) return null
        throw error
      }
    },
    read: (key, range) => body(key, range && `bytes=${range.start}-${range.end}`),
    readAll: async (key) => Buffer.from(await (await body(key)).transformToByteArray()),
    async put(key, bytes, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: keyOf(key), Body: bytes, ContentType: contentType, ContentLength: bytes.length }))
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }))
    },
    async *list() {
      let ContinuationToken: string | undefined
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: PREFIX, ContinuationToken }))
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(PREFIX.length)
          if (key && isMediaKey(key)) yield { key, lastModified: object.LastModified ?? new Date() }
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
    },
  }
}
