import { z } from 'zod'

/**
 * Where analysis files (clips, posters) are kept. Without any S3_* setting: on disk, under
 * DATA_DIR/analysis-files. With them: in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO),
 * which every instance of the site shares. All optional here; `analysisFilesConfigProblems` says
 * what is missing once any of them is set (all or nothing).
 */
export const AnalysisFilesEnvSchema = z.object({
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3-63 lower-case letters, digits, dots and hyphens')
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,40}$/, 'must be a region such as ap-south-1 (auto for Cloudflare R2)')
    .optional(),
  /** Another S3-compatible service than AWS: https://<account>.r2.cloudflarestorage.com, http://127.0.0.1:9000 for MinIO. */
  S3_ENDPOINT: z.url({ message: 'must be an absolute URL such as https://<account id>.r2.cloudflarestorage.com' }).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Address the bucket in the path (MinIO and most self-hosted services) rather than in the host name. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')
    .optional(),
})

export type AnalysisFilesEnv = z.infer<typeof AnalysisFilesEnvSchema>

const S3_SETTINGS = ['S3_BUCKET', 'S3_REGION', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const
const S3_REQUIRED = ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const

/**
 * A half-set S3 configuration would put some files in a bucket and look for others on disk: once
 * any S3_* setting is given, the bucket, region and both keys are needed. Messages leave out the
 * variable's name, which is the path.
 */
export function analysisFilesConfigProblems(env: Record<string, unknown>) {
  const present = (name: string) => env[name] !== undefined && env[name] !== null && env[name] !== ''
  const given = S3_SETTINGS.filter(present)
  if (given.length === 0) return []
  return S3_REQUIRED.filter((name) => !present(name)).map((name) => ({ path: name, message: `required when analysis files are kept in S3 (${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} set); set all of ${S3_REQUIRED.join(', ')}, or none of the S3_* settings to keep them on disk` }))
}
