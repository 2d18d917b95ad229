import { afterAll, beforeAll } from 'vitest'
import { loadConfig, setConfig } from '~/config.server'
import { usePaymentGateway } from '~/modules/payments/active-gateway.server'
import { createPhonePeGateway } from '~/modules/payments/gateways/phonepe.server'
import { startFakePhonePe, type FakePhonePe, type WebhookCredentials } from './fake-phonepe'

/**
 * The booking engine paying through PhonePe, in process: a fake PhonePe started before the tests,
 * the adapter pointed at it (with these webhook credentials, and `timeoutMs` when given) as the
 * active gateway, and both taken away after the tests.
 */
export function usePhonePeGateway(webhook: WebhookCredentials, options: { timeoutMs?: number } = {}) {
  let fake: FakePhonePe | undefined
  let gateway: ReturnType<typeof createPhonePeGateway> | undefined
  beforeAll(async () => {
    fake = await startFakePhonePe()
    setConfig(loadConfig({ ...process.env, SITE_URL: 'https://lab.example.in', PAYMENT_GATEWAY: 'phonepe', PHONEPE_CLIENT_ID: 'x', PHONEPE_CLIENT_SECRET: 'y', PHONEPE_WEBHOOK_USERNAME: 'u', PHONEPE_WEBHOOK_PASSWORD: 'p' }))
    const silent = { info() {}, warn() {}, error() {} }
    gateway = createPhonePeGateway({ ...fake.credentials, env: 'sandbox', webhookUsername: webhook.username, webhookPassword: webhook.password, authBaseUrl: fake.authBaseUrl, pgBaseUrl: fake.pgBaseUrl, ...options, logger: silent })
    usePaymentGateway(gateway)
  })
  afterAll(async () => {
    usePaymentGateway(undefined)
    await fake?.close()
  })
  const started = () => {
    if (!fake || !gateway) throw new Error('The fake PhonePe starts before the tests (beforeAll)')
    return { fake, gateway }
  }
  return {
    get fake() {
      return started().fake
    },
    get gateway() {
      return started().gateway
    },
  }
}
