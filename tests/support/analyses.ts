import { eq } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { analyses, analysisEvents, analysisMetrics, bookings } from '~/db/schema'
import { holdSession, type Customer } from '~/modules/booking/holds.server'
import { addDays, labInstant } from '~/lib/lab-time'
import type { Actor } from '~/modules/audit/audit.server'
import { openAnalysis } from '~/modules/analyses/analyses.server'
import { startAnalysis } from '~/modules/analyses/editing.server'
import { metricDefinition } from '~/modules/analyses/catalog'
import { createCustomers, setWindows } from './booking'

/**
 * Confirmed 3-day bookings for one customer's swimmer, one per start date given (each date starts
 * three consecutive open days), straight in the database.
 */
export async function confirmedBookings(dates: string[], customer?: Customer) {
  const owner = customer ?? (await createCustomers(1, `analysed${Date.now() % 100000}`))[0]!
  const windows = dates.flatMap((date) => [0, 1, 2].map((offset) => ({ date: addDays(date, offset) })))
  await setWindows(windows)
  const booked = []
  for (const date of dates) {
    const held = await holdSession({ customer: owner, productCode: 'biomechanical_package', date, start: '09:00', days: 3, now: addDays(labInstant(date), -30) })
    await db().update(bookings).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(bookings.id, held.bookingId))
    booked.push({ bookingId: held.bookingId, reference: held.reference })
  }
  return { customer: owner, bookings: booked }
}

/** A confirmed booking whose analysis `actor` (staff) has started. */
export async function startedAnalysis(actor: Actor) {
  const { bookings: [booking] } = await confirmedBookings(['2030-03-04'])
  return { bookingId: booking!.bookingId, analysisId: await startAnalysis(actor, booking!.bookingId) }
}

/**
 * An analysis of the booking with one event and these metric values (known keys), published at
 * `publishedAt` unless it is null (a draft).
 */
export async function recordedAnalysis(bookingId: number, { stroke = 'freestyle', distanceMetres = 50, metrics = {}, publishedAt = new Date() }: { stroke?: string; distanceMetres?: number; metrics?: Record<string, number>; publishedAt?: Date | null } = {}) {
  const analysisId = await openAnalysis(bookingId, null)
  const [event] = await db().insert(analysisEvents).values({ analysisId, stroke, distanceMetres }).returning({ id: analysisEvents.id })
  const rows = Object.entries(metrics).map(([key, value], position) => {
    const definition = metricDefinition(key)
    if (!definition) throw new Error(`Not a known metric: ${key}`)
    return { eventId: event!.id, metricKey: key, label: definition.label, unit: definition.unit, betterWhen: definition.betterWhen, value, position }
  })
  if (rows.length) await db().insert(analysisMetrics).values(rows)
  if (publishedAt) await db().update(analyses).set({ publishedAt }).where(eq(analyses.id, analysisId))
  return { analysisId, eventId: event!.id }
}
