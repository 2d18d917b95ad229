import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db, type Database } from '~/db/client.server'
import { bookings, closedTimeSlots, guardianConsents, sessions, swimmers, users } from '~/db/schema'
import { addDays, addMinutes, addSeconds, labToday } from '~/lib/lab-time'
import { findSessionUser } from '~/modules/accounts/sessions.server'
import { holdAnalysisDaySlot } from '~/modules/booking/analysis-day-booking.server'
import type { AnalysisDayBookingInput } from '~/modules/booking/analysis-day-schemas'
import { knownSoldOut, publicAnalysisDay } from '~/modules/booking/analysis-days.server'
import { customerHold, daySchedule, monthCalendar } from '~/modules/booking/availability.server'
import { holdSession } from '~/modules/booking/holds.server'
import { bookingTimesOn } from '~/modules/booking/public-booking.server'
import { swimmerChoices } from '~/modules/booking/swimmer-choice.server'
import { recordConsent } from '~/modules/swimmers/consent.server'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { swimmerInput } from '../../tests/support/accounts'
import { publishedDay } from '../../tests/support/analysis-days'
import { createCustomers, createStaff, setWindows, signInUser } from '../../tests/support/booking'
import { visitor } from '../../tests/support/holders'
import { useTestDatabase } from '../../tests/support/test-database'
import { ACCOUNT_CHANNEL, AVAILABILITY_CHANNEL, startCaches } from './caches.server'

// Every change here is made straight in the database, as another instance (or staff in SQL) would
// make it: this instance learns of it only through the database's notifications.

const testDatabase = useTestDatabase()
let database: Database
let stopCaches: () => Promise<void>

beforeAll(async () => {
  database = await testDatabase.database()
  stopCaches = await startCaches(database)
})
afterAll(async () => {
  await stopCaches?.()
})

/**
 * Runs `change` and waits for the database's announcement of it, which every instance hears; this
 * listener is called after the caches' own, so by then they have dropped what they kept.
 */
async function announced(channel: string, change: () => Promise<unknown>) {
  let heard: () => void = () => {}
  const notified = new Promise<void>((resolve) => (heard = resolve))
  const unlisten = await database.listen(channel, () => heard())
  try {
    await change()
    await notified
  } finally {
    await unlisten()
  }
}

/**
 * Waits until every announcement made so far has been heard: notifications arrive in the order
 * their transactions committed, so hearing one sent now means the earlier ones were heard before it.
 */
const everythingHeard = () => announced(AVAILABILITY_CHANNEL, () => db().execute(sql`SELECT pg_notify(${AVAILABILITY_CHANNEL}, 'heard')`))

/** Runs `change` with the database's announcements of `table` switched off. */
async function unannounced(table: string, change: () => Promise<unknown>) {
  await db().execute(sql.raw(`ALTER TABLE ${table} DISABLE TRIGGER USER`))
  try {
    await change()
  } finally {
    await db().execute(sql.raw(`ALTER TABLE ${table} ENABLE TRIGGER USER`))
  }
}

async function signedInCustomer() {
  const [created] = await createCustomers(1)
  const customer = { ...created!, userId: created!.userId! }
  return { customer, token: (await signInUser(customer.userId)).token }
}

describe('a signed-in user kept in memory', () => {
  it('is read once: a change nobody announces is not seen', async () => {
    const { customer, token } = await signedInCustomer()
    expect((await findSessionUser(token))?.name).toBe(customer.name)
    await unannounced('users', () => db().update(users).set({ name: 'Renamed' }).where(eq(users.id, customer.userId)))
    expect((await findSessionUser(token))?.name).toBe(customer.name)
  })

  it('is signed out at once when the session is deleted elsewhere (sign-out, password change, sign out everywhere)', async () => {
    const { customer, token } = await signedInCustomer()
    expect((await findSessionUser(token))?.id).toBe(customer.userId)
    await announced(ACCOUNT_CHANNEL, () => db().delete(sessions).where(eq(sessions.userId, customer.userId)))
    expect(await findSessionUser(token)).toBeNull()
  })

  it('is refused at once when the account is disabled elsewhere', async () => {
    const { token } = await signedInCustomer()
    const user = await findSessionUser(token)
    await announced(ACCOUNT_CHANNEL, () => db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, user!.id)))
    expect(await findSessionUser(token)).toBeNull()
  })

  it('becomes staff, and stops being staff, at once', async () => {
    const { token } = await signedInCustomer()
    const user = await findSessionUser(token)
    expect(user?.isAdmin).toBe(false)
    await announced(ACCOUNT_CHANNEL, () => db().update(users).set({ isAdmin: true }).where(eq(users.id, user!.id)))
    expect((await findSessionUser(token))?.isAdmin).toBe(true)
    await announced(ACCOUNT_CHANNEL, () => db().update(users).set({ isAdmin: false }).where(eq(users.id, user!.id)))
    expect((await findSessionUser(token))?.isAdmin).toBe(false)
  })

  it('is refused once its session has expired, kept or not', async () => {
    const { token } = await signedInCustomer()
    const [row] = await db().select({ expiresAt: sessions.expiresAt }).from(sessions)
    expect(await findSessionUser(token)).not.toBeNull()
    expect(await findSessionUser(token, addSeconds(row!.expiresAt, 1))).toBeNull()
  })

  it('keeps its last-seen time fresh while browsing', async () => {
    const { token } = await signedInCustomer()
    await findSessionUser(token)
    const later = addMinutes(new Date(), 10)
    await findSessionUser(token, later)
    const [row] = await db().select({ lastSeenAt: sessions.lastSeenAt }).from(sessions)
    expect(row!.lastSeenAt.getTime()).toBe(later.getTime())
  })

  it('is not trusted while the notifications may be missed: a lost listening connection reads the database again (PostgreSQL)', async (context) => {
    if (database.kind !== 'postgres') return context.skip()
    const { customer, token } = await signedInCustomer()
    expect(await findSessionUser(token)).not.toBeNull()
    await unannounced('sessions', () => db().delete(sessions).where(eq(sessions.userId, customer.userId)))
    await db().execute(sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`)
    while (database.listening()) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(await findSessionUser(token)).toBeNull()
    while (!database.listening()) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await findSessionUser(token)).toBeNull()
  })
})

describe('availability kept in memory', () => {
  const today = labToday()
  const dates = [addDays(today, 3), addDays(today, 4), addDays(today, 5)]
  const month = dates[0]!.slice(0, 7)
  const stateAt = async (date: string, start: string, userId: number | null = null) =>
    (await daySchedule({ date, userId, days: 3 })).find((slot) => slot.start === start)?.state

  it('is read once: a hold nobody announces is not seen', async () => {
    // The windows' own announcement is heard first: arriving during the read below, it would rightly keep nothing.
    await announced(AVAILABILITY_CHANNEL, () => setWindows(dates.map((date) => ({ date, capacity: 1 }))))
    const [customer] = await createCustomers(1)
    expect(await stateAt(dates[0]!, '09:00')).toBe('available')
    await unannounced('bookings', () =>
      unannounced('booking_days', () => holdSession({ customer: customer!, productCode: 'biomechanical_package', date: dates[0]!, start: '09:00', days: 3 })),
    )
    expect(await stateAt(dates[0]!, '09:00')).toBe('available')
  })

  it('shows a hold made elsewhere at once: full for everyone else, booked and held for its customer', async () => {
    await setWindows(dates.map((date) => ({ date, capacity: 1 })))
    const [holder, other] = await createCustomers(2)
    expect(await stateAt(dates[0]!, '09:00', other!.userId)).toBe('available')
    expect(await stateAt(dates[0]!, '09:00', holder!.userId)).toBe('available')
    expect(await customerHold(holder!.userId!)).toBeNull()
    expect((await bookingTimesOn(dates[1]!)).find((time) => time.time === '09:00')?.state).toBe('available')

    const held = await (async () => {
      let result: Awaited<ReturnType<typeof holdSession>> | undefined
      await announced(AVAILABILITY_CHANNEL, async () => {
        result = await holdSession({ customer: holder!, productCode: 'biomechanical_package', date: dates[0]!, start: '09:00', days: 3 })
      })
      return result!
    })()

    expect(await stateAt(dates[0]!, '09:00', other!.userId)).toBe('full')
    expect(await stateAt(dates[0]!, '09:00', holder!.userId)).toBe('booked')
    expect((await customerHold(holder!.userId!))?.bookingId).toBe(held.bookingId)
    expect((await bookingTimesOn(dates[1]!)).find((time) => time.time === '09:00')?.state).toBe('full')
  })

  it('frees a hold’s seats when it runs out, with no change to announce, and at once when it is released', async () => {
    await setWindows(dates.map((date) => ({ date, capacity: 1 })))
    const [holder, other] = await createCustomers(2)
    await announced(AVAILABILITY_CHANNEL, () => holdSession({ customer: holder!, productCode: 'biomechanical_package', date: dates[0]!, start: '09:00', days: 3 }))
    expect(await stateAt(dates[0]!, '09:00', other!.userId)).toBe('full')
    const [booking] = await db().select({ id: bookings.id, holdExpiresAt: bookings.holdExpiresAt }).from(bookings)
    const afterExpiry = addSeconds(booking!.holdExpiresAt!, 1)
    expect((await daySchedule({ date: dates[0]!, userId: other!.userId, days: 3, now: afterExpiry })).find((slot) => slot.start === '09:00')?.state).toBe('available')
    expect(await customerHold(holder!.userId!, afterExpiry)).toBeNull()

    await announced(AVAILABILITY_CHANNEL, () => db().update(bookings).set({ status: 'expired' }).where(eq(bookings.id, booking!.id)))
    expect(await stateAt(dates[0]!, '09:00', other!.userId)).toBe('available')
    expect(await customerHold(holder!.userId!)).toBeNull()
  })

  it('shows a window or a time slot changed elsewhere at once, on the calendar and on the day', async () => {
    const [window] = await setWindows(dates.map((date) => ({ date, capacity: 1 })))
    expect((await monthCalendar(month)).find((day) => day.date === dates[0])?.open).toBe(true)
    await announced(AVAILABILITY_CHANNEL, () => db().insert(closedTimeSlots).values({ windowId: window!.id, startTime: '09:00' }))
    expect(await stateAt(dates[0]!, '09:00')).toBeUndefined()
    await announced(AVAILABILITY_CHANNEL, () => setWindows(dates.slice(1).map((date) => ({ date, capacity: 1 }))))
    expect((await monthCalendar(month)).find((day) => day.date === dates[0])?.open).toBe(false)
    expect(await daySchedule({ date: dates[0]!, userId: null, days: 3 })).toEqual([])
  })
})

describe('an analysis day kept in memory', () => {
  let parents = 0
  const details = (slot: string): AnalysisDayBookingInput => {
    parents += 1
    return { name: 'Parent Kept', email: `kept${parents}@example.com`, whoSwims: 'myself', notes: '', slot } as AnalysisDayBookingInput
  }

  it('is read once; shows a hold made elsewhere at once; frees a hold at its end; reads again when a booking asks', async () => {
    const actor = await createStaff()
    const date = addDays(labToday(), 6)
    // Published two days ago and released yesterday; two slots, 09:00 and 09:20.
    let dayId = 0
    await announced(AVAILABILITY_CHANNEL, async () => {
      dayId = (await publishedDay(actor, date, addDays(new Date(), -2), { releaseDate: addDays(labToday(), -1), releaseTime: '07:00', endTime: '09:40', hostSeats: 0 })).dayId
    })
    // One instant for every read: what is kept is judged by it, however slowly this runs.
    const now = new Date()
    const stateOf = async (start: string, at = now, fresh = false) => (await publicAnalysisDay(dayId, at, { fresh }))?.dates[0]?.slots.find((slot) => slot.start === start)?.state
    expect(await stateOf('09:00')).toBe('available')

    await unannounced('bookings', () => unannounced('booking_days', () => holdAnalysisDaySlot(dayId, details(`${date}|09:00`), visitor())))
    expect(await stateOf('09:00')).toBe('available')
    expect(await stateOf('09:00', now, true)).toBe('full')

    await announced(AVAILABILITY_CHANNEL, () => holdAnalysisDaySlot(dayId, details(`${date}|09:20`), visitor()))
    expect(await stateOf('09:20')).toBe('full')
    expect(await knownSoldOut(dayId, now)).toBe(true)

    const [first] = await db().select({ holdExpiresAt: bookings.holdExpiresAt }).from(bookings).where(eq(bookings.customerEmail, `kept${parents - 1}@example.com`))
    const afterExpiry = addSeconds(first!.holdExpiresAt!, 1)
    expect(await stateOf('09:00', afterExpiry)).toBe('available')
    expect(await knownSoldOut(dayId, afterExpiry)).toBe(false)
  })
})

describe("an account's swimmers kept in memory for the booking page", () => {
  const options = async (accountId: number) => (await swimmerChoices(accountId)).swimmers.map(({ name, mayBeBooked }) => ({ name, mayBeBooked }))

  it('are read once: a swimmer added without an announcement is not seen', async () => {
    const [parent] = await createCustomers(1)
    // The account's own announcement is heard first: arriving during the read below, it would rightly keep nothing.
    await everythingHeard()
    expect(await options(parent!.userId!)).toHaveLength(1)
    await unannounced('swimmers', () => insertSwimmer(db(), parent!.userId!, 'Kavya Rao', swimmerInput({ name: 'Kavya Rao' }), { isAccountHolder: false, now: new Date() }))
    expect(await options(parent!.userId!)).toHaveLength(1)
  })

  it("show at once a swimmer added or renamed elsewhere, and a parent's consent given or withdrawn", async () => {
    const [parent] = await createCustomers(1)
    expect(await options(parent!.userId!)).toEqual([{ name: parent!.name, mayBeBooked: true }])
    let kavyaId = 0
    await announced(AVAILABILITY_CHANNEL, async () => {
      kavyaId = (await insertSwimmer(db(), parent!.userId!, 'Kavya Rao', swimmerInput({ name: 'Kavya Rao', age: '12' }), { isAccountHolder: false, now: new Date() })).id
    })
    expect(await options(parent!.userId!)).toEqual([{ name: parent!.name, mayBeBooked: true }, { name: 'Kavya Rao', mayBeBooked: false }])

    await announced(AVAILABILITY_CHANNEL, () => recordConsent(db(), { swimmerId: kavyaId, guardianName: parent!.name, guardianEmail: parent!.email, emailVerifiedBy: 'account_code', method: 'registration_form', now: new Date() }))
    expect((await options(parent!.userId!))[1]).toEqual({ name: 'Kavya Rao', mayBeBooked: true })

    await announced(AVAILABILITY_CHANNEL, () => db().update(guardianConsents).set({ withdrawnAt: new Date() }).where(eq(guardianConsents.swimmerId, kavyaId)))
    expect((await options(parent!.userId!))[1]).toEqual({ name: 'Kavya Rao', mayBeBooked: false })

    await announced(AVAILABILITY_CHANNEL, () => db().update(swimmers).set({ name: 'Kavya R.' }).where(eq(swimmers.id, kavyaId)))
    expect((await options(parent!.userId!))[1]?.name).toBe('Kavya R.')
  })
})
