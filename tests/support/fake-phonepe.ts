import { createHash, randomBytes, randomInt } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A stand-in for PhonePe PG Standard Checkout v2 on a loopback port: OAuth token, pay, order
 * status, refund, refund status, a hosted checkout page and webhooks, following the documented
 * protocol. Tests steer it (credentials, token lifetime, order outcomes, delays, failures) and
 * read what it saw. It is a double of PhonePe, not of our code. Where PhonePe's documentation is
 * silent (the HTTP status of an unknown order, the error codes of a duplicate), the choices are
 * the fake's own: 404 for an unknown order or refund, 417 for a reused order or refund id.
 *
 * Paths mirror production: auth under /apis/identity-manager, the PG API under /apis/pg, so a
 * client that drops the base URL's path is caught.
 */

export type FakeEndpoint = 'token' | 'pay' | 'status' | 'refund' | 'refundStatus' | 'checkout'

export type FakeOrderState = 'PENDING' | 'COMPLETED' | 'FAILED'

export type FakePaymentAttempt = {
  transactionId: string
  paymentMode: string
  timestamp: number
  amount: number
  state: 'COMPLETED' | 'FAILED'
  errorCode?: string
}

export type FakeOrder = {
  merchantOrderId: string
  orderId: string
  amount: number
  /** When set, status answers and webhooks report this amount instead of the one paid. */
  reportedAmount: number | null
  state: FakeOrderState
  expireAt: number
  metaInfo: Record<string, string> | null
  merchantRedirectUrl: string
  checkoutToken: string
  paymentDetails: FakePaymentAttempt[]
  /** The pay request's body exactly as received. */
  request: Record<string, unknown>
}

export type FakeRefundState = 'PENDING' | 'CONFIRMED' | 'COMPLETED' | 'FAILED'

export type FakeRefund = {
  merchantRefundId: string
  refundId: string
  originalMerchantOrderId: string
  amount: number
  state: FakeRefundState
  timestamp: number
}

export type FakeRequest = { endpoint: FakeEndpoint | 'unknown'; method: string; path: string; status: number | 'dropped' }

export type WebhookCredentials = { username: string; password: string }

export type WebhookEvent = { event: string; payload: Record<string, unknown> }

export type WebhookDelivery = { url: string; event: string; status: number | null; error: string | null }

type Rule =
  | { kind: 'delay'; endpoint: FakeEndpoint | null; remaining: number; ms: number }
  | { kind: 'drop'; endpoint: FakeEndpoint | null; remaining: number }
  | { kind: 'status'; endpoint: FakeEndpoint | null; remaining: number; status: number }

type Reply =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'html'; status: number; html: string }
  | { kind: 'redirect'; location: string }

const AUTH_PREFIX = '/apis/identity-manager'
const PG_PREFIX = '/apis/pg'
const CHECKOUT_PATH = '/transact/uat_v2'
const MERCHANT_ID = 'FAKEMERCHANTUAT'
const ID_PATTERN = /^[A-Za-z0-9_-]{1,63}$/

export type FakePhonePeOptions = {
  clientId?: string
  clientSecret?: string
  clientVersion?: number
  tokenLifetimeSeconds?: number
  /** The clock its access tokens are issued and expire on (ms); the real one unless a test moves time. */
  now?: () => number
}

export async function startFakePhonePe(options: FakePhonePeOptions = {}) {
  const fake = new FakePhonePe(options)
  await fake.listen()
  return fake
}

export class FakePhonePe {
  readonly credentials: { clientId: string; clientSecret: string; clientVersion: number }
  tokenLifetimeSeconds: number
  readonly requests: FakeRequest[] = []
  readonly deliveries: WebhookDelivery[] = []
  private readonly orders = new Map<string, FakeOrder>()
  private readonly refunds = new Map<string, FakeRefund>()
  /** Every token ever issued, with when it stops being accepted (ms). */
  private readonly tokens = new Map<string, number>()
  private rules: Rule[] = []
  private webhookTarget: ({ url: string } & WebhookCredentials) | null = null
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly pendingDeliveries = new Set<Promise<void>>()
  private readonly server: Server
  private origin = ''
  private heldBack = 0
  private readonly now: () => number

  constructor(options: FakePhonePeOptions) {
    this.now = options.now ?? Date.now
    this.credentials = {
      clientId: options.clientId ?? 'FAKE_CLIENT',
      clientSecret: options.clientSecret ?? 'fake-client-secret-0123456789',
      clientVersion: options.clientVersion ?? 1,
    }
    this.tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 3600
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent && !response.destroyed) {
          response.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 'FAKE_CRASHED', message: String(error) }))
        }
      })
    })
  }

  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  get url() {
    return this.origin
  }

  get authBaseUrl() {
    return `${this.origin}${AUTH_PREFIX}`
  }

  get pgBaseUrl() {
    return `${this.origin}${PG_PREFIX}`
  }

  async close() {
    for (const timer of this.timers) clearTimeout(timer)
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  // ---- what the fake saw ----

  requestCount(endpoint: FakeEndpoint) {
    return this.requests.filter((request) => request.endpoint === endpoint).length
  }

  /** How many answers `delayResponses` is holding back right now: requests whose caller has heard nothing yet. */
  answersHeldBack() {
    return this.heldBack
  }

  order(merchantOrderId: string) {
    return this.orders.get(merchantOrderId)
  }

  orderCount() {
    return this.orders.size
  }

  refund(merchantRefundId: string) {
    return this.refunds.get(merchantRefundId)
  }

  issuedTokens() {
    return [...this.tokens.keys()]
  }

  // ---- steering ----

  /** Every token issued so far stops working, as when PhonePe expires a session early. */
  revokeTokens() {
    for (const token of this.tokens.keys()) this.tokens.set(token, 0)
  }

  /** The next `count` requests (to `endpoint`, or any) are answered `ms` later, after being processed. */
  delayResponses(ms: number, { endpoint = null, count = Infinity }: { endpoint?: FakeEndpoint | null; count?: number } = {}) {
    this.rules.push({ kind: 'delay', endpoint, remaining: count, ms })
  }

  /** The next `count` requests have their connection cut before the fake looks at them. */
  dropConnections({ endpoint = null, count = 1 }: { endpoint?: FakeEndpoint | null; count?: number } = {}) {
    this.rules.push({ kind: 'drop', endpoint, remaining: count })
  }

  /** The next `count` requests are answered with `status` and a PhonePe-style error body, unprocessed. */
  failResponses(status: number, { endpoint = null, count = 1 }: { endpoint?: FakeEndpoint | null; count?: number } = {}) {
    this.rules.push({ kind: 'status', endpoint, remaining: count, status })
  }

  /** Ends every delay, drop and failure still pending: the service has recovered. */
  clearFaults() {
    this.rules.length = 0
  }

  /** From now on, orders and refunds reaching a final state are notified to `url` with these credentials. */
  sendWebhooksTo(url: string, credentials: WebhookCredentials) {
    this.webhookTarget = { url, ...credentials }
  }

  complete(merchantOrderId: string, { afterMs = 0, paymentMode = 'UPI_QR' }: { afterMs?: number; paymentMode?: string } = {}) {
    this.later(afterMs, () => this.settleOrder(merchantOrderId, 'COMPLETED', paymentMode))
  }

  fail(merchantOrderId: string, { afterMs = 0, paymentMode = 'UPI_QR' }: { afterMs?: number; paymentMode?: string } = {}) {
    this.later(afterMs, () => this.settleOrder(merchantOrderId, 'FAILED', paymentMode))
  }

  /** Status answers and webhooks report `amount` for this order (an amount mismatch). */
  reportAmount(merchantOrderId: string, amount: number) {
    this.requireOrder(merchantOrderId).reportedAmount = amount
  }

  completeRefund(merchantRefundId: string, { afterMs = 0 }: { afterMs?: number } = {}) {
    this.later(afterMs, () => this.settleRefund(merchantRefundId, 'COMPLETED'))
  }

  failRefund(merchantRefundId: string, { afterMs = 0 }: { afterMs?: number } = {}) {
    this.later(afterMs, () => this.settleRefund(merchantRefundId, 'FAILED'))
  }

  /** Resolves when every webhook the fake started sending has been answered (or failed). */
  async settled() {
    while (this.pendingDeliveries.size > 0) await Promise.all([...this.pendingDeliveries])
  }

  // ---- webhooks ----

  /** The webhook PhonePe sends for this order's current (final) state. */
  orderEvent(merchantOrderId: string): WebhookEvent {
    const order = this.requireOrder(merchantOrderId)
    if (order.state === 'PENDING') throw new Error(`Order ${merchantOrderId} is still pending; PhonePe sends no webhook yet`)
    return {
      event: order.state === 'COMPLETED' ? 'checkout.order.completed' : 'checkout.order.failed',
      payload: {
        merchantId: MERCHANT_ID,
        merchantOrderId: order.merchantOrderId,
        orderId: order.orderId,
        state: order.state,
        amount: order.reportedAmount ?? order.amount,
        expireAt: order.expireAt,
        ...(order.metaInfo ? { metaInfo: order.metaInfo } : {}),
        paymentDetails: order.paymentDetails,
      },
    }
  }

  /** The webhook PhonePe sends for this refund's current state. */
  refundEvent(merchantRefundId: string): WebhookEvent {
    const refund = this.requireRefund(merchantRefundId)
    return {
      event: REFUND_EVENTS[refund.state],
      payload: {
        merchantId: MERCHANT_ID,
        merchantRefundId: refund.merchantRefundId,
        originalMerchantOrderId: refund.originalMerchantOrderId,
        refundId: refund.refundId,
        amount: refund.amount,
        state: refund.state,
        timestamp: refund.timestamp,
      },
    }
  }

  /**
   * POSTs a webhook the way PhonePe does: JSON `{event, type, payload}` with
   * `Authorization: sha256hex("username:password")`. `authorization` picks a correct header, a
   * wrong one, none, or exact text.
   */
  async sendWebhook(
    url: string,
    { event, payload }: WebhookEvent,
    { credentials, authorization = 'valid' }: { credentials?: WebhookCredentials; authorization?: WebhookAuthorization } = {},
  ) {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' }
    const using = credentials ?? this.webhookTarget
    if (authorization === 'valid' || authorization === 'wrong') {
      if (!using) throw new Error('sendWebhook needs credentials (or sendWebhooksTo first)')
      const password = authorization === 'valid' ? using.password : `${using.password}-wrong`
      headers.Authorization = webhookAuthorization(using.username, password)
    } else if (authorization !== 'missing') {
      headers.Authorization = authorization.exactly
    }
    // `type` is deprecated by PhonePe but still sent next to `event`.
    const body = JSON.stringify({ event, type: event.toUpperCase().replaceAll('.', '_'), payload })
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(5000) })
    await response.arrayBuffer()
    return { status: response.status }
  }

  // ---- the HTTP side ----

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const body = await readBody(request)
    const url = new URL(request.url ?? '/', this.origin)
    const method = request.method ?? 'GET'
    const route = this.routes.find((candidate) => candidate.method === method && candidate.path.test(url.pathname))
    const record: FakeRequest = { endpoint: route?.endpoint ?? 'unknown', method, path: url.pathname, status: 404 }
    this.requests.push(record)
    if (!route) return send(response, error(404, 'NOT_FOUND', 'No such API'))

    const rule = this.takeRule(route.endpoint)
    if (rule?.kind === 'drop') {
      record.status = 'dropped'
      request.socket.destroy()
      return
    }
    const incoming: Incoming = { url, headers: request.headers, body, id: decodeURIComponent(route.path.exec(url.pathname)?.[1] ?? '') }
    let reply: Reply
    if (rule?.kind === 'status') reply = error(rule.status, rule.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL_SERVER_ERROR', 'Injected by the test')
    else if (route.api && !this.isValidToken(request.headers.authorization)) reply = error(401, 'UNAUTHORIZED', 'Invalid or expired access token')
    else reply = await route.handle(incoming)
    record.status = reply.kind === 'redirect' ? 303 : reply.status
    if (rule?.kind === 'delay') {
      this.heldBack += 1
      await this.sleep(rule.ms).finally(() => (this.heldBack -= 1))
    }
    send(response, reply)
  }

  /** `api`: needs "Authorization: O-Bearer <token>" with a token the fake issued and has not expired. */
  private readonly routes: Array<{
    endpoint: FakeEndpoint
    method: 'GET' | 'POST'
    path: RegExp
    api: boolean
    handle: (request: Incoming) => Reply | Promise<Reply>
  }> = [
    { endpoint: 'token', method: 'POST', path: /^\/apis\/identity-manager\/v1\/oauth\/token$/, api: false, handle: (r) => this.issueToken(r) },
    { endpoint: 'pay', method: 'POST', path: /^\/apis\/pg\/checkout\/v2\/pay$/, api: true, handle: (r) => this.pay(r) },
    { endpoint: 'status', method: 'GET', path: /^\/apis\/pg\/checkout\/v2\/order\/([^/]+)\/status$/, api: true, handle: (r) => this.orderStatus(r.id) },
    { endpoint: 'refund', method: 'POST', path: /^\/apis\/pg\/payments\/v2\/refund$/, api: true, handle: (r) => this.createRefund(r) },
    { endpoint: 'refundStatus', method: 'GET', path: /^\/apis\/pg\/payments\/v2\/refund\/([^/]+)\/status$/, api: true, handle: (r) => this.refundStatus(r.id) },
    { endpoint: 'checkout', method: 'GET', path: /^\/transact\/uat_v2$/, api: false, handle: (r) => this.checkoutPage(r) },
    { endpoint: 'checkout', method: 'POST', path: /^\/transact\/uat_v2$/, api: false, handle: (r) => this.checkoutChoice(r) },
  ]

  private issueToken({ headers, body }: Incoming): Reply {
    if (!String(headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return error(400, 'BAD_REQUEST', 'Expected a form-encoded body')
    }
    const form = new URLSearchParams(body.toString('utf8'))
    if (form.get('grant_type') !== 'client_credentials') return error(400, 'BAD_REQUEST', 'grant_type must be client_credentials')
    const { clientId, clientSecret, clientVersion } = this.credentials
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret || form.get('client_version') !== String(clientVersion)) {
      return error(401, 'UNAUTHORIZED', 'Invalid client credentials')
    }
    const token = `fake-token-${randomBytes(16).toString('hex')}`
    const issuedAt = Math.floor(this.now() / 1000)
    const expiresAt = issuedAt + this.tokenLifetimeSeconds
    this.tokens.set(token, this.now() + this.tokenLifetimeSeconds * 1000)
    return {
      kind: 'json',
      status: 200,
      body: {
        access_token: token,
        encrypted_access_token: token,
        expires_in: null,
        issued_at: issuedAt,
        expires_at: expiresAt,
        session_expires_at: expiresAt,
        token_type: 'O-Bearer',
      },
    }
  }

  private isValidToken(authorization: string | undefined) {
    const match = /^O-Bearer (\S+)$/.exec(authorization ?? '')
    const validUntil = match ? this.tokens.get(match[1]!) : undefined
    return validUntil !== undefined && this.now() < validUntil
  }

  private pay({ body }: Incoming): Reply {
    const request = parseJsonObject(body)
    if (!request) return error(400, 'BAD_REQUEST', 'Body must be JSON')
    const { merchantOrderId, amount, expireAfter, metaInfo, paymentFlow } = request
    if (typeof merchantOrderId !== 'string' || !ID_PATTERN.test(merchantOrderId)) return error(400, 'BAD_REQUEST', 'Invalid merchantOrderId')
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100) return error(400, 'BAD_REQUEST', 'amount must be at least 100 paise')
    if (expireAfter !== undefined && (typeof expireAfter !== 'number' || expireAfter < 300 || expireAfter > 3600)) {
      return error(400, 'BAD_REQUEST', 'expireAfter must be between 300 and 3600 seconds')
    }
    const udfs = metaInfo === undefined ? null : validMetaInfo(metaInfo)
    if (udfs === false) return error(400, 'BAD_REQUEST', 'Invalid metaInfo')
    const flow = isObject(paymentFlow) ? paymentFlow : null
    const merchantUrls = flow && isObject(flow.merchantUrls) ? flow.merchantUrls : null
    const redirectUrl = merchantUrls?.redirectUrl
    if (flow?.type !== 'PG_CHECKOUT' || typeof redirectUrl !== 'string' || !URL.canParse(redirectUrl)) {
      return error(400, 'BAD_REQUEST', 'paymentFlow must be PG_CHECKOUT with merchantUrls.redirectUrl')
    }
    if (this.orders.has(merchantOrderId)) return error(417, 'DUPLICATE_ORDER', 'merchantOrderId already used')

    const order: FakeOrder = {
      merchantOrderId,
      orderId: `OMO${Date.now()}${randomInt(1000, 9999)}`,
      amount,
      reportedAmount: null,
      state: 'PENDING',
      expireAt: Date.now() + (typeof expireAfter === 'number' ? expireAfter : 900) * 1000,
      metaInfo: udfs,
      merchantRedirectUrl: redirectUrl,
      checkoutToken: randomBytes(12).toString('hex'),
      paymentDetails: [],
      request,
    }
    this.orders.set(merchantOrderId, order)
    return {
      kind: 'json',
      status: 200,
      body: {
        orderId: order.orderId,
        state: order.state,
        expireAt: order.expireAt,
        redirectUrl: `${this.origin}${CHECKOUT_PATH}?token=${order.checkoutToken}`,
      },
    }
  }

  private orderStatus(merchantOrderId: string): Reply {
    const order = this.orders.get(merchantOrderId)
    if (!order) return error(404, 'INVALID_MERCHANT_ORDER_ID', 'No entry found for given merchant order id')
    const lastFailure = order.paymentDetails.findLast((attempt) => attempt.state === 'FAILED')
    return {
      kind: 'json',
      status: 200,
      body: {
        orderId: order.orderId,
        state: order.state,
        amount: order.reportedAmount ?? order.amount,
        expireAt: order.expireAt,
        ...(order.metaInfo ? { metaInfo: order.metaInfo } : {}),
        ...(order.state !== 'COMPLETED' && lastFailure ? { errorCode: lastFailure.errorCode, detailedErrorCode: 'ZM' } : {}),
        ...(order.paymentDetails.length > 0 ? { paymentDetails: order.paymentDetails } : {}),
      },
    }
  }

  private createRefund({ body }: Incoming): Reply {
    const request = parseJsonObject(body)
    if (!request) return error(400, 'BAD_REQUEST', 'Body must be JSON')
    const { merchantRefundId, originalMerchantOrderId, amount } = request
    if (typeof merchantRefundId !== 'string' || !ID_PATTERN.test(merchantRefundId)) return error(400, 'BAD_REQUEST', 'Invalid merchantRefundId')
    if (typeof originalMerchantOrderId !== 'string') return error(400, 'BAD_REQUEST', 'Invalid originalMerchantOrderId')
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100) return error(400, 'BAD_REQUEST', 'amount must be at least 100 paise')
    if (this.refunds.has(merchantRefundId)) return error(417, 'DUPLICATE_REFUND', 'merchantRefundId already used')
    const order = this.orders.get(originalMerchantOrderId)
    if (!order || order.state !== 'COMPLETED') return error(400, 'BAD_REQUEST', 'Only a completed order can be refunded')
    const refunded = [...this.refunds.values()]
      .filter((refund) => refund.originalMerchantOrderId === originalMerchantOrderId && refund.state !== 'FAILED')
      .reduce((sum, refund) => sum + refund.amount, 0)
    if (refunded + amount > order.amount) return error(400, 'BAD_REQUEST', 'Refund exceeds the amount paid')

    const refund: FakeRefund = {
      merchantRefundId,
      refundId: `OMR${Date.now()}${randomInt(1000, 9999)}`,
      originalMerchantOrderId,
      amount,
      state: 'PENDING',
      timestamp: Date.now(),
    }
    this.refunds.set(merchantRefundId, refund)
    return { kind: 'json', status: 200, body: { refundId: refund.refundId, amount: refund.amount, state: refund.state } }
  }

  private refundStatus(merchantRefundId: string): Reply {
    const refund = this.refunds.get(merchantRefundId)
    if (!refund) return error(404, 'NOT_FOUND', 'No refund with this merchantRefundId')
    return {
      kind: 'json',
      status: 200,
      body: {
        originalMerchantOrderId: refund.originalMerchantOrderId,
        amount: refund.amount,
        state: refund.state,
        timestamp: refund.timestamp,
        refundId: refund.refundId,
      },
    }
  }

  private checkoutPage({ url }: Incoming): Reply {
    const order = this.orderByCheckoutToken(url.searchParams.get('token'))
    if (!order) return page(404, 'Checkout not found', '<p>This checkout link is not valid.</p>')
    if (order.state !== 'PENDING') {
      return page(
        200,
        'PhonePe test checkout',
        `<p>This order is already ${order.state.toLowerCase()}.</p><p><a href="${escapeHtml(order.merchantRedirectUrl)}">Return to the merchant</a></p>`,
      )
    }
    const amount = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(order.amount / 100)
    const form = (choice: 'pay' | 'fail', label: string) =>
      `<form method="post" action="${CHECKOUT_PATH}">` +
      `<input type="hidden" name="token" value="${escapeHtml(order.checkoutToken)}">` +
      `<input type="hidden" name="choice" value="${choice}">` +
      `<button type="submit">${label}</button></form>`
    return page(
      200,
      'PhonePe test checkout',
      `<p>Test mode: a stand-in for PhonePe's hosted checkout. No money moves.</p>` +
        `<dl><dt>Order</dt><dd>${escapeHtml(order.merchantOrderId)}</dd><dt>Amount</dt><dd>${escapeHtml(amount)}</dd></dl>` +
        form('pay', 'Pay') +
        form('fail', 'Fail'),
    )
  }

  private async checkoutChoice({ body }: Incoming): Promise<Reply> {
    const form = new URLSearchParams(body.toString('utf8'))
    const order = this.orderByCheckoutToken(form.get('token'))
    if (!order) return page(404, 'Checkout not found', '<p>This checkout link is not valid.</p>')
    const choice = form.get('choice')
    if (choice !== 'pay' && choice !== 'fail') return page(400, 'PhonePe test checkout', '<p>Choose Pay or Fail.</p>')
    if (order.state === 'PENDING') {
      this.settleOrder(order.merchantOrderId, choice === 'pay' ? 'COMPLETED' : 'FAILED', 'UPI_INTENT')
      // The webhook goes out before the browser comes back, so a test can rely on its arrival.
      await this.settled()
    }
    return { kind: 'redirect', location: order.merchantRedirectUrl }
  }

  // ---- state changes ----

  private settleOrder(merchantOrderId: string, state: 'COMPLETED' | 'FAILED', paymentMode: string) {
    const order = this.requireOrder(merchantOrderId)
    if (order.state !== 'PENDING') return
    order.state = state
    order.paymentDetails.push({
      transactionId: `OM${Date.now()}${randomInt(100000, 999999)}`,
      paymentMode,
      timestamp: Date.now(),
      amount: order.amount,
      state,
      ...(state === 'FAILED' ? { errorCode: 'PAYMENT_ERROR' } : {}),
    })
    this.notify(this.orderEvent(merchantOrderId))
  }

  private settleRefund(merchantRefundId: string, state: 'COMPLETED' | 'FAILED') {
    const refund = this.requireRefund(merchantRefundId)
    if (refund.state === 'COMPLETED' || refund.state === 'FAILED') return
    refund.state = state
    refund.timestamp = Date.now()
    this.notify(this.refundEvent(merchantRefundId))
  }

  private notify(event: WebhookEvent) {
    const target = this.webhookTarget
    if (!target) return
    const delivery: WebhookDelivery = { url: target.url, event: event.event, status: null, error: null }
    this.deliveries.push(delivery)
    const sending = this.sendWebhook(target.url, event, { credentials: target })
      .then(({ status }) => {
        delivery.status = status
      })
      .catch((error: unknown) => {
        delivery.error = String(error)
      })
      .finally(() => this.pendingDeliveries.delete(sending))
    this.pendingDeliveries.add(sending)
  }

  // ---- helpers ----

  private takeRule(endpoint: FakeEndpoint) {
    const rule = this.rules.find((candidate) => candidate.remaining > 0 && (candidate.endpoint === null || candidate.endpoint === endpoint))
    if (!rule) return null
    rule.remaining -= 1
    this.rules = this.rules.filter((candidate) => candidate.remaining > 0)
    return rule
  }

  private later(ms: number, action: () => void) {
    if (ms <= 0) return action()
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      action()
    }, ms)
    this.timers.add(timer)
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => this.later(ms, resolve))
  }

  private orderByCheckoutToken(token: string | null) {
    return token ? [...this.orders.values()].find((order) => order.checkoutToken === token) : undefined
  }

  private requireOrder(merchantOrderId: string) {
    const order = this.orders.get(merchantOrderId)
    if (!order) throw new Error(`The fake PhonePe has no order ${merchantOrderId}`)
    return order
  }

  private requireRefund(merchantRefundId: string) {
    const refund = this.refunds.get(merchantRefundId)
    if (!refund) throw new Error(`The fake PhonePe has no refund ${merchantRefundId}`)
    return refund
  }
}

/** PhonePe's webhook Authorization header: the SHA-256 hex digest of "username:password". */
export function webhookAuthorization(username: string, password: string) {
  return createHash('sha256').update(`${username}:${password}`).digest('hex')
}

type Incoming = { url: URL; headers: IncomingMessage['headers']; body: Buffer; /** The id in the path, if any. */ id: string }

type WebhookAuthorization = 'valid' | 'wrong' | 'missing' | { exactly: string }

const REFUND_EVENTS: Record<FakeRefundState, string> = {
  PENDING: 'pg.refund.accepted',
  CONFIRMED: 'pg.refund.accepted',
  COMPLETED: 'pg.refund.completed',
  FAILED: 'pg.refund.failed',
}

function error(status: number, code: string, message: string): Reply {
  return { kind: 'json', status, body: { success: false, code, message } }
}

function page(status: number, title: string, content: string): Reply {
  return {
    kind: 'html',
    status,
    html:
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="icon" href="data:,"></head>` +
      `<body><main><h1>${escapeHtml(title)}</h1>${content}</main></body></html>`,
  }
}

function send(response: ServerResponse, reply: Reply) {
  if (response.destroyed) return
  if (reply.kind === 'redirect') {
    response.writeHead(303, { Location: reply.location }).end()
  } else if (reply.kind === 'html') {
    response.writeHead(reply.status, { 'Content-Type': 'text/html; charset=utf-8' }).end(reply.html)
  } else {
    response.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(reply.body))
  }
}

async function readBody(request: IncomingMessage) {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function parseJsonObject(body: Buffer) {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'))
    return isObject(value) ? value : null
  } catch {
    return null
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** udf1…udf10: strings of at most 256 characters; udf11…udf15: at most 50. */
function validMetaInfo(metaInfo: unknown): Record<string, string> | false {
  if (!isObject(metaInfo)) return false
  for (const [key, value] of Object.entries(metaInfo)) {
    const slot = /^udf(\d{1,2})$/.exec(key)
    const index = slot ? Number(slot[1]) : 0
    if (index < 1 || index > 15 || typeof value !== 'string' || value.length > (index <= 10 ? 256 : 50)) return false
  }
  return metaInfo as Record<string, string>
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}
