import { and, asc, eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, campBatches, campRegistrations, camps, campWaitlist, outboxMessages, refunds } from '~/db/schema'
import { addMinutes, addSeconds, labInstant } from '~/lib/lab-time'
import type { Actor } from '~/modules/audit/audit.server'
import { startPayment } from '~/modules/payments/payments.server'
import { processDueRefunds } from '~/modules/payments/refunds.server'
import { createStaff } from '../../../tests/support/booking'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { addBatch, updateBatch } from './batch-editing.server'
import { CampChangeRefusedError, createCamp, updateCamp } from './camp-editing.server'
import { campChoices, campSeatsTaken, waitingCounts } from './camps.server'
import { BatchFullError, holdCampSeat, insertRegistration } from './registrations.server'
import { cancelRegistration, moveRegistration } from './staff-registrations.server'
import { campRegistrationsForExport, staffCamp } from './staff-views.server'
import { onCampSeatFreed } from '~/modules/statuses/camp-seat-freed.server'
import { confirmWaitlistPlace, joinWaitlist, offerFreedSeats } from './waitlist.server'

const testDatabase = useTestDatabase()
const sandbox = useSandboxPayments()

let staff: Actor
let seatsFreed = 0
let stopListening: () => Promise<void>

// Camps far ahead (payments and holds run on the real clock): 8-16 and 18-26 August 2030.
beforeEach(async () => {
  await sandbox.ready()
  await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp1'))
  await db().update(camps).set({ startsOn: '2030-08-18', endsOn: '2030-08-26', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp2'))
  staff = await createStaff('Lab Staff')
  seatsFreed = 0
  stopListening = await onCampSeatFreed(await testDatabase.database(), () => (seatsFreed += 1))
})
afterEach(async () => {
  await stopListening()
})

const details = {
  name: 'Camp 3',
  startsOn: '2030-12-20',
  endsOn: '2030-12-28',
  venue: 'PDCSE, Bangalore',
  earlyBirdPricePaise: 30_000_00,
  regularPricePaise: 36_000_00,
  earlyBirdDeadline: '2030-11-30',
  isOpen: true,
  siblingDiscount: null,
}
const morning = { code: 'morning', name: 'Morning', timeRanges: [{ start: '07:00', end: '08:30' }], capacity: 20 }

async function batchOf(camp: string, batch: string) {
  const [row] = await db().select({ id: campBatches.id, campId: campBatches.campId }).from(campBatches).innerJoin(camps, eq(camps.id, campBatches.campId)).where(and(eq(camps.code, camp), eq(campBatches.code, batch)))
  return row!
}

async function setCapacity(capacity: number, camp = 'camp1', batch = 'batch1') {
  await db()
    .update(campBatches)
    .set({ capacity })
    .where(eq(campBatches.id, (await batchOf(camp, batch)).id))
}

let next = 1
const parent = (name = `Swimmer ${next}`) => ({ swimmerName: name, email: `family${next++}@example.com`, phone: '9845012345' })

/** A registration confirmed without a payment of ours (paid before the site took payments, say). */
async function confirmedRegistration(batch = 'batch1', who = parent(), camp = 'camp1') {
  const { id: batchId, campId } = await batchOf(camp, batch)
  const now = new Date()
  const row = await insertRegistration(db(), { campId, batchId, swimmerName: who.swimmerName, email: who.email, phone: who.phone, amountPaise: 35_000_00, status: 'confirmed', confirmedAt: now, createdAt: now, updatedAt: now })
  return { ...row, who }
}

/** A registration held and paid through the sandbox gateway, as a parent does it. */
async function paidRegistration(batch = 'batch1', who = parent()) {
  const held = await holdCampSeat({ campCode: 'camp1', batchCode: batch, applicant: who })
  const started = await startPayment({ payable: { kind: 'camp', id: held.id }, description: `Camp Registration - ${who.swimmerName}`, statusUrl: (orderId) => `${sandbox.url}/payment-status?orderId=${orderId}` })
  await sandbox.choose(started.redirectUrl, 'success')
  await expect.poll(() => registration(held.id).then((row) => row.status)).toBe('confirmed')
  return { ...held, who }
}

const registration = async (id: number) => (await db().select().from(campRegistrations).where(eq(campRegistrations.id, id)))[0]!
const auditEntries = () => db().select().from(auditLog).orderBy(asc(auditLog.id))
const mailsTo = (email: string) => db().select({ subject: outboxMessages.subject, text: outboxMessages.text, attachments: outboxMessages.attachments }).from(outboxMessages).where(eq(outboxMessages.to, email)).orderBy(asc(outboxMessages.id))
const seatsTaken = async (camp: string, batch: string) => {
  const { id } = await batchOf(camp, batch)
  return (await campSeatsTaken([id], new Date())).get(id) ?? 0
}

describe('creating a camp', () => {
  it('stores the camp with its batches, the early-bird deadline as the end of that day in Bangalore, and an audit entry', async () => {
    await createCamp(staff, { ...details, siblingDiscount: { kind: 'amount', value: 1_500_00 }, code: 'camp3', batches: [morning, { ...morning, code: 'evening', name: 'Evening', timeRanges: [{ start: '17:00', end: '18:30' }], capacity: 0 }] })
    const [camp] = await db().select().from(camps).where(eq(camps.code, 'camp3'))
    expect(camp).toMatchObject({ name: 'Camp 3', earlyBirdPricePaise: 30_000_00, regularPricePaise: 36_000_00, isOpen: true, sortOrder: 3, siblingDiscountKind: 'amount', siblingDiscountValue: 1_500_00 })
    expect(camp!.earlyBirdEndsAt.toISOString()).toBe('2030-11-30T18:29:59.000Z')
    const batches = await db().select().from(campBatches).where(eq(campBatches.campId, camp!.id)).orderBy(asc(campBatches.code))
    expect(batches.map((batch) => [batch.code, batch.capacity, batch.timeRanges])).toEqual([
      ['evening', 0, [{ start: '17:00', end: '18:30' }]],
      ['morning', 20, [{ start: '07:00', end: '08:30' }]],
    ])

    // The public form offers it at the early-bird price until 23:59 IST on the deadline day.
    const lastEarlyMinute = new Date('2030-11-30T18:29:00Z')
    const nextDay = new Date('2030-11-30T18:30:00Z')
    expect((await campChoices(lastEarlyMinute)).find((choice) => choice.code === 'camp3')).toMatchObject({ open: true, pricePaise: 30_000_00 })
    expect((await campChoices(nextDay)).find((choice) => choice.code === 'camp3')).toMatchObject({ pricePaise: 36_000_00 })

    const [entry, ...others] = await auditEntries()
    expect(others).toHaveLength(0)
    expect(entry).toMatchObject({ actorId: staff.id, actorEmail: 'staff@lab.example', action: 'camp.create', entityType: 'camp', entityId: 'camp3', summary: 'Created Camp 3 (camp3) with 2 batches', before: null })
    expect(entry!.after).toMatchObject({ code: 'camp3', regularPricePaise: 36_000_00, earlyBirdEndsAt: '2030-11-30T18:29:59.000Z', siblingDiscount: { kind: 'amount', value: 1_500_00 }, batches: [{ code: 'morning' }, { code: 'evening' }] })
  })

  it('refuses a code another camp has, changing nothing', async () => {
    const refused = createCamp(staff, { ...details, code: 'camp1', batches: [morning] })
    await expect(refused).rejects.toThrow(new CampChangeRefusedError('Another camp already uses the code camp1', 'code'))
    await expect(refused).rejects.toMatchObject({ field: 'code' })
    expect(await db().select({ name: camps.name }).from(camps).orderBy(asc(camps.id))).toEqual([{ name: 'Camp 1' }, { name: 'Camp 2' }])
    expect(await auditEntries()).toEqual([])
  })
})

describe('editing a camp', () => {
  const camp1 = { ...details, name: 'Camp 1', startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdPricePaise: 35_000_00, regularPricePaise: 40_000_00, earlyBirdDeadline: '2030-07-15' }

  it('changes the price and closes registration; the audit entry holds what changed, before and after', async () => {
    expect(await updateCamp(staff, 'camp1', { ...camp1, regularPricePaise: 42_500_50, isOpen: false })).toEqual({ changed: ['regularPricePaise', 'isOpen'] })
    const [camp] = await db().select().from(camps).where(eq(camps.code, 'camp1'))
    expect(camp).toMatchObject({ regularPricePaise: 42_500_50, isOpen: false })
    expect((await campChoices(new Date('2030-07-20T00:00:00Z'))).map((choice) => [choice.code, choice.open, choice.pricePaise])).toEqual([
      ['camp1', false, 42_500_50],
      ['camp2', true, 40_000_00],
    ])
    const [entry] = await auditEntries()
    expect(entry).toMatchObject({
      action: 'camp.update',
      entityId: 'camp1',
      summary: 'Changed Camp 1: regular price ₹40,000.00 → ₹42,500.50; registration open → closed',
      before: { regularPricePaise: 40_000_00, isOpen: true },
      after: { regularPricePaise: 42_500_50, isOpen: false },
    })
  })

  it('moves the early-bird deadline to the end of the new day in Bangalore', async () => {
    await updateCamp(staff, 'camp1', { ...camp1, earlyBirdDeadline: '2030-07-31' })
    const [camp] = await db().select({ earlyBirdEndsAt: camps.earlyBirdEndsAt }).from(camps).where(eq(camps.code, 'camp1'))
    expect(camp!.earlyBirdEndsAt.toISOString()).toBe('2030-07-31T18:29:59.000Z')
    expect((await auditEntries())[0]).toMatchObject({ before: { earlyBirdEndsAt: '2030-07-15T18:29:59.000Z' }, after: { earlyBirdEndsAt: '2030-07-31T18:29:59.000Z' } })
  })

  it('sets, changes and removes the sibling price, each change audited as one value', async () => {
    expect(await updateCamp(staff, 'camp1', { ...camp1, siblingDiscount: { kind: 'percent', value: 1000 } })).toEqual({ changed: ['siblingDiscount'] })
    expect((await db().select().from(camps).where(eq(camps.code, 'camp1')))[0]).toMatchObject({ siblingDiscountKind: 'percent', siblingDiscountValue: 1000 })
    expect(await updateCamp(staff, 'camp1', { ...camp1, siblingDiscount: { kind: 'percent', value: 1000 } })).toEqual({ changed: [] })
    await updateCamp(staff, 'camp1', { ...camp1, siblingDiscount: { kind: 'amount', value: 2_500_00 } })
    await updateCamp(staff, 'camp1', camp1)
    expect((await db().select().from(camps).where(eq(camps.code, 'camp1')))[0]).toMatchObject({ siblingDiscountKind: null, siblingDiscountValue: 0 })
    expect((await auditEntries()).map(({ summary, before, after }) => ({ summary, before, after }))).toEqual([
      { summary: 'Changed Camp 1: sibling price none → 10% off', before: { siblingDiscount: null }, after: { siblingDiscount: { kind: 'percent', value: 1000 } } },
      { summary: 'Changed Camp 1: sibling price 10% off → ₹2,500 off', before: { siblingDiscount: { kind: 'percent', value: 1000 } }, after: { siblingDiscount: { kind: 'amount', value: 2_500_00 } } },
      { summary: 'Changed Camp 1: sibling price ₹2,500 off → none', before: { siblingDiscount: { kind: 'amount', value: 2_500_00 } }, after: { siblingDiscount: null } },
    ])
  })

  it('records nothing when nothing changed', async () => {
    expect(await updateCamp(staff, 'camp1', camp1)).toEqual({ changed: [] })
    expect(await auditEntries()).toEqual([])
  })

  it('reopening offers the seats freed meanwhile to the waitlist', async () => {
    await updateCamp(staff, 'camp1', { ...camp1, isOpen: false })
    expect(seatsFreed).toBe(0)
    await updateCamp(staff, 'camp1', camp1)
    await expect.poll(() => seatsFreed).toBe(1)
  })
})

describe('batches', () => {
  it('adds a batch to a camp, but not one with a code the camp has', async () => {
    await addBatch(staff, 'camp1', morning)
    expect((await staffCamp('camp1'))!.batches.map((batch) => batch.code)).toEqual(['morning', 'batch1', 'batch2'])
    await expect(addBatch(staff, 'camp1', { ...morning, name: 'Another' })).rejects.toMatchObject({ message: 'Camp 1 already has a batch with the code morning', field: 'code' })
    // Another camp may use the same code.
    await addBatch(staff, 'camp2', morning)
    expect((await auditEntries()).map((entry) => [entry.action, entry.summary])).toEqual([
      ['camp_batch.create', 'Added Morning to Camp 1: 7:00 AM - 8:30 AM, 20 seats'],
      ['camp_batch.create', 'Added Morning to Camp 2: 7:00 AM - 8:30 AM, 20 seats'],
    ])
  })

  it('cannot have fewer seats than are taken now (held or confirmed), and says how many are taken', async () => {
    const { id: batchId } = await batchOf('camp1', 'batch1')
    await confirmedRegistration()
    await confirmedRegistration()
    await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: parent() })
    // A hold that ran out keeps no seat.
    const lapsed = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: parent() })
    await db().update(campRegistrations).set({ holdExpiresAt: addSeconds(new Date(), -1) }).where(eq(campRegistrations.id, lapsed.id))
    const batch = { code: 'batch1', name: 'Batch 1', timeRanges: [{ start: '09:00', end: '10:30' }], capacity: 2 }

    const refused = updateBatch(staff, { campCode: 'camp1', batchId, batch })
    await expect(refused).rejects.toThrow('3 seats are taken in Batch 1, so its capacity cannot be less than 3.')
    await expect(refused).rejects.toMatchObject({ field: 'capacity' })
    expect((await db().select({ capacity: campBatches.capacity }).from(campBatches).where(eq(campBatches.id, batchId)))[0]!.capacity).toBe(30)
    expect(await auditEntries()).toEqual([])

    expect(await updateBatch(staff, { campCode: 'camp1', batchId, batch: { ...batch, capacity: 3 } })).toEqual({ changed: ['timeRanges', 'capacity'] })
    const [entry] = await auditEntries()
    expect(entry).toMatchObject({
      action: 'camp_batch.update',
      entityType: 'camp_batch',
      entityId: String(batchId),
      summary: 'Changed Batch 1 of Camp 1: times 9:00 AM - 10:30 AM and 1:00 PM - 2:30 PM → 9:00 AM - 10:30 AM; capacity 30 seats → 3 seats',
      before: { capacity: 30 },
      after: { capacity: 3 },
    })
    expect(seatsFreed).toBe(0)
  })

  it('more seats go to the people waiting', async () => {
    const { id: batchId } = await batchOf('camp1', 'batch1')
    await setCapacity(1)
    await confirmedRegistration()
    const waiting = parent('Patient Swimmer')
    await confirmWaitlistPlace((await joinWaitlist({ campCode: 'camp1', batchCode: 'batch1', applicant: waiting, ip: '192.0.2.202' })).entryId)
    await updateBatch(staff, { campCode: 'camp1', batchId, batch: { code: 'batch1', name: 'Batch 1', timeRanges: [{ start: '09:00', end: '10:30' }], capacity: 2 } })
    await expect.poll(() => seatsFreed).toBe(1)
    expect(await offerFreedSeats()).toBe(1)
    expect((await db().select({ status: campWaitlist.status }).from(campWaitlist))[0]!.status).toBe('offered')
  })

  it('refuses a batch of another camp, and a code another batch of the camp has', async () => {
    const { id: otherCamps } = await batchOf('camp2', 'batch1')
    const { id: batch2 } = await batchOf('camp1', 'batch2')
    const batch = { code: 'batch1', name: 'Batch 1', timeRanges: [{ start: '09:00', end: '10:30' }], capacity: 30 }
    await expect(updateBatch(staff, { campCode: 'camp1', batchId: otherCamps, batch })).rejects.toThrow('This batch is not part of this camp.')
    await expect(updateBatch(staff, { campCode: 'camp1', batchId: batch2, batch })).rejects.toMatchObject({ message: 'This camp already has a batch with the code batch1', field: 'code' })
    expect(await auditEntries()).toEqual([])
  })
})

describe('moving a registration', () => {
  it('refuses a full batch, changing nothing', async () => {
    await setCapacity(1, 'camp1', 'batch2')
    await confirmedRegistration('batch2')
    const { id, reference } = await confirmedRegistration('batch1')
    const refused = moveRegistration(staff, { campCode: 'camp1', reference, toBatchCode: 'batch2' })
    await expect(refused).rejects.toThrow(new CampChangeRefusedError('Batch 2 of Camp 1 is full: 1 of 1 seats are taken.', 'toBatch'))
    expect((await registration(id)).batchId).toBe((await batchOf('camp1', 'batch1')).id)
    expect(await auditEntries()).toEqual([])
  })

  it('takes a free seat in the other batch, even with people waiting for it; counts follow; the parent is told and the move audited', async () => {
    await setCapacity(1, 'camp1', 'batch2')
    await confirmedRegistration('batch2')
    await confirmWaitlistPlace((await joinWaitlist({ campCode: 'camp1', batchCode: 'batch2', applicant: parent('Waiting Swimmer'), ip: '192.0.2.203' })).entryId)
    // A second seat, not offered yet.
    await setCapacity(2, 'camp1', 'batch2')
    const { id, reference, who } = await confirmedRegistration('batch1', parent('Moving Swimmer'))
    await confirmedRegistration('batch1')
    expect([await seatsTaken('camp1', 'batch1'), await seatsTaken('camp1', 'batch2')]).toEqual([2, 1])
    // A newcomer may not take that seat: it is promised to the waitlist.
    await expect(holdCampSeat({ campCode: 'camp1', batchCode: 'batch2', applicant: parent() })).rejects.toThrow(BatchFullError)

    expect(await moveRegistration(staff, { campCode: 'camp1', reference, toBatchCode: 'batch2' })).toEqual({ swimmerName: 'Moving Swimmer', from: 'Batch 1', to: 'Batch 2' })
    const { id: batch1 } = await batchOf('camp1', 'batch1')
    const { id: batch2 } = await batchOf('camp1', 'batch2')
    expect((await registration(id)).batchId).toBe(batch2)
    expect([await seatsTaken('camp1', 'batch1'), await seatsTaken('camp1', 'batch2')]).toEqual([1, 2])
    expect((await waitingCounts([batch2])).get(batch2)).toBe(1)

    const [entry] = await auditEntries()
    expect(entry).toMatchObject({
      actorEmail: 'staff@lab.example',
      action: 'camp_registration.move',
      entityType: 'camp_registration',
      entityId: reference,
      summary: `Moved ${reference} ({swimmer}) from Batch 1 to Batch 2 of Camp 1`,
      personal: { swimmer: 'Moving Swimmer' },
      campRegistrationId: id,
      before: { batchId: batch1, batch: 'Batch 1' },
      after: { batchId: batch2, batch: 'Batch 2' },
    })
    const [mail] = await mailsTo(who.email)
    expect(mail!.subject).toBe(`Camp batch changed: Moving Swimmer, Camp 1 (${reference})`)
    expect(mail!.text).toMatch(/Batch:\s+Batch 2: 10:30 AM - 12:00 PM and 2:30 PM - 4:00 PM, every day/)
    // The calendar file replaces the confirmation's events (same ids, higher sequence) with the new times.
    const ics = Buffer.from(mail!.attachments[0]!.contentBase64, 'base64').toString('utf8')
    expect(ics).toContain(`UID:camp-${reference}-session-1@swimlab`)
    expect(ics).toContain('SEQUENCE:1')
    expect(ics).toContain('DTSTART:20300808T050000Z')
    expect(ics).toContain('DTSTART:20300808T090000Z')
    // The seat left behind in Batch 1 goes to its waitlist, if anyone waits.
    await expect.poll(() => seatsFreed).toBe(1)

    await expect(moveRegistration(staff, { campCode: 'camp1', reference, toBatchCode: 'batch2' })).rejects.toThrow('Moving Swimmer is in this batch already.')
  })

  it(`moves at once never overfill a batch, and moves in opposite directions do not deadlock (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    await setCapacity(6, 'camp1', 'batch2')
    const inBatch1 = await Promise.all(Array.from({ length: 10 }, () => confirmedRegistration('batch1')))
    const inBatch2 = await Promise.all(Array.from({ length: 5 }, () => confirmedRegistration('batch2')))
    const moves = [...inBatch1.map((row) => ({ row, to: 'batch2' })), ...inBatch2.map((row) => ({ row, to: 'batch1' }))]
    const outcomes = await Promise.allSettled(moves.map(({ row, to }) => moveRegistration(staff, { campCode: 'camp1', reference: row.reference, toBatchCode: to })))
    const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String((outcome.reason as Error).message)] : []))
    // Whoever came too late was told the batch is full; nothing else went wrong (no deadlock).
    expect([...new Set(refusals)]).toEqual(['Batch 2 of Camp 1 is full: 6 of 6 seats are taken.'])
    expect(outcomes.slice(10).every((outcome) => outcome.status === 'fulfilled')).toBe(true)
    const joined = outcomes.slice(0, 10).filter((outcome) => outcome.status === 'fulfilled').length
    expect(joined).toBeLessThanOrEqual(6)
    expect(await seatsTaken('camp1', 'batch2')).toBe(joined)
    expect(await seatsTaken('camp1', 'batch1')).toBe(15 - joined)
    expect(await auditEntries()).toHaveLength(outcomes.length - refusals.length)
  })

  it('moves only confirmed registrations, and only within their camp', async () => {
    const held = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: parent() })
    await expect(moveRegistration(staff, { campCode: 'camp1', reference: held.reference, toBatchCode: 'batch2' })).rejects.toThrow('Only a confirmed registration can be moved.')
    const { reference } = await confirmedRegistration('batch1')
    await addBatch(staff, 'camp2', morning)
    await expect(moveRegistration(staff, { campCode: 'camp1', reference, toBatchCode: 'morning' })).rejects.toMatchObject({ message: 'Please choose a batch of this camp.', field: 'toBatch' })
    await expect(moveRegistration(staff, { campCode: 'camp2', reference, toBatchCode: 'batch2' })).rejects.toThrow(`This camp has no registration ${reference}.`)
  })
})

describe('cancelling a registration', () => {
  it('with a refund: the money goes back through the gateway, the registration ends Refunded, the parent is told twice', async () => {
    const { id, reference, who } = await paidRegistration('batch1', parent('Refunded Swimmer'))
    expect(await cancelRegistration(staff, { campCode: 'camp1', reference, refund: true })).toEqual({ swimmerName: 'Refunded Swimmer', refundPaise: 35_000_00 })
    expect((await registration(id)).status).toBe('cancelled')
    const [refund] = await db().select().from(refunds)
    expect(refund).toMatchObject({ amountPaise: 35_000_00, state: 'pending', reason: 'The camp registration was cancelled by staff.' })
    await expect
      .poll(
        async () => {
          await processDueRefunds(addMinutes(new Date(), 1))
          return (await registration(id)).status
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBe('refunded')
    expect((await db().select({ state: refunds.state }).from(refunds))[0]!.state).toBe('completed')

    const mails = await mailsTo(who.email)
    expect(mails.map((mail) => mail.subject)).toEqual([`Camp registration confirmed: Refunded Swimmer, Camp 1 (${reference})`, `Camp registration cancelled: Refunded Swimmer, Camp 1 (${reference})`, `Refund completed (${reference})`])
    expect(mails[1]!.text).toContain('Your payment of ₹35,000.00 is being refunded within 7 business days, to the original payment method.')
    expect((await auditEntries()).map((entry) => [entry.action, entry.summary, entry.personal, entry.before, entry.after])).toEqual([
      ['camp_registration.cancel', `Cancelled ${reference} ({swimmer}, Camp 1, Batch 1) with a refund of ₹35,000.00`, { swimmer: 'Refunded Swimmer' }, { status: 'confirmed' }, { status: 'cancelled', refundPaise: 35_000_00 }],
    ])
    // Its money is going back already: it cannot be cancelled (or refunded) again.
    await expect(cancelRegistration(staff, { campCode: 'camp1', reference, refund: true })).rejects.toThrow('Only a confirmed registration can be cancelled.')
    expect(await db().select().from(refunds)).toHaveLength(1)
  })

  it('without a refund: cancelled, no money moves, the parent is told so', async () => {
    const { id, reference, who } = await paidRegistration('batch2', parent('Kept Fee'))
    expect(await cancelRegistration(staff, { campCode: 'camp1', reference, refund: false })).toEqual({ swimmerName: 'Kept Fee', refundPaise: null })
    expect((await registration(id)).status).toBe('cancelled')
    expect(await db().select().from(refunds)).toEqual([])
    const cancelled = (await mailsTo(who.email)).find((mail) => mail.subject.startsWith('Camp registration cancelled'))
    expect(cancelled!.text).toContain('No refund applies to this registration.')
    expect((await auditEntries())[0]).toMatchObject({ summary: `Cancelled ${reference} ({swimmer}, Camp 1, Batch 2) without a refund`, personal: { swimmer: 'Kept Fee' }, after: { status: 'cancelled', refundPaise: null } })
  })

  it('refuses a refund when there is no payment to refund', async () => {
    const { id, reference } = await confirmedRegistration()
    await expect(cancelRegistration(staff, { campCode: 'camp1', reference, refund: true })).rejects.toMatchObject({ message: 'This registration has no payment to refund. Cancel it without a refund.', field: 'refund' })
    expect((await registration(id)).status).toBe('confirmed')
    expect(await auditEntries()).toEqual([])
  })

  it('frees the seat for the first on the waitlist', async () => {
    await setCapacity(1)
    const { reference } = await confirmedRegistration()
    const waiting = parent('Next In Line')
    await confirmWaitlistPlace((await joinWaitlist({ campCode: 'camp1', batchCode: 'batch1', applicant: waiting, ip: '192.0.2.206' })).entryId)
    expect(await offerFreedSeats()).toBe(0)
    // As the worker does: whoever hears of the freed seat offers it at once. The announcement comes
    // when the cancellation has committed, so the seat is free by then and offered on the spot.
    const offeredWhenHeard: number[] = []
    const unlisten = await onCampSeatFreed(await testDatabase.database(), () => void offerFreedSeats().then((offered) => offeredWhenHeard.push(offered)))
    await cancelRegistration(staff, { campCode: 'camp1', reference, refund: false })
    await expect.poll(() => offeredWhenHeard).toEqual([1])
    await unlisten()
    const [entry] = await db().select({ status: campWaitlist.status, registrationId: campWaitlist.registrationId }).from(campWaitlist)
    expect(entry!.status).toBe('offered')
    expect(await registration(entry!.registrationId!)).toMatchObject({ swimmerName: 'Next In Line', status: 'pending' })
    expect((await mailsTo(waiting.email)).map((mail) => mail.subject)).toContain('A seat is free: Camp 1, Batch 1')
  })
})

describe('what staff see', () => {
  it('per batch: registrations holding a seat or called off after payment, and the waitlist in the order of confirmation, unconfirmed places last; the export has the same rows', async () => {
    const confirmed = await confirmedRegistration('batch1', parent('Confirmed Swimmer'))
    const held = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: parent('Paying Now') })
    const lapsed = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: parent('Never Paid') })
    await db().update(campRegistrations).set({ status: 'expired', holdExpiresAt: null }).where(eq(campRegistrations.id, lapsed.id))
    const cancelled = await confirmedRegistration('batch1', parent('Called Off'))
    await cancelRegistration(staff, { campCode: 'camp1', reference: cancelled.reference, refund: false })
    await setCapacity(2)
    const join = async (name: string) => (await joinWaitlist({ campCode: 'camp1', batchCode: 'batch1', applicant: parent(name), ip: '192.0.2.209' })).entryId
    const [first, second] = [await join('Joined First'), await join('Joined Second'), await join('Not Confirmed')]
    await confirmWaitlistPlace(second!)
    await confirmWaitlistPlace(first!)

    const camp = (await staffCamp('camp1'))!
    const [batch1, batch2] = camp.batches
    expect(batch1).toMatchObject({ code: 'batch1', taken: 2, waiting: 2, capacity: 2 })
    expect(batch1!.registrations.map((row) => [row.reference, row.swimmerName, row.status, row.refundable])).toEqual([
      [confirmed.reference, 'Confirmed Swimmer', 'confirmed', false],
      [held.reference, 'Paying Now', 'pending', false],
      [cancelled.reference, 'Called Off', 'cancelled', false],
    ])
    expect(batch1!.waitlist.map((entry) => [entry.swimmerName, entry.confirmedAt !== null])).toEqual([
      ['Joined Second', true],
      ['Joined First', true],
      ['Not Confirmed', false],
    ])
    expect(batch2).toMatchObject({ taken: 0, registrations: [], waitlist: [] })
    expect((await campRegistrationsForExport('camp1'))!.map((row) => row.swimmerName)).toEqual(['Confirmed Swimmer', 'Paying Now', 'Called Off'])
    expect(await staffCamp('camp9')).toBeNull()
    expect(await campRegistrationsForExport('camp9')).toBeNull()
  })

  it('a paid registration can be refunded, and its export row carries the order id of the payment', async () => {
    const { reference } = await paidRegistration('batch2')
    const [row] = (await staffCamp('camp1'))!.batches[1]!.registrations
    expect(row).toMatchObject({ reference, refundable: true, latestRefund: null })
    const [exported] = (await campRegistrationsForExport('camp1'))!
    expect(exported!.orderId).toMatch(/^CAMP_/)
    await cancelRegistration(staff, { campCode: 'camp1', reference, refund: true })
    const [after] = (await staffCamp('camp1'))!.batches[1]!.registrations
    expect(after).toMatchObject({ status: 'cancelled', refundable: false, latestRefund: 'pending' })
  })
})
