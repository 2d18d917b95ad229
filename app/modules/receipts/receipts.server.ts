import { and, eq, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { payments, receipts, receiptSequences, refunds, siteSettings } from '~/db/schema'
import { promoOfOrder } from '~/modules/promotions/uses.server'
import { formatReceiptNumber, financialYearOf } from './receipt-number'
import type { ReceiptDocument } from './receipt-pdf.server'
import { receiptItems } from './receipt-items.server'

/** The gateway of an order a promo code took to nothing: recorded as paid, through no gateway. */
export const FREE_GATEWAY = 'free'

/**
 * Issues the receipt of a payment that just completed, inside that payment's transaction: the next
 * number of the financial year (Asia/Kolkata), taken with one atomic upsert, so numbers are
 * sequential without gaps or repeats, whatever the concurrency.
 */
export async function issueReceipt(tx: Executor, paymentId: number, now: Date) {
  const { startYear } = financialYearOf(now)
  const [row] = await tx
    .insert(receiptSequences)
    .values({ financialYear: startYear, lastNumber: 1 })
    .onConflictDoUpdate({ target: receiptSequences.financialYear, set: { lastNumber: sql`${receiptSequences.lastNumber} + 1` } })
    .returning({ sequence: receiptSequences.lastNumber })
  const sequence = row!.sequence
  await tx.insert(receipts).values({ paymentId, number: formatReceiptNumber(startYear, sequence), financialYear: startYear, sequence, issuedAt: now })
}

/** Who paid for what, for deciding who may download the receipt of an order. */
export type ReceiptOwner = { userId: number | null; email: string }

/** The receipt of an order, ready to render, with its owner; null when the order has no receipt. */
export async function receiptOf(orderId: string, executor: Executor = db()): Promise<{ document: ReceiptDocument; owner: ReceiptOwner; bookingId: number | null } | null> {
  const [row] = await executor
    .select({
      paymentId: payments.id,
      orderId: payments.orderId,
      gateway: payments.gateway,
      transactionId: payments.transactionId,
      paymentMode: payments.paymentMode,
      completedAt: payments.completedAt,
      amountPaise: payments.amountPaise,
      bookingId: payments.bookingId,
      campRegistrationId: payments.campRegistrationId,
      number: receipts.number,
      issuedAt: receipts.issuedAt,
    })
    .from(payments)
    .innerJoin(receipts, eq(receipts.paymentId, payments.id))
    .where(eq(payments.orderId, orderId))
  if (!row) return null
  const seller = await sellerIn(executor)
  // Refunded when the whole amount went back (one swimmer's fee back from a group's payment is not).
  const [refundedTotal] = await executor
    .select({ paise: sql<number>`coalesce(sum(${refunds.amountPaise}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, row.paymentId), eq(refunds.state, 'completed')))
  const refunded = row.amountPaise > 0 && (refundedTotal?.paise ?? 0) >= row.amountPaise
  const promoCode = await promoCodeOf(executor, row)
  const items = receiptItems()
  const item = row.bookingId !== null ? await items.booking(executor, row.bookingId, promoCode) : await items.camp(executor, row.campRegistrationId!, promoCode)
  // A payment for several swimmers registered together: a line for each, with its own fee.
  const group = row.campRegistrationId !== null ? await items.campGroup(executor, row.campRegistrationId, promoCode) : null
  const free = row.gateway === FREE_GATEWAY
  return {
    owner: item.owner,
    bookingId: row.bookingId,
    document: {
      receiptNumber: row.number,
      issuedAt: row.issuedAt,
      seller: seller.seller,
      customer: item.customer,
      lines: group ?? [{ description: item.description, detail: item.detail, amountPaise: row.amountPaise, discounts: item.discounts }],
      payment: { orderId: row.orderId, transactionId: row.transactionId, method: free ? null : paymentMethod(row.paymentMode), paidAt: row.completedAt ?? row.issuedAt },
      gstRateBasisPoints: seller.gstRateBasisPoints,
      status: refunded ? 'refunded' : 'paid',
      ...(free ? { free: { promoCode } } : {}),
    },
  }
}

/** The lab as its receipts and credit notes name it, with the GST rate its prices include (none without a GSTIN). */
export async function sellerIn(executor: Executor) {
  const [settings] = await executor
    .select({ legalName: siteSettings.legalName, address: siteSettings.postalAddress, gstin: siteSettings.gstin, rate: siteSettings.gstRateBasisPoints, email: siteSettings.supportEmail, phone: siteSettings.phone })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
  const gstin = settings!.gstin.trim() || null
  return { seller: { legalName: settings!.legalName, address: settings!.address, gstin, email: settings!.email, phone: settings!.phone }, gstRateBasisPoints: gstin ? settings!.rate : null }
}

const METHODS: Array<[RegExp, string]> = [
  [/UPI/i, 'UPI'],
  [/CARD/i, 'Card'],
  [/NET_?BANKING/i, 'Net banking'],
  [/WALLET/i, 'Wallet'],
]

function paymentMethod(mode: string | null) {
  if (!mode) return null
  return METHODS.find(([pattern]) => pattern.test(mode))?.[1] ?? mode
}

/** The code the order was paid with (a group's use sits on its first registration), or null. */
async function promoCodeOf(executor: Executor, order: { bookingId: number | null; campRegistrationId: number | null }) {
  const promo = await promoOfOrder(executor, order.bookingId !== null ? { bookingId: order.bookingId } : { campRegistrationId: order.campRegistrationId! })
  return promo?.code ?? null
}

/**
 * May this person download the receipt? Its customer (the account that booked, or an account
 * verified for the address it was booked under) and staff may; so may anyone holding a link the
 * site made for it (checked by the caller).
 */
export function mayDownloadReceipt(owner: ReceiptOwner, user: { id: number; email: string; isAdmin: boolean } | null) {
  if (!user) return false
  return user.isAdmin || owner.userId === user.id || (owner.userId === null && owner.email.toLowerCase() === user.email.toLowerCase())
}
