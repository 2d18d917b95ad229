import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addHours, addMinutes } from '~/lib/lab-time'
import { eventually } from '../../../../tests/support/eventually'
import { startFakePhonePe, webhookAuthorization, type FakePhonePeOptions } from '../../../../tests/support/fake-phonepe'
import { GatewayError, newOrderId, type CreatePaymentInput, type IncomingNotification } from '../gateway-contract.server'
import type { PhonePeLogger } from './phonepe-api.server'
import { createPhonePeGateway, type PhonePeOptions } from './phonepe.server'

const WEBHOOK = { username: 'swimlab_hooks', password: 'hook-password-42' }

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers.splice(0)) await close()
})

type LogEntry = { level: 'info' | 'warn' | 'error'; obj: object; msg: string }

/** A fresh fake PhonePe and an adapter pointed at it, with a logger that keeps every line. */
async function setUp({ fake: fakeOptions, gateway: overrides }: { fake?: FakePhonePeOptions; gateway?: Partial<PhonePeOptions> } = {}) {
  const fake = await startFakePhonePe(fakeOptions)
  closers.push(() => fake.close())
  const log: LogEntry[] = []
  const logger: PhonePeLogger = {
    info: (obj, msg) => log.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => log.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => log.push({ level: 'error', obj, msg }),
  }
  const options: PhonePeOptions = {
    clientId: fake.credentials.clientId,
    clientSecret: fake.credentials.clientSecret,
    clientVersion: fake.credentials.clientVersion,
    env: 'sandbox',
    webhookUsername: WEBHOOK.username,
    webhookPassword: WEBHOOK.password,
    authBaseUrl: fake.authBaseUrl,
    pgBaseUrl: fake.pgBaseUrl,
    checkoutOrigins: [fake.url],
    logger,
    ...overrides,
  }
  return { fake, gateway: createPhonePeGateway(options), log, options }
}

function paymentInput(overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput {
  const orderId = overrides.orderId ?? newOrderId('SLOT')
  return {
    orderId,
    amountPaise: 150_000,
    description: 'Stroke analysis session',
    customer: { name: 'Asha Rao', email: 'asha@example.com', phone: '+919800000000' },
    redirectUrl: `https://swimlab.example/payments/return?order=${orderId}`,
    expiresAt: addMinutes(new Date(), 20),
    meta: { bookingId: '42', kind: 'slot' },
    ...overrides,
  }
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('Expected the call to fail, but it succeeded')
}

/** Our side of the webhook: a real HTTP endpoint that keeps what arrives, as the site's route will. */
const inbox: IncomingNotification[] = []
let inboxUrl = ''
beforeAll(async () => {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    inbox.push({ headers: flatten(request.headers), rawBody: Buffer.concat(chunks) })
    response.writeHead(200).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  inboxUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/phonepe`
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
})

function flatten(headers: IncomingHttpHeaders) {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]))
}

function lastDelivery() {
  const delivery = inbox.at(-1)
  if (!delivery) throw new Error('No webhook arrived')
  return delivery
}

describe('the PhonePe access token', () => {
  it('is fetched once, kept across calls and sent as O-Bearer', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    await gateway.getStatus(input.orderId)
    await gateway.getStatus(input.orderId)

    expect(fake.requestCount('token')).toBe(1)
    // The fake answers 401 to anything but "O-Bearer <a token it issued>".
    expect(fake.requests.filter((request) => request.endpoint !== 'token').map((request) => request.status)).toEqual([200, 200, 200])
  })

  it('is fetched once for callers that need it at the same moment', async () => {
    const { fake, gateway } = await setUp()
    await Promise.all(Array.from({ length: 5 }, (_, index) => gateway.getStatus(`SLOT_concurrent_${index}`)))
    expect(fake.requestCount('token')).toBe(1)
    expect(fake.requestCount('status')).toBe(5)
  })

  it('is renewed once half its lifetime has passed, before PhonePe would refuse it', async () => {
    // PhonePe and the site read one clock, which the test moves on.
    let clock = Date.parse('2027-03-10T06:00:00Z')
    const { fake, gateway } = await setUp({ fake: { tokenLifetimeSeconds: 2, now: () => clock }, gateway: { now: () => new Date(clock) } })
    await gateway.getStatus('SLOT_token_1')
    await gateway.getStatus('SLOT_token_2')
    expect(fake.requestCount('token')).toBe(1)

    clock += 1100
    await gateway.getStatus('SLOT_token_3')
    expect(fake.requestCount('token')).toBe(2)

    clock += 2100 // past the whole lifetime of the second token
    await gateway.getStatus('SLOT_token_4')
    expect(fake.requestCount('token')).toBe(3)
    expect(fake.requests.filter((request) => request.status === 401)).toEqual([])
  })

  it('with a wrong client secret fails with a non-retryable error that does not repeat the secret', async () => {
    const { fake, gateway } = await setUp({ gateway: { clientSecret: 'not-the-secret-7731' } })
    const error = await rejection(gateway.getStatus('SLOT_wrong_secret'))

    expect(error).toBeInstanceOf(GatewayError)
    expect(error).toMatchObject({ retryable: false, status: 401 })
    expect((error as GatewayError).message).toMatch(/token/)
    expect((error as GatewayError).message).not.toContain('not-the-secret-7731')
    expect(fake.requestCount('token')).toBe(1)
    expect(fake.requestCount('status')).toBe(0)
  })

  it('is replaced once when PhonePe refuses it mid-session, and the call is repeated once', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    fake.revokeTokens()

    const status = await gateway.getStatus(input.orderId)

    expect(status.state).toBe('pending')
    expect(fake.requestCount('token')).toBe(2)
    expect(fake.requests.filter((request) => request.endpoint === 'status').map((request) => request.status)).toEqual([401, 200])
  })

  it('is replaced only once when PhonePe keeps refusing calls', async () => {
    const { fake, gateway } = await setUp()
    fake.failResponses(401, { endpoint: 'status', count: 10 })
    const error = await rejection(gateway.getStatus('SLOT_always_401'))

    expect(error).toBeInstanceOf(GatewayError)
    expect(error).toMatchObject({ status: 401 })
    expect(fake.requestCount('token')).toBe(2)
    expect(fake.requestCount('status')).toBe(2)
  })
})

describe('creating a PhonePe payment', () => {
  it('sends our order id, the amount in paise, the expiry and metaInfo, and returns the checkout page', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput({ expiresAt: addMinutes(new Date(), 20) })
    const result = await gateway.createPayment(input)

    const order = fake.order(input.orderId)
    expect(order?.request).toMatchObject({
      merchantOrderId: input.orderId,
      amount: 150_000,
      metaInfo: { udf1: 'bookingId=42', udf2: 'kind=slot' },
      paymentFlow: { type: 'PG_CHECKOUT', message: 'Stroke analysis session', merchantUrls: { redirectUrl: input.redirectUrl } },
    })
    expect(order?.request.expireAfter).toBeGreaterThanOrEqual(1198)
    expect(order?.request.expireAfter).toBeLessThanOrEqual(1200)
    expect(result.gatewayOrderId).toBe(order?.orderId)
    expect(result.redirectUrl).toBe(`${fake.url}/transact/uat_v2?token=${order?.checkoutToken}`)
  })

  it('keeps the expiry within the 300 to 3600 seconds PhonePe accepts', async () => {
    const { fake, gateway } = await setUp()
    const soon = paymentInput({ expiresAt: addMinutes(new Date(), 1) })
    const late = paymentInput({ expiresAt: addHours(new Date(), 3) })
    await gateway.createPayment(soon)
    await gateway.createPayment(late)

    expect(fake.order(soon.orderId)?.request.expireAfter).toBe(300)
    expect(fake.order(late.orderId)?.request.expireAfter).toBe(3600)
  })

  it('sends at most five metaInfo fields of at most 256 characters each', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput({ meta: { a: '1', b: '2', c: 'x'.repeat(300), d: '4', e: '5', f: '6', g: '7' } })
    await gateway.createPayment(input)

    const metaInfo = fake.order(input.orderId)?.request.metaInfo as Record<string, string>
    expect(Object.keys(metaInfo)).toEqual(['udf1', 'udf2', 'udf3', 'udf4', 'udf5'])
    expect(metaInfo.udf3).toHaveLength(256)
    expect(metaInfo.udf5).toBe('e=5')
  })

  it('refuses an amount under 100 paise, or not in whole paise, without calling PhonePe', async () => {
    const { fake, gateway } = await setUp()
    for (const amountPaise of [99, 0, 150.5]) {
      const error = await rejection(gateway.createPayment(paymentInput({ amountPaise })))
      expect(error).toBeInstanceOf(GatewayError)
      expect(error).toMatchObject({ retryable: false })
    }
    expect(fake.requests).toEqual([])
  })

  it('treats a reused order id as a non-retryable error', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    const error = await rejection(gateway.createPayment(input))

    expect(error).toBeInstanceOf(GatewayError)
    expect(error).toMatchObject({ retryable: false, status: 417 })
    expect(fake.orderCount()).toBe(1)
  })

  it('retries a creation whose answer was lost under the same order id, and a 417 then asks for a fresh order id', async () => {
    const { fake, gateway } = await setUp({ gateway: { timeoutMs: 300 } })
    // PhonePe creates the order, but its answer arrives after we gave up.
    fake.delayResponses(1000, { endpoint: 'pay', count: 1 })
    const input = paymentInput()
    const error = await rejection(gateway.createPayment(input))

    expect(error).toBeInstanceOf(GatewayError)
    expect(error).toMatchObject({ retryable: false, status: 417 })
    expect((error as GatewayError).message).toMatch(/new order id/)
    // Both attempts carried our order id: the second was refused as a duplicate, and no other
    // order was ever created.
    expect(fake.requests.filter((request) => request.endpoint === 'pay').map((request) => request.status)).toEqual([200, 417])
    expect(fake.orderCount()).toBe(1)
    expect(fake.order(input.orderId)).toBeDefined()
    expect(fake.requestCount('status')).toBe(1)
  })

  it('retries a creation cut off on the network under the same order id', async () => {
    const { fake, gateway } = await setUp()
    fake.dropConnections({ endpoint: 'pay', count: 1 })
    const input = paymentInput()
    const result = await gateway.createPayment(input)

    expect(result.gatewayOrderId).toBe(fake.order(input.orderId)?.orderId)
    expect(fake.requestCount('pay')).toBe(2)
    expect(fake.orderCount()).toBe(1)
  })
})

describe('PhonePe order status', () => {
  it('follows an order from PENDING to COMPLETED, with its transaction and payment mode', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    fake.complete(input.orderId, { afterMs: 300, paymentMode: 'UPI_INTENT' })

    expect(await gateway.getStatus(input.orderId)).toMatchObject({ state: 'pending', amountPaise: 150_000, transactionId: null, paymentMode: null })
    const status = await eventually(
      () => gateway.getStatus(input.orderId),
      (answer) => answer.state !== 'pending',
      { everyMs: 50 },
    )
    expect(status).toMatchObject({
      state: 'completed',
      amountPaise: 150_000,
      transactionId: fake.order(input.orderId)?.paymentDetails[0]?.transactionId,
      paymentMode: 'UPI_INTENT',
    })
    expect(status.transactionId).toMatch(/^OM/)
    expect(status.raw).toMatchObject({ state: 'COMPLETED' })
  })

  it('reports an order that moved from PENDING to FAILED', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    fake.fail(input.orderId)

    expect(await gateway.getStatus(input.orderId)).toMatchObject({ state: 'failed', amountPaise: 150_000 })
  })

  it('reports an order PhonePe has never seen as not_found', async () => {
    const { gateway } = await setUp()
    expect(await gateway.getStatus('SLOT_1700000000000_1_unknown1')).toMatchObject({
      state: 'not_found',
      amountPaise: null,
      transactionId: null,
      paymentMode: null,
    })
  })

  it('reports the amount PhonePe states, even when it differs from what was asked', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    fake.complete(input.orderId)
    fake.reportAmount(input.orderId, 100)

    expect(await gateway.getStatus(input.orderId)).toMatchObject({ state: 'completed', amountPaise: 100 })
  })

  it('asks again after a brief pause when PhonePe answers 5xx', async () => {
    const { fake, gateway } = await setUp()
    fake.failResponses(503, { endpoint: 'status', count: 2 })
    expect(await gateway.getStatus('SLOT_flaky')).toMatchObject({ state: 'not_found' })
    expect(fake.requestCount('status')).toBe(3)
  })

  it('gives a retryable error when PhonePe keeps answering 5xx', async () => {
    const { fake, gateway } = await setUp()
    fake.failResponses(503, { endpoint: 'status', count: 10 })
    const error = await rejection(gateway.getStatus('SLOT_down'))

    expect(error).toBeInstanceOf(GatewayError)
    expect(error).toMatchObject({ retryable: true, status: 503 })
    expect((error as GatewayError).message).toMatch(/order status.*503/)
    expect(fake.requestCount('status')).toBe(3)
  })

  it('gives a retryable timeout error when PhonePe is slow, instead of hanging', async () => {
    const { fake, gateway } = await setUp({ gateway: { timeoutMs: 200 } })
    fake.delayResponses(10_000, { endpoint: 'status' })
    const error = await rejection(gateway.getStatus('SLOT_slow'))

    expect(error).toBeInstanceOf(GatewayError)
    expect(error).toMatchObject({ retryable: true })
    expect((error as GatewayError).message).toMatch(/order status timed out after 200 ms/)
    // Three attempts, each given up after 200 ms: the error came while PhonePe still held every answer.
    expect(fake.requestCount('status')).toBe(3)
    expect(fake.answersHeldBack()).toBe(3)
  })
})

describe('PhonePe webhooks', () => {
  it('accepts a notification carrying the right Authorization header', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    fake.complete(input.orderId)

    expect(await fake.sendWebhook(inboxUrl, fake.orderEvent(input.orderId), { credentials: WEBHOOK })).toEqual({ status: 200 })
    const check = await gateway.parseNotification(lastDelivery())

    expect(check).toMatchObject({
      ok: true,
      notification: {
        kind: 'order',
        orderId: input.orderId,
        state: 'completed',
        amountPaise: 150_000,
        transactionId: fake.order(input.orderId)?.paymentDetails[0]?.transactionId,
        authenticity: 'credentials-only',
      },
    })
  })

  it('finds the Authorization header whatever its case', async () => {
    const { gateway } = await setUp()
    const rawBody = Buffer.from(JSON.stringify({ event: 'checkout.order.failed', payload: { merchantOrderId: 'SLOT_case', state: 'FAILED' } }))
    const check = await gateway.parseNotification({ headers: { Authorization: webhookAuthorization(WEBHOOK.username, WEBHOOK.password) }, rawBody })
    expect(check).toMatchObject({ ok: true, notification: { kind: 'order', state: 'failed' } })
  })

  it('rejects a notification with a wrong, missing or partial Authorization header', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    fake.complete(input.orderId)
    const correct = webhookAuthorization(WEBHOOK.username, WEBHOOK.password)

    for (const authorization of ['wrong', 'missing', { exactly: correct.slice(0, 20) }, { exactly: `${correct}0` }, { exactly: '' }] as const) {
      await fake.sendWebhook(inboxUrl, fake.orderEvent(input.orderId), { credentials: WEBHOOK, authorization })
      const check = await gateway.parseNotification(lastDelivery())
      expect(check, JSON.stringify(authorization)).toMatchObject({ ok: false })
    }
  })

  it('rejects a correctly signed body that is not JSON', async () => {
    const { gateway } = await setUp()
    const check = await gateway.parseNotification({
      headers: { authorization: webhookAuthorization(WEBHOOK.username, WEBHOOK.password) },
      rawBody: Buffer.from('{"event": "checkout.order.completed", '),
    })
    expect(check).toMatchObject({ ok: false })
  })

  it('gives a repeated delivery the same eventKey, and a different event a different one', async () => {
    const { fake, gateway } = await setUp()
    const paid = paymentInput()
    const unpaid = paymentInput()
    await gateway.createPayment(paid)
    await gateway.createPayment(unpaid)
    fake.complete(paid.orderId)
    fake.fail(unpaid.orderId)

    const keys: string[] = []
    for (const orderId of [paid.orderId, paid.orderId, unpaid.orderId]) {
      await fake.sendWebhook(inboxUrl, fake.orderEvent(orderId), { credentials: WEBHOOK })
      const check = await gateway.parseNotification(lastDelivery())
      if (!check.ok) throw new Error(check.reason)
      keys.push(check.notification.eventKey)
    }
    expect(keys[0]).toBe(keys[1])
    expect(keys[2]).not.toBe(keys[0])
  })

  it('acknowledges a verified event it does not act on as ignored', async () => {
    const { fake, gateway } = await setUp()
    await fake.sendWebhook(
      inboxUrl,
      { event: 'checkout.transaction.attempt.failed', payload: { merchantOrderId: 'SLOT_attempt', state: 'PENDING' } },
      { credentials: WEBHOOK },
    )
    expect(await gateway.parseNotification(lastDelivery())).toMatchObject({
      ok: true,
      notification: { kind: 'ignored', type: 'checkout.transaction.attempt.failed' },
    })
  })

  it('reads refund notifications', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    fake.complete(input.orderId)
    await gateway.refund({ orderId: input.orderId, refundId: `${input.orderId}_R1`, amountPaise: 50_000 })
    fake.completeRefund(`${input.orderId}_R1`)

    await fake.sendWebhook(inboxUrl, fake.refundEvent(`${input.orderId}_R1`), { credentials: WEBHOOK })
    expect(await gateway.parseNotification(lastDelivery())).toMatchObject({
      ok: true,
      notification: {
        kind: 'refund',
        refundId: `${input.orderId}_R1`,
        orderId: input.orderId,
        state: 'completed',
        amountPaise: 50_000,
        authenticity: 'credentials-only',
      },
    })
  })
})

describe('PhonePe refunds', () => {
  it('refunds a completed order and follows the refund from PENDING to COMPLETED', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    fake.complete(input.orderId)
    const refundId = `${input.orderId}_R1`

    const refund = await gateway.refund({ orderId: input.orderId, refundId, amountPaise: 150_000 })
    expect(refund).toMatchObject({ state: 'pending', amountPaise: 150_000, gatewayRefundId: fake.refund(refundId)?.refundId })
    expect(fake.refund(refundId)).toMatchObject({ originalMerchantOrderId: input.orderId, amount: 150_000 })

    fake.completeRefund(refundId, { afterMs: 200 })
    expect(await gateway.getRefundStatus(refundId)).toMatchObject({ state: 'pending' })
    const settled = await eventually(
      () => gateway.getRefundStatus(refundId),
      (status) => status.state !== 'pending',
      { everyMs: 50 },
    )
    expect(settled).toMatchObject({ state: 'completed', amountPaise: 150_000, gatewayRefundId: fake.refund(refundId)?.refundId })
  })

  it('reports a failed refund', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    fake.complete(input.orderId)
    await gateway.refund({ orderId: input.orderId, refundId: `${input.orderId}_R1`, amountPaise: 150_000 })
    fake.failRefund(`${input.orderId}_R1`)

    expect(await gateway.getRefundStatus(`${input.orderId}_R1`)).toMatchObject({ state: 'failed' })
  })

  it('retries a refund whose answer was lost under the same refund id, and reads it back', async () => {
    const { fake, gateway } = await setUp({ gateway: { timeoutMs: 300 } })
    const input = paymentInput()
    await gateway.createPayment(input)
    fake.complete(input.orderId)
    fake.delayResponses(1000, { endpoint: 'refund', count: 1 })

    const refund = await gateway.refund({ orderId: input.orderId, refundId: `${input.orderId}_R1`, amountPaise: 150_000 })

    expect(refund).toMatchObject({ state: 'pending', gatewayRefundId: fake.refund(`${input.orderId}_R1`)?.refundId })
    expect(fake.requests.filter((request) => request.endpoint === 'refund').map((request) => request.status)).toEqual([200, 417])
    expect(fake.requestCount('refundStatus')).toBe(1)
  })

  it('refuses a refund PhonePe rejects, without retrying it', async () => {
    const { fake, gateway } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input) // still pending: nothing to refund
    const error = await rejection(gateway.refund({ orderId: input.orderId, refundId: `${input.orderId}_R1`, amountPaise: 150_000 }))

    expect(error).toBeInstanceOf(GatewayError)
    expect(error).toMatchObject({ retryable: false, status: 400 })
    expect(fake.requestCount('refund')).toBe(1)
  })
})

describe('the fake PhonePe checkout page', () => {
  it('lets the customer pay, sends them back to us and notifies our webhook', async () => {
    const { fake, gateway } = await setUp()
    fake.sendWebhooksTo(inboxUrl, WEBHOOK)
    const input = paymentInput()
    const { redirectUrl } = await gateway.createPayment(input)

    const page = await fetch(redirectUrl)
    const html = await page.text()
    expect(page.status).toBe(200)
    expect(html).toContain('<title>PhonePe test checkout</title>')
    expect(html).toMatch(/<button type="submit">Pay<\/button>/)
    expect(html).toMatch(/<button type="submit">Fail<\/button>/)

    const delivered = inbox.length
    const choice = await fetch(new URL('/transact/uat_v2', fake.url), {
      method: 'POST',
      body: new URLSearchParams({ token: fake.order(input.orderId)!.checkoutToken, choice: 'pay' }),
      redirect: 'manual',
    })
    expect(choice.status).toBe(303)
    expect(choice.headers.get('location')).toBe(input.redirectUrl)

    expect(inbox.length).toBe(delivered + 1)
    expect(await gateway.parseNotification(lastDelivery())).toMatchObject({
      ok: true,
      notification: { kind: 'order', orderId: input.orderId, state: 'completed' },
    })
    expect(await gateway.getStatus(input.orderId)).toMatchObject({ state: 'completed' })
  })

  it('lets the customer fail the payment', async () => {
    const { fake, gateway } = await setUp()
    fake.sendWebhooksTo(inboxUrl, WEBHOOK)
    const input = paymentInput()
    await gateway.createPayment(input)

    const choice = await fetch(new URL('/transact/uat_v2', fake.url), {
      method: 'POST',
      body: new URLSearchParams({ token: fake.order(input.orderId)!.checkoutToken, choice: 'fail' }),
      redirect: 'manual',
    })
    expect(choice.status).toBe(303)
    expect(await gateway.parseNotification(lastDelivery())).toMatchObject({ ok: true, notification: { state: 'failed' } })
    expect(await gateway.getStatus(input.orderId)).toMatchObject({ state: 'failed' })
  })
})

describe('PhonePe logging', () => {
  it('logs every exchange with its call, status and timing, and nothing secret', async () => {
    const { fake, gateway, log, options } = await setUp()
    const input = paymentInput()
    await gateway.createPayment(input)
    fake.revokeTokens()
    fake.complete(input.orderId)
    await gateway.getStatus(input.orderId)
    await gateway.refund({ orderId: input.orderId, refundId: `${input.orderId}_R1`, amountPaise: 150_000 })
    await fake.sendWebhook(inboxUrl, fake.orderEvent(input.orderId), { credentials: WEBHOOK, authorization: 'wrong' })
    await gateway.parseNotification(lastDelivery())
    await fake.sendWebhook(inboxUrl, fake.orderEvent(input.orderId), { credentials: WEBHOOK })
    await gateway.parseNotification(lastDelivery())
    const { gateway: misconfigured } = await setUp({ gateway: { clientSecret: 'another-secret-5521' } })
    await rejection(misconfigured.getStatus(input.orderId))

    expect(log).toContainEqual(
      expect.objectContaining({
        obj: expect.objectContaining({ method: 'POST', path: '/checkout/v2/pay', status: 200, merchantOrderId: input.orderId, ms: expect.any(Number) }),
      }),
    )
    expect(log).toContainEqual(
      expect.objectContaining({ obj: expect.objectContaining({ method: 'GET', status: 401, merchantOrderId: input.orderId }) }),
    )
    expect(log).toContainEqual(expect.objectContaining({ obj: expect.objectContaining({ method: 'POST', path: '/v1/oauth/token', status: 200 }) }))

    const written = JSON.stringify(log)
    const secrets = [
      options.clientSecret,
      'another-secret-5521',
      WEBHOOK.password,
      webhookAuthorization(WEBHOOK.username, WEBHOOK.password),
      ...fake.issuedTokens(),
    ]
    expect(fake.issuedTokens().length).toBeGreaterThanOrEqual(2)
    for (const secret of secrets) expect(written).not.toContain(secret)
  })
})

describe('PhonePe checkout origins', () => {
  it('default to PhonePe hosted checkout for the environment, and can be overridden', () => {
    const base = { clientId: 'id', clientSecret: 'secret', clientVersion: 1, webhookUsername: 'u', webhookPassword: 'p', logger: console }
    expect(createPhonePeGateway({ ...base, env: 'sandbox' }).checkoutOrigins).toEqual(['https://mercury-uat.phonepe.com'])
    expect(createPhonePeGateway({ ...base, env: 'production' }).checkoutOrigins).toEqual(['https://mercury-t2.phonepe.com'])
    expect(createPhonePeGateway({ ...base, env: 'production', checkoutOrigins: ['http://127.0.0.1:9'] }).checkoutOrigins).toEqual([
      'http://127.0.0.1:9',
    ])
  })
})
