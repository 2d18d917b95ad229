import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakePhonePe, type FakePhonePe } from '../support/fake-phonepe'
import { holdAndPay, holdSeat, phonePeSiteEnv } from '../support/phonepe-site'
import { startSmtpSink } from '../support/smtp-sink'
import { startTestServer, type TestServer } from '../support/test-server'
import { mailCaughtUp, signUp, text, Visitor } from '../support/visitor'
import { eventually } from '../support/eventually'

// Two instances on one PostgreSQL; the one the customers are paying through is killed with
// SIGKILL and never comes back. The other, which saw none of it, must finish every payment from
// the shared database alone: no notification reaches it (PhonePe only knows the dead one's address).
// PGlite serves a single instance, so this runs on PostgreSQL only.

const WEBHOOK = { username: 'lab-webhook', password: 'failover-secret' }

describe.skipIf(!process.env.DATABASE_URL)('kill -9 one of two instances (needs DATABASE_URL)', () => {
  let fake: FakePhonePe
  let sink: Awaited<ReturnType<typeof startSmtpSink>>
  let first: TestServer
  let second: TestServer

  beforeAll(async () => {
    fake = await startFakePhonePe()
    sink = await startSmtpSink()
    const env = { SMTP_URL: sink.url, TRUST_PROXY: 'true', ...phonePeSiteEnv(fake, WEBHOOK) }
    first = await startTestServer(env)
    second = await startTestServer({ ...env, DATABASE_URL: first.databaseUrl! })
    fake.sendWebhooksTo(`${first.url}/api/payments/webhook/phonepe`, WEBHOOK)
  })
  afterAll(async () => {
    await second?.stop()
    await first?.stop()
    await fake?.close()
    await sink?.close()
  })

  it('the surviving instance confirms every paid order once, the one whose Pay call was cut off too, and releases the declined one', { timeout: 90_000 }, async () => {
    const emails = ['failover-a@example.com', 'failover-b@example.com', 'failover-g@example.com']
    const [paid, declined, inFlight] = (await Promise.all(emails.map((email) => signUp(new Visitor(first.url), sink, { email, name: 'Failover Swimmer' })))) as [Visitor, Visitor, Visitor]
    const a = await holdAndPay(paid, fake, 0)
    const b = await holdAndPay(declined, fake, 1)
    // G's Pay call is at PhonePe when the instance dies.
    fake.delayResponses(5_000, { endpoint: 'pay', count: 1 })
    const payCalls = fake.requestCount('pay')
    const g = await holdSeat(inFlight, 2)
    const pressed = inFlight.post(g.paymentPath, { website_url: '' }).catch((error: unknown) => error)
    while (fake.requestCount('pay') === payCalls) await new Promise((resolve) => setTimeout(resolve, 20))

    const killedAt = Date.now()
    await first.kill()
    expect(await pressed).toBeInstanceOf(Error)
    const gOrderId = await orderOf(first.databaseUrl!, g.bookingId)
    for (const orderId of [a.orderId, gOrderId]) fake.complete(orderId)
    fake.fail(b.orderId)
    await fake.settled()
    expect(fake.deliveries.filter((delivery) => delivery.error !== null)).toHaveLength(3)

    const confirmed = (email: string) => sink.messages.filter((mail) => mail.to.includes(email) && /^Subject: Booking confirmed/m.test(mail.raw)).length
    const deadline = Date.now() + 45_000
    while (confirmed(emails[0]!) < 1 || confirmed(emails[2]!) < 1) {
      if (Date.now() > deadline) throw new Error(`A and G were not confirmed by the surviving instance:\n${second.logs().slice(-3000)}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const confirmedAfterMs = Date.now() - killedAt

    // B's declined order is released by the same reconciliation; then every order has reached its
    // end, and every e-mail they led to has been sent.
    const onSecond = (visitor: Visitor) => visitor.get(`${second.url}/my-bookings`)
    await eventually(async () => text((await onSecond(declined)).html), (page) => page.includes('No bookings yet'), { timeoutMs: 45_000, everyMs: 250 })
    await mailCaughtUp(second.url, sink)
    expect(confirmed(emails[0]!)).toBe(1)
    expect(text((await onSecond(paid)).html)).toContain('Confirmed')
    expect(confirmed(emails[1]!)).toBe(0)
    expect(text((await onSecond(declined)).html)).toContain('No bookings yet')
    expect(confirmed(emails[2]!)).toBe(1)
    expect(text((await onSecond(inFlight)).html)).toContain('Confirmed')
    expect(second.process.exitCode).toBeNull()
    console.log(`failover: an instance killed with 3 orders open (1 Pay in flight), 3 notifications lost; the other instance, with no notification, confirmed A and G ${confirmedAfterMs} ms after the kill and released B; one e-mail each`)
  })
})

/** The order id of a booking's payment, read from the shared database. */
async function orderOf(databaseUrl: string, bookingId: number) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ order_id: string }>('SELECT order_id FROM payments WHERE booking_id = $1', [bookingId])
    expect(rows).toHaveLength(1)
    return rows[0]!.order_id
  } finally {
    await client.end()
  }
}
