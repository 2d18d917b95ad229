import type { PaymentGateway } from '../gateway-contract.server'
import { createPhonePeTransport, type PhonePeApi, type PhonePeLogger } from './phonepe-api.server'
import { phonePeOrders } from './phonepe-orders.server'
import { phonePeRefunds } from './phonepe-refunds.server'
import { phonePeAccessToken } from './phonepe-token.server'
import { phonePeNotifications } from './phonepe-webhook.server'

/**
 * PhonePe PG Standard Checkout v2 over plain `fetch`: the official SDK is a singleton, pulls in
 * axios and sends telemetry. Every call has a timeout; calls that are safe to repeat are retried
 * briefly; nothing secret (client secret, access token, webhook credentials) is ever logged.
 */

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
  /** The clock the access token's age is read on. */
  now?: () => Date
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

const DEFAULT_TIMEOUT_MS = 10_000

export function createPhonePeGateway(options: PhonePeOptions): PaymentGateway {
  const hosts = PHONEPE_HOSTS[options.env]
  const pgBaseUrl = trimSlash(options.pgBaseUrl ?? hosts.pg)
  const checkoutOrigins = options.checkoutOrigins ?? hosts.checkoutOrigins
  const { logger } = options
  const transport = createPhonePeTransport({ timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, logger })
  const accessToken = phonePeAccessToken(
    transport,
    { authBaseUrl: trimSlash(options.authBaseUrl ?? hosts.auth), clientId: options.clientId, clientSecret: options.clientSecret, clientVersion: options.clientVersion },
    logger,
    options.now,
  )
  const api: PhonePeApi = { send: (call) => transport.send({ ...call, baseUrl: pgBaseUrl }, accessToken), logger }
  const { createPayment, getStatus } = phonePeOrders(api, checkoutOrigins)
  const { refund, getRefundStatus } = phonePeRefunds(api)

  return {
    name: 'phonepe',
    checkoutOrigins,
    createPayment,
    getStatus,
    parseNotification: phonePeNotifications({ username: options.webhookUsername, password: options.webhookPassword }),
    refund,
    getRefundStatus,
  }
}

const trimSlash = (url: string) => url.replace(/\/+$/, '')
