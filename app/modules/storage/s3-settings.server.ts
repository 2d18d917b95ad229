import type { S3ClientConfig } from '@aws-sdk/client-s3'
import type { AnalysisFilesEnv } from '~/config/analysis-files-env.server'

export type S3Settings = { bucket: string; region: string; endpoint?: string; accessKeyId: string; secretAccessKey: string; forcePathStyle: boolean }

/** The bucket's settings, or null to keep files on disk. */
export function s3SettingsOf(env: AnalysisFilesEnv): S3Settings | null {
  if (!env.S3_BUCKET || !env.S3_REGION || !env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY) return null
  return { bucket: env.S3_BUCKET, region: env.S3_REGION, endpoint: env.S3_ENDPOINT, accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY, forcePathStyle: env.S3_FORCE_PATH_STYLE ?? false }
}

/**
 * The S3 client's settings. Checksums only where the service requires them: the SDK's default
 * (a checksum trailer on every upload) is not understood by every S3-compatible service.
 */
export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  return {
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }
}

/** Whether the service said the object is not there. */
export function notFound(error: unknown) {
  const name = (error as { name?: string }).name
  return name === 'NotFound' || name === 'NoSuchKey' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
}
