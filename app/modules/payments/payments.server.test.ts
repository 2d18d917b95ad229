import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookings, paymentEvents, payments, refunds, siteSettings } from '~/db/schema'
import { addMinutes, addSeconds } from '~/lib/lab-time'
import { holdSession, type Customer } from '~/modules/booking/holds.server'
import { bookingRow, createCustomers, expectHeld, mailTo, setWindows } from '../../../tests/support/booking'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { applyOrderStatus, HoldExpiredError, nextCheckAt, reconcileDuePayments, refreshPayment, startPayment } from './payments.server'
import { processDueRefunds } from './refunds.server'
import { newOrderId } from './gateway-contract.server'

useTestDatabase()
const sandbox = useSandboxPayments()
beforeEach(() => sandbox.ready())

// Payments happen in real time (the sandbox and its timers run on the clock), so sessions are far ahead.
const FAR_DATES = ['2030-03-04', '2030-03-05', '2030-03-06']

async function heldBooking(customer: Customer, { dates = FAR_DATES, start = '09:00', now = new Date() } = {}) {
  await setWindows(dates.map((date) => ({ date })))
  return holdSession({ customer, productCode: 'biomechanical_package', date: dates[0]!, start, days: 3, now })
}

const payFor = (bookingId: number, now = new Date()) =>
  startPayment({ payable: { kind: 'booking', id: bookingId }, description: 'Slot booking - test', statusUrl: (orderId) => `${sandbox.url}/slot-payment-status?orderId=${orderId}`, now })

async function payment(orderId: string) {
  const [row] = await db().select().from(payments).where(eq(payments.orderId, orderId))
  return row!
}

const confirmations = async (email: string) => (await mailTo(email)).filter((mail) => mail.subject.startsWith('Booking confirmed'))

describe('starting a payment', () => {
  it('creates a gateway order for the stored amount under a unique SLOT order id, expiring with the hold', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const started = await payFor(held.bookingId)
    expect(started.orderId).toMatch(/^SLOT_\d{13}_\d{1,3}_[a-z2-9]{8}$/)
    expect(started.redirectUrl).toMatch(new RegExp(`^${sandbox.url}/sandbox-gateway/checkout/SBX`))
    const row = await payment(started.orderId)
    expect(row).toMatchObject({ state: 'pending', amountPaise: 30_000_00, bookingId: held.bookingId, gateway: 'sandbox' })
    expect(row.expiresAt).toEqual(held.holdExpiresAt)
  })

  it('resumes the open order instead of creating a second one', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const first = await payFor(held.bookingId)
    const again = await payFor(held.bookingId)
    expect(again).toEqual(first)
    expect(await db().select().from(payments)).toHaveLength(1)
  })

  it('refuses once the hold has run out', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    await expect(payFor(held.bookingId, addSeconds(held.holdExpiresAt, -30))).rejects.toBeInstanceOf(HoldExpiredError)
  })
})

describe('the gateway says the payment completed', () => {
  it('confirms the booking and e-mails a confirmation with the three dates and an .ics, once', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const { orderId, redirectUrl } = await payFor(held.bookingId)
    const back = await sandbox.choose(redirectUrl, 'success')
    expect(back).toContain(`orderId=${orderId}`)

    await expect.poll(async () => (await bookingRow(held.bookingId)).status).toBe('confirmed')
    const paid = await payment(orderId)
    expect(paid).toMatchObject({ state: 'completed', nextCheckAt: null })
    expect(paid.transactionId).toMatch(/^SBXT/)
    const [mail, ...more] = await confirmations(customer!.email)
    expect(more).toHaveLength(0)
    expect(mail!.text).toMatch(/Day 1:\s+Monday, 4 March 2030, 9:00 AM - 10:00 AM/)
    expect(mail!.text).toMatch(/Day 3:\s+Wednesday, 6 March 2030, 9:00 AM - 10:00 AM/)
    expect(mail!.text).toContain('₹30,000.00')
    const ics = Buffer.from(mail!.attachments[0]!.contentBase64, 'base64').toString('utf8')
    expect(ics).toContain('BEGIN:VCALENDAR')
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(3)
    // 09:00 in Bangalore is 03:30 UTC.
    expect(ics).toContain('DTSTART:20300304T033000Z')
    expect(ics).toContain('DTEND:20300306T043000Z')
  })

  it('the same notification delivered ten more times confirms once and sends one e-mail', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const { orderId, redirectUrl } = await payFor(held.bookingId)
    await sandbox.choose(redirectUrl, 'success')
    const { gatewayOrderId, amountPaise } = await payment(orderId)
    // The gateway's own event, as a gateway that repeats itself would deliver it again.
    const eventId = `${gatewayOrderId}:COMPLETED`
    const again = { eventId, event: 'order.completed' as const, merchantOrderId: orderId, state: 'COMPLETED' as const, amountPaise, transactionId: 'T1' }
    const statuses = await Promise.all(Array.from({ length: 10 }, () => sandbox.postNotification(again)))
    expect(statuses).toEqual(Array(10).fill(200))
    await expect.poll(async () => (await bookingRow(held.bookingId)).status).toBe('confirmed')
    expect(await confirmations(customer!.email)).toHaveLength(1)
    const events = await db().select().from(paymentEvents).where(eq(paymentEvents.eventKey, eventId))
    expect(events).toHaveLength(1)
    expect(events[0]!.outcome).toBe('applied')
  })

  it('a forged notification is rejected and changes nothing', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const { orderId } = await payFor(held.bookingId)
    const status = await sandbox.postNotification(
      { eventId: 'forged', event: 'order.completed', merchantOrderId: orderId, state: 'COMPLETED', amountPaise: 30_000_00, transactionId: 'X' },
      { forged: true },
    )
    expect(status).toBe(401)
    expect((await bookingRow(held.bookingId)).status).toBe('pending')
    expect((await payment(orderId)).state).toBe('pending')
    expect(await db().select().from(paymentEvents)).toHaveLength(0)
  })

  it('an amount other than the one we stored does not confirm the booking', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const { orderId } = await payFor(held.bookingId)
    const status = await sandbox.postNotification({ eventId: 'cheap', event: 'order.completed', merchantOrderId: orderId, state: 'COMPLETED', amountPaise: 100, transactionId: 'T' })
    expect(status).toBe(200)
    expect((await bookingRow(held.bookingId)).status).toBe('pending')
    expect((await payment(orderId)).state).toBe('pending')
    const [event] = await db().select().from(paymentEvents).where(eq(paymentEvents.eventKey, 'cheap'))
    expect(event!.outcome).toBe('amount_mismatch')

    // Money was taken that the website will not account for: the lab hears of it once, however often it is reported.
    expect(await applyOrderStatus(orderId, { state: 'completed', amountPaise: 100, transactionId: 'T', paymentMode: 'UPI' })).toBe('amount_mismatch')
    await sandbox.postNotification({ eventId: 'cheap-again', event: 'order.completed', merchantOrderId: orderId, state: 'COMPLETED', amountPaise: 100, transactionId: 'T' })
    const [settings] = await db().select({ supportEmail: siteSettings.supportEmail }).from(siteSettings)
    const [alert, ...others] = await mailTo(settings!.supportEmail)
    expect(others).toHaveLength(0)
    expect(alert!.subject).toBe(`Payment amount mismatch: ${orderId} for ${held.reference}`)
    expect(alert!.text).toContain('but for ₹1.00 instead of the ₹30,000.00 the website asked for')
    expect(alert!.text).toContain(`/admin/bookings/${held.reference}`)
    expect(await confirmations(customer!.email)).toHaveLength(0)

    // When reconciliation gives the order up, staff see why on the booking.
    expect(await refreshPayment(orderId, addMinutes(held.holdExpiresAt, 16))).toEqual({ state: 'failed' })
    expect((await payment(orderId)).failureReason).toBe('The gateway reported it paid for another amount than was asked; not confirmed (the support address was told).')
  })

  it('a "failed" arriving after "completed" is ignored', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const { orderId } = await payFor(held.bookingId)
    expect(await applyOrderStatus(orderId, { state: 'completed', amountPaise: 30_000_00, transactionId: 'T', paymentMode: 'UPI' })).toBe('applied')
    expect(await applyOrderStatus(orderId, { state: 'failed', amountPaise: 30_000_00, transactionId: null, paymentMode: null })).toBe('ignored_regression')
    expect(await applyOrderStatus(orderId, { state: 'pending', amountPaise: 30_000_00, transactionId: null, paymentMode: null })).toBe('unchanged')
    expect((await payment(orderId)).state).toBe('completed')
    expect((await bookingRow(held.bookingId)).status).toBe('confirmed')
  })

  it('a notification for an order we never issued is recorded and changes nothing', async () => {
    expect(await sandbox.postNotification({ eventId: 'stray', event: 'order.completed', merchantOrderId: 'SLOT_1_1_unknown', state: 'COMPLETED', amountPaise: 100, transactionId: 'T' })).toBe(200)
    const [event] = await db().select().from(paymentEvents).where(eq(paymentEvents.eventKey, 'stray'))
    expect(event!.outcome).toBe('unknown_order')
  })
})

describe('reconciliation', () => {
  it('follows the gateway schedule: 20 s, then every 3 s, 6 s, 10 s, 30 s, then every minute', () => {
    const created = new Date('2030-01-01T00:00:00Z')
    const waitAt = (age: number) => (nextCheckAt(created, addSeconds(created, age)).getTime() - created.getTime()) / 1000 - age
    expect([0, 5, 20, 49, 50, 109, 110, 169, 170, 229, 230, 900].map(waitAt)).toEqual([20, 15, 3, 3, 6, 6, 10, 10, 30, 30, 60, 60])
  })

  it('confirms a payment whose notification never arrived, by asking the gateway', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const { redirectUrl } = await payFor(held.bookingId)
    sandbox.setWebhookUp(false)
    await sandbox.choose(redirectUrl, 'success')
    expect((await bookingRow(held.bookingId)).status).toBe('pending')
    // Nothing is due before the first check, 20 seconds after the order.
    expect(await reconcileDuePayments(new Date())).toBe(0)
    expect(await reconcileDuePayments(addSeconds(new Date(), 21))).toBe(1)
    expect((await bookingRow(held.bookingId)).status).toBe('confirmed')
    expect(await confirmations(customer!.email)).toHaveLength(1)
    sandbox.setWebhookUp(true)
  })

  it('keeps asking while the gateway says pending, and schedules the next question', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const { orderId } = await payFor(held.bookingId)
    const at = addSeconds(new Date(), 25)
    await reconcileDuePayments(at)
    const row = await payment(orderId)
    expect(row.state).toBe('pending')
    expect(row.checkCount).toBe(1)
    expect(row.nextCheckAt!.getTime() - at.getTime()).toBe(3_000)
  })

  it('a declined payment releases the hold at once, so the time slot can be chosen again', async () => {
    const [customer, other] = await createCustomers(2)
    const held = await heldBooking(customer!)
    const { orderId, redirectUrl } = await payFor(held.bookingId)
    await sandbox.choose(redirectUrl, 'failure')
    await expect.poll(async () => (await payment(orderId)).state).toBe('failed')
    expect((await bookingRow(held.bookingId)).status).toBe('payment_failed')
    await expectHeld(holdSession({ customer: other!, productCode: 'biomechanical_package', date: FAR_DATES[0]!, start: '09:00', days: 3 }), { userId: other!.userId })
  })

  it('a declined payment is e-mailed once with where to try again, and not while another payment for the booking is under way or paid', async () => {
    const [customer, paying] = await createCustomers(2)
    const failedMails = async (email: string) => (await mailTo(email)).filter((mail) => mail.subject.startsWith('Payment failed'))
    const declined = (orderId: string) => applyOrderStatus(orderId, { state: 'failed', amountPaise: null, transactionId: null, paymentMode: null })
    const secondOrder = async (bookingId: number, state: 'pending' | 'completed') => {
      const orderId = newOrderId('SLOT', new Date())
      await db().insert(payments).values({ orderId, bookingId, gateway: 'sandbox', amountPaise: 30_000_00, state, expiresAt: addMinutes(new Date(), 20), createdAt: new Date(), updatedAt: new Date() })
      return orderId
    }

    const held = await heldBooking(customer!)
    const { orderId } = await payFor(held.bookingId)
    const retry = await secondOrder(held.bookingId, 'pending')
    await declined(orderId)
    expect(await failedMails(customer!.email)).toEqual([])
    expect((await bookingRow(held.bookingId)).status).toBe('pending')
    // The last one fails too, and the gateway says so three times: one e-mail.
    for (let report = 0; report < 3; report += 1) await declined(retry)
    const [mail, ...more] = await failedMails(customer!.email)
    expect(more).toEqual([])
    expect(mail!.subject).toBe(`Payment failed: 3-Day Biomechanical Analysis (${held.reference})`)
    expect(mail!.text).toContain(`/book-slot?date=${FAR_DATES[0]}&swimmer=${customer!.swimmerId}`)

    const other = await holdSession({ customer: paying!, productCode: 'biomechanical_package', date: FAR_DATES[0]!, start: '11:00', days: 3 })
    const first = await payFor(other.bookingId)
    await secondOrder(other.bookingId, 'completed')
    await declined(first.orderId)
    expect(await failedMails(paying!.email)).toEqual([])
  })

  it('gives up on an order that stays pending long past its expiry, releasing the hold', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const { orderId } = await payFor(held.bookingId)
    const muchLater = addMinutes(held.holdExpiresAt, 16)
    await refreshPayment(orderId, muchLater)
    expect((await payment(orderId)).state).toBe('failed')
  })
})

describe('a payment that completes after its hold expired', () => {
  it('is confirmed when the seats are still free', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const { orderId } = await payFor(held.bookingId)
    await db().update(bookings).set({ status: 'expired' }).where(eq(bookings.id, held.bookingId))
    expect(await applyOrderStatus(orderId, { state: 'completed', amountPaise: 30_000_00, transactionId: 'T', paymentMode: 'UPI' })).toBe('applied')
    expect((await bookingRow(held.bookingId)).status).toBe('confirmed')
    expect(await db().select().from(refunds)).toHaveLength(0)
  })

  it('is refunded automatically through the gateway when the seats were taken, and the customer is told', async () => {
    const [late, quick] = await createCustomers(2)
    const held = await heldBooking(late!)
    const { orderId, redirectUrl } = await payFor(held.bookingId)
    // The hold runs out; someone else takes the seats; then the first payment completes.
    await db().update(bookings).set({ holdExpiresAt: addSeconds(new Date(), -1) }).where(eq(bookings.id, held.bookingId))
    await holdSession({ customer: quick!, productCode: 'biomechanical_package', date: FAR_DATES[0]!, start: '09:00', days: 3 })
    await sandbox.choose(redirectUrl, 'success')

    await expect.poll(async () => (await bookingRow(held.bookingId)).status).toBe('refund_pending')
    expect((await payment(orderId)).state).toBe('completed')
    const [refund] = await db().select().from(refunds)
    expect(refund).toMatchObject({ amountPaise: 30_000_00, state: 'pending' })
    expect((await mailTo(late!.email)).map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Your payment is being refunded/)])

    await processDueRefunds(new Date())
    await expect
      .poll(
        async () => {
          await processDueRefunds(addMinutes(new Date(), 1))
          return (await bookingRow(held.bookingId)).status
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBe('refunded')
    const [done] = await db().select().from(refunds)
    expect(done!.state).toBe('completed')
    expect(done!.gatewayRefundId).toMatch(/^SBXR/)
    expect((await mailTo(late!.email)).map((mail) => mail.subject)).toContain(`Refund completed (${held.reference})`)
  })

  it('a second payment for a booking already paid is refunded, the booking stays confirmed', async () => {
    const [customer] = await createCustomers(1)
    const held = await heldBooking(customer!)
    const first = await payFor(held.bookingId)
    await db().update(payments).set({ state: 'failed' }).where(eq(payments.orderId, first.orderId))
    const second = await payFor(held.bookingId)
    await applyOrderStatus(second.orderId, { state: 'completed', amountPaise: 30_000_00, transactionId: 'T2', paymentMode: 'UPI' })
    await applyOrderStatus(first.orderId, { state: 'completed', amountPaise: 30_000_00, transactionId: 'T1', paymentMode: 'UPI' })
    expect((await bookingRow(held.bookingId)).status).toBe('confirmed')
    const all = await db().select().from(refunds)
    expect(all).toHaveLength(1)
    expect(all[0]!.reason).toMatch(/already been paid/)
    expect(await confirmations(customer!.email)).toHaveLength(1)
  })
})
