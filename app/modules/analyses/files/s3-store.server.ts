import type { Readable } from 'node:stream'
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { S3Store } from '@tus/s3-store'
import { notFound, s3ClientConfig, type S3Settings } from '~/modules/storage/s3-settings.server'
import { assertFileKey, isStoredFileName, UPLOAD_EXPIRY_MS, type AnalysisFileStore } from './store.server'

export function s3FileStore(settings: S3Settings): AnalysisFileStore {
  const config = s3ClientConfig(settings)
  const client = new S3Client(config)
  const Bucket = settings.bucket
  // Parts of 8 MiB are written to a temporary file before they are sent: memory stays small
  // whatever the clip's size. Tags are not used (not every S3-compatible service has them):
  // unfinished uploads are found for expiry by listing the bucket's multipart uploads.
  const uploads = new S3Store({ partSize: 8 * 1024 * 1024, useTags: false, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS, s3ClientConfig: { ...config, bucket: Bucket } })
  return {
    kind: 's3',
    uploads,
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: assertFileKey(key) }))
        return { size: Number(head.ContentLength ?? 0), lastModified: head.LastModified ?? null }
      } catch (error) {
        if (notFound(error)) return null
        throw error
      }
    },
    async read(key, range) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: assertFileKey(key), ...(range && { Range: `bytes=${range.start}-${range.end}` }) }))
      return object.Body as Readable
    },
    async firstBytes(key, count) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: assertFileKey(key), Range: `bytes=0-${count - 1}` }))
      return (await object.Body?.transformToByteArray()) ?? new Uint8Array()
    },
    async put(key, bytes, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: assertFileKey(key), Body: bytes, ContentType: contentType, ContentLength: bytes.length }))
    },
    async remove(key) {
      assertFileKey(key)
      await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: ['', '.info', '.part'].map((suffix) => ({ Key: `${key}${suffix}` })), Quiet: true } }))
    },
    async *list() {
      let ContinuationToken: string | undefined
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }))
        for (const object of page.Contents ?? []) {
          if (object.Key && isStoredFileName(object.Key)) yield { key: object.Key, lastModified: object.LastModified ?? new Date() }
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
    },
  }
}
