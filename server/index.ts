import cluster from 'node:cluster'
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createRequestHandler as createFetchHandler, type ServerBuild } from 'react-router'
import express from 'express'
import pino from 'pino'
import { getTableName } from 'drizzle-orm'
import { config as currentConfig, ConfigError, loadConfig, setConfig, type Config } from '~/config.server'
import { openDatabase, useDatabase, type Database } from '~/db/client.server'
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '~/db/outage.server'
import { availabilityWindows, closedTimeSlots, kitPlacements, kits } from '~/db/schema'
import { seedDatabase } from '~/db/seed.server'
import { passwordProblem } from '~/modules/accounts/password-policy.server'
import { AdminNotPromotedError, createAdmin, ensureAdmin } from '~/modules/accounts/users.server'
import { localMailbox, smtpTransport, type MailTransport } from '~/modules/mail/transport.server'
import { mailboxBlock } from '~/modules/mail/mailbox-block'
import type { PaymentGateway } from '~/modules/payments/gateway-contract.server'
import { registerPayables } from '~/modules/payables/payables.server'
import { usePaymentGateway } from '~/modules/payments/active-gateway.server'
import { sandboxKey } from '~/modules/payments/gateways/sandbox-gateway-orders.server'
import { diskStorage, useReportStorage } from '~/modules/reports/storage.server'
import { s3SettingsOf } from '~/modules/storage/s3-settings.server'
import { fileStoreFor, useAnalysisFileStore, type AnalysisFileStore } from '~/modules/analyses/files/store.server'
import { mediaStoreFor, useMediaFileStore } from '~/modules/media/store.server'
import { enableContentCache, invalidateContentCache } from '~/db/content-cache.server'
import { launchGaps } from '~/modules/site/launch-gaps'
import { settingsForStaff } from '~/modules/site/staff.server'
import { AVAILABILITY_CHANNEL, startCaches } from '~/web/caches.server'
import { listenToCampLine } from '~/modules/camps/line.server'
import { listenToDayLine } from '~/modules/booking/analysis-day-line.server'
import { quietOr } from '~/modules/holders/arrivals.server'
import { redactSecrets } from '~/lib/log-redaction.server'
import { startLogger } from '~/lib/logger.server'
import { ANALYSIS_DAY_KEPT_MS, ANALYSIS_DAY_PATH, CACHED_PATHS } from '~/web/public-pages'
import { BANNER_CLOSED_COOKIE } from '~/web/banner/banner-closed.server'
import { addSeconds } from '~/lib/lab-time'
import { savesData } from '~/lib/save-data'
import { newRequestsWait } from '~/lib/intake.server'
import { createPhonePeGateway } from '~/modules/payments/gateways/phonepe.server'
import { phonePeOptionsFrom } from '~/modules/payments/gateways/phonepe-config.server'
import { createSandboxGateway } from '~/modules/payments/gateways/sandbox-adapter.server'
import { whatsappSettings } from '~/modules/whatsapp/config.server'
import { cloudApiSender } from '~/modules/whatsapp/cloud-api.server'
import type { OutboxSender } from '~/modules/mail/outbox.server'
import { BackgroundJobs } from './background-jobs'
import { LiveEvents } from './live-events'
import { originCheck } from './origin-check'
import { paymentWebhook } from './payment-webhook'
import { WHATSAPP_WEBHOOK_PATH, whatsappWebhook } from './whatsapp-webhook'
import { sandboxGatewayRouter } from './sandbox-gateway-routes'
import { pageCache } from './page-cache'
import { contentSecurityPolicy, fixedSecurityHeaders, securityHeaders } from './security-headers'
import { answeringOutagesWith503, UNAVAILABLE_MESSAGE, UNAVAILABLE_TITLE } from './database-outage'
import { notFoundMatcher } from './not-found'
import { superviseWorkers } from './workers'
import { staticFiles } from './static-files'
import { oneATurn } from './turns'
import { pageHandler } from './page-handler'
import { soldOutDays } from './sold-out-days'
import { dayLinePlaces } from './day-line-places'
import { dayLineJoins } from './day-line-joins'
import { CLIP_UPLOADS_PATH, clipUploads } from './clip-uploads'

declare module 'react-router' {
  interface AppLoadContext {
    cspNonce: string
    requestId: string
    /** The client's address (from the entries trusted proxies added to X-Forwarded-For, see TRUST_PROXY), for rate limits. */
    clientIp: string
  }
}

/** Starts the whole site: configuration, database (migrated and seeded), HTTP server, live events. */
export async function start(env: NodeJS.ProcessEnv = process.env) {
  let config: Config
  try {
    config = loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 1)
    throw error
  }
  setConfig(config)
  registerPayables()
  // Lines are written without blocking the request that logged them: under load they go out
  // together, one write for many; on exit whatever is pending is written first.
  const logOutput = pino.destination({ sync: false })
  process.once('exit', () => logOutput.flushSync())
  const logger = startLogger(config.LOG_LEVEL, logOutput)
  keepRunningOnStrayRejections(logger)

  if (config.WEB_CONCURRENCY > 1 && cluster.isPrimary) {
    // The database is made ready once, here; the workers then only open it.
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 })
    useDatabase(database)
    try {
      await prepareDatabase(database, config, logger)
    } finally {
      await database.close()
    }
    logger.info({ workers: config.WEB_CONCURRENCY }, 'starting the workers')
    return superviseWorkers(config.WEB_CONCURRENCY, logger, (port) => print(logOutput, whereTheSiteIs(config, port)))
  }

  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    onError: (error) => logger.error({ err: error }, 'database connection error'),
  })
  useDatabase(database)
  if (!cluster.isWorker) await prepareDatabase(database, config, logger)

  useReportStorage(diskStorage(path.join(config.DATA_DIR, 'reports')))
  // Analysis files: clips and posters, on disk or in the S3 bucket (swept by the background jobs).
  const analysisFiles = await fileStoreFor(s3SettingsOf(config), config.DATA_DIR)
  useAnalysisFileStore(analysisFiles)
  logger.info({ store: analysisFiles.kind }, analysisFiles.kind === 's3' ? 'analysis files: the S3 bucket' : `analysis files: on disk under ${path.join(config.DATA_DIR, 'analysis-files')}`)
  // The media library: the lab's photos and video loops, beside the analysis files but apart from them.
  useMediaFileStore(await mediaStoreFor(s3SettingsOf(config), config.DATA_DIR))
  const gateway = await setUpPaymentGateway(config, logger)
  logger.info({ gateway: gateway.name }, gateway.name === 'sandbox' ? 'payments: the sandbox gateway (TEST MODE, no real money)' : `payments: ${gateway.name}`)

  const liveEvents = new LiveEvents(database, logger, config.BANNER_HEARTBEAT_SECONDS)
  liveEvents.onContentChange(invalidateContentCache)
  enableContentCache()
  await liveEvents.start()
  const stopCaches = await startCaches(database)
  const stopListeningToCampLine = await listenToCampLine()
  const stopListeningToDayLine = await listenToDayLine()
  const jobs = new BackgroundJobs(mailTransport(config, logger, logOutput), logger, database, whatsappSender(logger))
  jobs.start()

  // The build is resolved once: handed to React Router as a function, it would derive its routes
  // again for every request (the development server's way of picking up edits).
  const build = answeringOutagesWith503((await import('virtual:react-router/server-build')) as ServerBuild)
  const app = createApp({ config, logger, database, liveEvents, gateway, build, analysisFiles })
  const server = await listen(app, config)
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.PORT
  // With PORT=0 and no SITE_URL, links (e-mails, the gateway's way back) must name the real port.
  if (config.SITE_URL_DERIVED && config.PORT === 0) setConfig({ ...config, SITE_URL: `http://localhost:${port}` })
  logger.info({ port, url: currentConfig().SITE_URL, pid: process.pid }, 'listening')
  // The primary of several workers says it once for all of them.
  if (!cluster.isWorker) print(logOutput, whereTheSiteIs(config, port))

  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      logger.info('shutting down: no new requests, finishing the ones in flight')
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      await liveEvents.stop()
      // A connection is closed once idle: one whose request was in flight would otherwise stay open
      // for the client's next request (the keep-alive timeout, 5 s) and hold up the exit that long.
      server.closeIdleConnections()
      const closingIdle = setInterval(() => server.closeIdleConnections(), 100)
      const deadline = setTimeout(() => server.closeAllConnections(), 10_000)
      await closed
      clearInterval(closingIdle)
      clearTimeout(deadline)
      await jobs.stop()
      await stopListeningToCampLine()
      await stopListeningToDayLine()
      await stopCaches()
      await database.close()
      logger.info('stopped')
    })()
    return stopping
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stop().then(
        () => process.exit(0),
        (error) => {
          logger.error({ err: error }, 'shutdown failed')
          process.exit(1)
        },
      )
    })
  }
  return { server, port, stop }
}

/** Migrations, seed data and the admin of ADMIN_EMAIL. */
async function prepareDatabase(database: Database, config: Config, logger: pino.Logger) {
  await database.migrate()
  await seedDatabase(database.db)
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) await adminFromEnvironment(config.ADMIN_EMAIL, config.ADMIN_PASSWORD, logger)
  logger.info({ database: database.kind === 'postgres' ? 'postgresql' : `pglite at ${config.DATA_DIR}` }, 'database ready')
  await warnOfPlaceholders(config, logger)
}

/**
 * A public site whose pages still show "[Phone number — to be supplied by the lab]" and the like,
 * or leave out a coach and team not named yet, was started too early: the log says so once, naming
 * each, as the admin overview lists them.
 */
async function warnOfPlaceholders(config: Config, logger: pino.Logger) {
  if (!config.PUBLIC_SITE) return
  const placeholders = launchGaps(await settingsForStaff()).map((gap) => gap.what)
  if (placeholders.length === 0) return
  logger.warn({ placeholders }, `details still to supply before going live (placeholders, or people left out until named): ${placeholders.join(', ')}. Set them at ${config.SITE_URL}/admin/settings (the admin overview links each one)`)
}

/** The line a person starting the site looks for. */
function whereTheSiteIs(config: Config, port: number) {
  return config.PUBLIC_SITE ? `The site is running at ${config.SITE_URL} (listening on ${config.HOST}:${port})` : `The site is running at http://localhost:${port}`
}

/** Plain text for the person at the terminal, through the log's own stream so it keeps its place among the log lines. */
function print(output: pino.DestinationStream, text: string) {
  output.write(`${text}\n`)
}

/** Addresses the server answers itself, before React Router (see createApp): never the missing page. */
const SERVER_PATHS = ['/healthz', '/readyz', '/events', '/api', '/sandbox-gateway', CLIP_UPLOADS_PATH, WHATSAPP_WEBHOOK_PATH]

function answeredByServer(pathname: string) {
  const path = pathname.toLowerCase()
  return SERVER_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
}

function createApp({ config, logger, database, liveEvents, gateway, build, analysisFiles }: { config: Config; logger: pino.Logger; database: Database; liveEvents: LiveEvents; gateway: PaymentGateway; build: ServerBuild; analysisFiles: AnalysisFileStore }) {
  const production = config.SITE_URL.startsWith('https://')
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', config.TRUST_PROXY)
  const fixedHeaders = fixedSecurityHeaders({ production })
  const policy = (scriptSources: string[]) => contentSecurityPolicy({ production, formActions: gateway.checkoutOrigins, scriptSources })

  app.use((_request, response, next) => {
    response.locals.requestId = String(response.getHeader('X-Request-Id'))
    next()
  })
  app.use(securityHeaders({ production, formActions: gateway.checkoutOrigins }))
  // Meta's servers post here, not a browser on some page: before the origin check, with its own signature check.
  app.use(WHATSAPP_WEBHOOK_PATH, whatsappWebhook(logger))
  app.use(originCheck({ siteUrl: () => currentConfig().SITE_URL }))

  app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' })
  })
  app.get('/readyz', async (_request, response) => {
    try {
      await database.ping()
      response.json({ status: 'ok', database: 'reachable' })
    } catch (error) {
      logger.warn({ err: error }, 'readiness check failed')
      response.status(503).json({ status: 'unavailable', database: 'unreachable' })
    }
  })
  app.get('/events', liveEvents.handle)
  app.post('/api/payments/webhook/:gateway', express.raw({ type: () => true, limit: '64kb' }), paymentWebhook(gateway, logger))
  if (gateway.name === 'sandbox') app.use('/sandbox-gateway', sandboxGatewayRouter())
  // Resumable clip uploads (tus), staff only: the body streams to the store, never through React Router.
  const uploads = clipUploads({ store: analysisFiles, siteUrl: () => currentConfig().SITE_URL, logger })
  app.all(`${CLIP_UPLOADS_PATH}{/*upload}`, (request, response, next) => void uploads(request, response).catch(next))

  const renderPage = createFetchHandler(build, 'production')
  const isNotFound = notFoundMatcher(build)
  const cached = {
    // A visitor who closed the camp banner gets pages rendered for them: the cached copies show it.
    // So does one with a /booking draft: going back to its first step shows their details as kept.
    personalCookies: [config.SESSION_COOKIE_NAME, 'toast', BANNER_CLOSED_COOKIE, 'booking_draft'],
    contentSecurityPolicy: policy,
    headers: fixedHeaders,
    render: (path: string, request: express.Request, nonce: string) =>
      // Rendered as any anonymous visitor sees the page; a browser saving data has copies of its own.
      renderPage(new Request(new URL(path, config.SITE_URL), { headers: { Accept: 'text/html', 'User-Agent': request.get('User-Agent') ?? '', ...(savesData(request.get('Save-Data')) && { 'Save-Data': 'on' }) } }), {
        cspNonce: nonce,
        requestId: String(request.res?.locals.requestId ?? ''),
        clientIp: request.ip ?? '',
      }),
  }
  const pages = pageCache({ ...cached, paths: CACHED_PATHS, isNotFound: (pathname) => !answeredByServer(pathname) && isNotFound(pathname) })
  // An analysis day's page: its seats change by the second in a release's rush (see ANALYSIS_DAY_PATH).
  const dayPages = pageCache({ ...cached, paths: [], pattern: ANALYSIS_DAY_PATH, ttlMs: ANALYSIS_DAY_KEPT_MS, brotliQuality: 5 })
  liveEvents.onContentChange(() => {
    pages.clear()
    dayPages.clear()
  })
  // Opening hours, and whether a kit is at the lab, decide which dates /booking offers: a change to
  // them makes its kept copy stale. Any change of seats or windows may change a day's page.
  const openingHours = new Set<string>([getTableName(availabilityWindows), getTableName(closedTimeSlots), getTableName(kitPlacements), getTableName(kits)])
  database
    .listen(AVAILABILITY_CHANNEL, (table) => {
      if (openingHours.has(table)) pages.clear()
      dayPages.clear()
    })
    .catch((error: unknown) => logger.warn({ err: error }, 'the page cache will not hear of changes to opening hours'))
  app.use(pages.middleware)
  app.use(dayPages.middleware)

  // In a camp rush, the page of a place in line is read only once this instance has taken in the
  // parents still arriving (or after 20 s): their submissions come first.
  app.get('/onboarding/line', (_request, _response, next) => void quietOr(addSeconds(new Date(), 20).getTime()).then(() => next()))
  app.get('/analysis-days/line', dayLinePlaces(fixedHeaders))
  app.post('/analysis-days/:dayId', dayLineJoins({ headers: fixedHeaders, sessionCookie: config.SESSION_COOKIE_NAME }))

  app.all(
    '/{*path}',
    pageHandler({
      build,
      siteUrl: () => currentConfig().SITE_URL,
      loadContext: (request, response) => ({
        cspNonce: response.locals.cspNonce,
        requestId: String(response.locals.requestId),
        clientIp: request.ip ?? request.socket.remoteAddress ?? '',
      }),
    }),
  )

  app.use((error: unknown, request: express.Request, response: express.Response, _next: express.NextFunction) => {
    // The request itself was wrong (a malformed address, a body too large): say so, not "our fault".
    const status = typeof error === 'object' && error !== null ? Number((error as { status?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode) : NaN
    if (status >= 400 && status < 500 && !response.headersSent) {
      logger.warn({ err: error, requestId: response.locals.requestId }, 'bad request')
      return response.status(status).type('html').send(plainErrorPage(status === 413 ? 'Too large' : 'Bad request', 'The address or the form sent could not be read. Please check it and try again.'))
    }
    if (isDatabaseUnavailable(error) && !response.headersSent) {
      logger.warn({ err: error, requestId: response.locals.requestId }, 'database unavailable: answering 503')
      response.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
      // The gateway's notifications (/api/…) are retried on a 503; they and JSON clients get JSON.
      if (request.path.startsWith('/api/') || request.accepts(['html', 'json']) === 'json') return response.status(503).json({ error: UNAVAILABLE_TITLE, message: UNAVAILABLE_MESSAGE })
      return response.status(503).type('html').send(plainErrorPage(UNAVAILABLE_TITLE, UNAVAILABLE_MESSAGE))
    }
    logger.error({ err: error, requestId: response.locals.requestId }, 'unhandled error')
    if (response.headersSent) return response.end()
    response.status(500).type('html').send(plainErrorPage('Something went wrong', 'Please try again in a moment.'))
  })

  // Static files and cached pages are answered before Express sees the request: they are the
  // same for everyone, with every header worked out in advance.
  const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../client')
  const files = staticFiles(clientDir, { headers: { ...fixedHeaders, 'Content-Security-Policy': policy([]) } })
  const soldOut = soldOutDays(fixedHeaders)
  const debug = logger.isLevelEnabled('debug')
  // Everything else (rendering a page, above all) is started one request per turn of the event loop:
  // see oneATurn.
  const inTurn = oneATurn({ paused: newRequestsWait })
  return (request: IncomingMessage, response: ServerResponse) => {
    const startedAt = process.hrtime.bigint()
    // The address as it came: a part of the server mounted on a path (the webhooks, the sandbox gateway) sees it without that path.
    const url = request.url ?? ''
    const logRequest = (level: 'info' | 'debug', requestId?: string) => {
      const ms = Number(process.hrtime.bigint() - startedAt) / 1e6
      logger[level]({ requestId, method: request.method, url: redactSecrets(url), status: response.statusCode, ms: Math.round(ms * 10) / 10 }, 'request')
    }
    // Answered from memory, the same bytes for everyone: nothing to trace by a request id, and
    // logged at debug level only, where a line would cost a third of the answer (a proxy in front
    // logs them anyway).
    if (files.handle(request, response) || pages.handle(request, response) || dayPages.handle(request, response)) {
      if (debug) logRequest('debug')
      return
    }
    const requestId = randomUUID()
    response.setHeader('X-Request-Id', requestId)
    if (logger.isLevelEnabled(config.REQUEST_LOG_LEVEL)) response.once('finish', () => logRequest(config.REQUEST_LOG_LEVEL, requestId))
    // Asked again when its turn comes: in a rush, a day sold out meanwhile answers the parents
    // still waiting at once, and a day's page rendered meanwhile (for a visitor ahead) everyone after.
    inTurn(
      () => soldOut(request, response) || dayPages.handle(request, response) || pages.handle(request, response),
      () => app(request, response),
    )
  }
}

/** The site runs without the admin of ADMIN_EMAIL when that account may not be made one; the log says why and what to do. */
async function adminFromEnvironment(email: string, password: string, logger: pino.Logger) {
  try {
    const admin = await ensureAdmin({ email, password })
    if (admin.disabled) logger.warn({ email }, 'the admin account of ADMIN_EMAIL is disabled and stays disabled; to enable it again, run `npm run admin:create -- --email <address> --password <new password> --existing`')
    else logger.info({ email, created: admin.created }, 'admin account from ADMIN_EMAIL is ready')
  } catch (error) {
    if (!(error instanceof AdminNotPromotedError)) throw error
    logger.error({ email }, error.message)
  }
}

/**
 * A promise rejected with nobody listening (a database call that lost its connection in a
 * fire-and-forget task, say) would otherwise end the process, and with it every request in flight
 * and every background job. It is logged instead; the work it belonged to is retried by its owner.
 */
function keepRunningOnStrayRejections(logger: pino.Logger) {
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) logger.warn({ err: reason }, 'database unavailable (unhandled rejection)')
    else logger.error({ err: reason }, 'unhandled promise rejection')
  })
}

/** The gateway of PAYMENT_GATEWAY; the sandbox is reached over HTTP at this very site. */
async function setUpPaymentGateway(config: Config, logger: pino.Logger): Promise<PaymentGateway> {
  const gateway =
    config.PAYMENT_GATEWAY === 'phonepe'
      ? createPhonePeGateway(phonePeOptionsFrom(config, logger.child({ gateway: 'phonepe' })))
      : createSandboxGateway({
          baseUrl: () => (currentConfig().SANDBOX_GATEWAY_URL ?? `${currentConfig().SITE_URL}/sandbox-gateway`).replace(/\/+$/, ''),
          callbackUrl: () => `${currentConfig().SITE_URL}/api/payments/webhook/sandbox`,
          key: await sandboxKey(),
          checkoutOrigins: config.SANDBOX_GATEWAY_URL ? [new URL(config.SANDBOX_GATEWAY_URL).origin] : [],
        })
  usePaymentGateway(gateway)
  return gateway
}

/**
 * SMTP when SMTP_URL is set. Otherwise the local mailbox, which also prints each message as a
 * readable block among the log lines, so a newcomer on the default run finds their verification
 * code in the terminal.
 */
function mailTransport(config: Config, logger: pino.Logger, output: pino.DestinationStream): MailTransport {
  if (config.SMTP_URL) return smtpTransport(config.SMTP_URL, config.MAIL_FROM)
  logger.warn('no SMTP_URL: e-mail goes to the local mailbox (printed here, and at /admin/messages for admins); set SMTP_URL in production')
  return localMailbox((mail) => {
    logger.debug({ to: mail.to, subject: mail.subject }, 'e-mail delivered to the local mailbox')
    // Information, as the log's other lines are: a quieter LOG_LEVEL (warn, error) leaves it out.
    if (logger.isLevelEnabled('info')) print(output, mailboxBlock(mail))
  })
}

/** The Cloud API sender when the WhatsApp settings are given; otherwise the site sends e-mail only. */
function whatsappSender(logger: pino.Logger): OutboxSender | undefined {
  const settings = whatsappSettings()
  if (!settings) return undefined
  logger.info({ phoneNumberId: settings.phoneNumberId, apiUrl: settings.apiUrl }, `WhatsApp: on, sending through the Cloud API; webhook at ${WHATSAPP_WEBHOOK_PATH}`)
  return cloudApiSender(settings)
}

/**
 * `npm run admin:create -- --email … --password … [--name …] [--existing]`: creates an admin
 * account against the configured database. An address that already has an account is refused
 * unless `--existing` is given; then that account gets this password, becomes an enabled, verified
 * admin and is signed out everywhere.
 */
export { runImageRenderer } from './image-renderer'

export async function createAdminCommand(argv: string[], env: NodeJS.ProcessEnv = process.env) {
  const usage = 'Usage: npm run admin:create -- --email admin@example.com --password "a long password" [--name "Full Name"] [--existing]'
  let values: { email?: string; password?: string; name?: string; existing?: boolean }
  try {
    values = parseArgs({ args: argv, options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, existing: { type: 'boolean' } } }).values
  } catch (error) {
    fail(`${(error as Error).message}\n${usage}`, 2)
  }
  const email = values.email ?? env.ADMIN_EMAIL
  const password = values.password ?? env.ADMIN_PASSWORD
  if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || !password) {
    fail(`An e-mail address and a password are required.\n${usage}`, 2)
  }
  const weak = password.length > 128 ? 'Passwords must be at most 128 characters' : passwordProblem(password, { staff: true })
  if (weak) {
    fail(`${weak}.\n${usage}`, 2)
  }
  let config: Config
  try {
    config = loadConfig({ ...env, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined })
  } catch (error) {
    fail((error as Error).message, 1)
  }
  setConfig(config)
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 })
  useDatabase(database)
  let outcome: Awaited<ReturnType<typeof createAdmin>>
  try {
    await database.migrate()
    outcome = await createAdmin({ email, password, name: values.name }, { existing: values.existing })
  } finally {
    await database.close()
  }
  if (outcome.status === 'exists') {
    fail(
      `${email} already has an account, which was left as it is. If it is yours (or must become an admin), run the command again with --existing: ` +
        'the account then gets this password, becomes an admin, and is signed out everywhere.',
      1,
    )
  }
  say(outcome.status === 'created' ? `Created the admin account ${email}.` : `${email} is now an admin, with the password given, and signed out everywhere.`)
}

/** A line for the person at the terminal (the admin:create command, a configuration that cannot start): plain text, not a log entry. */
function say(text: string) {
  process.stdout.write(`${text}\n`)
}

/** The same on stderr, ending the process with `code`. */
function fail(text: string, code: number): never {
  process.stderr.write(`${text}\n`)
  process.exit(code)
}

function listen(handler: RequestListener, config: Config): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler)
    server.keepAliveTimeout = 65_000
    server.once('error', reject)
    // A rush opens connections faster than a busy process accepts them: a longer queue (up to the
    // system's limit) keeps them from being dropped and retried seconds later.
    server.listen({ port: config.PORT, host: config.HOST, backlog: 4096 }, () => {
      server.off('error', reject)
      resolve(server)
    })
  })
}

export function plainErrorPage(title: string, message: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><link rel="stylesheet" href="/error-page.css"></head><body><h1>${title}</h1><p>${message}</p><p><a href="/">Return Home</a></p></body></html>`
}
