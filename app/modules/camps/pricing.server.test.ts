import { and, asc, eq, inArray } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { campBatches, campRegistrations, camps, outboxMessages, payments, swimmers } from '~/db/schema'
import { labInstant } from '~/lib/lab-time'
import { startPayment } from '~/modules/payments/payments.server'
import { recordConsent } from '~/modules/swimmers/consent.server'
import { createCustomers, mailTo } from '../../../tests/support/booking'
import { visitor } from '../../../tests/support/holders'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { holdFamilySeats } from './groups.server'
import { holdCampSeat } from './registrations.server'
import { campPayable } from './fulfilment.server'
import { confirmWaitlistPlace, joinWaitlist, offerFreedSeats } from './waitlist.server'

useTestDatabase()
const sandbox = useSandboxPayments()

// Camps of August 2030: the early-bird price (₹35,000) until the end of 15 July 2030 in Bangalore, ₹40,000 after.
const YEAR = 2030
const JUNE = new Date(`${YEAR}-06-01T06:00:00Z`)
const LATE_JULY = new Date(`${YEAR}-07-20T06:00:00Z`)

beforeEach(async () => {
  await db().update(camps).set({ startsOn: `${YEAR}-08-08`, endsOn: `${YEAR}-08-16`, earlyBirdEndsAt: labInstant(`${YEAR}-07-15`, '23:59:59') }).where(eq(camps.code, 'camp1'))
  await db().update(camps).set({ startsOn: `${YEAR}-08-18`, endsOn: `${YEAR}-08-26`, earlyBirdEndsAt: labInstant(`${YEAR}-07-15`, '23:59:59') }).where(eq(camps.code, 'camp2'))
})

const TEN_PERCENT = { siblingDiscountKind: 'percent', siblingDiscountValue: 1000 } as const
const TWO_THOUSAND_RUPEES = { siblingDiscountKind: 'amount', siblingDiscountValue: 2_000_00 } as const

async function siblingPrice(price: typeof TEN_PERCENT | typeof TWO_THOUSAND_RUPEES, code = 'camp1') {
  await db().update(camps).set(price).where(eq(camps.code, code))
}

let families = 0

/** An account whose holder swims, with two children of 10 and 8 whose parent consented: three swimmers, in the order the account lists them. */
async function family() {
  families += 1
  const [parent] = await createCustomers(1, `sibling-parent${families}-`)
  const children = []
  for (const [name, age] of [
    [`Asha ${families}`, 10],
    [`Ravi ${families}`, 8],
  ] as const) {
    const [child] = await db()
      .insert(swimmers)
      .values({ accountId: parent!.userId!, name, ageYears: age, ageGivenOn: '2026-01-01', gender: 'female', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' })
      .returning()
    await recordConsent(db(), { swimmerId: child!.id, guardianName: parent!.name, guardianEmail: parent!.email, emailVerifiedBy: 'account_code', method: 'registration_form', now: new Date() })
    children.push(child!)
  }
  return { parent: parent!, swimmerIds: [parent!.swimmerId!, ...children.map((child) => child.id)] }
}

type Family = Awaited<ReturnType<typeof family>>

function holdTogether(home: Family, swimmerIds: number[], { now = JUNE, camp = 'camp1', batch = 'batch1' } = {}) {
  return holdFamilySeats({
    accountId: home.parent.userId!,
    swimmerIds,
    campCode: camp,
    batchCode: batch,
    contact: { email: home.parent.email, phone: '9845012345' },
    holder: visitor({ userId: home.parent.userId, email: home.parent.email }),
    now,
  })
}

let guests = 0
function holdAsGuest(applicant: { swimmerName: string; email: string; phone: string }, { now = JUNE, batch = 'batch1' } = {}) {
  guests += 1
  return holdCampSeat({ campCode: 'camp1', batchCode: batch, applicant: { ...applicant, guardianDeclaration: true }, holder: visitor({ network: `198.51.100.${guests}`, email: applicant.email }), now })
}

/** The registrations' prices, in the order of their ids. */
async function pricesOf(ids: number[]) {
  const rows = await db()
    .select({ amountPaise: campRegistrations.amountPaise, siblingDiscountPaise: campRegistrations.siblingDiscountPaise, promoDiscountPaise: campRegistrations.promoDiscountPaise })
    .from(campRegistrations)
    .where(inArray(campRegistrations.id, ids))
    .orderBy(asc(campRegistrations.id))
  return rows
}

const price = (amountPaise: number, siblingDiscountPaise = 0) => ({ amountPaise, siblingDiscountPaise, promoDiscountPaise: 0 })

/** Marks registrations paid, as a completed payment leaves them. */
async function markPaid(ids: number[]) {
  await db().update(campRegistrations).set({ status: 'confirmed', confirmedAt: JUNE, holdExpiresAt: null }).where(inArray(campRegistrations.id, ids))
}

const idsOf = (held: { registrations: Array<{ id: number }> }) => held.registrations.map((registration) => registration.id)

describe('swimmers of an account registered together', () => {
  it('with a sibling price of 10%: the first pays the fee, the second 10% less; the payment is the sum', async () => {
    await siblingPrice(TEN_PERCENT)
    const home = await family()
    const held = await holdTogether(home, home.swimmerIds.slice(0, 2))
    expect(await pricesOf(idsOf(held))).toEqual([price(35_000_00), price(31_500_00, 3_500_00)])
    expect(held.amountPaise).toBe(66_500_00)

    // What the gateway is asked for is the sum of the registrations' amounts.
    await sandbox.ready()
    const started = await startPayment({ payable: { kind: 'camp', id: held.leadId }, description: 'Camp Registration', statusUrl: (orderId) => `${sandbox.url}/payment-status?orderId=${orderId}` })
    const [payment] = await db().select().from(payments).where(eq(payments.orderId, started.orderId))
    expect(payment!.amountPaise).toBe(66_500_00)
    const terms = await db().transaction((tx) => campPayable.termsForPayment(tx, held.leadId, new Date()))
    expect(terms?.amountPaise).toBe(66_500_00)

    // Paid: the confirmation lists what each swimmer was charged, and the sibling price taken off.
    await sandbox.choose(started.redirectUrl, 'success')
    await expect.poll(async () => (await db().select({ status: campRegistrations.status }).from(campRegistrations).where(inArray(campRegistrations.id, idsOf(held)))).map((row) => row.status)).toEqual(['confirmed', 'confirmed'])
    const [mail] = await mailTo(home.parent.email)
    expect(mail!.text).toContain('₹66,500 payment completed successfully')
    expect(mail!.text).toMatch(/Asha \d+ \(Registration ID CMP-\d{10}\)/)
    // The e-mail's lines add up to what was paid: each fee, the sibling price, the total.
    expect(mail!.text).toMatch(/Camp fee for Asha \d+\W+₹35,000\.00[^]*Sibling price for Asha \d+\W+−₹3,500\.00[^]*Amount paid\W+₹66,500\.00/)
  })

  it('with a sibling price of ₹2,000: three swimmers pay the fee, then ₹2,000 less each', async () => {
    await siblingPrice(TWO_THOUSAND_RUPEES)
    const home = await family()
    const held = await holdTogether(home, home.swimmerIds)
    expect(await pricesOf(idsOf(held))).toEqual([price(35_000_00), price(33_000_00, 2_000_00), price(33_000_00, 2_000_00)])
    expect(held.amountPaise).toBe(101_000_00)
  })

  it('three swimmers with 10% off: the first at the fee, both others at the sibling price', async () => {
    await siblingPrice(TEN_PERCENT)
    const home = await family()
    const held = await holdTogether(home, home.swimmerIds)
    expect(await pricesOf(idsOf(held))).toEqual([price(35_000_00), price(31_500_00, 3_500_00), price(31_500_00, 3_500_00)])
    expect(held.amountPaise).toBe(98_000_00)
  })

  it('takes the sibling price off the regular fee once the early-bird price has ended', async () => {
    await siblingPrice(TEN_PERCENT)
    const home = await family()
    const held = await holdTogether(home, home.swimmerIds.slice(0, 2), { now: LATE_JULY })
    expect(await pricesOf(idsOf(held))).toEqual([price(40_000_00), price(36_000_00, 4_000_00)])
  })

  it('without a sibling price, every swimmer pays the fee', async () => {
    const home = await family()
    const held = await holdTogether(home, home.swimmerIds)
    expect(await pricesOf(idsOf(held))).toEqual([price(35_000_00), price(35_000_00), price(35_000_00)])
    expect(held.amountPaise).toBe(105_000_00)
  })
})

describe('a swimmer registered later', () => {
  it("of an account with a swimmer paid for in the camp (another batch): every swimmer now pays the sibling price", async () => {
    await siblingPrice(TWO_THOUSAND_RUPEES)
    const home = await family()
    const first = await holdTogether(home, home.swimmerIds.slice(0, 1), { batch: 'batch2' })
    expect(await pricesOf(idsOf(first))).toEqual([price(35_000_00)])
    await markPaid(idsOf(first))
    const alone = await holdTogether(home, home.swimmerIds.slice(1, 2))
    expect(await pricesOf(idsOf(alone))).toEqual([price(33_000_00, 2_000_00)])
    await db().update(campRegistrations).set({ status: 'expired' }).where(inArray(campRegistrations.id, idsOf(alone)))
    const together = await holdTogether(home, home.swimmerIds.slice(1))
    expect(await pricesOf(idsOf(together))).toEqual([price(33_000_00, 2_000_00), price(33_000_00, 2_000_00)])
  })

  it('of an account whose earlier swimmer only holds an unpaid seat (or let it lapse): pays the fee', async () => {
    await siblingPrice(TEN_PERCENT)
    const home = await family()
    const unpaid = await holdTogether(home, home.swimmerIds.slice(0, 1))
    const later = await holdTogether(home, home.swimmerIds.slice(1, 2))
    expect(await pricesOf(idsOf(later))).toEqual([price(35_000_00)])
    await db().update(campRegistrations).set({ status: 'expired' }).where(inArray(campRegistrations.id, [...idsOf(unpaid), ...idsOf(later)]))
    const afterLapse = await holdTogether(home, home.swimmerIds.slice(2))
    expect(await pricesOf(idsOf(afterLapse))).toEqual([price(35_000_00)])
  })

  it("of another account, or a swimmer paid for in another camp, does not count", async () => {
    await siblingPrice(TEN_PERCENT)
    await siblingPrice(TEN_PERCENT, 'camp2')
    const home = await family()
    const other = await family()
    await markPaid(idsOf(await holdTogether(other, other.swimmerIds.slice(0, 1))))
    await markPaid(idsOf(await holdTogether(home, home.swimmerIds.slice(0, 1), { camp: 'camp2' })))
    const held = await holdTogether(home, home.swimmerIds.slice(1, 2))
    expect(await pricesOf(idsOf(held))).toEqual([price(35_000_00)])
  })

  it('as a guest with the e-mail address (in any letter case) and phone of an earlier paid registration: pays the sibling price', async () => {
    await siblingPrice(TEN_PERCENT)
    const lapsed = await holdAsGuest({ swimmerName: 'Nila Rao', email: 'rao.family@example.com', phone: '98450 11111' })
    await db().update(campRegistrations).set({ status: 'expired' }).where(eq(campRegistrations.id, lapsed.id))
    // A hold that lapsed unpaid does not count.
    const early = await holdAsGuest({ swimmerName: 'Dev Rao', email: 'rao.family@example.com', phone: '98450 11111' })
    expect(early).toMatchObject({ amountPaise: 35_000_00, siblingDiscountPaise: 0 })
    expect(await pricesOf([early.id])).toEqual([price(35_000_00)])
    await db().update(campRegistrations).set({ status: 'expired' }).where(eq(campRegistrations.id, early.id))
    const first = await holdAsGuest({ swimmerName: 'Nila Rao', email: 'rao.family@example.com', phone: '98450 11111' })
    expect(await pricesOf([first.id])).toEqual([price(35_000_00)])
    await markPaid([first.id])
    const second = await holdAsGuest({ swimmerName: 'Dev Rao', email: 'Rao.Family@Example.com', phone: '98450 11111' })
    expect(second).toMatchObject({ amountPaise: 31_500_00, siblingDiscountPaise: 3_500_00 })
    expect(await pricesOf([second.id])).toEqual([price(31_500_00, 3_500_00)])
  })

  it('as a guest with the same e-mail address but another phone: pays the fee', async () => {
    await siblingPrice(TEN_PERCENT)
    const first = await holdAsGuest({ swimmerName: 'Nila Menon', email: 'menon.family@example.com', phone: '98450 22222' })
    await markPaid([first.id])
    const second = await holdAsGuest({ swimmerName: 'Dev Menon', email: 'menon.family@example.com', phone: '98450 33333' })
    expect(await pricesOf([second.id])).toEqual([price(35_000_00)])
  })

  it('offered a seat from the waitlist: priced by the same rule when the seat is offered, and the e-mail says what to pay', async () => {
    await siblingPrice(TWO_THOUSAND_RUPEES)
    const family = { email: 'waiting.family@example.com', phone: '98450 44444' }
    await markPaid([(await holdAsGuest({ swimmerName: 'Nila Shah', ...family }, { batch: 'batch2' })).id])
    const [batch] = await db().select({ id: campBatches.id }).from(campBatches).innerJoin(camps, eq(camps.id, campBatches.campId)).where(and(eq(camps.code, 'camp1'), eq(campBatches.code, 'batch1')))
    await db().update(campBatches).set({ capacity: 1 }).where(eq(campBatches.id, batch!.id))
    const taken = await holdAsGuest({ swimmerName: 'Somebody Else', email: 'else@example.com', phone: '98450 55555' })
    const place = await joinWaitlist({ campCode: 'camp1', batchCode: 'batch1', applicant: { swimmerName: 'Dev Shah', ...family }, ip: '198.51.100.200', now: JUNE })
    await confirmWaitlistPlace(place.entryId, JUNE)
    await db().update(campRegistrations).set({ status: 'expired' }).where(eq(campRegistrations.id, taken.id))
    expect(await offerFreedSeats(JUNE)).toBe(1)
    const [offered] = await db().select().from(campRegistrations).where(and(eq(campRegistrations.batchId, batch!.id), eq(campRegistrations.status, 'pending')))
    expect(offered).toMatchObject({ swimmerName: 'Dev Shah', amountPaise: 33_000_00, siblingDiscountPaise: 2_000_00 })
    const [mail] = await db().select().from(outboxMessages).where(and(eq(outboxMessages.to, family.email), eq(outboxMessages.subject, 'A seat is free: Camp 1, Batch 1')))
    expect(mail!.text).toContain('Pay ₹33,000.00 (the sibling price) by')
  })
})
