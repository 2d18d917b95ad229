import { setTimeout as sleep } from 'node:timers/promises'
import { GatewayError } from '../gateway-contract.server'
import { isRecord, parseJson, text } from './phonepe-answers.server'

/**
 * Talking HTTP to PhonePe: every exchange has a timeout and is logged without headers or bodies;
 * calls that are safe to repeat are retried briefly; API calls carry the access token.
 */

/** The part of a pino logger we use, so tests can hand in a recorder. */
export type PhonePeLogger = {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

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

export type Answer = {
  status: number
  body: unknown
  /** An earlier attempt of the same call timed out, broke or got a 5xx: it may have taken effect. */
  afterUncertainAttempt: boolean
}

/**
 * The access token to send. `replacing`: the token PhonePe just rejected, to be replaced unless
 * another caller has already done so.
 */
export type AccessToken = (replacing?: string) => Promise<string>

/** A call to PhonePe's payment API: its base URL and the access token are added. */
export type ApiCall = Omit<Call, 'baseUrl'>

/** What the order and refund calls need: PhonePe's payment API, and where to log. */
export type PhonePeApi = { send(call: ApiCall): Promise<Answer>; logger: PhonePeLogger }

const RETRY_DELAYS_MS = [200, 600]
const MIN_AMOUNT_PAISE = 100
const ID_PATTERN = /^[A-Za-z0-9_-]{1,63}$/

class TransportFailure extends Error {
  constructor(readonly kind: 'timeout' | 'network') {
    super(kind)
  }
}

export function createPhonePeTransport({ timeoutMs, logger }: { timeoutMs: number; logger: PhonePeLogger }) {
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
   * With `accessToken` the call carries the token; a 401 fetches a new token and tries once more.
   */
  async function send(call: Call, accessToken?: AccessToken): Promise<Answer> {
    let uncertain = false
    let refreshedAfter401 = false
    for (let attempt = 1; ; attempt += 1) {
      try {
        const used = accessToken ? await accessToken() : null
        let answer = await exchange(call, attempt, used && `O-Bearer ${used}`)
        if (accessToken && used && answer.status === 401 && !refreshedAfter401) {
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

  return { send }
}

export type PhonePeTransport = ReturnType<typeof createPhonePeTransport>

/** The error for an answer that is not the success the call needed. */
export function failure(name: CallName, answer: Answer) {
  const code = isRecord(answer.body) ? text(answer.body, 'code') ?? text(answer.body, 'errorCode') : null
  const safeCode = code && /^[A-Z0-9_]{1,64}$/.test(code) ? ` ${code}` : ''
  // 401 here means a freshly issued token was refused too: PhonePe's side, so worth another go later.
  const retryable = isServerTrouble(answer.status) || answer.status === 401 || answer.status === 408
  return new GatewayError(`PhonePe ${name} failed: HTTP ${answer.status}${safeCode}`, retryable, answer.status)
}

/** Our order and refund ids as PhonePe takes them, checked before anything is sent. */
export function requireId(what: string, id: string) {
  if (!ID_PATTERN.test(id)) throw new GatewayError(`PhonePe: ${what} must be 1-63 characters of A-Z a-z 0-9 _ -`, false)
}

export function requireAmount(name: 'pay' | 'refund', amountPaise: number) {
  if (!Number.isInteger(amountPaise) || amountPaise < MIN_AMOUNT_PAISE) {
    throw new GatewayError(`PhonePe ${name}: amount must be a whole number of paise, at least ${MIN_AMOUNT_PAISE}`, false)
  }
}

export const isSuccess = (status: number) => status >= 200 && status < 300
const isServerTrouble = (status: number) => status >= 500 || status === 429
const backoff = (attempt: number) => RETRY_DELAYS_MS[attempt - 1] ?? RETRY_DELAYS_MS.at(-1) ?? 0

function isTimeout(error: unknown) {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
}

/** e.g. ECONNREFUSED, from undici's `cause`; never the URL or headers. */
function causeCode(error: unknown) {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined
  return typeof cause?.code === 'string' ? cause.code : null
}
