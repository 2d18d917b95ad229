import { and, asc, desc, eq, inArray, isNull, notExists, or, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { db, type Executor } from '~/db/client.server'
import { campBatches, campRegistrations, camps, campWaitlist, guardianConsents, payments, refunds, type RefundState } from '~/db/schema'
import { campSeatsTaken, holdsCampSeat, waitingCounts } from './camps.server'
import { batchColumns, campColumns, registrationContactAndPriceColumns } from '~/db/camp-columns.server'

/** What staff see of camps: every camp with its seats, one camp's registrations and waitlist, and their export. */

/** Batches in the order of their day: by the start of their first session. */
const batchOrder = [asc(sql`${campBatches.timeRanges}->0->>'start'`), asc(campBatches.code)]

/** What staff see of a batch's registrations: those holding a seat, and those called off after payment. */
function registrationsShown(now: Date) {
  return or(holdsCampSeat(now), inArray(campRegistrations.status, ['cancelled', 'refund_pending', 'refunded']))
}

async function withSeats<Batch extends { id: number }>(batches: Batch[], now: Date) {
  const ids = batches.map((batch) => batch.id)
  const [taken, waiting] = await Promise.all([campSeatsTaken(ids, now), waitingCounts(ids)])
  return batches.map((batch) => ({ ...batch, taken: taken.get(batch.id) ?? 0, waiting: waiting.get(batch.id) ?? 0 }))
}

/** Every camp with its batches, seats taken and people waiting per batch. */
export async function staffCampOverview(now = new Date()) {
  const campRows = await db().select(campColumns).from(camps).orderBy(asc(camps.sortOrder), asc(camps.startsOn), asc(camps.id))
  const batches = await withSeats(await db().select(batchColumns).from(campBatches).orderBy(...batchOrder), now)
  return campRows.map((camp) => ({ ...camp, batches: batches.filter((batch) => batch.campId === camp.id) }))
}

/** A camp's name by its code, or null: enough for a page to know the camp exists. */
export async function findCamp(code: string) {
  const [camp] = await db().select({ code: camps.code, name: camps.name }).from(camps).where(eq(camps.code, code))
  return camp ?? null
}

/** One camp for staff: its batches with seats, registrations and waitlist (in queue order). */
export async function staffCamp(code: string, now = new Date()) {
  const [camp] = await db().select(campColumns).from(camps).where(eq(camps.code, code))
  if (!camp) return null
  const batches = await withSeats(await db().select(batchColumns).from(campBatches).where(eq(campBatches.campId, camp.id)).orderBy(...batchOrder), now)
  const registrations = await db()
    .select({
      reference: campRegistrations.reference,
      batchId: campRegistrations.batchId,
      ...registrationContactAndPriceColumns,
      status: campRegistrations.status,
      createdAt: campRegistrations.createdAt,
      refundable: sql<boolean>`EXISTS (${refundablePayments(db(), sql`${campRegistrations.id}`)})`,
      /** When the person registering declared the swimmer an adult or themselves the parent (a guest's form). */
      declaredAt: sql<Date | null>`(${db().select({ givenAt: guardianConsents.givenAt }).from(guardianConsents).where(eq(guardianConsents.campRegistrationId, campRegistrations.id)).orderBy(desc(guardianConsents.id)).limit(1)})`.mapWith(guardianConsents.givenAt),
      latestRefund: sql<RefundState | null>`(${db()
        .select({ state: refunds.state })
        .from(refunds)
        .innerJoin(payments, eq(payments.id, refunds.paymentId))
        .where(or(eq(refunds.campRegistrationId, campRegistrations.id), and(isNull(refunds.campRegistrationId), sql`${payments.campRegistrationId} = coalesce(${campRegistrations.groupId}, ${campRegistrations.id})`)))
        .orderBy(desc(refunds.id))
        .limit(1)})`,
    })
    .from(campRegistrations)
    .where(and(eq(campRegistrations.campId, camp.id), registrationsShown(now)))
    .orderBy(asc(campRegistrations.createdAt), asc(campRegistrations.id))
  const waitlist = await db()
    .select({
      id: campWaitlist.id,
      batchId: campWaitlist.batchId,
      swimmerName: campWaitlist.swimmerName,
      email: campWaitlist.email,
      phone: campWaitlist.phone,
      status: campWaitlist.status,
      createdAt: campWaitlist.createdAt,
      confirmedAt: campWaitlist.confirmedAt,
      offerExpiresAt: campRegistrations.holdExpiresAt,
    })
    .from(campWaitlist)
    .leftJoin(campRegistrations, eq(campRegistrations.id, campWaitlist.registrationId))
    .where(and(eq(campWaitlist.campId, camp.id), inArray(campWaitlist.status, ['waiting', 'offered'])))
    // The queue's order (by confirmation); entries not confirmed yet, which are not in it, last.
    .orderBy(sql`${campWaitlist.confirmedAt} ASC NULLS LAST`, asc(campWaitlist.id))
  return {
    camp,
    batches: batches.map((batch) => ({
      ...batch,
      registrations: registrations.filter((registration) => registration.batchId === batch.id),
      waitlist: waitlist.filter((entry) => entry.batchId === batch.id),
    })),
  }
}

/**
 * Completed payments of a registration whose money is not already going back: a duplicate payment
 * refunded automatically stays 'completed', and must not be refunded twice. A registration paid
 * for with others (a group) is refunded its own fee from their payment, once.
 */
export function refundablePayments(executor: Executor, registrationId: SQL | number) {
  const registration = alias(campRegistrations, 'refundable_registration')
  return executor
    .select({ id: payments.id, amountPaise: sql<number>`CASE WHEN ${registration.groupId} IS NULL THEN ${payments.amountPaise} ELSE ${registration.amountPaise} END`, group: sql<boolean>`${registration.groupId} IS NOT NULL` })
    .from(payments)
    .innerJoin(registration, sql`${registration.id} = ${registrationId} AND ${payments.campRegistrationId} = coalesce(${registration.groupId}, ${registration.id})`)
    .where(
      and(
        eq(payments.state, 'completed'),
        // A registration a promo code made free has nothing to give back.
        sql`CASE WHEN ${registration.groupId} IS NULL THEN ${payments.amountPaise} ELSE ${registration.amountPaise} END > 0`,
        notExists(
          executor
            .select({ id: refunds.id })
            .from(refunds)
            .where(and(eq(refunds.paymentId, payments.id), inArray(refunds.state, ['pending', 'completed']), or(isNull(refunds.campRegistrationId), eq(refunds.campRegistrationId, registration.id)))),
        ),
      ),
    )
}

/** A camp's registrations as staff export them, batch by batch, with the order id of their payment. */
export async function campRegistrationsForExport(code: string, now = new Date()) {
  const [camp] = await db().select({ id: camps.id }).from(camps).where(eq(camps.code, code))
  if (!camp) return null
  return db()
    .select({
      swimmerName: campRegistrations.swimmerName,
      email: campRegistrations.email,
      phone: campRegistrations.phone,
      campName: camps.name,
      batchName: campBatches.name,
      status: campRegistrations.status,
      amountPaise: campRegistrations.amountPaise,
      reference: campRegistrations.reference,
      // The payment that completed, else the latest attempt.
      orderId: sql<string | null>`(SELECT ${payments.orderId} FROM ${payments} WHERE ${payments.campRegistrationId} = coalesce(${campRegistrations.groupId}, ${campRegistrations.id}) ORDER BY (${payments.state} = 'completed') DESC, ${payments.id} DESC LIMIT 1)`,
      createdAt: campRegistrations.createdAt,
    })
    .from(campRegistrations)
    .innerJoin(camps, eq(camps.id, campRegistrations.campId))
    .innerJoin(campBatches, eq(campBatches.id, campRegistrations.batchId))
    .where(and(eq(campRegistrations.campId, camp.id), registrationsShown(now)))
    .orderBy(...batchOrder, asc(campRegistrations.createdAt), asc(campRegistrations.id))
}
