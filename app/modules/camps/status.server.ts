import { and, desc, eq, exists, isNotNull, or } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { groupMembers } from './groups.server'
import { campBatches, campRegistrations, camps, campWaitlist, payments, refunds, type BookingStatus, type PaymentState } from '~/db/schema'

export type CampStatusView = {
  orderId: string
  paymentState: PaymentState
  transactionId: string | null
  completedAt: Date | null
  amountPaise: number
  registrationStatus: BookingStatus
  refunding: boolean
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
  const [row] = await db()
    .select({
      orderId: payments.orderId,
      paymentId: payments.id,
      paymentState: payments.state,
      transactionId: payments.transactionId,
      completedAt: payments.completedAt,
      amountPaise: payments.amountPaise,
      registrationId: campRegistrations.id,
      registrationStatus: campRegistrations.status,
      reference: campRegistrations.reference,
      swimmerName: campRegistrations.swimmerName,
      email: campRegistrations.email,
      phone: campRegistrations.phone,
      campCode: camps.code,
      campName: camps.name,
      campStartsOn: camps.startsOn,
      campEndsOn: camps.endsOn,
      batchCode: campBatches.code,
      batchName: campBatches.name,
      timeRanges: campBatches.timeRanges,
    })
    .from(payments)
    .innerJoin(campRegistrations, eq(campRegistrations.id, payments.campRegistrationId))
    .innerJoin(camps, eq(camps.id, campRegistrations.campId))
    .innerJoin(campBatches, eq(campBatches.id, campRegistrations.batchId))
    .where(eq(payments.orderId, orderId))
  if (!row) return null
  const [refund] = await db().select({ state: refunds.state }).from(refunds).where(eq(refunds.paymentId, row.paymentId)).limit(1)
  const group = await groupMembers(db(), row.registrationId)
  const { paymentId: _paymentId, registrationId: _registrationId, ...view } = row
  return { ...view, refunding: Boolean(refund && refund.state !== 'failed'), group: group.map(({ swimmerName, reference, amountPaise, status }) => ({ swimmerName, reference, amountPaise, status })) }
}

/**
 * The order a status link means by its `transactionId`: the lab's first site put its own order id
 * there, and a parent may paste the gateway's transaction id from their receipt or bank statement.
 */
export async function campOrderIdFor(transactionId: string): Promise<string | null> {
  const [row] = await db()
    .select({ orderId: payments.orderId })
    .from(payments)
    .where(and(isNotNull(payments.campRegistrationId), or(eq(payments.orderId, transactionId), eq(payments.transactionId, transactionId))))
    .limit(1)
  return row?.orderId ?? null
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
