import { and, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookings, campBatches, campRegistrations, camps } from '~/db/schema'
import { addHours, addMinutes, labInstant } from '~/lib/lab-time'
import { holdSession, SlotUnavailableError } from '~/modules/booking/holds.server'
import { holdSingleSession } from '~/modules/booking/public-booking.server'
import type { PublicBookingInput } from '~/modules/booking/schemas'
import { AlreadyRegisteredError, holdCampSeat } from '~/modules/camps/registrations.server'
import { createCustomers, expectHeld, setWindows } from '../../../tests/support/booking'
import { visitor } from '../../../tests/support/holders'
import { useTestDatabase } from '../../../tests/support/test-database'
import { MAX_UNPAID_HOLDS_PER_NETWORK, ownBookings, ownerOf, ownsBooking, TooManyUnpaidHoldsError, UnpaidHoldExistsError, type Holder } from './holders.server'

useTestDatabase()

const MORNING = new Date('2026-12-01T04:30:00Z') // 10:00 in Bangalore
const DATE = '2026-12-02'
const TIMES = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00'] as const

const single = (holder: Holder, time: PublicBookingInput['time'] = '09:00', overrides: Partial<PublicBookingInput> = {}) =>
  holdSingleSession({ name: 'Kavya Nair', email: holder.email, phone: '', service: 'race', date: DATE, time, notes: '', ...overrides }, holder, MORNING)

const campSeat = (holder: Holder, swimmerName = 'Arjun Menon', batchCode = 'batch1') =>
  holdCampSeat({ campCode: 'camp1', batchCode, applicant: { swimmerName, email: holder.email, phone: '9845012345' }, holder, now: MORNING })

const status = async (id: number) => (await db().select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0]!.status
const campStatus = async (id: number) => (await db().select({ status: campRegistrations.status }).from(campRegistrations).where(eq(campRegistrations.id, id)))[0]!.status
const pendingBookings = async () => db().select({ id: bookings.id }).from(bookings).where(eq(bookings.status, 'pending'))

beforeEach(async () => {
  await setWindows([{ date: DATE, start: '09:00', end: '18:00', capacity: 17 }])
  await db().update(camps).set({ startsOn: '2027-05-10', endsOn: '2027-05-18', earlyBirdEndsAt: labInstant('2027-04-01') }).where(eq(camps.code, 'camp1'))
})

describe('one unpaid hold per browser and per account', () => {
  it('a new hold in the same browser releases the earlier one, whatever the product and address', async () => {
    const browser = visitor()
    const first = await single(browser, '09:00')
    const second = await single({ ...browser, email: 'another@example.com' }, '10:00')
    expect(await status(first.bookingId)).toBe('expired')
    const camp = await campSeat({ ...browser, email: 'third@example.com' })
    expect(await status(second.bookingId)).toBe('expired')
    await single({ ...browser, email: 'fourth@example.com' }, '11:00')
    expect(await campStatus(camp.id)).toBe('expired')
    expect(await pendingBookings()).toHaveLength(1)
  })

  it('a signed-in customer holds one session at a time, across browsers', async () => {
    const [customer] = await createCustomers(1)
    const account = (browser: Holder) => ({ ...browser, userId: customer!.userId, email: customer!.email })
    await setWindows(['2026-12-02', '2026-12-03', '2026-12-04'].map((date) => ({ date, start: '09:00', end: '18:00', capacity: 5 })))
    const first = await holdSession({ customer: customer!, productCode: 'biomechanical_package', date: DATE, start: '09:00', days: 3, holder: account(visitor()), now: MORNING })
    await holdSession({ customer: customer!, productCode: 'biomechanical_package', date: DATE, start: '10:00', days: 3, holder: account(visitor()), now: MORNING })
    expect(await status(first.bookingId)).toBe('expired')
    expect(await pendingBookings()).toHaveLength(1)
  })
})

describe('one unpaid hold per e-mail address', () => {
  it('someone typing a parent’s address and child’s name cannot release the parent’s unpaid camp hold', async () => {
    const parent = visitor({ email: 'menon@example.com' })
    const held = await campSeat(parent)
    const stranger = visitor({ email: 'Menon@Example.com' })
    await expect(campSeat(stranger)).rejects.toThrow(UnpaidHoldExistsError)
    await expect(single(stranger)).rejects.toThrow(UnpaidHoldExistsError)
    expect(await campStatus(held.id)).toBe('pending')
  })

  it('says until when the address is held, in Bangalore time', async () => {
    await single(visitor({ email: 'kavya@example.com' }))
    await expect(single(visitor({ email: 'kavya@example.com' }), '10:00')).rejects.toThrow('try again after 10:20 AM, when its hold ends')
  })

  it('the signed-in owner of the address replaces a hold made for it elsewhere', async () => {
    const [customer] = await createCustomers(1)
    const guestHold = await single(visitor({ email: customer!.email }))
    const owner = await single(visitor({ email: customer!.email, userId: customer!.userId }), '10:00')
    expect(await status(guestHold.bookingId)).toBe('expired')
    expect(await status(owner.bookingId)).toBe('pending')
  })

  it('an address is free again once its hold is paid or ends', async () => {
    const first = await single(visitor({ email: 'kavya@example.com' }))
    await db().update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, first.bookingId))
    await expectHeld(single(visitor({ email: 'kavya@example.com' }), '10:00'), { customerEmail: 'kavya@example.com' })
    const later = addMinutes(MORNING, 21)
    await expectHeld(holdSingleSession({ name: 'Kavya Nair', email: 'kavya@example.com', phone: '', service: 'race', date: DATE, time: '11:00', notes: '' }, visitor({ email: 'kavya@example.com' }), later), {
      customerEmail: 'kavya@example.com',
    })
    expect(await status(first.bookingId)).toBe('confirmed')
  })
})

describe('unpaid holds per network', () => {
  it(`one network holds at most ${MAX_UNPAID_HOLDS_PER_NETWORK} unpaid seats, whatever the addresses and browsers; others are not affected`, async () => {
    const network = '203.0.113.50'
    for (const time of TIMES.slice(0, MAX_UNPAID_HOLDS_PER_NETWORK)) await single(visitor({ network }), time)
    await expect(single(visitor({ network }), '15:00')).rejects.toThrow(TooManyUnpaidHoldsError)
    await expect(campSeat(visitor({ network }))).rejects.toThrow(TooManyUnpaidHoldsError)
    await expectHeld(single(visitor(), '15:00'))
  })

  it(`${MAX_UNPAID_HOLDS_PER_NETWORK} at most, also when one network asks many times at once (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    const network = '203.0.113.51'
    const results = await Promise.allSettled(TIMES.map((time) => single(visitor({ network }), time)))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(MAX_UNPAID_HOLDS_PER_NETWORK)
    expect(results.every((result) => result.status === 'fulfilled' || result.reason instanceof TooManyUnpaidHoldsError)).toBe(true)
  })

  it('seats offered from a waitlist are the lab’s, and count against no one', async () => {
    const network = '203.0.113.52'
    const [batch] = await db().select({ id: campBatches.id, campId: campBatches.campId }).from(campBatches).innerJoin(camps, eq(camps.id, campBatches.campId)).where(and(eq(camps.code, 'camp1'), eq(campBatches.code, 'batch1')))
    const offer = { campId: batch!.campId, batchId: batch!.id, phone: '9845012345', amountPaise: 35_000_00, status: 'pending' as const, holdExpiresAt: addHours(MORNING, 12) }
    await db().insert(campRegistrations).values([{ ...offer, reference: 'CMP-0000000001', swimmerName: 'Offered One', email: 'offered@example.com' }])
    // Nobody typing the offered swimmer's name and address takes the offer away.
    await expect(campSeat(visitor({ email: 'offered@example.com' }), 'Offered One')).rejects.toThrow(AlreadyRegisteredError)
    const parent = visitor({ network, email: 'offered@example.com' })
    await expectHeld(single(parent), { customerEmail: 'offered@example.com' })
    expect((await db().select({ status: campRegistrations.status }).from(campRegistrations).where(eq(campRegistrations.reference, 'CMP-0000000001')))[0]!.status).toBe('pending')
  })
})

describe('one unpaid hold per customer under concurrency', () => {
  it(`twenty parallel holds of one customer leave exactly one pending (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    await setWindows(['2026-12-02', '2026-12-03', '2026-12-04'].map((date) => ({ date, start: '09:00', end: '18:00', capacity: 30 })))
    const [customer] = await createCustomers(1)
    const attempts = Array.from({ length: 20 }, (_, index) =>
      holdSession({ customer: customer!, productCode: 'biomechanical_package', date: DATE, start: TIMES[index % TIMES.length]!, days: 3, holder: visitor({ userId: customer!.userId, email: customer!.email }), now: MORNING }),
    )
    const results = await Promise.allSettled(attempts)
    expect(results.filter((result) => result.status === 'fulfilled').length).toBeGreaterThanOrEqual(1)
    expect(await pendingBookings()).toHaveLength(1)
  })

  it(`twenty parallel guest holds for one address leave exactly one (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, index) => single(visitor({ email: 'same@example.com' }), TIMES[index % TIMES.length])))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    expect(await pendingBookings()).toHaveLength(1)
  })
})

describe('the booking window', () => {
  it('a visitor books a single session up to 90 days ahead, a 3-day session up to the end of the third month after this one', async () => {
    await setWindows([
      { date: '2027-03-01', start: '09:00', end: '18:00', capacity: 5 },
      { date: '2027-03-02', start: '09:00', end: '18:00', capacity: 5 },
      { date: '2027-03-03', start: '09:00', end: '18:00', capacity: 5 },
      { date: '2027-04-01', start: '09:00', end: '18:00', capacity: 5 },
      { date: '2027-04-02', start: '09:00', end: '18:00', capacity: 5 },
      { date: '2027-04-03', start: '09:00', end: '18:00', capacity: 5 },
    ])
    await expectHeld(single(visitor(), '09:00', { date: '2027-03-01' })) // 90 days after 1 December
    await expect(single(visitor(), '09:00', { date: '2027-03-02' })).rejects.toThrow(SlotUnavailableError)
    const [customer] = await createCustomers(1)
    const session = (date: string) => holdSession({ customer: customer!, productCode: 'biomechanical_package', date, start: '10:00', days: 3, holder: visitor({ userId: customer!.userId, email: customer!.email }), now: MORNING })
    await expectHeld(session('2027-03-01'), { userId: customer!.userId, productCode: 'biomechanical_package' })
    await expect(session('2027-04-01')).rejects.toThrow(SlotUnavailableError)
  })
})

describe("a holder's own bookings", () => {
  it('are the same whether the database picks them or they are judged from bookings already read', async () => {
    const [customer, other] = await createCustomers(2)
    const browser = visitor({ userId: customer!.userId, email: customer!.email })
    const made = await Promise.all(TIMES.slice(0, 5).map((time) => single(visitor(), time)))
    const shape = async (index: number, values: Partial<typeof bookings.$inferInsert>) => db().update(bookings).set(values).where(eq(bookings.id, made[index]!.bookingId))
    await shape(0, { userId: customer!.userId })
    await shape(1, { customerEmail: customer!.email.toUpperCase() })
    await shape(2, { userId: other!.userId, customerEmail: other!.email })
    await shape(3, { holderBrowser: browser.browser })
    const everyone = [browser, { ...browser, userId: null }, { ...browser, browser: null }, visitor({ email: customer!.email }), visitor({ userId: other!.userId, email: other!.email })]
    const all = await db().select({ id: bookings.id, userId: bookings.userId, customerEmail: bookings.customerEmail, holderBrowser: bookings.holderBrowser }).from(bookings)
    for (const holder of everyone) {
      const picked = await db().select({ id: bookings.id }).from(bookings).where(ownBookings(ownerOf(holder)))
      expect(all.filter((booking) => ownsBooking(ownerOf(holder), booking)).map((booking) => booking.id).sort()).toEqual(picked.map((booking) => booking.id).sort())
    }
  })
})
