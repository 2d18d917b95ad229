import path from 'node:path'
import { z } from 'zod'
import { isCommonPassword, STAFF_PASSWORD_MIN } from '~/modules/accounts/password-policy.server'
import { phonePeConfigProblems, PhonePeEnvSchema } from '~/modules/payments/phonepe-config.server'

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes')

const ConfigSchema = z
  .object({
    PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    SITE_URL: z.url({ message: 'must be an absolute URL such as https://example.com' }).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: booleanFlag.default(false),
    BANNER_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(25),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps:// (for example smtps://user:password@smtp.example.com:465)')
      .optional(),
    MAIL_FROM: z.string().min(3).default('Swimming Sport Science Lab <no-reply@localhost>'),
    ADMIN_EMAIL: z.email({ message: 'must be an e-mail address' }).optional(),
    ADMIN_PASSWORD: z
      .string()
      .min(STAFF_PASSWORD_MIN, `must be at least ${STAFF_PASSWORD_MIN} characters`)
      .max(128, 'must be at most 128 characters')
      .refine((password) => !isCommonPassword(password), 'is one of the most common passwords: choose another one')
      .optional(),
    PAYMENT_GATEWAY: z.enum(['sandbox', 'phonepe'], { message: 'must be sandbox or phonepe' }).default('sandbox'),
    ALLOW_SANDBOX_PAYMENTS: booleanFlag.default(false),
    /** Where the sandbox gateway is reached; by default this very site (…/sandbox-gateway). */
    SANDBOX_GATEWAY_URL: z.url({ message: 'must be an absolute URL such as http://127.0.0.1:3001/sandbox-gateway' }).optional(),
    SEAT_HOLD_MINUTES: z.coerce.number({ message: 'must be a number of minutes' }).int().min(5).max(120).default(20),
    WAITLIST_OFFER_HOURS: z.coerce.number({ message: 'must be a number of hours' }).int().min(1).max(168).default(12),
    SESSION_COOKIE_NAME: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, - and _')
      .default('swimlab_session'),
  })
  .extend(PhonePeEnvSchema.shape)
  .refine((env) => Boolean(env.ADMIN_EMAIL) === Boolean(env.ADMIN_PASSWORD), {
    message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    path: ['ADMIN_PASSWORD'],
  })
  .superRefine((env, context) => {
    for (const problem of phonePeConfigProblems(env)) context.addIssue({ code: 'custom', message: problem.message, path: [problem.path] })
  })
  .refine((env) => env.PAYMENT_GATEWAY !== 'sandbox' || env.ALLOW_SANDBOX_PAYMENTS || !env.SITE_URL || isLocalAddress(env.SITE_URL), {
    message: 'the sandbox gateway takes no real money: on a public SITE_URL set PAYMENT_GATEWAY=phonepe, or ALLOW_SANDBOX_PAYMENTS=true for a test installation',
    path: ['PAYMENT_GATEWAY'],
  })
  .transform((env) => ({
    ...env,
    SITE_URL: (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    /** True when SITE_URL was not given: it follows the port the server actually listens on. */
    SITE_URL_DERIVED: !env.SITE_URL,
    DATA_DIR: path.resolve(env.DATA_DIR),
  }))

export type Config = z.infer<typeof ConfigSchema>

function isLocalAddress(url: string) {
  const host = new URL(url).hostname
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost')
}

export class ConfigError extends Error {}

/** Reads the environment once at start-up; a wrong value stops the server with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
  const result = ConfigSchema.safeParse(blankAsUnset)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
  throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`)
}

let current: Config | undefined

export function config(): Config {
  current ??= loadConfig()
  return current
}

export function setConfig(next: Config) {
  current = next
}
