import { and, eq, sql } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, campBatches, campRegistrations, camps, campWaitlist, payments, refunds, siteSettings, users } from '~/db/schema'
import { addHours, addMinutes, addSeconds, labInstant } from '~/lib/lab-time'
import { applyOrderStatus, startPayment } from '~/modules/payments/payments.server'
import { applyRefundStatus, processDueRefunds, RefundNotFailedError, settleFailedRefund } from '~/modules/payments/refunds.server'
import { overview } from '~/modules/overview/overview.server'
import { mailTo } from '../../../tests/support/booking'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import type { Holder } from '~/modules/holders/holders.server'
import { visitor } from '../../../tests/support/holders'
import { useTestDatabase } from '../../../tests/support/test-database'
import { expireStaleCampHolds, holdCampSeat } from './registrations.server'
import { confirmWaitlistPlace, joinWaitlist, offerFreedSeats } from './waitlist.server'

useTestDatabase()
const sandbox = useSandboxPayments()

// Camps far ahead (payments run on the real clock): 8-16 and 18-26 August 2030.
beforeEach(async () => {
  await sandbox.ready()
  await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp1'))
  await db().update(camps).set({ startsOn: '2030-08-18', endsOn: '2030-08-26', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp2'))
})

let next = 1
const applicant = (name = `Swimmer ${next}`) => ({ swimmerName: name, email: `family${next++}@example.com`, phone: '9845012345' })

async function heldAndStarted(who = applicant(), batch = 'batch1', holder?: Holder) {
  const held = await holdCampSeat({ campCode: 'camp1', batchCode: batch, applicant: who, holder })
  const started = await startPayment({ payable: { kind: 'camp', id: held.id }, description: `Camp Registration - ${who.swimmerName}`, statusUrl: (orderId) => `${sandbox.url}/payment-status?orderId=${orderId}` })
  return { held, who, ...started }
}

const status = async (id: number) => (await db().select({ status: campRegistrations.status }).from(campRegistrations).where(eq(campRegistrations.id, id)))[0]!.status

describe('paying for a camp registration', () => {
  it('creates a CAMP order for the fee, confirms on payment, and e-mails the camp dates, batch times and an .ics', async () => {
    const { held, who, orderId, redirectUrl } = await heldAndStarted()
    expect(orderId).toMatch(/^CAMP_\d{13}_\d{1,3}_[a-z2-9]{8}$/)
    const [order] = await db().select().from(payments).where(eq(payments.orderId, orderId))
    expect(order).toMatchObject({ amountPaise: 35_000_00, campRegistrationId: held.id, bookingId: null, state: 'pending' })
    await sandbox.choose(redirectUrl, 'success')
    await expect.poll(() => status(held.id)).toBe('confirmed')

    const [mail, ...others] = await mailTo(who.email)
    expect(others).toHaveLength(0)
    expect(mail!.subject).toBe(`Camp registration confirmed: ${who.swimmerName}, Camp 1 (${held.reference})`)
    expect(mail!.text).toContain("₹35,000 payment completed successfully. You're registered for the camp!")
    expect(mail!.text).toMatch(/Camp:\s+Camp 1, 8–16 August 2030/)
    expect(mail!.text).toMatch(/Batch:\s+Batch 1: 9:00 AM - 10:30 AM and 1:00 PM - 2:30 PM, every day/)
    expect(mail!.text).toContain(`/onboarding?email=${encodeURIComponent(who.email)}&phone=9845012345`)
    const ics = Buffer.from(mail!.attachments[0]!.contentBase64, 'base64').toString('utf8')
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(2)
    expect(ics).toContain('DTSTART:20300808T033000Z')
    expect(ics).toContain('DTSTART:20300808T073000Z')
    expect(ics.match(/RRULE:FREQ=DAILY;COUNT=9/g)).toHaveLength(2)
  })

  it('a notification repeated, or forged, confirms once and only when genuine', async () => {
    const { held, who, orderId } = await heldAndStarted()
    const forged = await sandbox.postNotification({ eventId: 'forged', event: 'order.completed', merchantOrderId: orderId, state: 'COMPLETED', amountPaise: 35_000_00, transactionId: 'T' }, { forged: true })
    expect(forged).toBe(401)
    expect(await status(held.id)).toBe('pending')
    const genuine = { eventId: 'evt-camp', event: 'order.completed' as const, merchantOrderId: orderId, state: 'COMPLETED' as const, amountPaise: 35_000_00, transactionId: 'T' }
    expect(await Promise.all([1, 2, 3, 4, 5].map(() => sandbox.postNotification(genuine)))).toEqual([200, 200, 200, 200, 200])
    expect(await status(held.id)).toBe('confirmed')
    expect((await mailTo(who.email)).filter((mail) => mail.subject.startsWith('Camp registration confirmed'))).toHaveLength(1)
  })

  it('the same swimmer registering again while the first payment is on its way: the first payment to complete wins, a later one is refunded', async () => {
    const who = applicant('Twice Tried')
    const browser = visitor({ email: who.email })
    const first = await heldAndStarted(who, 'batch1', browser)
    const second = await heldAndStarted(who, 'batch1', browser)
    expect(await status(first.held.id)).toBe('expired')
    await sandbox.choose(first.redirectUrl, 'success')
    await expect.poll(() => status(first.held.id)).toBe('confirmed')
    expect(await status(second.held.id)).toBe('expired')
    await sandbox.choose(second.redirectUrl, 'success')
    await expect.poll(async () => (await db().select().from(refunds)).length).toBe(1)
    expect((await db().select().from(refunds))[0]!.reason).toMatch(/already registered/)
    expect(await status(first.held.id)).toBe('confirmed')
    expect((await mailTo(who.email)).filter((mail) => mail.subject.startsWith('Camp registration confirmed'))).toHaveLength(1)
  })

  it('a declined payment releases the seat at once', async () => {
    const { held, redirectUrl } = await heldAndStarted()
    await sandbox.choose(redirectUrl, 'failure')
    await expect.poll(() => status(held.id)).toBe('payment_failed')
  })

  it('a payment arriving after the hold ran out and the batch filled is refunded, and the parent told', async () => {
    const [batch] = await db().select({ id: campBatches.id }).from(campBatches).innerJoin(camps, eq(camps.id, campBatches.campId)).where(and(eq(camps.code, 'camp1'), eq(campBatches.code, 'batch1')))
    await db().update(campBatches).set({ capacity: 1 }).where(eq(campBatches.id, batch!.id))
    const { held, who, redirectUrl } = await heldAndStarted()
    await db().update(campRegistrations).set({ holdExpiresAt: addSeconds(new Date(), -1) }).where(eq(campRegistrations.id, held.id))
    await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: applicant() })
    await sandbox.choose(redirectUrl, 'success')
    await expect.poll(() => status(held.id)).toBe('refund_pending')
    await processDueRefunds(new Date())
    await expect
      .poll(
        async () => {
          await processDueRefunds(addMinutes(new Date(), 1))
          return status(held.id)
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBe('refunded')
    expect((await db().select().from(refunds))[0]!.state).toBe('completed')
    expect((await mailTo(who.email)).map((mail) => mail.subject)).toEqual([`Your payment is being refunded (${held.reference})`, `Refund completed (${held.reference})`])
  })
})

describe('a refund the gateway fails', () => {
  it('tells the lab at its support address and lists it on the overview, since the customer is not repaid', async () => {
    const [batch] = await db().select({ id: campBatches.id }).from(campBatches).innerJoin(camps, eq(camps.id, campBatches.campId)).where(and(eq(camps.code, 'camp1'), eq(campBatches.code, 'batch1')))
    await db().update(campBatches).set({ capacity: 1 }).where(eq(campBatches.id, batch!.id))
    const { held, who, redirectUrl } = await heldAndStarted(applicant('Late Payer'))
    await db().update(campRegistrations).set({ holdExpiresAt: addSeconds(new Date(), -1) }).where(eq(campRegistrations.id, held.id))
    await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: applicant() })
    await sandbox.choose(redirectUrl, 'success')
    await expect.poll(() => status(held.id)).toBe('refund_pending')
    const [refund] = await db().select().from(refunds)

    expect(await applyRefundStatus(refund!.refundId, { state: 'failed', gatewayRefundId: null, amountPaise: refund!.amountPaise })).toBe('applied')
    expect(await status(held.id)).toBe('refund_pending')
    const [settings] = await db().select({ supportEmail: siteSettings.supportEmail }).from(siteSettings)
    const [alert, ...others] = await mailTo(settings!.supportEmail)
    expect(others).toHaveLength(0)
    expect(alert!.subject).toBe(`Refund failed: ₹35,000.00 for ${held.reference}`)
    expect(alert!.text).toContain(`Late Payer <${who.email}>`)
    expect(alert!.text).toContain('please repay them by hand')
    expect((await overview()).payments.refundsFailed).toMatchObject([{ refundId: refund!.refundId, registrationReference: held.reference, amountPaise: 35_000_00 }])
    // A repeated 'failed' changes nothing and sends nothing more.
    expect(await applyRefundStatus(refund!.refundId, { state: 'failed', gatewayRefundId: null, amountPaise: refund!.amountPaise })).toBe('unchanged')
    expect(await mailTo(settings!.supportEmail)).toHaveLength(1)

    // Staff repay the parent by bank transfer and say so: the registration is refunded, the parent told, the list cleared.
    const [admin] = await db().insert(users).values({ name: 'Staff', email: 'staff@example.com', passwordHash: 'x', isVerified: true, isAdmin: true, phone: '9845012345' }).returning({ id: users.id, email: users.email })
    await settleFailedRefund({ refundId: refund!.refundId, how: 'Bank transfer, UTR 1234567890', actor: admin! })
    expect(await status(held.id)).toBe('refunded')
    const [settled] = await db().select().from(refunds).where(eq(refunds.id, refund!.id))
    expect(settled).toMatchObject({ state: 'completed', settledByHand: 'Bank transfer, UTR 1234567890' })
    const told = (await mailTo(who.email)).at(-1)!
    expect(told.subject).toBe(`Refund completed (${held.reference})`)
    expect(told.text).toContain('our team has repaid you directly')
    expect(told.text).not.toContain('UTR')
    expect((await overview()).payments.refundsFailed).toEqual([])
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.entityId, refund!.refundId))
    expect(entry).toMatchObject({ actorEmail: 'staff@example.com', action: 'refund.settle_by_hand', summary: expect.stringContaining('Repaid ₹35,000.00 of order CAMP_') })
    expect(entry!.summary).toContain('by hand: Bank transfer, UTR 1234567890')
    // Only once: a second press (another tab) changes nothing and tells the parent nothing more.
    const mails = (await mailTo(who.email)).length
    await expect(settleFailedRefund({ refundId: refund!.refundId, how: 'Again', actor: admin! })).rejects.toBeInstanceOf(RefundNotFailedError)
    expect(await mailTo(who.email)).toHaveLength(mails)
  })

  it('cannot be marked repaid while the gateway may still complete it', async () => {
    const { held, redirectUrl } = await heldAndStarted()
    await sandbox.choose(redirectUrl, 'success')
    await expect.poll(() => status(held.id)).toBe('confirmed')
    const [payment] = await db().select({ id: payments.id }).from(payments).where(eq(payments.campRegistrationId, held.id))
    await db().insert(refunds).values({ refundId: 'RFND_pending', paymentId: payment!.id, amountPaise: 35_000_00, reason: 'Test', state: 'pending' })
    await expect(settleFailedRefund({ refundId: 'RFND_pending', how: 'Bank transfer', actor: { id: 1, email: 'staff@example.com' } })).rejects.toBeInstanceOf(RefundNotFailedError)
    await expect(settleFailedRefund({ refundId: 'RFND_unknown', how: 'Bank transfer', actor: { id: 1, email: 'staff@example.com' } })).rejects.toBeInstanceOf(RefundNotFailedError)
    expect((await db().select().from(refunds))[0]!.state).toBe('pending')
  })
})

describe('a seat offered from the waitlist', () => {
  it('is confirmed when the parent pays through the offer, and they leave the waitlist registered', async () => {
    const [batch] = await db().select({ id: campBatches.id }).from(campBatches).innerJoin(camps, eq(camps.id, campBatches.campId)).where(and(eq(camps.code, 'camp1'), eq(campBatches.code, 'batch2')))
    await db().update(campBatches).set({ capacity: 1 }).where(eq(campBatches.id, batch!.id))
    const first = await heldAndStarted(applicant(), 'batch2')
    const waiting = applicant('Patient Swimmer')
    const { entryId } = await joinWaitlist({ campCode: 'camp1', batchCode: 'batch2', applicant: waiting, ip: '192.0.2.251' })
    await confirmWaitlistPlace(entryId)
    await sandbox.choose(first.redirectUrl, 'failure')
    await expect.poll(() => status(first.held.id)).toBe('payment_failed')
    expect(await offerFreedSeats()).toBe(1)
    const [entry] = await db().select().from(campWaitlist)
    const offered = await startPayment({ payable: { kind: 'camp', id: entry!.registrationId! }, description: 'Camp Registration - Patient Swimmer', statusUrl: (orderId) => `${sandbox.url}/payment-status?orderId=${orderId}` })
    await sandbox.choose(offered.redirectUrl, 'success')
    await expect.poll(() => status(entry!.registrationId!)).toBe('confirmed')
    expect((await db().select().from(campWaitlist))[0]!.status).toBe('registered')
    await expireStaleCampHolds(addHours(new Date(), 24))
    expect(await status(entry!.registrationId!)).toBe('confirmed')
  })
})

// Only PostgreSQL has more than one connection to wait on; PGlite runs one transaction at a time.
describe.skipIf(!process.env.DATABASE_URL)('lock order', () => {
  it('a late payment waits for its batch before it locks the registration, as a parent re-submitting does', async () => {
    const { held, orderId } = await heldAndStarted()
    await db().update(campRegistrations).set({ holdExpiresAt: addSeconds(new Date(), -1) }).where(eq(campRegistrations.id, held.id))
    const batchId = (await db().select({ batchId: campRegistrations.batchId }).from(campRegistrations).where(eq(campRegistrations.id, held.id)))[0]!.batchId

    let release = () => {}
    let parentRetrying: Promise<void> = Promise.resolve()
    await new Promise<void>((locked) => {
      parentRetrying = db().transaction(async (tx) => {
        await tx.select({ id: campBatches.id }).from(campBatches).where(eq(campBatches.id, batchId)).for('update')
        locked()
        await new Promise<void>((resolve) => (release = resolve))
      })
    })
    const applying = applyOrderStatus(orderId, { state: 'completed', amountPaise: 35_000_00, transactionId: 'T-LATE', paymentMode: 'UPI' })
    await expect.poll(async () => (await db().execute<{ waiting: number }>(sql`SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted`)).rows[0]!.waiting).toBeGreaterThan(0)

    // While the payment waits for the batch, the registration is still free for the parent's transaction.
    const registrationFree = await db()
      .transaction(async (tx) => {
        await tx.execute(sql`SELECT id FROM camp_registrations WHERE id = ${held.id} FOR UPDATE NOWAIT`)
        return true
      })
      .catch(() => false)
    release()
    await parentRetrying
    expect(await applying).toBe('applied')
    expect(registrationFree).toBe(true)
    expect(await status(held.id)).toBe('confirmed')
  })
})
