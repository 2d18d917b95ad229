import { and, asc, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { campBatches, campRegistrations, camps, payments, refunds, swimmers } from '~/db/schema'
import { addMinutes, labInstant } from '~/lib/lab-time'
import { startPayment } from '~/modules/payments/payments.server'
import { processDueRefunds } from '~/modules/payments/refunds.server'
import { receiptOf } from '~/modules/receipts/receipts.server'
import { recordConsent } from '~/modules/swimmers/consent.server'
import { createCustomers, createStaff, mailTo } from '../../../tests/support/booking'
import { visitor } from '../../../tests/support/holders'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { holdFamilySeats } from './groups.server'
import { cancelRegistration } from './staff-registrations.server'
import { campPaymentView } from './status.server'

useTestDatabase()
const sandbox = useSandboxPayments()

// Camps far ahead (payments run on the real clock): 8-16 and 18-26 August 2030.
beforeEach(async () => {
  await sandbox.ready()
  await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp1'))
})

let families = 0

/** A parent's account (the parent swims too) with a child of 10 whose parent consented, and one of 8 without consent. */
async function family() {
  families += 1
  const [parent] = await createCustomers(1, `parent${families}-`)
  const child = async (name: string, age: number) => {
    const [row] = await db()
      .insert(swimmers)
      .values({ accountId: parent!.userId!, name, ageYears: age, ageGivenOn: '2026-01-01', gender: 'female', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' })
      .returning()
    return row!
  }
  const consented = await child(`Asha ${families}`, 10)
  await recordConsent(db(), { swimmerId: consented.id, guardianName: parent!.name, guardianEmail: parent!.email, emailVerifiedBy: 'account_code', method: 'registration_form', now: new Date() })
  const unconsented = await child(`Ravi ${families}`, 8)
  return { parent: parent!, holderSwimmer: { id: parent!.swimmerId!, name: parent!.swimmerName }, consented, unconsented }
}

async function hold(parent: Awaited<ReturnType<typeof family>>['parent'], swimmerIds: number[], batchCode = 'batch1') {
  return holdFamilySeats({
    accountId: parent.userId!,
    swimmerIds,
    campCode: 'camp1',
    batchCode,
    contact: { email: parent.email, phone: '9845012345' },
    holder: visitor({ userId: parent.userId, email: parent.email }),
  })
}

async function heldAndStarted() {
  const home = await family()
  const held = await hold(home.parent, [home.holderSwimmer.id, home.consented.id])
  const started = await startPayment({ payable: { kind: 'camp', id: held.leadId }, description: 'Camp Registration', statusUrl: (orderId) => `${sandbox.url}/payment-status?orderId=${orderId}` })
  return { ...home, held, ...started }
}

const rowsOf = (ids: number[]) => Promise.all(ids.map(async (id) => (await db().select().from(campRegistrations).where(eq(campRegistrations.id, id)))[0]!))
const statuses = async (ids: number[]) => (await rowsOf(ids)).map((row) => row.status)

describe('registering an account’s swimmers together', () => {
  it('holds a seat for each, with the account and swimmer recorded, and one payment of the summed fee confirms both and names both', async () => {
    const { parent, holderSwimmer, consented, held, orderId, redirectUrl } = await heldAndStarted()
    const ids = held.registrations.map((registration) => registration.id)
    expect(ids).toHaveLength(2)
    expect(await rowsOf(ids)).toMatchObject([
      { status: 'pending', accountId: parent.userId, swimmerId: holderSwimmer.id, swimmerName: holderSwimmer.name, groupId: held.leadId, amountPaise: 35_000_00 },
      { status: 'pending', accountId: parent.userId, swimmerId: consented.id, swimmerName: consented.name, groupId: held.leadId, amountPaise: 35_000_00 },
    ])
    const orders = await db().select().from(payments)
    expect(orders).toHaveLength(1)
    expect(orders[0]).toMatchObject({ orderId, amountPaise: 70_000_00, campRegistrationId: held.leadId })

    await sandbox.choose(redirectUrl, 'success')
    await expect.poll(() => statuses(ids)).toEqual(['confirmed', 'confirmed'])

    const mails = await mailTo(parent.email)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.subject).toContain(`${holderSwimmer.name} and ${consented.name}`)
    expect(mails[0]!.text).toContain(held.registrations[0]!.reference)
    expect(mails[0]!.text).toContain(held.registrations[1]!.reference)
    expect(mails[0]!.text).toContain('₹70,000 payment completed successfully')
    expect(mails[0]!.attachments).toHaveLength(2)

    const view = await campPaymentView(orderId)
    expect(view!.group.map((member) => member.swimmerName)).toEqual([holderSwimmer.name, consented.name])
    const receipt = await receiptOf(orderId)
    expect(receipt!.document.lines.map((line) => [line.detail[0], line.amountPaise])).toEqual([
      [`Swimmer: ${holderSwimmer.name}`, 35_000_00],
      [`Swimmer: ${consented.name}`, 35_000_00],
    ])
  })

  it('one failed payment releases both seats', async () => {
    const { held, redirectUrl } = await heldAndStarted()
    await sandbox.choose(redirectUrl, 'failure')
    await expect.poll(() => statuses(held.registrations.map((registration) => registration.id))).toEqual(['payment_failed', 'payment_failed'])
  })

  it('staff cancelling one of them with a refund gives back only that swimmer’s fee; the other stays registered', async () => {
    const { held, redirectUrl, orderId } = await heldAndStarted()
    const [first, second] = held.registrations
    await sandbox.choose(redirectUrl, 'success')
    await expect.poll(() => statuses([first!.id, second!.id])).toEqual(['confirmed', 'confirmed'])
    const staff = await createStaff()

    expect(await cancelRegistration({ id: staff.id, email: staff.email }, { campCode: 'camp1', reference: second!.reference, refund: true })).toMatchObject({ refundPaise: 35_000_00 })
    expect(await db().select({ amountPaise: refunds.amountPaise, campRegistrationId: refunds.campRegistrationId }).from(refunds)).toEqual([{ amountPaise: 35_000_00, campRegistrationId: second!.id }])
    await expect
      .poll(
        async () => {
          await processDueRefunds(addMinutes(new Date(), 1))
          return statuses([first!.id, second!.id])
        },
        { timeout: 10_000, interval: 500 },
      )
      .toEqual(['confirmed', 'refunded'])
    expect((await receiptOf(orderId))!.document.status).toBe('paid')

    // The first swimmer can be refunded too, its own fee, once.
    expect(await cancelRegistration({ id: staff.id, email: staff.email }, { campCode: 'camp1', reference: first!.reference, refund: true })).toMatchObject({ refundPaise: 35_000_00 })
    const all = await db().select({ amountPaise: refunds.amountPaise, campRegistrationId: refunds.campRegistrationId }).from(refunds).orderBy(asc(refunds.id))
    expect(all).toEqual([
      { amountPaise: 35_000_00, campRegistrationId: second!.id },
      { amountPaise: 35_000_00, campRegistrationId: first!.id },
    ])
  })

  it('a minor without a parent’s consent in force is refused by name, and nothing is held', async () => {
    const { parent, holderSwimmer, unconsented } = await family()
    await expect(hold(parent, [holderSwimmer.id, unconsented.id])).rejects.toThrow(`${unconsented.name} is under 18 and cannot be registered without a parent's or guardian's consent`)
    expect(await db().select().from(campRegistrations)).toHaveLength(0)
  })

  it('another account’s swimmer is refused as not found, and nothing is held', async () => {
    const mine = await family()
    const theirs = await family()
    await expect(hold(mine.parent, [mine.holderSwimmer.id, theirs.consented.id])).rejects.toMatchObject({ kind: 'not_found' })
    expect(await db().select().from(campRegistrations)).toHaveLength(0)
  })

  it('fewer seats left than swimmers chosen: refused, saying so, and nothing is held', async () => {
    const { parent, holderSwimmer, consented } = await family()
    const [batch] = await db().select({ id: campBatches.id }).from(campBatches).innerJoin(camps, eq(camps.id, campBatches.campId)).where(and(eq(camps.code, 'camp1'), eq(campBatches.code, 'batch1')))
    await db().update(campBatches).set({ capacity: 1 }).where(eq(campBatches.id, batch!.id))
    await expect(hold(parent, [holderSwimmer.id, consented.id])).rejects.toThrow('Batch 1 of Camp 1 has only 1 seat left, not enough for the 2 swimmers you chose. No seat has been held.')
    expect(await db().select().from(campRegistrations)).toHaveLength(0)
  })
})
