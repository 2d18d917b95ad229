import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { db, type Executor } from '~/db/client.server'
import { availabilityWindows, bookingDays, bookings, outboxMessages, swimmers, users } from '~/db/schema'
import { addMinutes } from '~/lib/lab-time'
import { createSession } from '~/modules/accounts/sessions.server'
import type { Customer } from '~/modules/booking/holds.server'
import type { DomainError } from '~/lib/domain-error'
import { sessionHeader } from '~/web/auth.server'

/** Replaces the seeded availability with exactly the windows a test describes. */
export async function setWindows(windows: Array<{ date: string; start?: string | null; end?: string | null; duration?: number | null; capacity?: number; holiday?: boolean }>) {
  await db().delete(availabilityWindows)
  if (windows.length === 0) return []
  return db()
    .insert(availabilityWindows)
    .values(
      windows.map((window) => ({
        date: window.date,
        startTime: window.start === undefined ? '09:00' : window.start,
        endTime: window.end === undefined ? '12:00' : window.end,
        slotDurationMinutes: window.duration === undefined ? 60 : window.duration,
        capacity: window.capacity ?? 1,
        isHoliday: window.holiday ?? false,
      })),
    )
    .returning({ id: availabilityWindows.id, date: availabilityWindows.date })
}

/** Verified customers straight in the database (a placeholder hash: they never sign in here). */
export async function createCustomers(count: number, prefix = 'swimmer'): Promise<Customer[]> {
  const rows = await db()
    .insert(users)
    .values(Array.from({ length: count }, (_, index) => ({ name: `${prefix} ${index + 1}`, email: `${prefix}${index + 1}@example.com`, passwordHash: 'x', isVerified: true, phone: '9845012345' })))
    .returning({ id: users.id, name: users.name, email: users.email, phone: users.phone })
  const profiles = await db()
    .insert(swimmers)
    .values(rows.map((row) => ({ accountId: row.id, isAccountHolder: true, name: row.name, ageYears: 26, ageGivenOn: '2026-01-01', gender: 'female', swimmingExperience: 'advanced', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' })))
    .returning({ id: swimmers.id, accountId: swimmers.accountId })
  return rows.map((row, index) => ({ userId: row.id, swimmerId: profiles[index]!.id, swimmerName: row.name, name: row.name, email: row.email, phone: row.phone, swimmingExperience: 'advanced' }))
}

/** A staff member straight in the database (a placeholder hash: they never sign in here). */
export async function createStaff(name = 'Staff') {
  const [row] = await db().insert(users).values({ name, email: 'staff@lab.example', passwordHash: 'x', isAdmin: true, isVerified: true }).returning({ id: users.id, email: users.email })
  return row!
}

/** A new session for the user: its token, and the cookie a browser signed in with it sends. */
export async function signInUser(userId: number) {
  const session = await createSession(userId, {})
  return { token: session.token, cookie: (await sessionHeader(session)).split(';')[0]! }
}

export async function bookingRow(id: number) {
  const [row] = await db().select().from(bookings).where(eq(bookings.id, id))
  return row!
}

/** Expects a hold to go through: its booking waits for payment, with what `expected` names. */
export async function expectHeld(hold: Promise<{ bookingId: number }>, expected: Partial<typeof bookings.$inferSelect> = {}) {
  const booking = await bookingRow((await hold).bookingId)
  expect(booking).toMatchObject({ status: 'pending', ...expected })
  return booking
}

export async function mailTo(email: string) {
  return db().select().from(outboxMessages).where(eq(outboxMessages.to, email)).orderBy(outboxMessages.id)
}

/** The refusal a promise ends in (the test fails if it succeeds). */
export async function refusal(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => null,
    (caught: unknown) => caught,
  )) as DomainError | null
  expect(error).not.toBeNull()
  return error!
}

/**
 * A booking written straight to the database (with `executor`: a test site's before it starts), one
 * day for each window given, each from `start` to `end`: confirmed now, or held for an hour from
 * `now` when pending, unless `over` says otherwise.
 */
export async function insertedBooking(
  executor: Executor,
  days: Array<{ windowId: number; date: string }>,
  { start, end, now = new Date() }: { start: string; end: string; now?: Date },
  over: Partial<typeof bookings.$inferInsert> & { reference: string },
) {
  const status = over.status ?? 'confirmed'
  const [booking] = await executor
    .insert(bookings)
    .values({
      productCode: days.length === 3 ? 'biomechanical_package' : 'race_analysis',
      swimmerName: 'Hema Host',
      customerName: 'Hema Host',
      customerEmail: `${over.reference.toLowerCase()}@example.com`,
      customerPhone: '+919845012345',
      startTime: start,
      endTime: end,
      amountPaise: 1_500_00,
      status,
      holdExpiresAt: status === 'pending' ? addMinutes(now, 60) : null,
      confirmedAt: status === 'confirmed' ? now : null,
      cancelledAt: status === 'cancelled' || status === 'refunded' ? now : null,
      ...over,
    })
    .returning({ id: bookings.id, reference: bookings.reference })
  await executor.insert(bookingDays).values(days.map((day, index) => ({ bookingId: booking!.id, dayNumber: index + 1, windowId: day.windowId, date: day.date, startTime: start, endTime: end })))
  return booking!
}
