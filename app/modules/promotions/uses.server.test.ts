import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookings, campBatches, campRegistrations, camps, promoCodes, promoCodeUses, users, type PromoProduct } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addMinutes, labInstant } from '~/lib/lab-time'
import { useTestDatabase } from '../../../tests/support/test-database'
import { applyPromoCode, markPromoUsed, promoCustomerKey, promoOfOrder, releaseLapsedPromoUses, releasePromoUse, type PromoOrder } from './uses.server'

const { database } = useTestDatabase()

const NOW = labInstant('2026-12-10', '11:00')
const PARENT = 'account:1'

async function promoCode(values: Partial<typeof promoCodes.$inferInsert> = {}) {
  const [row] = await db()
    .insert(promoCodes)
    .values({ code: 'DIWALI25', discountKind: 'percent', discountValue: 10_00, ...values })
    .returning({ id: promoCodes.id })
  return row!.id
}

let references = 0

/** An account straight in the database (a placeholder hash: it never signs in here). */
async function accountOf(email: string, { verified }: { verified: boolean }) {
  const [row] = await db().insert(users).values({ name: 'Asha Rao', email, passwordHash: 'x', isVerified: verified }).returning({ id: users.id })
  return row!.id
}

/** Bookings waiting for payment, one per order (no seats: the promo code does not look at them). */
async function pendingBookings(count: number): Promise<Array<{ bookingId: number }>> {
  const rows = await db()
    .insert(bookings)
    .values(
      Array.from({ length: count }, () => {
        references += 1
        return { reference: `SWP-${String(7_000_000_000 + references)}`, productCode: 'biomechanical_package', swimmerName: 'Asha', customerName: 'Asha', customerEmail: 'asha@example.com', startTime: '09:00', endTime: '10:00', amountPaise: 30_000_00, status: 'pending' as const, holdExpiresAt: addMinutes(NOW, 20) }
      }),
    )
    .returning({ id: bookings.id })
  return rows.map((row) => ({ bookingId: row.id }))
}

async function pendingBooking() {
  return (await pendingBookings(1))[0]!
}

type Apply = { code?: string; product?: PromoProduct; customerKey?: string; order: PromoOrder; pricesPaise?: number[]; now?: Date }

const apply = ({ code = 'DIWALI25', product = 'three_day', customerKey = PARENT, order, pricesPaise = [30_000_00], now = NOW }: Apply) =>
  db().transaction((tx) => applyPromoCode(tx, { code, product, customerKey, order, pricesPaise, now }))

/** The refusal `attempt` ends in: its kind, field and message. */
async function refusalOf(attempt: Promise<unknown>) {
  const error = await attempt.then(
    () => null,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(DomainError)
  const { kind, field, message } = error as DomainError
  return { kind, field, message }
}

const refusal = (message: string) => ({ kind: 'invalid', field: 'promoCode', message })

const usesOf = (promoCodeId: number) =>
  db()
    .select({ bookingId: promoCodeUses.bookingId, campRegistrationId: promoCodeUses.campRegistrationId, customerKey: promoCodeUses.customerKey, discountPaise: promoCodeUses.discountPaise, state: promoCodeUses.state })
    .from(promoCodeUses)
    .where(eq(promoCodeUses.promoCodeId, promoCodeId))
    .orderBy(promoCodeUses.id)

describe('whose use it is', () => {
  it('is the account of a signed-in customer, or the e-mail address in lower case for a guest', () => {
    expect(promoCustomerKey({ accountId: 42, email: 'Asha@Example.com' })).toBe('account:42')
    expect(promoCustomerKey({ accountId: null, email: ' Asha.Rao@Example.COM ' })).toBe('email:asha.rao@example.com')
  })

  it('counts an account and a guest under its verified address as one customer, whichever came first', async () => {
    const account = await accountOf('asha@example.com', { verified: true })
    await promoCode({ maxUsesPerCustomer: 1 })
    await promoCode({ code: 'ONCE', maxUsesPerCustomer: 1 })
    const [asGuest, asAccount, accountFirst, thenGuest] = await pendingBookings(4)
    await apply({ order: asGuest!, customerKey: promoCustomerKey({ accountId: null, email: 'Asha@Example.com' }) })
    expect(await refusalOf(apply({ order: asAccount!, customerKey: promoCustomerKey({ accountId: account, email: 'asha@example.com' }) }))).toEqual(
      refusal('You have already used this promo code once, as often as one person may use it.'),
    )
    await apply({ order: accountFirst!, code: 'ONCE', customerKey: promoCustomerKey({ accountId: account, email: 'asha@example.com' }) })
    expect(await refusalOf(apply({ order: thenGuest!, code: 'ONCE', customerKey: promoCustomerKey({ accountId: null, email: 'asha@example.com' }) }))).toEqual(
      refusal('You have already used this promo code once, as often as one person may use it.'),
    )
  })

  it('does not count an address the account has not verified as the account’s: someone else may have typed it', async () => {
    const account = await accountOf('asha@example.com', { verified: false })
    await promoCode({ maxUsesPerCustomer: 1 })
    const [asGuest, asAccount, anotherGuest] = await pendingBookings(3)
    await apply({ order: asGuest!, customerKey: promoCustomerKey({ accountId: null, email: 'asha@example.com' }) })
    expect((await apply({ order: asAccount!, customerKey: promoCustomerKey({ accountId: account, email: 'asha@example.com' }) })).code).toBe('DIWALI25')
    // Nor the account's use against the guest who owns the address.
    await db().transaction((tx) => releasePromoUse(tx, asGuest!, NOW))
    expect((await apply({ order: anotherGuest!, customerKey: promoCustomerKey({ accountId: null, email: 'asha@example.com' }) })).code).toBe('DIWALI25')
  })
})

describe('applying a promo code to an order', () => {
  it('takes a percentage off each price, rounded to the nearest paisa, and holds one use for the order', async () => {
    const id = await promoCode({ discountKind: 'percent', discountValue: 12_50 })
    const order = await pendingBooking()
    expect(await apply({ order, pricesPaise: [30_000_00] })).toEqual({ promoCodeId: id, code: 'DIWALI25', discountsPaise: [3_750_00] })
    const [second, third] = await pendingBookings(2)
    // 12.5 % of ₹3.33 is 41.625 paise: 42; of ₹35,000 and ₹31,500, each line on its own.
    expect((await apply({ order: second!, pricesPaise: [333] })).discountsPaise).toEqual([42])
    expect((await apply({ order: third!, product: 'camp', pricesPaise: [35_000_00, 31_500_00] })).discountsPaise).toEqual([4_375_00, 3_937_50])
    expect(await usesOf(id)).toEqual([
      { bookingId: order.bookingId, campRegistrationId: null, customerKey: PARENT, discountPaise: 3_750_00, state: 'held' },
      { bookingId: second!.bookingId, campRegistrationId: null, customerKey: PARENT, discountPaise: 42, state: 'held' },
      { bookingId: third!.bookingId, campRegistrationId: null, customerKey: PARENT, discountPaise: 8_312_50, state: 'held' },
    ])
    expect(await promoOfOrder(db(), third!)).toEqual({ code: 'DIWALI25', discountPaise: 8_312_50 })
  })

  it('takes a fixed amount off the order as a whole, shared across its prices, and never more than the order', async () => {
    const id = await promoCode({ discountKind: 'amount', discountValue: 500_00 })
    const [one, two, small] = await pendingBookings(3)
    expect((await apply({ order: one!, pricesPaise: [30_000_00] })).discountsPaise).toEqual([500_00])
    expect((await apply({ order: two!, product: 'camp', pricesPaise: [30_000_00, 10_000_00] })).discountsPaise).toEqual([375_00, 125_00])
    expect((await apply({ order: small!, product: 'single', pricesPaise: [200_00, 100_00] })).discountsPaise).toEqual([200_00, 100_00])
    expect((await usesOf(id)).map((use) => use.discountPaise)).toEqual([500_00, 500_00, 300_00])
  })

  it('reads the code in any letter case, with spaces around it', async () => {
    await promoCode()
    const order = await pendingBooking()
    expect((await apply({ order, code: '  diWali25 \n' })).code).toBe('DIWALI25')
  })

  it('holds a use for a camp registration', async () => {
    const id = await promoCode({ products: ['camp'] })
    const [camp] = await db().select({ id: camps.id }).from(camps).where(eq(camps.code, 'camp1'))
    const [batch] = await db().select({ id: campBatches.id }).from(campBatches).where(eq(campBatches.campId, camp!.id)).orderBy(campBatches.id).limit(1)
    const [registration] = await db()
      .insert(campRegistrations)
      .values({ reference: 'CMP-0000000001', campId: camp!.id, batchId: batch!.id, swimmerName: 'Kiran', email: 'kiran@example.com', phone: '9845012345', amountPaise: 35_000_00, status: 'pending', holdExpiresAt: addMinutes(NOW, 20) })
      .returning({ id: campRegistrations.id })
    const order = { campRegistrationId: registration!.id }
    expect((await apply({ order, product: 'camp', customerKey: 'email:kiran@example.com', pricesPaise: [35_000_00] })).discountsPaise).toEqual([3_500_00])
    expect(await usesOf(id)).toEqual([{ bookingId: null, campRegistrationId: registration!.id, customerKey: 'email:kiran@example.com', discountPaise: 3_500_00, state: 'held' }])
    expect(await promoOfOrder(db(), order)).toEqual({ code: 'DIWALI25', discountPaise: 3_500_00 })

    // Its hold runs out unpaid: the holds job gives the use back.
    expect(await releaseLapsedPromoUses(addMinutes(NOW, 10))).toBe(0)
    expect(await releaseLapsedPromoUses(addMinutes(NOW, 21))).toBe(1)
    expect((await usesOf(id)).map((use) => use.state)).toEqual(['released'])
  })
})

describe('a code that cannot be used', () => {
  it('is refused as not valid when there is no such code or it is switched off', async () => {
    await promoCode({ code: 'OFF10', active: false })
    const order = await pendingBooking()
    expect(await refusalOf(apply({ order, code: 'NOSUCH' }))).toEqual(refusal('This promo code is not valid.'))
    expect(await refusalOf(apply({ order, code: 'off10' }))).toEqual(refusal('This promo code is not valid.'))
  })

  it('says from which day it can be used, before its first day (IST)', async () => {
    await promoCode({ validFrom: labInstant('2026-12-15') })
    const order = await pendingBooking()
    expect(await refusalOf(apply({ order, now: labInstant('2026-12-14', '23:59') }))).toEqual(refusal('This promo code can be used from 15 December 2026.'))
    expect((await apply({ order, now: labInstant('2026-12-15', '00:00') })).code).toBe('DIWALI25')
  })

  it('says it has expired, and its last day, after its last day (IST)', async () => {
    // Valid until the end of 9 December in Bangalore: it stops at midnight after it.
    await promoCode({ validUntil: labInstant('2026-12-10') })
    const order = await pendingBooking()
    expect((await apply({ order, now: labInstant('2026-12-09', '23:59') })).code).toBe('DIWALI25')
    expect(await refusalOf(apply({ order, now: labInstant('2026-12-10', '00:00') }))).toEqual(refusal('This promo code expired: its last day was 9 December 2026.'))
  })

  it('names what it is for when applied to something else', async () => {
    await promoCode({ products: ['three_day', 'camp'] })
    await promoCode({ code: 'SINGLES', products: ['single'] })
    const order = await pendingBooking()
    expect(await refusalOf(apply({ order, product: 'single' }))).toEqual(refusal('This promo code is only for 3-day analysis sessions and camps.'))
    expect(await refusalOf(apply({ order, code: 'singles', product: 'camp' }))).toEqual(refusal('This promo code is only for single sessions.'))
    expect((await apply({ order, code: 'singles', product: 'single' })).code).toBe('SINGLES')
  })

  it('is used up when all its uses are held or used', async () => {
    await promoCode({ maxUses: 2 })
    const [paid, waiting, late] = await pendingBookings(3)
    await apply({ order: paid!, customerKey: 'account:1' })
    await db().transaction((tx) => markPromoUsed(tx, paid!, NOW))
    await apply({ order: waiting!, customerKey: 'account:2' })
    expect(await refusalOf(apply({ order: late!, customerKey: 'account:3' }))).toEqual(refusal('This promo code has been used up: all its uses have been taken.'))
  })

  it('is refused to a customer who has used it as often as one person may', async () => {
    await promoCode({ maxUsesPerCustomer: 1 })
    await promoCode({ code: 'TWICE', maxUsesPerCustomer: 2 })
    const [first, second, third, other] = await pendingBookings(4)
    await apply({ order: first!, customerKey: 'email:asha@example.com' })
    expect(await refusalOf(apply({ order: second!, customerKey: 'email:asha@example.com' }))).toEqual(refusal('You have already used this promo code once, as often as one person may use it.'))
    // Someone else still may.
    expect((await apply({ order: other!, customerKey: 'email:kiran@example.com' })).code).toBe('DIWALI25')
    await apply({ order: second!, code: 'TWICE' })
    await apply({ order: third!, code: 'TWICE' })
    const [fourth] = await pendingBookings(1)
    expect(await refusalOf(apply({ order: fourth!, code: 'TWICE' }))).toEqual(refusal('You have already used this promo code twice, as often as one person may use it.'))
  })

  it('is not valid when what was typed cannot be a code: too long, NUL characters, other letters, nothing', async () => {
    await promoCode({ code: 'DIWALI' })
    const order = await pendingBooking()
    for (const typed of ['D'.repeat(500), `DIWALI${'\u0000'}`, 'DI\u0000WALI', 'DI WALI', 'dıwalı', 'DİWALİ', '   ', "DIWALI' OR '1'='1", 'DIWALI%']) {
      expect(await refusalOf(apply({ order, code: typed }))).toEqual(refusal('This promo code is not valid.'))
    }
    expect(await usesOf((await db().select({ id: promoCodes.id }).from(promoCodes))[0]!.id)).toEqual([])
  })
})

describe('an order changing, paying or giving back its code', () => {
  it('replaces the code an order holds: the first is given back', async () => {
    const first = await promoCode({ code: 'FIRST', maxUses: 1 })
    const second = await promoCode({ code: 'SECOND', discountKind: 'amount', discountValue: 1_000_00 })
    const [order, other] = await pendingBookings(2)
    await apply({ order: order!, code: 'FIRST' })
    // Applied again to the same order, its own use does not count against it.
    expect((await apply({ order: order!, code: 'first' })).code).toBe('FIRST')
    await apply({ order: order!, code: 'SECOND' })
    expect((await usesOf(first)).map((use) => use.state)).toEqual(['released', 'released'])
    expect((await usesOf(second)).map((use) => use.state)).toEqual(['held'])
    expect(await promoOfOrder(db(), order!)).toEqual({ code: 'SECOND', discountPaise: 1_000_00 })
    // FIRST's one use is free again.
    expect((await apply({ order: other!, code: 'FIRST' })).code).toBe('FIRST')
  })

  it('keeps the code an order holds when the new one is refused', async () => {
    await promoCode({ code: 'KEPT' })
    const order = await pendingBooking()
    await apply({ order, code: 'KEPT' })
    await expect(apply({ order, code: 'NOSUCH' })).rejects.toThrow('This promo code is not valid.')
    expect(await promoOfOrder(db(), order)).toEqual({ code: 'KEPT', discountPaise: 3_000_00 })
  })

  it('gives a released use back, to the code’s total and to the customer', async () => {
    const id = await promoCode({ maxUses: 1, maxUsesPerCustomer: 1 })
    const [order, next] = await pendingBookings(2)
    await apply({ order: order! })
    expect((await refusalOf(apply({ order: next!, customerKey: 'account:2' }))).message).toContain('used up')
    await db().transaction((tx) => releasePromoUse(tx, order!, NOW))
    expect(await promoOfOrder(db(), order!)).toBeNull()
    // The same customer may use it again (the order was never paid), and anyone else could have.
    expect((await apply({ order: next!, customerKey: PARENT })).code).toBe('DIWALI25')
    expect((await usesOf(id)).map((use) => use.state)).toEqual(['released', 'held'])
    // An order with nothing held: nothing happens.
    const [none] = await pendingBookings(1)
    await db().transaction((tx) => releasePromoUse(tx, none!, NOW))
    expect((await usesOf(id)).map((use) => use.state)).toEqual(['released', 'held'])
  })

  it('counts a paid order’s use for good: releasing it afterwards changes nothing, and its code cannot be changed', async () => {
    const id = await promoCode({ maxUsesPerCustomer: 1 })
    await promoCode({ code: 'OTHER' })
    const [order, next] = await pendingBookings(2)
    await apply({ order: order! })
    await db().transaction((tx) => markPromoUsed(tx, order!, addMinutes(NOW, 5)))
    await db().transaction((tx) => releasePromoUse(tx, order!, addMinutes(NOW, 6)))
    expect(await usesOf(id)).toEqual([{ bookingId: order!.bookingId, campRegistrationId: null, customerKey: PARENT, discountPaise: 3_000_00, state: 'used' }])
    expect(await promoOfOrder(db(), order!)).toEqual({ code: 'DIWALI25', discountPaise: 3_000_00 })
    expect((await refusalOf(apply({ order: next! }))).message).toBe('You have already used this promo code once, as often as one person may use it.')
    expect((await refusalOf(apply({ order: order!, code: 'OTHER' }))).message).toBe('This order has already been paid for, so its promo code can no longer be changed.')
  })
})

describe('many customers applying a code at the same moment', () => {
  it('holds exactly the uses left: 10 of 50 orders get the code, 40 are told it is used up', async () => {
    const id = await promoCode({ maxUses: 12 })
    const [paid, waiting, ...rush] = await pendingBookings(52)
    await apply({ order: paid!, customerKey: 'account:1001' })
    await db().transaction((tx) => markPromoUsed(tx, paid!, NOW))
    await apply({ order: waiting!, customerKey: 'account:1002' })

    const results = await Promise.allSettled(rush.map((order, index) => apply({ order, customerKey: `account:${index + 1}` })))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10)
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))
    expect(refused).toHaveLength(40)
    for (const reason of refused) expect(reason).toMatchObject({ kind: 'invalid', field: 'promoCode', message: 'This promo code has been used up: all its uses have been taken.' })
    expect((await usesOf(id)).filter((use) => use.state === 'held')).toHaveLength(11)
    expect((await database()).kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite')
  })

  it('holds exactly a customer’s uses left, however many of their orders apply it at once', async () => {
    const id = await promoCode({ maxUsesPerCustomer: 10 })
    const rush = await pendingBookings(50)
    const results = await Promise.allSettled(rush.map((order) => apply({ order, customerKey: 'email:asha@example.com' })))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10)
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))
    expect(refused).toHaveLength(40)
    for (const reason of refused) expect(reason).toMatchObject({ kind: 'invalid', field: 'promoCode', message: 'You have already used this promo code 10 times, as often as one person may use it.' })
    expect(await usesOf(id)).toHaveLength(10)
  })

  it('holds one use when the same person applies it at once as their account and as a guest under its address', async () => {
    const id = await promoCode({ maxUsesPerCustomer: 1 })
    const account = await accountOf('asha@example.com', { verified: true })
    const rush = await pendingBookings(20)
    const keys = [promoCustomerKey({ accountId: account, email: 'asha@example.com' }), promoCustomerKey({ accountId: null, email: 'asha@example.com' })]
    const results = await Promise.allSettled(rush.map((order, index) => apply({ order, customerKey: keys[index % 2] })))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    expect(await usesOf(id)).toHaveLength(1)
  })
})
