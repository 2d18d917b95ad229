import { and, eq, isNotNull, ne, or } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { payments, refunds, type PaymentState } from '~/db/schema'
import type { PayableKind } from './payable-contract.server'
import { payableColumn } from './payments.server'

/** A payment as every status page shows it, whatever it paid for (a booking, a camp registration). */
export type PaymentStatus = {
  orderId: string
  paymentState: PaymentState
  transactionId: string | null
  completedAt: Date | null
  amountPaise: number
  /** A refund of it is asked or under way (or done): one that failed does not count. */
  refundPending: boolean
}

/**
 * Which payment a status link names: our order id, or a transaction id (the gateway's, pasted from a
 * receipt or a bank statement, or the order id itself, as the lab's first site put it there).
 */
export type StatusKey = { orderId?: string | null; transactionId?: string | null }

function keyOf({ orderId, transactionId }: StatusKey) {
  if (orderId) return eq(payments.orderId, orderId)
  return transactionId ? or(eq(payments.transactionId, transactionId), eq(payments.orderId, transactionId)) : null
}

/** The order id of a payment for this kind of payable that a status link names, or null. */
export async function orderIdOf(kind: PayableKind, key: StatusKey): Promise<string | null> {
  const where = keyOf(key)
  if (!where) return null
  const [row] = await db()
    .select({ orderId: payments.orderId })
    .from(payments)
    .where(and(isNotNull(payableColumn(kind)), where))
    .limit(1)
  return row?.orderId ?? null
}

/**
 * A payment for this kind of payable with what it paid for, for its status page: the payment found
 * by its key, then the payable described by its own module (`describe`, which also says who may see
 * it: null when the caller may not).
 */
export async function paymentStatusOf<Payable>(kind: PayableKind, key: StatusKey, describe: (payableId: number) => Promise<Payable | null>): Promise<(PaymentStatus & { payable: Payable }) | null> {
  const where = keyOf(key)
  if (!where) return null
  const column = payableColumn(kind)
  const [row] = await db()
    .select({
      paymentId: payments.id,
      payableId: column,
      orderId: payments.orderId,
      paymentState: payments.state,
      transactionId: payments.transactionId,
      completedAt: payments.completedAt,
      amountPaise: payments.amountPaise,
    })
    .from(payments)
    .where(and(isNotNull(column), where))
    .limit(1)
  if (!row) return null
  const payable = await describe(row.payableId!)
  if (payable === null) return null
  const [refund] = await db()
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.paymentId, row.paymentId), ne(refunds.state, 'failed')))
    .limit(1)
  const { paymentId: _paymentId, payableId: _payableId, ...payment } = row
  return { ...payment, refundPending: Boolean(refund), payable }
}
