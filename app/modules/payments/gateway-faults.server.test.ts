import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { payments } from '~/db/schema'
import { addSeconds } from '~/lib/lab-time'
import { holdSession } from '~/modules/booking/holds.server'
import { bookingRow, createCustomers, mailTo, setWindows } from '../../../tests/support/booking'
import { webhookAuthorization } from '../../../tests/support/fake-phonepe'
import { usePhonePeGateway } from '../../../tests/support/phonepe-gateway'
import { useTestDatabase } from '../../../tests/support/test-database'
import { handleNotification, PaymentStartError, reconcileDuePayments, refreshFromNotification, startPayment } from './payments.server'

// PhonePe misbehaving the ways a real gateway does (slow, 500s, notifications early, late, out of
// order, or never), and the booking still ending right. The adapter's own handling of each fault
// (timeouts, retries, 417 after a lost answer) is in gateways/phonepe.server.test.ts; duplicates, amounts
// and reconciliation with the sandbox are in payments.server.test.ts. These follow the faults
// through to the booking and the customer's e-mail.

useTestDatabase()
const WEBHOOK = { username: 'lab', password: 'hook-secret' }
const DATES = ['2030-03-04', '2030-03-05', '2030-03-06']
/** Short, so a gateway slower than this costs the test little; the site's is 10 s. */
const TIMEOUT_MS = 1_000
const phonePe = usePhonePeGateway(WEBHOOK, { timeoutMs: TIMEOUT_MS })
beforeEach(async () => {
  phonePe.fake.clearFaults()
  await setWindows(DATES.map((date) => ({ date, capacity: 5 })))
})

let customers = 0

async function held() {
  customers += 1
  const [customer] = await createCustomers(1, `swimmer${customers}x`)
  const booking = await holdSession({ customer: customer!, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3 })
  return { customer: customer!, bookingId: booking.bookingId }
}

const pay = (bookingId: number) =>
  startPayment({ payable: { kind: 'booking', id: bookingId }, description: 'Slot booking - test', statusUrl: (orderId) => `https://lab.example.in/slot-payment-status?orderId=${orderId}` })

async function paymentsOf(bookingId: number) {
  return db().select({ orderId: payments.orderId, state: payments.state }).from(payments).where(eq(payments.bookingId, bookingId)).orderBy(payments.id)
}

/** PhonePe's notification, received as our webhook receives it. */
async function notify(orderId: string) {
  const check = await phonePe.gateway.parseNotification({ headers: { authorization: webhookAuthorization(WEBHOOK.username, WEBHOOK.password) }, rawBody: Buffer.from(JSON.stringify(phonePe.fake.orderEvent(orderId))) })
  if (!check.ok) throw new Error(check.reason)
  const outcome = await handleNotification('phonepe', check.notification)
  if (outcome === 'needs_status_check') await refreshFromNotification(check.notification)
  return outcome
}

const confirmations = async (email: string) => (await mailTo(email)).filter((mail) => mail.subject.startsWith('Booking confirmed')).length
const inAMinute = () => addSeconds(new Date(), 61)

describe('PhonePe slow or failing on Pay', () => {
  it('answers the customer within two timeouts, and reconciliation follows the order PhonePe did create', async () => {
    const { bookingId } = await held()
    await pay(bookingId) // a first payment fetches the access token; the fault is on Pay itself
    phonePe.fake.delayResponses(10 * TIMEOUT_MS, { endpoint: 'pay' })
    const second = await held()
    const payCalls = phonePe.fake.requestCount('pay')
    await expect(pay(second.bookingId)).rejects.toBeInstanceOf(PaymentStartError)
    // The customer had the answer while PhonePe still held its answer to every try: no try was waited out.
    const tries = phonePe.fake.requestCount('pay') - payCalls
    expect(tries).toBe(2)
    expect(phonePe.fake.answersHeldBack()).toBe(tries)

    // PhonePe created the order although its answer never came: the row is kept, not failed, and
    // reconciliation learns from PhonePe that it is pending.
    const [orphan] = await paymentsOf(second.bookingId)
    expect(orphan!.state).toBe('initiated')
    expect(phonePe.fake.order(orphan!.orderId)?.state).toBe('PENDING')
    phonePe.fake.clearFaults()
    await reconcileDuePayments(inAMinute())
    expect((await paymentsOf(second.bookingId))[0]!.state).toBe('pending')

    // Pay again once PhonePe answers: a new order with a checkout page; paying it confirms once.
    const retry = await pay(second.bookingId)
    expect(retry.orderId).not.toBe(orphan!.orderId)
    phonePe.fake.complete(retry.orderId)
    await notify(retry.orderId)
    expect((await bookingRow(second.bookingId)).status).toBe('confirmed')
  })

  it('PhonePe answering 500 to Pay fails the attempt with a message; the booking stays held for another try', async () => {
    const { bookingId } = await held()
    phonePe.fake.failResponses(500, { endpoint: 'pay', count: 2 })
    await expect(pay(bookingId)).rejects.toBeInstanceOf(PaymentStartError)
    expect((await bookingRow(bookingId)).status).toBe('pending')
    const retry = await pay(bookingId)
    expect(retry.redirectUrl).toMatch(new RegExp(`^${phonePe.fake.url}/`))
  })
})

describe('PhonePe notifications early, out of order, twice or never', () => {
  it('a "completed" notification before our Pay call has returned confirms the booking once; the late answer changes nothing', async () => {
    const { customer, bookingId } = await held()
    phonePe.fake.delayResponses(0.8 * TIMEOUT_MS, { endpoint: 'pay', count: 1 })
    let returned = false
    const paying = pay(bookingId).finally(() => (returned = true))
    const deadline = Date.now() + 5_000
    while ((await paymentsOf(bookingId)).length === 0 || !phonePe.fake.order((await paymentsOf(bookingId))[0]!.orderId)) {
      if (Date.now() > deadline) throw new Error('the pay call never reached PhonePe')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    const orderId = (await paymentsOf(bookingId))[0]!.orderId
    phonePe.fake.complete(orderId)
    await notify(orderId)
    expect(returned).toBe(false)
    expect((await bookingRow(bookingId)).status).toBe('confirmed')

    const started = await paying
    expect(started.orderId).toBe(orderId)
    expect(await paymentsOf(bookingId)).toEqual([{ orderId, state: 'completed' }])
    await notify(orderId)
    await reconcileDuePayments(inAMinute())
    expect(await confirmations(customer.email)).toBe(1)
  })

  it('a "failed" notification after "completed", and "completed" delivered twice: confirmed once, still confirmed', async () => {
    const { customer, bookingId } = await held()
    const { orderId } = await pay(bookingId)
    phonePe.fake.complete(orderId)
    const completed = phonePe.fake.orderEvent(orderId)
    await notify(orderId)
    // A stale "failed" for the same order, as a gateway retrying an older event would send it.
    const stale = { event: 'checkout.order.failed', payload: { ...completed.payload, state: 'FAILED' } }
    const check = await phonePe.gateway.parseNotification({ headers: { authorization: webhookAuthorization(WEBHOOK.username, WEBHOOK.password) }, rawBody: Buffer.from(JSON.stringify(stale)) })
    if (!check.ok) throw new Error(check.reason)
    expect(await handleNotification('phonepe', check.notification)).toBe('needs_status_check')
    await refreshFromNotification(check.notification)
    expect(await notify(orderId)).toBe('duplicate')
    expect((await bookingRow(bookingId)).status).toBe('confirmed')
    expect(await paymentsOf(bookingId)).toEqual([{ orderId, state: 'completed' }])
    expect(await confirmations(customer.email)).toBe(1)
  })

  it('no notification ever, and PhonePe answering 500 to status calls for a while: confirmed once PhonePe answers', async () => {
    const { customer, bookingId } = await held()
    const { orderId } = await pay(bookingId)
    phonePe.fake.complete(orderId)
    phonePe.fake.failResponses(500, { endpoint: 'status', count: 30 })
    await reconcileDuePayments(inAMinute())
    expect((await bookingRow(bookingId)).status).toBe('pending')
    phonePe.fake.clearFaults()
    phonePe.fake.delayResponses(10 * TIMEOUT_MS, { endpoint: 'status', count: 30 })
    await reconcileDuePayments(addSeconds(new Date(), 3 * 61))
    expect((await bookingRow(bookingId)).status).toBe('pending')

    phonePe.fake.clearFaults()
    await reconcileDuePayments(addSeconds(new Date(), 5 * 61))
    expect((await bookingRow(bookingId)).status).toBe('confirmed')
    await reconcileDuePayments(addSeconds(new Date(), 7 * 61))
    expect(await confirmations(customer.email)).toBe(1)
  })
})
