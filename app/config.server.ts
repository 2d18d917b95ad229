import { isIP } from 'node:net'
import path from 'node:path'
import { z } from 'zod'
import { analysisFilesConfigProblems, AnalysisFilesEnvSchema } from '~/config/analysis-files-env.server'
import { isCommonPassword, STAFF_PASSWORD_MIN } from '~/config/password-rules.server'
import { phonePeConfigProblems, PhonePeEnvSchema } from '~/config/phonepe-env.server'
import { whatsappConfigProblems, WhatsAppEnvSchema } from '~/config/whatsapp-env.server'

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes')

const TRUST_PROXY_MESSAGE =
  'must be false, the number of reverse proxies in front of the server (1, or true, for one), or their addresses (comma-separated IPs or CIDR ranges such as 10.0.0.0/8, or loopback)'

/**
 * Which X-Forwarded-For entries to believe, in Express's "trust proxy" terms: none, the last N
 * (each proxy appends the address it saw), or those added by proxies at the given addresses. Never
 * the whole chain: its first entries are whatever the client chose to send.
 */
const trustProxy = z.string().transform((value, context): false | number | string[] => {
  const setting = value.trim().toLowerCase()
  if (['false', 'no', '0'].includes(setting)) return false
  if (['true', 'yes'].includes(setting)) return 1
  if (/^\d+$/.test(setting) && Number(setting) <= 10) return Number(setting)
  const proxies = setting.split(',').map((entry) => entry.trim())
  if (proxies.every(isProxyAddress)) return proxies
  context.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGE })
  return z.NEVER
})

function isProxyAddress(entry: string) {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true
  const [address = '', prefix, ...rest] = entry.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128))
}

const ConfigSchema = z
  .object({
    PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535).default(3000),
    /** Unset: this machine only (127.0.0.1) for a local site, every interface (0.0.0.0) for a public SITE_URL. */
    HOST: z.string().min(1).optional(),
    SITE_URL: z.url({ message: 'must be an absolute URL such as https://example.com' }).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /** Worker processes answering requests (one per core); more than one needs PostgreSQL. */
    WEB_CONCURRENCY: z.coerce.number({ message: 'must be a number of processes' }).int().min(1).max(64).default(1),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
    TRUST_PROXY: trustProxy.default(false),
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
  // Analysis files (clips and posters): on disk under DATA_DIR/analysis-files, or in an S3 bucket.
  .extend(AnalysisFilesEnvSchema.shape)
  // WhatsApp (the Cloud API): all four secrets, or none for a site that sends e-mail only.
  .extend(WhatsAppEnvSchema.shape)
  .refine((env) => env.WEB_CONCURRENCY === 1 || Boolean(env.DATABASE_URL), {
    message: 'more than one worker needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process',
    path: ['WEB_CONCURRENCY'],
  })
  .refine((env) => Boolean(env.ADMIN_EMAIL) === Boolean(env.ADMIN_PASSWORD), {
    message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    path: ['ADMIN_PASSWORD'],
  })
  .superRefine((env, context) => {
    for (const problem of phonePeConfigProblems(env)) context.addIssue({ code: 'custom', message: problem.message, path: [problem.path] })
    for (const problem of analysisFilesConfigProblems(env)) context.addIssue({ code: 'custom', message: problem.message, path: [problem.path] })
    for (const problem of whatsappConfigProblems(env)) context.addIssue({ code: 'custom', message: problem.message, path: [problem.path] })
  })
  // The sandbox marks orders paid without money: only for a site nobody else can reach, or on purpose.
  .refine((env) => env.PAYMENT_GATEWAY !== 'sandbox' || env.ALLOW_SANDBOX_PAYMENTS || isLocalSite(env.SITE_URL), {
    message: 'the sandbox gateway takes no real money: on a public SITE_URL set PAYMENT_GATEWAY=phonepe, or ALLOW_SANDBOX_PAYMENTS=true for a test installation',
    path: ['PAYMENT_GATEWAY'],
  })
  .refine((env) => env.PAYMENT_GATEWAY !== 'sandbox' || env.ALLOW_SANDBOX_PAYMENTS || !isLocalSite(env.SITE_URL) || isLoopbackHost(listenHost(env)), {
    message:
      'the sandbox gateway takes no real money, and listening on this HOST lets other machines reach it: leave HOST unset (127.0.0.1, this machine only), set PAYMENT_GATEWAY=phonepe, or ALLOW_SANDBOX_PAYMENTS=true for a test installation',
    path: ['HOST'],
  })
  .transform((env) => ({
    ...env,
    HOST: listenHost(env),
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    /**
     * A site run with nothing configured (the embedded database, this machine only) is someone trying
     * it: request lines would bury the e-mails the local mailbox prints, so they are logged at debug.
     * Setting LOG_LEVEL, DATABASE_URL or a public SITE_URL logs them at info, as an access log.
     */
    REQUEST_LOG_LEVEL: env.LOG_LEVEL || env.DATABASE_URL || !isLocalSite(env.SITE_URL) ? ('info' as const) : ('debug' as const),
    /** A SITE_URL other machines reach: placeholders left on its pages are seen by the public. */
    PUBLIC_SITE: !isLocalSite(env.SITE_URL),
    SITE_URL: (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    /** True when SITE_URL was not given: it follows the port the server actually listens on. */
    SITE_URL_DERIVED: !env.SITE_URL,
    DATA_DIR: path.resolve(env.DATA_DIR),
  }))

export type Config = z.infer<typeof ConfigSchema>

/** A SITE_URL only this machine uses (unset means http://localhost:PORT). */
function isLocalSite(url: string | undefined) {
  if (!url) return true
  const host = new URL(url).hostname
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost')
}

/** A local site listens on this machine only; a public one on every interface, for its reverse proxy. */
function listenHost(env: { HOST?: string; SITE_URL?: string }) {
  return env.HOST ?? (isLocalSite(env.SITE_URL) ? '127.0.0.1' : '0.0.0.0')
}

function isLoopbackHost(host: string) {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'))
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
