import { desc, eq, exists } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { groupMembers } from './groups.server'
import { registrationDetails } from './fulfilment.server'
import { campBatches, campRegistrations, camps, campWaitlist, payments, type BookingStatus } from '~/db/schema'
import { orderIdOf, paymentStatusOf, type PaymentStatus } from '~/modules/payments/payment-status.server'

export type CampStatusView = PaymentStatus & {
  registrationStatus: BookingStatus
  reference: string
  swimmerName: string
  email: string
  phone: string
  campCode: string
  campName: string
  campStartsOn: string
  campEndsOn: string
  batchCode: string
  batchName: string
  timeRanges: Array<{ start: string; end: string }>
  /** The swimmers the payment is for, when it paid for several registered together; else empty. */
  group: Array<{ swimmerName: string; reference: string; amountPaise: number; status: BookingStatus }>
}

/** A camp payment with its registration, by our order id (the caller has checked the link key). */
export async function campPaymentView(orderId: string): Promise<CampStatusView | null> {
  const found = await paymentStatusOf('camp', { orderId }, async (registrationId) => {
    const row = await registrationDetails(db(), registrationId)
    const group = await groupMembers(db(), registrationId)
    return {
      registrationStatus: row.status,
      reference: row.reference,
      swimmerName: row.swimmerName,
      email: row.email,
      phone: row.phone,
      campCode: row.campCode,
      campName: row.campName,
      campStartsOn: row.startsOn,
      campEndsOn: row.endsOn,
      batchCode: row.batchCode,
      batchName: row.batchName,
      timeRanges: row.timeRanges,
      group: group.map(({ swimmerName, reference, amountPaise, status }) => ({ swimmerName, reference, amountPaise, status })),
    }
  })
  if (!found) return null
  const { payable, ...payment } = found
  return { ...payment, ...payable }
}

/**
 * The order a status link means by its `transactionId`: the lab's first site put its own order id
 * there, and a parent may paste the gateway's transaction id from their receipt or bank statement.
 */
export function campOrderIdFor(transactionId: string): Promise<string | null> {
  return orderIdOf('camp', { transactionId })
}

/** A registration whose seat is held for payment, from the form or the waitlist (its summary page; the caller has checked the link key). */
export async function offeredRegistration(reference: string) {
  const [row] = await db()
    .select({
      id: campRegistrations.id,
      reference: campRegistrations.reference,
      status: campRegistrations.status,
      holdExpiresAt: campRegistrations.holdExpiresAt,
      amountPaise: campRegistrations.amountPaise,
      swimmerName: campRegistrations.swimmerName,
      email: campRegistrations.email,
      campName: camps.name,
      campStartsOn: camps.startsOn,
      campEndsOn: camps.endsOn,
      batchName: campBatches.name,
      timeRanges: campBatches.timeRanges,
      fromWaitlist: exists(db().select({ id: campWaitlist.id }).from(campWaitlist).where(eq(campWaitlist.registrationId, campRegistrations.id))),
    })
    .from(campRegistrations)
    .innerJoin(camps, eq(camps.id, campRegistrations.campId))
    .innerJoin(campBatches, eq(campBatches.id, campRegistrations.batchId))
    .where(eq(campRegistrations.reference, reference))
  return row ?? null
}

/** The order id of a registration's latest payment, if it has one. */
export async function latestCampOrder(registrationId: number): Promise<string | null> {
  const [row] = await db().select({ orderId: payments.orderId }).from(payments).where(eq(payments.campRegistrationId, registrationId)).orderBy(desc(payments.id)).limit(1)
  return row?.orderId ?? null
}

/** The reference of a registration whose seat is still held for payment (its summary's link names it), or null. */
export async function heldSeatAddress(registrationId: number, now = new Date()): Promise<string | null> {
  const [row] = await db().select({ reference: campRegistrations.reference, status: campRegistrations.status, holdExpiresAt: campRegistrations.holdExpiresAt }).from(campRegistrations).where(eq(campRegistrations.id, registrationId))
  return row?.status === 'pending' && row.holdExpiresAt && row.holdExpiresAt > now ? row.reference : null
}
