import { eq, inArray, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookingDays, bookings, catalogueItems } from '~/db/schema'
import { addMinutes } from '~/lib/lab-time'
import { bookingRow, createCustomers, expectHeld, setWindows } from '../../../tests/support/booking'
import { visitor } from '../../../tests/support/holders'
import { swimmerInput } from '../../../tests/support/accounts'
import { useTestDatabase } from '../../../tests/support/test-database'
import { daySchedule } from './availability.server'
import { AlreadyBookedError, expireStaleHolds, holdSession, lockWindows, SlotUnavailableError, type Customer } from './holds.server'
import { HOLD_ATTEMPT_LIMITS, type Holder } from '~/modules/holders/holders.server'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'

const { database } = useTestDatabase()

const MORNING = new Date('2026-12-01T04:30:00Z')
const minutesLater = (minutes: number) => addMinutes(MORNING, minutes)
const THREE_DAYS = ['2026-12-02', '2026-12-03', '2026-12-04']

const hold = (customer: Customer, { date = '2026-12-02', start = '09:00', now = MORNING, holder }: { date?: string; start?: string; now?: Date; holder?: Holder } = {}) =>
  holdSession({ customer, productCode: 'biomechanical_package', date, start, days: 3, now, holder })
/** Resolves when a statement of this database waits for a lock, unless `done` first. */
async function lockWaiter(done: () => boolean) {
  while (!done()) {
    const { rows } = await db().execute<{ waiting: number }>(sql`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)
    if (rows[0]!.waiting > 0) return 'waited for the locks'
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** The customer as a signed-in visitor in a browser of their own. */
const signedIn = (customer: Customer) => visitor({ userId: customer.userId, email: customer.email })

describe('holding a session', () => {
  it('holds a seat on each of the three days for 20 minutes, at the catalogue price', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date })))
    await db().update(catalogueItems).set({ pricePaise: 28_500_00 }).where(eq(catalogueItems.code, 'biomechanical_package'))
    const [customer] = await createCustomers(1)
    const held = await hold(customer!)

    const booking = await bookingRow(held.bookingId)
    expect(booking).toMatchObject({ status: 'pending', userId: customer!.userId, amountPaise: 28_500_00, startTime: '09:00:00', endTime: '10:00:00' })
    expect(booking.holdExpiresAt).toEqual(minutesLater(20))
    expect(booking.reference).toMatch(/^SWP-\d{10}$/)
    const days = await db().select().from(bookingDays).where(eq(bookingDays.bookingId, held.bookingId))
    expect(days.map((day) => [day.dayNumber, day.date, day.startTime]).sort()).toEqual([
      [1, '2026-12-02', '09:00:00'],
      [2, '2026-12-03', '09:00:00'],
      [3, '2026-12-04', '09:00:00'],
    ])
  })

  it('a second customer cannot hold the last seat', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date, capacity: 1 })))
    const [first, second] = await createCustomers(2)
    await hold(first!)
    await expect(hold(second!)).rejects.toBeInstanceOf(SlotUnavailableError)
  })

  it('a seat taken on any one day of the session blocks the session', async () => {
    await setWindows([...THREE_DAYS, '2026-12-05', '2026-12-06'].map((date) => ({ date })))
    const [first, second] = await createCustomers(2)
    // 4, 5 and 6 December: the 4th is the last day of the second customer's session.
    await hold(first!, { date: '2026-12-04' })
    await expect(hold(second!)).rejects.toBeInstanceOf(SlotUnavailableError)
  })

  it('seats come back when a hold runs out, without waiting for the clean-up job', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date })))
    const [first, second] = await createCustomers(2)
    const lapsed = await hold(first!)
    await expect(hold(second!, { now: minutesLater(19) })).rejects.toBeInstanceOf(SlotUnavailableError)
    const taken = await hold(second!, { now: minutesLater(20) })
    expect(taken.bookingId).not.toBe(lapsed.bookingId)

    expect(await expireStaleHolds(minutesLater(21))).toBe(1)
    expect((await bookingRow(lapsed.bookingId)).status).toBe('expired')
    expect((await bookingRow(taken.bookingId)).status).toBe('pending')
  })

  it('one hold per customer: a new hold releases the previous one', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date })))
    const [customer, other] = await createCustomers(2)
    const first = await hold(customer!, { start: '09:00' })
    const second = await hold(customer!, { start: '10:00' })
    expect((await bookingRow(first.bookingId)).status).toBe('expired')
    expect((await bookingRow(second.bookingId)).status).toBe('pending')
    await expect(hold(other!, { start: '09:00' })).resolves.toMatchObject({ amountPaise: 30_000_00 })
  })

  it('a customer cannot book a time slot they already have', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date, capacity: 3 })))
    const [customer] = await createCustomers(1)
    const first = await hold(customer!)
    await db().update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, first.bookingId))
    await expect(hold(customer!)).rejects.toBeInstanceOf(AlreadyBookedError)
    expect((await daySchedule({ date: '2026-12-02', userId: customer!.userId, days: 3, now: MORNING }))[0]!.state).toBe('booked')
  })

  it('two swimmers of one account may each have a seat at the same time; one swimmer cannot have two', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date, capacity: 3 })))
    const [parent] = await createCustomers(1)
    const second = await insertSwimmer(db(), parent!.userId!, 'Kavya Rao', swimmerInput(), { isAccountHolder: false, now: MORNING })
    const sibling: Customer = { ...parent!, swimmerId: second.id, swimmerName: second.name }
    const first = await expectHeld(hold(parent!, { holder: signedIn(parent!) }), { swimmerId: parent!.swimmerId, swimmerName: parent!.swimmerName })
    await db().update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, first.id))
    // The time shows as free to the family while one of its two swimmers has no seat there.
    expect((await daySchedule({ date: '2026-12-02', userId: parent!.userId, days: 3, now: MORNING, swimmers: 2 }))[0]!.state).toBe('available')
    expect((await daySchedule({ date: '2026-12-02', userId: parent!.userId, days: 3, now: MORNING }))[0]!.state).toBe('booked')

    const other = await expectHeld(hold(sibling, { holder: signedIn(sibling) }), { userId: parent!.userId, swimmerId: second.id, swimmerName: 'Kavya Rao' })
    await db().update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, other.id))
    expect((await daySchedule({ date: '2026-12-02', userId: parent!.userId, days: 3, now: MORNING, swimmers: 2 }))[0]!.state).toBe('booked')

    for (const customer of [parent!, sibling]) {
      await expect(hold(customer, { holder: signedIn(customer) })).rejects.toBeInstanceOf(AlreadyBookedError)
      await expect(hold(customer)).rejects.toBeInstanceOf(AlreadyBookedError)
    }
    // A booking made without a profile (the single-session form) is its swimmer's by name.
    await expect(hold({ ...sibling, swimmerId: null, swimmerName: 'kavya rao' }, { holder: signedIn(sibling) })).rejects.toBeInstanceOf(AlreadyBookedError)
    expect(await db().select({ id: bookings.id }).from(bookings).where(eq(bookings.status, 'pending'))).toEqual([])
  })

  it('cannot hold a time slot that has begun in Bangalore, or one that is not offered', async () => {
    await setWindows(['2026-12-01', ...THREE_DAYS].map((date) => ({ date })))
    const [customer] = await createCustomers(1)
    await expect(hold(customer!, { date: '2026-12-01', start: '09:00' })).rejects.toBeInstanceOf(SlotUnavailableError)
    await expect(hold(customer!, { start: '12:00' })).rejects.toBeInstanceOf(SlotUnavailableError)
    await expect(hold(customer!, { start: '09:30' })).rejects.toBeInstanceOf(SlotUnavailableError)
    // At 10:00 in Bangalore the 10:00 slot has begun; the 11:00 one has not.
    await expect(hold(customer!, { date: '2026-12-01', start: '10:00' })).rejects.toBeInstanceOf(SlotUnavailableError)
    await expectHeld(hold(customer!, { date: '2026-12-01', start: '11:00' }), { userId: customer!.userId, startTime: '11:00:00' })
  })
})

describe('a full session', () => {
  it.runIf(process.env.DATABASE_URL)('refuses at once, without waiting for the locks of a hold under way (PostgreSQL)', async () => {
    const windows = await setWindows(THREE_DAYS.map((date) => ({ date, capacity: 1 })))
    const [first, second] = await createCustomers(2)
    await hold(first!, { holder: signedIn(first!) })
    // Another transaction holds the windows' locks until the answer comes back, or someone waits for them.
    const answer = await db().transaction(async (tx) => {
      await lockWindows(
        tx,
        windows.map((window) => window.id),
      )
      let answered = false
      const refusal = hold(second!, { holder: signedIn(second!) })
        .catch((error: unknown) => error)
        .finally(() => (answered = true))
      return Promise.race([refusal, lockWaiter(() => answered)])
    })
    expect(answer).toBeInstanceOf(SlotUnavailableError)
  })

  it('lets customers through again as soon as a seat is freed', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date, capacity: 1 })))
    const [first, second] = await createCustomers(2)
    const firstHolder = signedIn(first!)
    await hold(first!, { holder: firstHolder })
    await expect(hold(second!, { holder: signedIn(second!) })).rejects.toBeInstanceOf(SlotUnavailableError)
    // The first customer moves to another time, which releases their seat here.
    await hold(first!, { start: '10:00', holder: firstHolder })
    await expect(hold(second!, { holder: signedIn(second!) })).resolves.toMatchObject({ amountPaise: 30_000_00 })
  })

  it('is held again by a customer whose own unpaid hold fills it (the new hold replaces it)', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date, capacity: 1 })))
    const [customer] = await createCustomers(1)
    const earlier = await hold(customer!, { holder: signedIn(customer!) })
    const again = await hold(customer!, { holder: signedIn(customer!) })
    expect((await bookingRow(earlier.bookingId)).status).toBe('expired')
    expect((await bookingRow(again.bookingId)).status).toBe('pending')
  })

  it('costs a visitor none of their attempts: they may keep asking until a seat frees, and then hold it', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date, capacity: 1 })))
    const [first, second] = await createCustomers(2)
    const firstHolder = signedIn(first!)
    await hold(first!, { holder: firstHolder })
    const secondHolder = signedIn(second!)
    for (let attempt = 0; attempt <= HOLD_ATTEMPT_LIMITS.perEmail.limit; attempt += 1) {
      await expect(hold(second!, { holder: secondHolder })).rejects.toBeInstanceOf(SlotUnavailableError)
    }
    await hold(first!, { start: '10:00', holder: firstHolder })
    await expect(hold(second!, { holder: secondHolder })).resolves.toMatchObject({ amountPaise: 30_000_00 })
  })

  it('counts every attempt at a session with a seat: past the limit, the visitor is refused', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date, capacity: 5 })))
    const [customer] = await createCustomers(1)
    const holder = signedIn(customer!)
    for (let attempt = 0; attempt < HOLD_ATTEMPT_LIMITS.perEmail.limit; attempt += 1) await hold(customer!, { holder })
    await expect(hold(customer!, { holder })).rejects.toBeInstanceOf(RateLimitedError)
  })

  it('tells a customer who has a seat in it that they already booked it', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date, capacity: 1 })))
    const [customer] = await createCustomers(1)
    const booked = await hold(customer!, { holder: signedIn(customer!) })
    await db().update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, booked.bookingId))
    await expect(hold(customer!, { holder: signedIn(customer!) })).rejects.toBeInstanceOf(AlreadyBookedError)
  })
})

describe('under concurrency', () => {
  it(`of 200 customers trying at once for the last seat, exactly one wins (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date, capacity: 3 })))
    const [early1, early2, ...rush] = await createCustomers(202)
    await hold(early1!)
    await hold(early2!)

    const results = await Promise.allSettled(rush.map((customer) => hold(customer)))
    const won = results.filter((result) => result.status === 'fulfilled')
    const refused = results.filter((result) => result.status === 'rejected')
    expect(won).toHaveLength(1)
    expect(refused.every((result) => result.status === 'rejected' && result.reason instanceof SlotUnavailableError)).toBe(true)

    const seats = await db()
      .select({ date: bookingDays.date })
      .from(bookingDays)
      .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
      .where(inArray(bookings.status, ['pending', 'confirmed']))
    for (const date of THREE_DAYS) expect(seats.filter((seat) => seat.date === date)).toHaveLength(3)
    expect((await database()).kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite')
  })

  it('many customers racing for many seats never oversell any of them', async () => {
    await setWindows(THREE_DAYS.map((date) => ({ date, start: '09:00', end: '12:00', capacity: 4 })))
    const rush = await createCustomers(60)
    const starts = ['09:00', '10:00', '11:00']
    const results = await Promise.allSettled(rush.map((customer, index) => hold(customer, { start: starts[index % 3]! })))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(12)
    for (const start of starts) {
      const held = await db()
        .select({ id: bookings.id })
        .from(bookings)
        .where(eq(bookings.startTime, start))
      expect(held).toHaveLength(4)
    }
  })
})
