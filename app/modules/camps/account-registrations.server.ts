import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { campBatches, campRegistrations, camps } from '~/db/schema'

/**
 * A customer's camp registrations, on My Bookings and on staff's customer page: those made under their account, and those
 * made without one under their verified e-mail address (camp registrations need no account), newest
 * first, each with its swimmer's id (none for a registration made without an account). Unpaid
 * attempts that lapsed or failed are left out.
 */
export function accountCampRegistrations(accountId: number, verifiedEmail: string) {
  return db()
    .select({
      id: campRegistrations.id,
      reference: campRegistrations.reference,
      campName: camps.name,
      startsOn: camps.startsOn,
      endsOn: camps.endsOn,
      batchName: campBatches.name,
      swimmerName: campRegistrations.swimmerName,
      swimmerId: campRegistrations.swimmerId,
      phone: campRegistrations.phone,
      amountPaise: campRegistrations.amountPaise,
      status: campRegistrations.status,
      createdAt: campRegistrations.createdAt,
    })
    .from(campRegistrations)
    .innerJoin(camps, eq(camps.id, campRegistrations.campId))
    .innerJoin(campBatches, eq(campBatches.id, campRegistrations.batchId))
    .where(
      and(
        or(eq(campRegistrations.accountId, accountId), and(isNull(campRegistrations.accountId), sql`lower(${campRegistrations.email}) = ${verifiedEmail.toLowerCase()}`)),
        inArray(campRegistrations.status, ['pending', 'confirmed', 'cancelled', 'refund_pending', 'refunded']),
      ),
    )
    .orderBy(desc(campRegistrations.createdAt), asc(campRegistrations.id))
}
