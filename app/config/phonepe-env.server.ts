import { z } from 'zod'

/**
 * PhonePe's environment variables. All optional here, because they matter only when
 * PAYMENT_GATEWAY=phonepe; `phonePeConfigProblems` says what is missing in that case.
 */
export const PhonePeEnvSchema = z.object({
  PHONEPE_CLIENT_ID: z.string().min(1).optional(),
  PHONEPE_CLIENT_SECRET: z.string().min(1).optional(),
  PHONEPE_CLIENT_VERSION: z.coerce
    .number({ message: 'must be a positive whole number (the client version from PhonePe)' })
    .int('must be a positive whole number (the client version from PhonePe)')
    .positive('must be a positive whole number (the client version from PhonePe)')
    .default(1),
  PHONEPE_ENV: z.enum(['sandbox', 'production'], { message: 'must be sandbox or production' }).default('sandbox'),
  PHONEPE_WEBHOOK_USERNAME: z.string().min(1).optional(),
  PHONEPE_WEBHOOK_PASSWORD: z.string().min(1).optional(),
  PHONEPE_AUTH_BASE_URL: z.url({ message: 'must be an absolute URL such as https://api.phonepe.com/apis/identity-manager' }).optional(),
  PHONEPE_PG_BASE_URL: z.url({ message: 'must be an absolute URL such as https://api.phonepe.com/apis/pg' }).optional(),
  /** Where PhonePe's hosted checkout lives, if not the documented host (comma-separated origins). */
  PHONEPE_CHECKOUT_ORIGINS: z
    .string()
    .transform((value) => value.split(',').map((origin) => origin.trim()).filter(Boolean))
    .pipe(z.array(z.url({ message: 'must be a comma-separated list of origins such as https://mercury-t2.phonepe.com' }).transform((origin) => new URL(origin).origin)))
    .optional(),
})

export type PhonePeEnv = z.infer<typeof PhonePeEnvSchema>

type ConfigProblem = { path: string; message: string }

/** The settings PAYMENT_GATEWAY=phonepe cannot work without. */
export const PHONEPE_REQUIRED = ['PHONEPE_CLIENT_ID', 'PHONEPE_CLIENT_SECRET', 'PHONEPE_WEBHOOK_USERNAME', 'PHONEPE_WEBHOOK_PASSWORD'] as const

/**
 * What is missing or wrong for PAYMENT_GATEWAY=phonepe, one entry per variable; nothing for any
 * other gateway. Takes the raw environment or the parsed one (blank counts as unset). `message`
 * does not repeat the variable's name, which is in `path`: printed as `${path}: ${message}` it
 * reads "PHONEPE_CLIENT_ID: required when PAYMENT_GATEWAY=phonepe".
 */
export function phonePeConfigProblems(env: Record<string, unknown>): ConfigProblem[] {
  if (env.PAYMENT_GATEWAY !== 'phonepe') return []
  const problems: ConfigProblem[] = []
  const present = (name: string) => env[name] !== undefined && env[name] !== null && env[name] !== ''

  for (const name of PHONEPE_REQUIRED) {
    if (!present(name)) problems.push({ path: name, message: 'required when PAYMENT_GATEWAY=phonepe' })
    else if (typeof env[name] !== 'string') problems.push({ path: name, message: 'must be text' })
  }

  if (present('PHONEPE_CLIENT_VERSION')) {
    const version = Number(env.PHONEPE_CLIENT_VERSION)
    if (!Number.isInteger(version) || version < 1) {
      problems.push({ path: 'PHONEPE_CLIENT_VERSION', message: 'must be a positive whole number (the client version from PhonePe)' })
    }
  }

  const phonePeEnv = present('PHONEPE_ENV') ? env.PHONEPE_ENV : 'sandbox'
  if (phonePeEnv !== 'sandbox' && phonePeEnv !== 'production') {
    problems.push({ path: 'PHONEPE_ENV', message: 'must be sandbox or production' })
  }

  for (const name of ['PHONEPE_AUTH_BASE_URL', 'PHONEPE_PG_BASE_URL'] as const) {
    if (!present(name)) continue
    const url = parseUrl(env[name])
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      problems.push({ path: name, message: 'must be an absolute http(s) URL' })
    } else if (phonePeEnv === 'production' && url.protocol !== 'https:') {
      // Credentials and access tokens travel to this host.
      problems.push({ path: name, message: 'must use https when PHONEPE_ENV=production' })
    }
  }
  return problems
}

function parseUrl(value: unknown) {
  if (typeof value !== 'string') return null
  try {
    return new URL(value)
  } catch {
    return null
  }
}
