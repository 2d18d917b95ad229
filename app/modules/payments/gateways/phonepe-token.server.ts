import { durationMs, fromUnixSeconds, secondsBetween } from '~/lib/lab-time'
import { GatewayError } from '../gateway-contract.server'
import { integer, isRecord, text } from './phonepe-answers.server'
import { isSuccess, type AccessToken, type PhonePeLogger, type PhonePeTransport } from './phonepe-api.server'

type Credentials = { authBaseUrl: string; clientId: string; clientSecret: string; clientVersion: number }

type CachedToken = { value: string; refreshAt: number; expiresAt: number }

/**
 * PhonePe's OAuth access token (client credentials): cached, refreshed at half its lifetime like
 * the official SDK. Concurrent callers share one token request. `now` is the clock the token's
 * age is read on.
 */
export function phonePeAccessToken(transport: PhonePeTransport, credentials: Credentials, logger: PhonePeLogger, now = () => new Date()): AccessToken {
  let token: CachedToken | null = null
  let tokenRequest: Promise<string> | null = null

  async function fetchToken(): Promise<string> {
    const answer = await transport.send({
      name: 'token',
      method: 'POST',
      baseUrl: credentials.authBaseUrl,
      path: '/v1/oauth/token',
      form: {
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        client_version: String(credentials.clientVersion),
        grant_type: 'client_credentials',
      },
      attempts: 3,
      ids: {},
    })
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
        : Math.max(0, secondsBetween(now(), fromUnixSeconds(expiresAtSeconds)))
    const lifetimeMs = durationMs({ seconds: lifetimeSeconds })
    const receivedAt = now().getTime()
    token = { value, refreshAt: receivedAt + lifetimeMs / 2, expiresAt: receivedAt + lifetimeMs }
    logger.info({ gateway: 'phonepe', call: 'token', lifetimeSeconds: Math.round(lifetimeSeconds) }, 'PhonePe access token obtained')
    return value
  }

  return async function accessToken(replacing?: string): Promise<string> {
    if (token) {
      const someoneRefreshed = replacing !== undefined && token.value !== replacing
      const fresh = replacing === undefined && now().getTime() < token.refreshAt
      if (someoneRefreshed || fresh) return token.value
    }
    tokenRequest ??= fetchToken().finally(() => {
      tokenRequest = null
    })
    try {
      return await tokenRequest
    } catch (error) {
      // A failed early refresh is no reason to stop using a token that is still valid.
      if (replacing === undefined && token && now().getTime() < token.expiresAt) {
        logger.warn({ gateway: 'phonepe', call: 'token' }, 'PhonePe token refresh failed; using the current token until it expires')
        return token.value
      }
      throw error
    }
  }
}
