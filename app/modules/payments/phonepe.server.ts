import { createHash, timingSafeEqual } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  GatewayError,
  type CreatePaymentInput,
  type GatewayNotification,
  type GatewayOrderState,
  type GatewayOrderStatus,
  type GatewayRefundState,
  type GatewayRefundStatus,
  type IncomingNotification,
  type NotificationCheck,
  type PaymentGateway,
  type RefundInput,
} from './gateway-contract.server'
import { durationMs, fromUnixSeconds, secondsBetween } from '~/lib/lab-time'

/**
 * PhonePe PG Standard Checkout v2 over plain `fetch`: the official SDK is a singleton, pulls in
 * axios and sends telemetry. Every call has a timeout; calls that are safe to repeat are retried
 * briefly; nothing secret (client secret, access token, webhook credentials) is ever logged.
 */

/** The part of a pino logger we use, so tests can hand in a recorder. */
export type PhonePeLogger = {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

export type PhonePeEnvironment = 'sandbox' | 'production'

export type PhonePeOptions = {
  clientId: string
  clientSecret: string
  clientVersion: number
  env: PhonePeEnvironment
  /** The credentials set for the webhook on PhonePe's dashboard. */
  webhookUsername: string
  webhookPassword: string
  /** Overrides of the env's hosts, for the local fake in tests. */
  authBaseUrl?: string
  pgBaseUrl?: string
  checkoutOrigins?: string[]
  /** Per HTTP exchange, reading the body included. */
  timeoutMs?: number
  logger: PhonePeLogger
}

const PHONEPE_HOSTS: Record<PhonePeEnvironment, { auth: string; pg: string; checkoutOrigins: string[] }> = {
  sandbox: {
    auth: 'https://api-preprod.phonepe.com/apis/pg-sandbox',
    pg: 'https://api-preprod.phonepe.com/apis/pg-sandbox',
    checkoutOrigins: ['https://mercury-uat.phonepe.com'],
  },
  production: {
    auth: 'https://api.phonepe.com/apis/identity-manager',
    pg: 'https://api.phonepe.com/apis/pg',
    checkoutOrigins: ['https://mercury-t2.phonepe.com'],
  },
}

/** Standard Checkout accepts an order expiry of 300 to 3600 seconds. */
const EXPIRE_AFTER_SECONDS = { min: 300, max: 3600 } as const
const MIN_AMOUNT_PAISE = 100
/** udf1 to udf10 take up to 256 characters each; we use the first five. */
const UDF_SLOTS = 5
const UDF_MAX_LENGTH = 256
const MESSAGE_MAX_LENGTH = 256
const ID_PATTERN = /^[A-Za-z0-9_-]{1,63}$/
const DEFAULT_TIMEOUT_MS = 10_000
const RETRY_DELAYS_MS = [200, 600]
/** Answers PhonePe gives for an order id it has no record of. */
const NOT_FOUND_CODES = new Set(['INVALID_MERCHANT_ORDER_ID', 'ORDER_NOT_FOUND', 'NOT_FOUND'])

type CallName = 'token' | 'pay' | 'order status' | 'refund' | 'refund status'

type Call = {
  name: CallName
  method: 'GET' | 'POST'
  baseUrl: string
  path: string
  /** JSON for API calls; form fields for the token call. */
  json?: object
  form?: Record<string, string>
  /** How many times a network failure or a 5xx is tried in all. */
  attempts: number
  /** Only these identifiers go into the log next to the call. */
  ids: { merchantOrderId?: string; merchantRefundId?: string }
}

type Answer = {
  status: number
  body: unknown
  /** An earlier attempt of the same call timed out, broke or got a 5xx: it may have taken effect. */
  afterUncertainAttempt: boolean
}

class TransportFailure extends Error {
  constructor(readonly kind: 'timeout' | 'network') {
    super(kind)
  }
}

type CachedToken = { value: string; refreshAt: number; expiresAt: number }

export function createPhonePeGateway(options: PhonePeOptions): PaymentGateway {
  const hosts = PHONEPE_HOSTS[options.env]
  const authBaseUrl = trimSlash(options.authBaseUrl ?? hosts.auth)
  const pgBaseUrl = trimSlash(options.pgBaseUrl ?? hosts.pg)
  const checkoutOrigins = options.checkoutOrigins ?? hosts.checkoutOrigins
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const { logger } = options
  const expectedWebhookDigest = sha256(sha256Hex(`${options.webhookUsername}:${options.webhookPassword}`))

  let token: CachedToken | null = null
  let tokenRequest: Promise<string> | null = null

  /** One HTTP exchange, with a timeout, logged without headers or bodies. */
  async function exchange(call: Call, attempt: number, authorization: string | null) {
    const context = { gateway: 'phonepe', call: call.name, method: call.method, path: call.path, attempt, ...call.ids }
    const headers: Record<string, string> = { Accept: 'application/json' }
    let body: string | undefined
    if (call.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(call.form).toString()
    } else if (call.json) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(call.json)
    }
    if (authorization) headers.Authorization = authorization

    const started = performance.now()
    try {
      const response = await fetch(`${call.baseUrl}${call.path}`, {
        method: call.method,
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      })
      const text = await response.text()
      const ms = Math.round(performance.now() - started)
      const level = response.status >= 500 ? 'warn' : 'info'
      logger[level]({ ...context, status: response.status, ms }, `PhonePe ${call.name}: HTTP ${response.status}`)
      return { status: response.status, body: parseJson(text) }
    } catch (error) {
      const ms = Math.round(performance.now() - started)
      const kind = isTimeout(error) ? 'timeout' : 'network'
      logger.warn({ ...context, ms, failure: kind, cause: causeCode(error) }, `PhonePe ${call.name}: ${kind} failure`)
      throw new TransportFailure(kind)
    }
  }

  /**
   * Tries a call up to `call.attempts` times while the network fails or PhonePe answers 5xx.
   * API calls carry the access token; a 401 fetches a new token and tries once more.
   */
  async function send(call: Call, authorized: boolean): Promise<Answer> {
    let uncertain = false
    let refreshedAfter401 = false
    for (let attempt = 1; ; attempt += 1) {
      try {
        const used = authorized ? await accessToken() : null
        let answer = await exchange(call, attempt, used && `O-Bearer ${used}`)
        if (used && answer.status === 401 && !refreshedAfter401) {
          refreshedAfter401 = true
          logger.warn({ gateway: 'phonepe', call: call.name, ...call.ids }, 'PhonePe rejected the access token; fetching a new one')
          answer = await exchange(call, attempt, `O-Bearer ${await accessToken(used)}`)
        }
        if (isServerTrouble(answer.status) && attempt < call.attempts) {
          uncertain = true
          await sleep(backoff(attempt))
          continue
        }
        return { ...answer, afterUncertainAttempt: uncertain }
      } catch (error) {
        if (!(error instanceof TransportFailure)) throw error
        if (attempt < call.attempts) {
          uncertain = true
          await sleep(backoff(attempt))
          continue
        }
        const what = error.kind === 'timeout' ? `timed out after ${timeoutMs} ms` : 'could not reach PhonePe'
        throw new GatewayError(`PhonePe ${call.name} ${what} (${attempt} attempts)`, true)
      }
    }
  }

  /**
   * The cached token, refreshed at half its lifetime like the official SDK. Concurrent callers
   * share one token request. `replacing`: the token PhonePe just rejected, to be replaced unless
   * another caller has already done so.
   */
  async function accessToken(replacing?: string): Promise<string> {
    if (token) {
      const someoneRefreshed = replacing !== undefined && token.value !== replacing
      const fresh = replacing === undefined && Date.now() < token.refreshAt
      if (someoneRefreshed || fresh) return token.value
    }
    tokenRequest ??= fetchToken().finally(() => {
      tokenRequest = null
    })
    try {
      return await tokenRequest
    } catch (error) {
      // A failed early refresh is no reason to stop using a token that is still valid.
      if (replacing === undefined && token && Date.now() < token.expiresAt) {
        logger.warn({ gateway: 'phonepe', call: 'token' }, 'PhonePe token refresh failed; using the current token until it expires')
        return token.value
      }
      throw error
    }
  }

  async function fetchToken(): Promise<string> {
    const answer = await send(
      {
        name: 'token',
        method: 'POST',
        baseUrl: authBaseUrl,
        path: '/v1/oauth/token',
        form: {
          client_id: options.clientId,
          client_secret: options.clientSecret,
          client_version: String(options.clientVersion),
          grant_type: 'client_credentials',
        },
        attempts: 3,
        ids: {},
      },
      false,
    )
    if (!isSuccess(answer.status)) {
      if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
        throw new GatewayError(
          `PhonePe token request refused: HTTP ${answer.status}; check PHONEPE_CLIENT_ID, PHONEPE_CLIENT_SECRET, PHONEPE_CLIENT_VERSION and PHONEPE_ENV`,
          false,
          answer.status,
        )
      }
      throw new GatewayError(`PhonePe token request failed: HTTP ${answer.status}`, true, answer.status)
    }
    const body = isRecord(answer.body) ? answer.body : {}
    const value = text(body, 'access_token')
    const expiresAtSeconds = integer(body, 'expires_at')
    if (!value || expiresAtSeconds === null) {
      throw new GatewayError('PhonePe token answer had no access_token or expires_at', true, answer.status)
    }
    // expires_at and issued_at are epoch seconds on PhonePe's clock; only their difference is
    // used, so a skewed local clock does not make us keep an expired token.
    const issuedAtSeconds = integer(body, 'issued_at')
    const lifetimeSeconds =
      issuedAtSeconds !== null && expiresAtSeconds > issuedAtSeconds
        ? expiresAtSeconds - issuedAtSeconds
        : Math.max(0, secondsBetween(Date.now(), fromUnixSeconds(expiresAtSeconds)))
    const lifetimeMs = durationMs({ seconds: lifetimeSeconds })
    const receivedAt = Date.now()
    token = { value, refreshAt: receivedAt + lifetimeMs / 2, expiresAt: receivedAt + lifetimeMs }
    logger.info({ gateway: 'phonepe', call: 'token', lifetimeSeconds: Math.round(lifetimeSeconds) }, 'PhonePe access token obtained')
    return value
  }

  async function getStatus(orderId: string): Promise<GatewayOrderStatus> {
    requireId('order id', orderId)
    const answer = await send(
      {
        name: 'order status',
        method: 'GET',
        baseUrl: pgBaseUrl,
        path: `/checkout/v2/order/${encodeURIComponent(orderId)}/status`,
        attempts: 3,
        ids: { merchantOrderId: orderId },
      },
      true,
    )
    if (isNotFound(answer)) {
      return { state: 'not_found', amountPaise: null, transactionId: null, paymentMode: null, raw: answer.body }
    }
    if (!isSuccess(answer.status) || !isRecord(answer.body)) throw failure('order status', answer)
    const body = answer.body
    const phonePeState = text(body, 'state')
    if (!phonePeState) throw new GatewayError('PhonePe order status answer had no state', true, answer.status)
    const state = orderState(phonePeState, orderId)
    const attempt = latestAttempt(body.paymentDetails, state)
    return {
      state,
      amountPaise: integer(body, 'amount'),
      transactionId: attempt ? text(attempt, 'transactionId') : null,
      paymentMode: attempt ? text(attempt, 'paymentMode') : null,
      raw: body,
    }
  }

  function orderState(phonePeState: string, orderId: string): Exclude<GatewayOrderState, 'not_found'> {
    const state = ORDER_STATES[phonePeState]
    if (state) return state
    // An unknown state must never confirm anything: keep asking until it becomes one we know.
    logger.warn({ gateway: 'phonepe', merchantOrderId: orderId, phonePeState }, 'PhonePe reported an unknown order state')
    return 'pending'
  }

  function refundState(phonePeState: string | null, refundId: string): GatewayRefundState {
    const state = phonePeState ? REFUND_STATES[phonePeState] : undefined
    if (state) return state
    logger.warn({ gateway: 'phonepe', merchantRefundId: refundId, phonePeState }, 'PhonePe reported an unknown refund state')
    return 'pending'
  }

  async function getRefundStatus(refundId: string): Promise<GatewayRefundStatus> {
    requireId('refund id', refundId)
    const answer = await send(
      {
        name: 'refund status',
        method: 'GET',
        baseUrl: pgBaseUrl,
        path: `/payments/v2/refund/${encodeURIComponent(refundId)}/status`,
        attempts: 3,
        ids: { merchantRefundId: refundId },
      },
      true,
    )
    if (!isSuccess(answer.status) || !isRecord(answer.body)) throw failure('refund status', answer)
    return refundStatusFrom(answer.body, refundId)
  }

  function refundStatusFrom(body: Record<string, unknown>, refundId: string): GatewayRefundStatus {
    return {
      state: refundState(text(body, 'state'), refundId),
      gatewayRefundId: text(body, 'refundId'),
      amountPaise: integer(body, 'amount'),
      raw: body,
    }
  }

  return {
    name: 'phonepe',
    checkoutOrigins,

    async createPayment(input: CreatePaymentInput) {
      requireId('order id', input.orderId)
      if (!Number.isInteger(input.amountPaise) || input.amountPaise < MIN_AMOUNT_PAISE) {
        throw new GatewayError(`PhonePe pay: amount must be a whole number of paise, at least ${MIN_AMOUNT_PAISE}`, false)
      }
      const secondsLeft = Math.floor(secondsBetween(Date.now(), input.expiresAt))
      const expireAfter = Math.min(EXPIRE_AFTER_SECONDS.max, Math.max(EXPIRE_AFTER_SECONDS.min, secondsLeft))
      if (expireAfter !== secondsLeft) {
        logger.warn(
          { gateway: 'phonepe', merchantOrderId: input.orderId, secondsLeft, expireAfter },
          'PhonePe order expiry moved into the range PhonePe accepts',
        )
      }
      const metaInfo = metaInfoFrom(input.meta)
      const answer = await send(
        {
          name: 'pay',
          method: 'POST',
          baseUrl: pgBaseUrl,
          path: '/checkout/v2/pay',
          json: {
            merchantOrderId: input.orderId,
            amount: input.amountPaise,
            expireAfter,
            ...(metaInfo ? { metaInfo } : {}),
            paymentFlow: {
              type: 'PG_CHECKOUT',
              message: input.description.slice(0, MESSAGE_MAX_LENGTH),
              merchantUrls: { redirectUrl: input.redirectUrl },
            },
          },
          // Creation is retried only with this same order id: PhonePe refuses a second order under it.
          attempts: 2,
          ids: { merchantOrderId: input.orderId },
        },
        true,
      )

      if (answer.status === 417) {
        if (!answer.afterUncertainAttempt) {
          throw new GatewayError(`PhonePe pay refused order ${input.orderId}: HTTP 417, the order id was already used`, false, 417)
        }
        return recoverLostCreation(input)
      }
      if (!isSuccess(answer.status) || !isRecord(answer.body)) throw failure('pay', answer)
      const redirectUrl = text(answer.body, 'redirectUrl')
      if (!redirectUrl) throw new GatewayError('PhonePe pay answer had no redirectUrl', true, answer.status)
      if (!checkoutOrigins.includes(originOf(redirectUrl))) {
        logger.warn(
          { gateway: 'phonepe', merchantOrderId: input.orderId, checkoutOrigin: originOf(redirectUrl) },
          'PhonePe checkout page is on an origin outside checkoutOrigins; the CSP form-action may block it',
        )
      }
      return { redirectUrl, gatewayOrderId: text(answer.body, 'orderId') }
    },

    getStatus,

    async parseNotification(request: IncomingNotification): Promise<NotificationCheck> {
      const received = headerValue(request.headers, 'authorization')
      if (received === undefined) return { ok: false, reason: 'missing Authorization header' }
      // Digests of both sides have the same length, so the comparison time says nothing about
      // the header's length or content.
      if (!timingSafeEqual(sha256(received.trim().toLowerCase()), expectedWebhookDigest)) {
        return { ok: false, reason: 'Authorization header does not match the webhook credentials' }
      }

      const body = parseJson(request.rawBody.toString('utf8'))
      if (!isRecord(body)) return { ok: false, reason: 'body is not a JSON object' }
      // `type` (PG_ORDER_COMPLETED …) is deprecated in favour of `event`; accept either.
      const event = text(body, 'event') ?? eventFromType(text(body, 'type'))
      if (!event) return { ok: false, reason: 'notification has no event' }
      const payload = isRecord(body.payload) ? body.payload : null
      if (!payload) return { ok: false, reason: 'notification has no payload' }
      const phonePeState = text(payload, 'state')

      if (ORDER_EVENTS.has(event)) {
        const orderId = text(payload, 'merchantOrderId')
        if (!orderId) return { ok: false, reason: `${event} without payload.merchantOrderId` }
        const state = (phonePeState ? ORDER_STATES[phonePeState] : undefined) ?? (event.endsWith('.completed') ? 'completed' : 'failed')
        const attempt = latestAttempt(payload.paymentDetails, state)
        const notification: GatewayNotification = {
          kind: 'order',
          eventKey: `phonepe:${event}:${orderId}:${phonePeState ?? ''}`,
          orderId,
          state,
          amountPaise: integer(payload, 'amount'),
          transactionId: attempt ? text(attempt, 'transactionId') : null,
          authenticity: 'credentials-only',
          raw: body,
        }
        return { ok: true, notification }
      }

      if (event.startsWith('pg.refund.')) {
        const refundId = text(payload, 'merchantRefundId')
        if (!refundId) return { ok: false, reason: `${event} without payload.merchantRefundId` }
        const state = (phonePeState ? REFUND_STATES[phonePeState] : undefined) ?? refundStateFromEvent(event)
        const notification: GatewayNotification = {
          kind: 'refund',
          eventKey: `phonepe:${event}:${refundId}:${phonePeState ?? ''}`,
          refundId,
          orderId: text(payload, 'originalMerchantOrderId'),
          state,
          amountPaise: integer(payload, 'amount'),
          authenticity: 'credentials-only',
          raw: body,
        }
        return { ok: true, notification }
      }

      const subject = text(payload, 'merchantRefundId') ?? text(payload, 'merchantOrderId')
      const attempt = latestAttempt(payload.paymentDetails, 'pending')
      const distinguisher = subject
        ? [subject, attempt ? text(attempt, 'transactionId') : null, phonePeState].filter(Boolean).join(':')
        : sha256Hex(request.rawBody.toString('utf8')).slice(0, 32)
      return { ok: true, notification: { kind: 'ignored', eventKey: `phonepe:${event}:${distinguisher}`, type: event, raw: body } }
    },

    async refund(input: RefundInput) {
      requireId('order id', input.orderId)
      requireId('refund id', input.refundId)
      if (!Number.isInteger(input.amountPaise) || input.amountPaise < MIN_AMOUNT_PAISE) {
        throw new GatewayError(`PhonePe refund: amount must be a whole number of paise, at least ${MIN_AMOUNT_PAISE}`, false)
      }
      const answer = await send(
        {
          name: 'refund',
          method: 'POST',
          baseUrl: pgBaseUrl,
          path: '/payments/v2/refund',
          json: { merchantRefundId: input.refundId, originalMerchantOrderId: input.orderId, amount: input.amountPaise },
          // Safe to repeat: PhonePe refuses a second refund under the same merchantRefundId.
          attempts: 3,
          ids: { merchantOrderId: input.orderId, merchantRefundId: input.refundId },
        },
        true,
      )
      if (isSuccess(answer.status) && isRecord(answer.body)) return refundStatusFrom(answer.body, input.refundId)
      if (answer.afterUncertainAttempt && answer.status >= 400 && answer.status < 500) {
        // The lost attempt may have created the refund, and this one was refused as a duplicate.
        logger.warn(
          { gateway: 'phonepe', merchantRefundId: input.refundId, status: answer.status },
          'PhonePe refused a repeated refund request; asking for the refund status',
        )
        try {
          return await getRefundStatus(input.refundId)
        } catch {
          throw failure('refund', answer)
        }
      }
      throw failure('refund', answer)
    },

    getRefundStatus,
  }

  /**
   * A creation attempt timed out (or broke) and the retry under the same order id got 417, so the
   * first attempt did create the order. PhonePe's status answer does not carry the checkout URL,
   * and no other call returns it again, so the customer cannot be sent to that order: we say so
   * with a non-retryable error, and the caller starts over with a fresh order id. The orphaned
   * order stays unpaid at PhonePe and expires on its own.
   */
  async function recoverLostCreation(input: CreatePaymentInput): Promise<never> {
    const status = await getStatus(input.orderId)
    logger.warn(
      { gateway: 'phonepe', merchantOrderId: input.orderId, state: status.state, amountPaise: status.amountPaise },
      'PhonePe created the order on an attempt whose answer was lost; its checkout URL cannot be recovered',
    )
    if (status.state === 'not_found') {
      throw new GatewayError(`PhonePe pay refused order ${input.orderId} as already used, yet has no record of it; start a new order id`, false, 417)
    }
    throw new GatewayError(
      `PhonePe pay: order ${input.orderId} was created by an attempt whose answer was lost; its checkout URL cannot be recovered, start a new order id`,
      false,
      417,
    )
  }
}

const ORDER_STATES: Record<string, Exclude<GatewayOrderState, 'not_found'> | undefined> = {
  CREATED: 'pending',
  PENDING: 'pending',
  COMPLETED: 'completed',
  FAILED: 'failed',
}

const REFUND_STATES: Record<string, GatewayRefundState | undefined> = {
  PENDING: 'pending',
  ACCEPTED: 'pending',
  CONFIRMED: 'pending',
  COMPLETED: 'completed',
  FAILED: 'failed',
}

/** `pg.order.*` is what custom checkout sends; its payload has the same shape. */
const ORDER_EVENTS = new Set(['checkout.order.completed', 'checkout.order.failed', 'pg.order.completed', 'pg.order.failed'])

function refundStateFromEvent(event: string): GatewayRefundState {
  if (event.endsWith('.completed')) return 'completed'
  if (event.endsWith('.failed')) return 'failed'
  return 'pending'
}

/** CHECKOUT_ORDER_COMPLETED → checkout.order.completed */
function eventFromType(type: string | null) {
  return type ? type.toLowerCase().replaceAll('_', '.') : null
}

/**
 * The payment attempt that explains the order's state: the latest completed one for a completed
 * order, otherwise the latest one.
 */
function latestAttempt(paymentDetails: unknown, state: Exclude<GatewayOrderState, 'not_found'>) {
  if (!Array.isArray(paymentDetails)) return null
  const attempts = paymentDetails
    .filter(isRecord)
    .map((attempt, index) => ({ attempt, index, at: integer(attempt, 'timestamp') ?? 0 }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ attempt }) => attempt)
  const completed = attempts.filter((attempt) => text(attempt, 'state') === 'COMPLETED')
  return (state === 'completed' && completed.length > 0 ? completed : attempts).at(-1) ?? null
}

/** The first five entries of meta as udf1…udf5 (`key=value`), each cut to PhonePe's limit. */
function metaInfoFrom(meta: Record<string, string>) {
  const entries = Object.entries(meta).slice(0, UDF_SLOTS)
  if (entries.length === 0) return null
  return Object.fromEntries(entries.map(([key, value], index) => [`udf${index + 1}`, `${key}=${String(value)}`.slice(0, UDF_MAX_LENGTH)]))
}

function failure(name: CallName, answer: Answer) {
  const code = isRecord(answer.body) ? text(answer.body, 'code') ?? text(answer.body, 'errorCode') : null
  const safeCode = code && /^[A-Z0-9_]{1,64}$/.test(code) ? ` ${code}` : ''
  // 401 here means a freshly issued token was refused too: PhonePe's side, so worth another go later.
  const retryable = isServerTrouble(answer.status) || answer.status === 401 || answer.status === 408
  return new GatewayError(`PhonePe ${name} failed: HTTP ${answer.status}${safeCode}`, retryable, answer.status)
}

/**
 * PhonePe's own "no such order" answer. A 404 without a JSON body is more likely a wrong base URL
 * than an unknown order, and treating it as `not_found` could abandon a paid order.
 */
function isNotFound(answer: Answer) {
  if (!isRecord(answer.body)) return false
  if (answer.status === 404) return true
  const code = text(answer.body, 'code') ?? text(answer.body, 'errorCode')
  return answer.status === 400 && code !== null && NOT_FOUND_CODES.has(code)
}

function requireId(what: string, id: string) {
  if (!ID_PATTERN.test(id)) throw new GatewayError(`PhonePe: ${what} must be 1-63 characters of A-Z a-z 0-9 _ -`, false)
}

const isSuccess = (status: number) => status >= 200 && status < 300
const isServerTrouble = (status: number) => status >= 500 || status === 429
const backoff = (attempt: number) => RETRY_DELAYS_MS[attempt - 1] ?? RETRY_DELAYS_MS.at(-1) ?? 0
const trimSlash = (url: string) => url.replace(/\/+$/, '')

function isTimeout(error: unknown) {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
}

/** e.g. ECONNREFUSED, from undici's `cause`; never the URL or headers. */
function causeCode(error: unknown) {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined
  return typeof cause?.code === 'string' ? cause.code : null
}

function headerValue(headers: Record<string, string | undefined>, name: string) {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name)
  return key === undefined ? undefined : headers[key]
}

function originOf(url: string) {
  try {
    return new URL(url).origin
  } catch {
    return ''
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function text(record: Record<string, unknown>, key: string) {
  const value = record[key]
  return typeof value === 'string' && value !== '' ? value : null
}

/** Amounts and timestamps arrive as numbers, sometimes as numeric strings. */
function integer(record: Record<string, unknown>, key: string) {
  const value = record[key]
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null
}

function sha256Hex(value: string) {
  return createHash('sha256').update(value).digest('hex')
}

function sha256(value: string) {
  return createHash('sha256').update(value).digest()
}
