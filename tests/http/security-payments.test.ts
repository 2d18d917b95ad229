import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bookAndPay, chooseSlot } from '../support/booking-flow'
import { startFakePhonePe, webhookAuthorization, type FakePhonePe } from '../support/fake-phonepe'
import { useTestSite } from '../support/site'
import { startTestServer, type TestServer } from '../support/test-server'
import { lettersFor, mailCaughtUp, signUp, text, Visitor } from '../support/visitor'

// Attacks on payments, each a test that fails if the attack works: forged notifications, a
// notification or a gateway claiming another amount, repeated notifications, and forged or
// replayed returns from the gateway. (The other attacks are in security-attacks.test.ts.)

const site = useTestSite()
const WEBHOOK = { username: 'lab-webhook', password: 'hook-password-1' }


let people = 0
/** A new verified customer, signed in. */
async function customer(server = site.server) {
  people += 1
  const email = `payer${people}.${server.port}@example.com`
  return Object.assign(await signUp(new Visitor(server.url), site.sink, { email, name: `Payer ${lettersFor(people)}` }), { email })
}
const mailsTo = (to: string, subject: RegExp) => site.sink.messages.filter((message) => message.to.includes(to) && subject.test(message.raw)).length

describe('payment notifications (PhonePe)', () => {
  let phonePe: FakePhonePe
  let shop: TestServer
  const webhookUrl = () => `${shop.url}/api/payments/webhook/phonepe`

  beforeAll(async () => {
    phonePe = await startFakePhonePe()
    shop = await startTestServer({
      SMTP_URL: site.sink.url,
      TRUST_PROXY: 'true',
      PAYMENT_GATEWAY: 'phonepe',
      PHONEPE_CLIENT_ID: phonePe.credentials.clientId,
      PHONEPE_CLIENT_SECRET: phonePe.credentials.clientSecret,
      PHONEPE_CLIENT_VERSION: String(phonePe.credentials.clientVersion),
      PHONEPE_WEBHOOK_USERNAME: WEBHOOK.username,
      PHONEPE_WEBHOOK_PASSWORD: WEBHOOK.password,
      PHONEPE_AUTH_BASE_URL: phonePe.authBaseUrl,
      PHONEPE_PG_BASE_URL: phonePe.pgBaseUrl,
      PHONEPE_CHECKOUT_ORIGINS: phonePe.url,
    })
  })
  afterAll(async () => {
    await shop?.stop()
    await phonePe?.close()
  })

  let skip = 0
  /** A customer holds a 3-day session and is sent to PhonePe's checkout; the order is pending there. */
  async function pendingOrder() {
    const visitor = await customer(shop)
    const slot = await chooseSlot(visitor, skip++, { daysAhead: 2 })
    const held = await visitor.post(slot.href, { date: slot.date, time: slot.time, website_url: '' })
    const pay = await visitor.post(held.location!, { website_url: '' })
    expect(pay.location).toMatch(new RegExp(`^${phonePe.url}/`))
    const checkout = await (await fetch(pay.location!)).text()
    const orderId = /<dt>Order<\/dt><dd>([^<]+)<\/dd>/.exec(checkout)![1]!
    return { visitor, orderId, email: visitor.email }
  }

  /** The payment's state as its owner's status page sees it (the server asks PhonePe first). */
  const stateOf = async (visitor: Visitor, orderId: string) => JSON.parse((await visitor.get(`/slot-payment-status/check?orderId=${orderId}`)).html).state as string
  const completedEvent = (orderId: string, amount = 30_000_00) => ({ event: 'checkout.order.completed', payload: { merchantOrderId: orderId, orderId: `OMO${orderId}`, state: 'COMPLETED', amount, paymentDetails: [{ transactionId: 'T-forged', paymentMode: 'UPI_QR', state: 'COMPLETED', amount, timestamp: Date.now() }] } })
  /** Every e-mail the notifications so far led to has been sent: what is missing then was never queued. */
  const settle = () => mailCaughtUp(site.url, site.sink)

  it('refuses a notification with a wrong or missing Authorization, and the booking stays pending', async () => {
    const { visitor, orderId, email } = await pendingOrder()
    const event = completedEvent(orderId)
    expect((await phonePe.sendWebhook(webhookUrl(), event, { credentials: WEBHOOK, authorization: 'wrong' })).status).toBe(401)
    expect((await phonePe.sendWebhook(webhookUrl(), event, { credentials: WEBHOOK, authorization: 'missing' })).status).toBe(401)
    expect((await phonePe.sendWebhook(webhookUrl(), event, { authorization: { exactly: webhookAuthorization(WEBHOOK.username, '') } })).status).toBe(401)
    // The plain "username:password" instead of its digest is not the credential either.
    expect((await phonePe.sendWebhook(webhookUrl(), event, { authorization: { exactly: `${WEBHOOK.username}:${WEBHOOK.password}` } })).status).toBe(401)
    await settle()
    expect(await stateOf(visitor, orderId)).toBe('pending')
    expect(text((await visitor.get('/my-bookings')).html)).toContain('Awaiting payment')
    expect(mailsTo(email, /Booking confirmed/)).toBe(0)
  })

  it('a correctly signed "completed" for an order PhonePe still has pending does not confirm it', async () => {
    const { visitor, orderId, email } = await pendingOrder()
    expect((await phonePe.sendWebhook(webhookUrl(), completedEvent(orderId), { credentials: WEBHOOK })).status).toBe(200)
    await settle()
    expect(await stateOf(visitor, orderId)).toBe('pending')
    expect(mailsTo(email, /Booking confirmed/)).toBe(0)
  })

  it('a notification claiming another amount confirms nothing by itself, and a gateway that recorded another amount never confirms', async () => {
    const { visitor, orderId, email } = await pendingOrder()
    // The notification says ₹1 was paid; PhonePe (asked after it) has the order still pending.
    expect((await phonePe.sendWebhook(webhookUrl(), completedEvent(orderId, 100), { credentials: WEBHOOK })).status).toBe(200)
    await settle()
    expect(await stateOf(visitor, orderId)).toBe('pending')
    // Now PhonePe says it completed, for ₹1: no confirmation, whoever asks.
    phonePe.complete(orderId)
    phonePe.reportAmount(orderId, 100)
    expect((await phonePe.sendWebhook(webhookUrl(), phonePe.orderEvent(orderId), { credentials: WEBHOOK })).status).toBe(200)
    await settle()
    expect(await stateOf(visitor, orderId)).toBe('pending')
    expect(text((await visitor.get(`/slot-payment-status?orderId=${orderId}&state=COMPLETED&amount=100`)).html)).not.toContain('Payment Successful!')
    expect(mailsTo(email, /Booking confirmed/)).toBe(0)
  })

  it('the same notification delivered many times, and the status page reloaded, confirm once and send one e-mail', async () => {
    const { visitor, orderId, email } = await pendingOrder()
    phonePe.complete(orderId)
    const event = phonePe.orderEvent(orderId)
    const answers = await Promise.all(Array.from({ length: 6 }, () => phonePe.sendWebhook(webhookUrl(), event, { credentials: WEBHOOK })))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200])
    await site.sink.waitForMailTo(email, /Booking confirmed/)
    for (let reload = 0; reload < 4; reload += 1) expect(text((await visitor.get(`/slot-payment-status?orderId=${orderId}`)).html)).toContain('Payment Successful!')
    expect((await phonePe.sendWebhook(webhookUrl(), event, { credentials: WEBHOOK })).status).toBe(200)
    await settle()
    expect(mailsTo(email, /Booking confirmed/)).toBe(1)
    expect(text((await visitor.get('/my-bookings')).html).match(/Confirmed/g)).toHaveLength(1)
    // A late "failed" after "completed" changes nothing.
    const failed = { event: 'checkout.order.failed', payload: { ...event.payload, state: 'FAILED' } }
    expect((await phonePe.sendWebhook(webhookUrl(), failed, { credentials: WEBHOOK })).status).toBe(200)
    await settle()
    expect(await stateOf(visitor, orderId)).toBe('completed')
  })
})

describe('payment callbacks (sandbox)', () => {
  it('a forged sandbox notification is refused', async () => {
    const response = await fetch(`${site.url}/api/payments/webhook/sandbox`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': 'f'.repeat(64) }, body: JSON.stringify({ orderId: 'SLOT_1_1', state: 'completed', amountPaise: 100 }) })
    expect(response.status).toBe(401)
    const unsigned = await fetch(`${site.url}/api/payments/webhook/sandbox`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
    expect(unsigned.status).toBe(401)
  })

  it('a return from the gateway that claims success for a pending payment shows it pending, however often it is replayed', async () => {
    const visitor = await customer()
    const { orderId, statusUrl } = await bookAndPay(visitor, site.url, 'pending', 0, { daysAhead: 2 })
    const forged = `/slot-payment-status?${new URLSearchParams({ orderId, state: 'completed', status: 'COMPLETED', code: 'PAYMENT_SUCCESS', amount: '100', transactionId: 'T-forged' })}`
    for (const path of [forged, statusUrl.replace(site.url, '')]) {
      const page = text((await visitor.get(path)).html)
      expect(page).toContain('Verifying Payment')
      expect(page).not.toContain('Payment Successful!')
    }
    expect(text((await visitor.get('/my-bookings')).html)).toContain('Awaiting payment')
  })

  it('a paid booking replayed through its return address stays one booking with one e-mail', async () => {
    const visitor = await customer()
    const { statusUrl } = await bookAndPay(visitor, site.url, 'success', 1, { daysAhead: 2 })
    for (let replay = 0; replay < 5; replay += 1) expect(text((await visitor.get(statusUrl)).html)).toContain('Payment Successful!')
    await site.sink.waitForMailTo(visitor.email, /Booking confirmed/)
    await mailCaughtUp(site.url, site.sink)
    expect(mailsTo(visitor.email, /Booking confirmed/)).toBe(1)
  })
})
