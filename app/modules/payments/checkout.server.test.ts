import { and, asc, eq, inArray } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookings, payments, promoCodes, promoCodeUses, receipts, sandboxGatewayOrders } from '~/db/schema'
import { addMinutes } from '~/lib/lab-time'
import { holdSession, type Customer } from '~/modules/booking/holds.server'
import { releaseLapsedPromoUses } from '~/modules/promotions/uses.server'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { bookingRow, createCustomers, setWindows } from '../../../tests/support/booking'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { applyCodeToOrder, PaymentUnderWayError, promoCodeOfOrder, removeCodeFromOrder } from './checkout.server'
import { applyOrderStatus, HoldExpiredError, startPayment } from './payments.server'

useTestDatabase()
const sandbox = useSandboxPayments()
beforeEach(() => sandbox.ready())

// Payments happen in real time (the sandbox runs on the clock), so sessions are far ahead.
const DATES = ['2030-03-04', '2030-03-05', '2030-03-06']
const PRICE = 30_000_00

async function heldBookings(customers: Customer[]) {
  await setWindows(DATES.map((date) => ({ date, capacity: customers.length })))
  return Promise.all(customers.map((customer) => holdSession({ customer, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3 })))
}

async function createCode(values: Partial<typeof promoCodes.$inferInsert> & { code: string }) {
  const [row] = await db()
    .insert(promoCodes)
    .values({ discountKind: 'percent', discountValue: 1000, ...values })
    .returning({ id: promoCodes.id })
  return row!.id
}

const booking = (id: number) => ({ kind: 'booking', id }) as const
let network = 0
/** Each customer from a network of their own, unless a test says otherwise. */
const apply = (bookingId: number, code: string, from = `198.51.100.${++network % 250}`) => applyCodeToOrder({ payable: booking(bookingId), code, network: from })
const pay = (bookingId: number) => startPayment({ payable: booking(bookingId), description: 'Slot booking - test', statusUrl: (orderId) => `${sandbox.url}/slot-payment-status?orderId=${orderId}` })

async function useStates(promoCodeId: number) {
  return (await db().select({ state: promoCodeUses.state }).from(promoCodeUses).where(eq(promoCodeUses.promoCodeId, promoCodeId)).orderBy(asc(promoCodeUses.id))).map((use) => use.state)
}

describe('a promo code on the payment step', () => {
  it('reprices the order before the gateway is asked: the gateway order is for the discounted amount', async () => {
    const [customer] = await createCustomers(1)
    const [held] = await heldBookings([customer!])
    await createCode({ code: 'SWIM10', discountKind: 'percent', discountValue: 1000 })
    expect(await apply(held!.bookingId, ' swim10 ')).toEqual({ code: 'SWIM10', discountPaise: 3_000_00 })
    expect(await bookingRow(held!.bookingId)).toMatchObject({ amountPaise: 27_000_00, promoDiscountPaise: 3_000_00 })
    expect(await promoCodeOfOrder(booking(held!.bookingId))).toEqual({ code: 'SWIM10', discountPaise: 3_000_00 })
    const started = await pay(held!.bookingId)
    const [row] = await db().select({ amountPaise: payments.amountPaise }).from(payments).where(eq(payments.orderId, started.orderId))
    expect(row!.amountPaise).toBe(27_000_00)
  })

  it('takes a fixed amount off, and a second code replaces the first at the full price, not on top of it', async () => {
    const [customer] = await createCustomers(1)
    const [held] = await heldBookings([customer!])
    await createCode({ code: 'FIRST', discountKind: 'amount', discountValue: 500_00 })
    await createCode({ code: 'SECOND', discountKind: 'amount', discountValue: 2_000_00 })
    await apply(held!.bookingId, 'FIRST')
    await apply(held!.bookingId, 'SECOND')
    expect(await bookingRow(held!.bookingId)).toMatchObject({ amountPaise: PRICE - 2_000_00, promoDiscountPaise: 2_000_00 })
    await removeCodeFromOrder({ payable: booking(held!.bookingId) })
    expect(await bookingRow(held!.bookingId)).toMatchObject({ amountPaise: PRICE, promoDiscountPaise: 0 })
    expect(await promoCodeOfOrder(booking(held!.bookingId))).toBeNull()
  })

  it('leaves the order unchanged when the code is refused', async () => {
    const [customer] = await createCustomers(1)
    const [held] = await heldBookings([customer!])
    await createCode({ code: 'CAMPONLY', products: ['camp'] })
    await expect(apply(held!.bookingId, 'CAMPONLY')).rejects.toMatchObject({ field: 'promoCode', message: 'This promo code is only for camps.' })
    await expect(apply(held!.bookingId, 'NOSUCH')).rejects.toMatchObject({ field: 'promoCode', message: 'This promo code is not valid.' })
    expect(await bookingRow(held!.bookingId)).toMatchObject({ amountPaise: PRICE, promoDiscountPaise: 0 })
  })

  it('cannot change the price while a payment for the order is with the gateway, nor after its hold ran out', async () => {
    const [customer] = await createCustomers(1)
    const [held] = await heldBookings([customer!])
    await createCode({ code: 'LATE' })
    await pay(held!.bookingId)
    await expect(apply(held!.bookingId, 'LATE')).rejects.toBeInstanceOf(PaymentUnderWayError)
    await db().update(bookings).set({ holdExpiresAt: addMinutes(new Date(), -1) }).where(eq(bookings.id, held!.bookingId))
    await expect(apply(held!.bookingId, 'LATE')).rejects.toBeInstanceOf(HoldExpiredError)
  })

  it('counts attempts, so that codes cannot be guessed by trying them', async () => {
    const [customer] = await createCustomers(1)
    const [held] = await heldBookings([customer!])
    for (let attempt = 0; attempt < 10; attempt += 1) await expect(apply(held!.bookingId, `GUESS${attempt}`, '203.0.113.9')).rejects.toMatchObject({ field: 'promoCode' })
    await createCode({ code: 'REAL' })
    await expect(apply(held!.bookingId, 'REAL', '203.0.113.9')).rejects.toBeInstanceOf(RateLimitedError)
    expect(await bookingRow(held!.bookingId)).toMatchObject({ amountPaise: PRICE })
  })
})

describe('a free order', () => {
  it('is confirmed at once without the gateway, with a receipt, when a code takes the whole price', async () => {
    const [customer] = await createCustomers(1)
    const [held] = await heldBookings([customer!])
    const codeId = await createCode({ code: 'ONUS', discountKind: 'percent', discountValue: 10_000 })
    await apply(held!.bookingId, 'ONUS')
    const started = await pay(held!.bookingId)
    expect(started.redirectUrl).toBe(`${sandbox.url}/slot-payment-status?orderId=${started.orderId}`)
    const [row] = await db().select().from(payments).where(eq(payments.orderId, started.orderId))
    expect(row).toMatchObject({ gateway: 'free', amountPaise: 0, state: 'completed', nextCheckAt: null })
    expect(await db().select({ id: receipts.id }).from(receipts).where(eq(receipts.paymentId, row!.id))).toHaveLength(1)
    expect(await bookingRow(held!.bookingId)).toMatchObject({ status: 'confirmed', amountPaise: 0 })
    expect(await useStates(codeId)).toEqual(['used'])
    expect(await db().select({ id: sandboxGatewayOrders.merchantOrderId }).from(sandboxGatewayOrders)).toHaveLength(0)
  })
})

describe('a promo code’s use', () => {
  it('comes back when the order’s payment fails, and counts for good when it is paid', async () => {
    const customers = await createCustomers(2)
    const [failing, paying] = await heldBookings(customers)
    const codeId = await createCode({ code: 'TWICE', maxUses: 1 })
    await apply(failing!.bookingId, 'TWICE')
    await expect(apply(paying!.bookingId, 'TWICE')).rejects.toMatchObject({ message: expect.stringMatching(/used up/) })
    const declined = await pay(failing!.bookingId)
    await applyOrderStatus(declined.orderId, { state: 'failed', amountPaise: null, transactionId: null, paymentMode: null })
    expect(await useStates(codeId)).toEqual(['released'])

    await apply(paying!.bookingId, 'TWICE')
    const paid = await pay(paying!.bookingId)
    await applyOrderStatus(paid.orderId, { state: 'completed', amountPaise: 27_000_00, transactionId: 'T1', paymentMode: 'UPI' })
    expect(await useStates(codeId)).toEqual(['released', 'used'])
  })

  it('comes back when the order’s hold runs out unpaid, and still counts if a late payment arrives for it', async () => {
    const customers = await createCustomers(2)
    const [lapsing, other] = await heldBookings(customers)
    const codeId = await createCode({ code: 'HOLDON', maxUses: 1 })
    await apply(lapsing!.bookingId, 'HOLDON')
    const started = await pay(lapsing!.bookingId)
    await db().update(bookings).set({ holdExpiresAt: addMinutes(new Date(), -1) }).where(eq(bookings.id, lapsing!.bookingId))
    expect(await releaseLapsedPromoUses()).toBe(1)
    expect(await useStates(codeId)).toEqual(['released'])
    await expect(apply(other!.bookingId, 'HOLDON')).resolves.toMatchObject({ code: 'HOLDON' })
    await removeCodeFromOrder({ payable: booking(other!.bookingId) })

    // The customer paid the discounted price at the gateway all the same: the booking is confirmed, the use counts.
    await applyOrderStatus(started.orderId, { state: 'completed', amountPaise: 27_000_00, transactionId: 'T2', paymentMode: 'UPI' })
    expect(await useStates(codeId)).toEqual(['used', 'released'])
  })
})

describe('many customers applying a code at once, then paying', () => {
  it('ends with exactly as many discounted paid orders as the code had uses left', async () => {
    const customers = await createCustomers(50)
    const held = await heldBookings(customers)
    await createCode({ code: 'RUSH', maxUses: 10 })
    const outcomes = await Promise.allSettled(held.map((hold) => apply(hold.bookingId, 'RUSH')))
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10)
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ message: expect.stringMatching(/used up/) })

    for (const hold of held) {
      const started = await pay(hold.bookingId)
      const [row] = await db().select({ amountPaise: payments.amountPaise }).from(payments).where(eq(payments.orderId, started.orderId))
      await applyOrderStatus(started.orderId, { state: 'completed', amountPaise: row!.amountPaise, transactionId: `T-${hold.bookingId}`, paymentMode: 'UPI' })
    }
    const paid = await db()
      .select({ amountPaise: payments.amountPaise })
      .from(payments)
      .where(and(eq(payments.state, 'completed'), inArray(payments.bookingId, held.map((hold) => hold.bookingId))))
    expect(paid).toHaveLength(50)
    expect(paid.filter((row) => row.amountPaise === 27_000_00)).toHaveLength(10)
    expect(paid.filter((row) => row.amountPaise === PRICE)).toHaveLength(40)
  })
})
