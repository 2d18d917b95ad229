import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookings, paymentEvents, payments, refunds } from '~/db/schema'
import { addMinutes, addSeconds } from '~/lib/lab-time'
import { cancelBooking } from '~/modules/booking/changes.server'
import { holdSession } from '~/modules/booking/holds.server'
import { bookingRow, createCustomers, mailTo, setWindows } from '../../../tests/support/booking'
import { webhookAuthorization } from '../../../tests/support/fake-phonepe'
import { usePhonePeGateway } from '../../../tests/support/phonepe-gateway'
import { useTestDatabase } from '../../../tests/support/test-database'
import { handleNotification, refreshFromNotification, refreshPayment, startPayment } from './payments.server'
import { processDueRefunds } from './refunds.server'

// The booking engine with PhonePe as its gateway (a local fake speaking PhonePe's protocol):
// notifications vouched for only by a shared credential, confirmation through a status call,
// refunds through PhonePe.

useTestDatabase()
const WEBHOOK = { username: 'lab', password: 'hook-secret' }
const DATES = ['2030-03-04', '2030-03-05', '2030-03-06']
const phonePe = usePhonePeGateway(WEBHOOK)
beforeEach(async () => {
  await setWindows(DATES.map((date) => ({ date })))
})

async function paidFor() {
  const [customer] = await createCustomers(1)
  const held = await holdSession({ customer: customer!, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3 })
  const started = await startPayment({ payable: { kind: 'booking', id: held.bookingId }, description: 'Slot booking - test', statusUrl: (orderId) => `https://lab.example.in/slot-payment-status?orderId=${orderId}` })
  return { customer: customer!, held, ...started }
}

/** A webhook as PhonePe posts it, verified by the adapter as our endpoint does. */
async function webhook(event: { event: string; payload: Record<string, unknown> }, authorization = webhookAuthorization(WEBHOOK.username, WEBHOOK.password)) {
  return phonePe.gateway.parseNotification({ headers: { authorization }, rawBody: Buffer.from(JSON.stringify(event)) })
}

describe('PhonePe notifications', () => {
  it('a genuine "completed" notification leads to a status call, which confirms the booking', async () => {
    const { held, orderId } = await paidFor()
    phonePe.fake.complete(orderId)
    const check = await webhook(phonePe.fake.orderEvent(orderId))
    expect(check.ok).toBe(true)
    if (!check.ok) return
    expect(await handleNotification('phonepe', check.notification)).toBe('needs_status_check')
    // Until PhonePe itself confirms, the notification alone fulfils nothing.
    expect((await bookingRow(held.bookingId)).status).toBe('pending')
    const statusCalls = phonePe.fake.requestCount('status')
    await refreshFromNotification(check.notification)
    expect(phonePe.fake.requestCount('status')).toBe(statusCalls + 1)
    expect((await bookingRow(held.bookingId)).status).toBe('confirmed')
  })

  it('a notification with the wrong credentials is refused', async () => {
    const { orderId } = await paidFor()
    phonePe.fake.complete(orderId)
    const check = await webhook(phonePe.fake.orderEvent(orderId), webhookAuthorization('lab', 'guessed'))
    expect(check.ok).toBe(false)
  })

  it('a "completed" notification for an order PhonePe still reports pending confirms nothing', async () => {
    const { held, orderId } = await paidFor()
    const forgedLooking = { event: 'checkout.order.completed', payload: { merchantOrderId: orderId, orderId: 'OMO1', state: 'COMPLETED', amount: 3_000_000 } }
    const check = await webhook(forgedLooking)
    if (!check.ok) throw new Error('expected the credentials to pass')
    await handleNotification('phonepe', check.notification)
    await refreshFromNotification(check.notification)
    expect((await bookingRow(held.bookingId)).status).toBe('pending')
  })

  it('a repeated notification is recorded once', async () => {
    const { orderId } = await paidFor()
    phonePe.fake.complete(orderId)
    const check = await webhook(phonePe.fake.orderEvent(orderId))
    if (!check.ok) throw new Error('expected the credentials to pass')
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => handleNotification('phonepe', check.notification)))
    expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(4)
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.eventKey, check.notification.eventKey))).toHaveLength(1)
  })

  it('PhonePe reporting a different amount than we asked for does not confirm the booking', async () => {
    const { held, orderId } = await paidFor()
    phonePe.fake.complete(orderId)
    phonePe.fake.reportAmount(orderId, 100)
    await refreshPayment(orderId)
    expect((await bookingRow(held.bookingId)).status).toBe('pending')
    const [row] = await db().select().from(payments).where(eq(payments.orderId, orderId))
    expect(row!.state).toBe('pending')
  })

  it('a payment PhonePe marks failed releases the hold', async () => {
    const { held, orderId } = await paidFor()
    phonePe.fake.fail(orderId)
    await refreshPayment(orderId)
    expect((await bookingRow(held.bookingId)).status).toBe('payment_failed')
  })
})

describe('refunds through PhonePe', () => {
  it('a late payment whose seats were taken is refunded through PhonePe; the booking ends refunded and the customer is told twice', async () => {
    const { customer, held, orderId } = await paidFor()
    await db().update(bookings).set({ holdExpiresAt: addSeconds(new Date(), -1) }).where(eq(bookings.id, held.bookingId))
    const [rival] = await createCustomers(1, 'rival')
    await holdSession({ customer: rival!, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3 })
    phonePe.fake.complete(orderId)
    await refreshPayment(orderId)
    expect((await bookingRow(held.bookingId)).status).toBe('refund_pending')

    await processDueRefunds(new Date())
    const [refund] = await db().select().from(refunds)
    expect(refund!.submittedAt).not.toBeNull()
    expect(phonePe.fake.refund(refund!.refundId)).toMatchObject({ amount: 30_000_00, originalMerchantOrderId: orderId })
    expect((await bookingRow(held.bookingId)).status).toBe('refund_pending')

    phonePe.fake.completeRefund(refund!.refundId)
    await processDueRefunds(addMinutes(new Date(), 10))
    expect((await bookingRow(held.bookingId)).status).toBe('refunded')
    const [done] = await db().select().from(refunds)
    expect(done!.state).toBe('completed')
    const subjects = (await mailTo(customer.email)).map((mail) => mail.subject)
    expect(subjects).toEqual([expect.stringMatching(/being refunded/), expect.stringMatching(/^Refund completed/)])
  })

  it('a refund notification is confirmed with a refund status call before the booking is marked refunded', async () => {
    const { held, orderId } = await paidFor()
    await db().update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, held.bookingId))
    phonePe.fake.complete(orderId)
    await refreshPayment(orderId)
    await processDueRefunds(new Date())
    const [refund] = await db().select().from(refunds)
    phonePe.fake.completeRefund(refund!.refundId)
    const check = await webhook(phonePe.fake.refundEvent(refund!.refundId))
    if (!check.ok) throw new Error('expected the credentials to pass')
    expect(check.notification).toMatchObject({ kind: 'refund', refundId: refund!.refundId })
    expect(await handleNotification('phonepe', check.notification)).toBe('needs_status_check')
    expect((await bookingRow(held.bookingId)).status).toBe('cancelled')
    await refreshFromNotification(check.notification)
    expect((await bookingRow(held.bookingId)).status).toBe('refunded')
  })

  it('a customer cancelling a paid booking is refunded through PhonePe', async () => {
    const { held, orderId } = await paidFor()
    phonePe.fake.complete(orderId)
    await refreshPayment(orderId)
    expect((await bookingRow(held.bookingId)).status).toBe('confirmed')
    await cancelBooking({ bookingId: held.bookingId })
    await processDueRefunds(new Date())
    const [refund] = await db().select().from(refunds)
    expect(phonePe.fake.refund(refund!.refundId)).toMatchObject({ amount: 30_000_00, originalMerchantOrderId: orderId })
    phonePe.fake.completeRefund(refund!.refundId)
    await processDueRefunds(addMinutes(new Date(), 10))
    expect((await bookingRow(held.bookingId)).status).toBe('refunded')
  })

  it('a refund PhonePe cannot accept right now is tried again later with the same refund id', async () => {
    const { held, orderId } = await paidFor()
    await db().update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, held.bookingId))
    phonePe.fake.complete(orderId)
    await refreshPayment(orderId)
    phonePe.fake.failResponses(503, { endpoint: 'refund', count: 10 })
    await processDueRefunds(new Date())
    const [waiting] = await db().select().from(refunds)
    expect(waiting).toMatchObject({ state: 'pending', submittedAt: null })
    expect(waiting!.lastError).toMatch(/503/)

    phonePe.fake.clearFaults()
    await processDueRefunds(addMinutes(new Date(), 1))
    const [accepted] = await db().select().from(refunds)
    expect(accepted!.submittedAt).not.toBeNull()
    expect(phonePe.fake.refund(accepted!.refundId)).toBeDefined()
  })
})
