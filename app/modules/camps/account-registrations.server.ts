import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { campBatches, campRegistrations, camps, payments } from '~/db/schema'

/**
 * A customer's camp registrations, on My Bookings and on staff's customer page: those made under their account, and those
 * made without one under their verified e-mail address (camp registrations need no account), newest
 * first, each with its swimmer's id (none for a registration made without an account) and the order id
 * of its payment (a group's, for places paid together). Unpaid attempts that lapsed or failed are left out.
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
      timeRanges: campBatches.timeRanges,
      accountId: campRegistrations.accountId,
      swimmerName: campRegistrations.swimmerName,
      swimmerId: campRegistrations.swimmerId,
      phone: campRegistrations.phone,
      amountPaise: campRegistrations.amountPaise,
      status: campRegistrations.status,
      createdAt: campRegistrations.createdAt,
      paidOrderId: sql<string | null>`(SELECT ${payments.orderId} FROM ${payments} WHERE ${payments.campRegistrationId} = coalesce(${campRegistrations.groupId}, ${campRegistrations.id}) AND ${payments.state} = 'completed' ORDER BY ${payments.id} LIMIT 1)`,
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
