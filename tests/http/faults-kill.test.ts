import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { PGLITE_OPTIONS } from '~/db/client.server'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakePhonePe, type FakePhonePe } from '../support/fake-phonepe'
import { holdAndPay as holdAndPayAt, holdSeat, phonePeSiteEnv, type Slot } from '../support/phonepe-site'
import { startSmtpSink } from '../support/smtp-sink'
import { startTestServer, type TestServer } from '../support/test-server'
import { mailCaughtUp, signUp, text, Visitor } from '../support/visitor'

// The server is killed with SIGKILL while customers are between "hold" and "paid", with PhonePe
// (here a fake on its own port, outside the server) carrying on without it: payments complete or
// fail while we are down, and the notifications about them find nobody home. The same
// installation comes back on the same data; reconciliation and PhonePe's repeated notifications
// must then bring every paid order to "confirmed" (or "refunded" when its seat went to someone
// else meanwhile), none lost and none confirmed twice.

const WEBHOOK = { username: 'lab-webhook', password: 'kill-test-secret' }

let fake: FakePhonePe
let sink: Awaited<ReturnType<typeof startSmtpSink>>
let server: TestServer

const environment = () => ({ SMTP_URL: sink.url, TRUST_PROXY: 'true', ...phonePeSiteEnv(fake, WEBHOOK) })

beforeAll(async () => {
  fake = await startFakePhonePe()
  sink = await startSmtpSink()
  server = await startTestServer(environment())
  fake.sendWebhooksTo(`${server.url}/api/payments/webhook/phonepe`, WEBHOOK)
})
afterAll(async () => {
  await server?.stop()
  await fake?.close()
  await sink?.close()
})

type Customer = { key: string; email: string; visitor: Visitor }

const customer = async (key: string): Promise<Customer> => {
  const email = `kill-${key.toLowerCase()}@example.com`
  return { key, email, visitor: await signUp(new Visitor(server.url), sink, { email, name: `Customer ${key}` }) }
}

const holdAndPay = (who: Customer, choice: number | Slot) => holdAndPayAt(who.visitor, fake, choice)

const confirmations = (email: string) => sink.messages.filter((mail) => mail.to.includes(email) && /^Subject: Booking confirmed/m.test(mail.raw)).length
const mailsAbout = (email: string, subject: RegExp) => sink.messages.filter((mail) => mail.to.includes(email) && subject.test(mail.raw)).length

/** Statements against the killed server's database: PGlite's data directory, or its PostgreSQL database. */
async function withDeadServersDatabase<T>(dead: TestServer, work: (query: (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>) => Promise<T>) {
  if (dead.databaseUrl) {
    const client = new pg.Client({ connectionString: dead.databaseUrl })
    await client.connect()
    try {
      return await work(async (sql, params) => (await client.query(sql, params)).rows)
    } finally {
      await client.end()
    }
  }
  const client = new PGlite({ dataDir: path.join(dead.dataDir, 'pglite'), ...PGLITE_OPTIONS })
  try {
    return await work(async (sql, params) => (await client.query<Record<string, unknown>>(sql, params)).rows)
  } finally {
    await client.close()
  }
}

async function eventually(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe('kill -9 while customers are between hold and paid', () => {
  it('after a restart on the same data every paid order ends confirmed or refunded, none lost, none confirmed twice', { timeout: 120_000 }, async () => {
    const [paidWhileDown, declinedWhileDown, paidBefore, inFlight, late, onTime, newcomer] = (await Promise.all(['A', 'B', 'E', 'G', 'C', 'D', 'F'].map(customer))) as [Customer, Customer, Customer, Customer, Customer, Customer, Customer]

    // E paid before the crash, through the normal path: notification, status call, confirmation.
    const e = await holdAndPay(paidBefore, 2)
    fake.complete(e.orderId)
    await fake.settled()
    await eventually(() => confirmations(paidBefore.email) === 1, 'E confirmed before the crash')

    const a = await holdAndPay(paidWhileDown, 0)
    const b = await holdAndPay(declinedWhileDown, 1)
    // C and D hold the two seats of one time slot, days away from the others' sessions.
    const c = await holdAndPay(late, 10)
    const d = await holdAndPay(onTime, c.slot)

    // G presses Pay; PhonePe creates the order, and the server dies before the answer reaches it.
    fake.delayResponses(5_000, { endpoint: 'pay', count: 1 })
    const payCalls = fake.requestCount('pay')
    const gSeat = await holdSeat(inFlight.visitor, 3)
    const g = { bookingId: gSeat.bookingId, pressed: inFlight.visitor.post(gSeat.paymentPath, { website_url: '' }).catch((error: unknown) => error) }
    await eventually(() => fake.requestCount('pay') > payCalls, 'G’s pay call reached PhonePe', 10_000)

    const killedAt = Date.now()
    await server.kill()
    expect(await g.pressed).toBeInstanceOf(Error)

    // While we are down: two customers pay, one is declined, G's order is paid, and C pays only
    // after the hold on C's seat ran out (time moved on: the hold is over, and the reconciliation
    // of C's order is not due until after the restart, so the seat can go to someone else first).
    const downtime = await withDeadServersDatabase(server, async (query) => {
      await query(`UPDATE bookings SET status = 'expired', hold_expires_at = now() - interval '1 minute' WHERE id = $1`, [c.bookingId])
      await query(`UPDATE payments SET next_check_at = now() + interval '1 hour' WHERE booking_id = $1`, [c.bookingId])
      const [row] = await query(`SELECT order_id, state FROM payments WHERE booking_id = $1`, [g.bookingId])
      return { inFlightOrderId: String(row!.order_id), inFlightState: String(row!.state) }
    })
    expect(downtime.inFlightState).toBe('initiated')
    for (const order of [a.orderId, d.orderId, c.orderId, downtime.inFlightOrderId]) fake.complete(order)
    fake.fail(b.orderId)
    await fake.settled()
    const lost = fake.deliveries.filter((delivery) => delivery.error !== null).length
    expect(lost).toBeGreaterThanOrEqual(5)

    const restartedAt = Date.now()
    server = await startTestServer(environment(), { restartOf: server })
    const upAt = Date.now()
    const webhookUrl = `${server.url}/api/payments/webhook/phonepe`
    // PhonePe delivers some of the notifications it could not deliver, racing reconciliation (E's is
    // a repeat); D's and G's never come: reconciliation alone must find those payments.
    for (const order of [a.orderId, b.orderId, e.orderId]) {
      expect((await fake.sendWebhook(webhookUrl, fake.orderEvent(order))).status).toBe(200)
    }
    await eventually(() => [paidWhileDown, onTime, inFlight].every((who) => confirmations(who.email) === 1), 'A, D and G confirmed')
    const reconciledAt = Date.now()

    // F takes the seat C's lapsed hold left free; C's payment then arrives, and must be refunded.
    await holdSeat(newcomer.visitor, c.slot)
    expect((await fake.sendWebhook(webhookUrl, fake.orderEvent(c.orderId))).status).toBe(200)
    await eventually(() => mailsAbout(late.email, /^Subject: Your payment is being refunded/m) === 1, 'C told of the refund')
    // The refund goes to PhonePe; when PhonePe completes it, the booking ends refunded.
    await eventually(() => fake.requests.some((request) => request.endpoint === 'refundStatus'), 'our refund followed up at PhonePe', 20_000)
    const refundId = decodeURIComponent(/\/refund\/([^/]+)\/status$/.exec(fake.requests.find((request) => request.endpoint === 'refundStatus')!.path)![1]!)
    expect(fake.refund(refundId)?.originalMerchantOrderId).toBe(c.orderId)
    fake.completeRefund(refundId)
    await fake.settled()
    await eventually(() => mailsAbout(late.email, /^Subject: Refund completed/m) === 1, 'C told the refund completed')

    // Every order has reached its end (confirmed, released or refunded), so no reconciliation round
    // has anything left to do; every e-mail they led to has been sent, and nothing more happens.
    await mailCaughtUp(server.url, sink)
    for (const who of [paidWhileDown, onTime, inFlight, paidBefore]) {
      expect(confirmations(who.email), `${who.key}: one confirmation e-mail`).toBe(1)
      expect(text((await who.visitor.get('/my-bookings')).html), `${who.key}: My Bookings`).toContain('Confirmed')
    }
    expect(confirmations(declinedWhileDown.email)).toBe(0)
    expect(text((await declinedWhileDown.visitor.get('/my-bookings')).html)).toContain('No bookings yet')
    expect(confirmations(late.email)).toBe(0)
    const lateBookings = text((await late.visitor.get('/my-bookings')).html)
    expect(lateBookings).toContain('Refunded')
    expect(lateBookings).not.toContain('Confirmed')
    expect(fake.requestCount('refund')).toBe(1)

    console.log(
      `kill -9: 5 orders open at the gateway when killed (1 with its pay call in flight), ${lost} notifications lost while down, ` +
        `down ${restartedAt - killedAt} ms, restart ${upAt - restartedAt} ms, A/D/G confirmed ${reconciledAt - upAt} ms after restart; ` +
        `outcome: 4 confirmed (E before the crash), 1 failed, 1 refunded (paid after its hold, seat taken); one confirmation e-mail each, 1 refund`,
    )
  })
})
