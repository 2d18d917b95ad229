import express, { type Request, type Response } from 'express'
import { z } from 'zod'
import { config } from '~/config.server'
import { formatRupees } from '~/lib/money'
import { PRODUCT_NAME } from '~/lib/seo'
import {
  chooseOutcome,
  createOrder,
  createRefund,
  findOrder,
  findRefund,
  sameSecret,
  SandboxConflictError,
  sandboxKey,
  SandboxRefundError,
  type SandboxOrder,
} from '~/modules/payments/gateways/sandbox-gateway-orders.server'

const CreateOrderSchema = z.object({
  merchantOrderId: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/),
  amountPaise: z.number().int().min(100),
  description: z.string().min(1).max(300),
  customerName: z.string().min(1).max(200),
  redirectUrl: z.url(),
  callbackUrl: z.url(),
  expiresAt: z.iso.datetime({ offset: true }),
})

const CreateRefundSchema = z.object({
  merchantRefundId: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/),
  merchantOrderId: z.string().min(1),
  amountPaise: z.number().int().min(1),
})

/**
 * The sandbox gateway's HTTP face, mounted at /sandbox-gateway when PAYMENT_GATEWAY=sandbox:
 * a JSON API for the merchant (bearer key) and the TEST MODE checkout page for the customer.
 */
export function sandboxGatewayRouter() {
  const router = express.Router()
  const api = express.Router()
  api.use(express.json({ limit: '16kb' }))
  api.use(async (request, response, next) => {
    const given = (request.get('Authorization') ?? '').replace(/^Bearer /, '')
    if (!sameSecret(given, await sandboxKey())) return void response.status(401).json({ error: 'unauthorised' })
    next()
  })

  // Ids are ours ([A-Za-z0-9_-]); anything else (a NUL, which PostgreSQL cannot compare) names nothing.
  for (const name of ['merchantOrderId', 'merchantRefundId']) {
    api.param(name, (_request, response, next, value: string) => (ID_SHAPE.test(value) ? next() : void response.status(404).json({ error: 'not found' })))
  }
  router.param('gatewayOrderId', (_request, response, next, value: string) => (ID_SHAPE.test(value) ? next() : void response.status(404).type('html').send(page('Payment request not found', '<p>This payment request does not exist.</p>'))))

  api.post('/orders', async (request, response) => {
    const input = CreateOrderSchema.safeParse(request.body)
    if (!input.success) return void response.status(400).json({ error: 'invalid order', issues: input.error.issues.map((issue) => issue.path.join('.')) })
    try {
      const order = await createOrder({ ...input.data, expiresAt: new Date(input.data.expiresAt) })
      response.status(201).json({ ...orderAnswer(order), checkoutUrl: `${config().SITE_URL}/sandbox-gateway/checkout/${order.gatewayOrderId}` })
    } catch (error) {
      if (error instanceof SandboxConflictError) return void response.status(409).json({ error: error.message })
      throw error
    }
  })
  api.get('/orders/:merchantOrderId', async (request, response) => {
    const order = await findOrder({ merchantOrderId: String(request.params.merchantOrderId) })
    if (!order) return void response.status(404).json({ error: 'order not found' })
    response.json(orderAnswer(order))
  })
  api.post('/refunds', async (request, response) => {
    const input = CreateRefundSchema.safeParse(request.body)
    if (!input.success) return void response.status(400).json({ error: 'invalid refund' })
    try {
      response.status(201).json(refundAnswer(await createRefund(input.data)))
    } catch (error) {
      if (error instanceof SandboxRefundError) return void response.status(422).json({ error: error.message })
      throw error
    }
  })
  api.get('/refunds/:merchantRefundId', async (request, response) => {
    const refund = await findRefund(String(request.params.merchantRefundId))
    if (!refund) return void response.status(404).json({ error: 'refund not found' })
    response.json(refundAnswer(refund))
  })
  router.use('/api', api)

  router.get('/checkout.css', (_request, response) => {
    response.type('text/css').set('Cache-Control', 'public, max-age=3600').send(CHECKOUT_CSS)
  })
  router.get('/checkout/:gatewayOrderId', async (request, response) => {
    const order = await findOrder({ gatewayOrderId: String(request.params.gatewayOrderId) })
    if (!order) return void response.status(404).type('html').send(page('Payment request not found', '<p>This payment request does not exist.</p>'))
    response.type('html').send(checkoutPage(order))
  })
  router.post('/checkout/:gatewayOrderId', express.urlencoded({ extended: false, limit: '2kb' }), async (request: Request, response: Response) => {
    const choice = z.enum(['success', 'failure', 'pending']).safeParse(request.body?.outcome)
    const order = await chooseOutcome(String(request.params.gatewayOrderId), choice.success ? choice.data : 'pending')
    if (!order) return void response.status(404).type('html').send(page('Payment request not found', '<p>This payment request does not exist.</p>'))
    response.redirect(303, order.redirectUrl)
  })
  return router
}

const ID_SHAPE = /^[A-Za-z0-9_-]{1,100}$/

function orderAnswer(order: SandboxOrder) {
  return {
    merchantOrderId: order.merchantOrderId,
    gatewayOrderId: order.gatewayOrderId,
    state: order.state,
    amountPaise: order.amountPaise,
    transactionId: order.transactionId,
    paymentMode: order.paymentMode,
    expiresAt: order.expiresAt.toISOString(),
  }
}

function refundAnswer(refund: { merchantRefundId: string; gatewayRefundId: string; state: string; amountPaise: number }) {
  return { merchantRefundId: refund.merchantRefundId, gatewayRefundId: refund.gatewayRefundId, state: refund.state, amountPaise: refund.amountPaise }
}

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

function checkoutPage(order: SandboxOrder) {
  const amount = escapeHtml(formatRupees(order.amountPaise))
  const summary = `<dl>
  <dt>Merchant</dt><dd>${escapeHtml(PRODUCT_NAME)}</dd>
  <dt>For</dt><dd>${escapeHtml(order.description)}</dd>
  <dt>Order</dt><dd><code>${escapeHtml(order.merchantOrderId)}</code></dd>
  <dt>Amount</dt><dd class="amount">${amount}</dd>
</dl>`
  if (order.state !== 'PENDING') {
    const outcome = order.state === 'COMPLETED' ? 'This order has been paid.' : 'This payment request has failed or expired; no money was taken.'
    return page('Payment request closed', `${summary}<p>${outcome}</p><p><a class="button" href="${escapeHtml(order.redirectUrl)}">Return to ${escapeHtml(PRODUCT_NAME)}</a></p>`)
  }
  const action = `/sandbox-gateway/checkout/${escapeHtml(order.gatewayOrderId)}`
  const choice = (outcome: string, label: string, style: string) =>
    `<form method="post" action="${action}"><input type="hidden" name="outcome" value="${outcome}"><button type="submit" class="${style}">${label}</button></form>`
  return page(
    'Sandbox checkout',
    `${summary}
<p>Choose what happens to this test payment. You will then return to ${escapeHtml(PRODUCT_NAME)}.</p>
<div class="choices">
${choice('success', `Pay ${amount} (test success)`, 'button')}
${choice('failure', 'Decline the payment (test failure)', 'button secondary')}
${choice('pending', 'Leave it pending and return', 'link')}
</div>`,
  )
}

function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)} | Sandbox payment gateway (TEST MODE)</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/sandbox-gateway/checkout.css"></head>
<body>
<header><p class="badge">TEST MODE</p><p>Sandbox payment gateway: no real money moves. Use it to try the site.</p></header>
<main><h1>${escapeHtml(title)}</h1>${body}</main>
</body></html>`
}

const CHECKOUT_CSS = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,sans-serif;color:#1e1b4b;background:#f5f3ff;line-height:1.5}
header{background:#3b0764;color:#fff;padding:0.75rem 1rem;text-align:center}header p{margin:0.25rem 0}
.badge{display:inline-block;background:#facc15;color:#1c1917;font-weight:800;letter-spacing:0.1em;padding:0.125rem 0.5rem;border-radius:0.25rem}
main{max-width:28rem;margin:2rem auto;background:#fff;border-radius:1rem;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,0.15)}
h1{font-size:1.5rem;margin:0 0 1rem}dl{display:grid;grid-template-columns:auto 1fr;gap:0.25rem 1rem;margin:0 0 1rem}
dt{font-weight:600;color:#4c1d95}dd{margin:0;overflow-wrap:anywhere}.amount{font-size:1.25rem;font-weight:700}
.choices{display:grid;gap:0.75rem}.choices form{margin:0}
.button{display:block;width:100%;min-height:2.75rem;border:2px solid #5b21b6;background:#5b21b6;color:#fff;font:inherit;font-weight:600;border-radius:0.5rem;padding:0.5rem 1rem;cursor:pointer;text-align:center;text-decoration:none}
.button.secondary{background:#fff;color:#5b21b6}.link{background:none;border:0;color:#5b21b6;text-decoration:underline;font:inherit;min-height:2.75rem;width:100%;cursor:pointer}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
`
