import type { AddressInfo } from 'node:net'
import express from 'express'
import pino from 'pino'
import { afterAll, beforeAll, expect } from 'vitest'
import { loadConfig, setConfig } from '~/config.server'
import { holdSession, type Customer } from '~/modules/booking/holds.server'
import { usePaymentGateway } from '~/modules/payments/active-gateway.server'
import { startPayment } from '~/modules/payments/payments.server'
import { sandboxKey, sign, SIGNATURE_HEADER, type SandboxNotification } from '~/modules/payments/gateways/sandbox-gateway-orders.server'
import { createSandboxGateway } from '~/modules/payments/gateways/sandbox-adapter.server'
import { paymentWebhook } from '../../server/payment-webhook'
import { bookingRow } from './booking'
import { sandboxGatewayRouter } from '../../server/sandbox-gateway-routes'

/**
 * The sandbox gateway and our webhook, served over real HTTP on a loopback port, with the real
 * sandbox adapter pointed at them: payments in integration tests take the same round trips as on
 * the site. Call after useTestDatabase().
 */
export function useSandboxPayments(options: { holdMinutes?: number } = {}) {
  let server: ReturnType<express.Express['listen']> | undefined
  const state = { url: '', webhookUrl: '', webhookUp: true }

  beforeAll(async () => {
    const app = express()
    app.use('/sandbox-gateway', sandboxGatewayRouter())
    const logger = pino({ level: 'silent' })
    app.post('/api/payments/webhook/:gateway', express.raw({ type: () => true }), (request, response, next) => {
      // A test can make our webhook unreachable, as a notification lost on the way would be.
      if (!state.webhookUp) return void response.status(503).end()
      return paymentWebhook(currentGateway, logger)(request, response).catch(next)
    })
    await new Promise<void>((resolve) => {
      server = app.listen(0, '127.0.0.1', () => resolve())
    })
    // As the site's own server does: an idle connection outlives the client's keep-alive, so a request
    // is never sent on a socket the server is closing at that moment (a "fetch failed" under load).
    server!.keepAliveTimeout = 65_000
    state.url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
    state.webhookUrl = `${state.url}/api/payments/webhook/sandbox`
    setConfig({ ...loadConfig({ ...process.env, SITE_URL: state.url }), SEAT_HOLD_MINUTES: options.holdMinutes ?? 20 })
  })

  let currentGateway: ReturnType<typeof createSandboxGateway>
  /** Sets up the adapter once the test database is open (call it in beforeEach). */
  const ready = async () => {
    const key = await sandboxKey()
    currentGateway = createSandboxGateway({ baseUrl: () => `${state.url}/sandbox-gateway`, callbackUrl: () => state.webhookUrl, key })
    usePaymentGateway(currentGateway)
  }

  afterAll(async () => {
    usePaymentGateway(undefined)
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  })

  return {
    ready,
    get url() {
      return state.url
    },
    /** Makes our webhook answer 503 (or answer again), as if notifications were lost. */
    setWebhookUp(up: boolean) {
      state.webhookUp = up
    },
    /** Posts a notification to our webhook, signed with the sandbox key (or forged). */
    async postNotification(notification: SandboxNotification, { forged = false }: { forged?: boolean } = {}) {
      const body = JSON.stringify(notification)
      const key = forged ? 'not-the-key' : await sandboxKey()
      const response = await fetch(state.webhookUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: sign(key, body) }, body })
      return response.status
    },
    /** A 3-day session held for `customer` and paid through the sandbox, as a customer does it; waits until it is confirmed. */
    async confirmedSession(customer: Customer, { date, start }: { date: string; start: string }) {
      const held = await holdSession({ customer, productCode: 'biomechanical_package', date, start, days: 3 })
      const { orderId, redirectUrl } = await startPayment({ payable: { kind: 'booking', id: held.bookingId }, description: 'Slot booking - test', statusUrl: (id) => `${state.url}/x?orderId=${id}` })
      await this.choose(redirectUrl, 'success')
      await expect.poll(async () => (await bookingRow(held.bookingId)).status).toBe('confirmed')
      return { ...held, orderId }
    },
    /** The customer's choice on the sandbox's checkout page, as the browser posts it. */
    async choose(checkoutUrl: string, outcome: 'success' | 'failure' | 'pending') {
      const response = await fetch(checkoutUrl.replace(/^https?:\/\/[^/]+/, state.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ outcome }),
        redirect: 'manual',
      })
      return response.headers.get('Location')
    },
  }
}
