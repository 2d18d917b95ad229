import { eq } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { analyses, bookings } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'

/**
 * The analysis of a booking, opened as a draft the first time staff open "Analysis" on it. Only a
 * confirmed booking is analysed; the analysis belongs to the booking's swimmer profile, if it has one.
 */
export async function openAnalysis(bookingId: number, staffId: number | null, now = new Date()) {
  return db().transaction(async (tx) => {
    const [booking] = await tx.select({ status: bookings.status, swimmerId: bookings.swimmerId }).from(bookings).where(eq(bookings.id, bookingId)).for('update')
    if (!booking) throw new DomainError('not_found', 'No such booking.')
    const [existing] = await tx.select({ id: analyses.id }).from(analyses).where(eq(analyses.bookingId, bookingId))
    if (existing) return existing.id
    if (booking.status !== 'confirmed') throw new DomainError('conflict', 'Only a confirmed booking can be analysed.')
    const [created] = await tx.insert(analyses).values({ bookingId, swimmerId: booking.swimmerId, createdBy: staffId, createdAt: now, updatedAt: now }).returning({ id: analyses.id })
    return created!.id
  })
}

/** The analysis of a booking, if staff have opened one. */
export async function analysisIdOfBooking(bookingId: number) {
  const [row] = await db().select({ id: analyses.id }).from(analyses).where(eq(analyses.bookingId, bookingId))
  return row?.id ?? null
}
