import { and, eq, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { bookings, catalogueItems, payments, receipts, receiptSequences, refunds, siteSettings } from '~/db/schema'
import { sessionLocationIn } from '~/modules/site/site.server'
import { formatLongDate } from '~/lib/lab-time'
import { bookingDaysOf } from '~/modules/booking/bookings.server'
import { bookingDayLines } from '~/modules/booking/texts'
import { batchTimes, registrationDetails } from '~/modules/camps/fulfilment.server'
import { groupMembers } from '~/modules/camps/groups.server'
import { formatReceiptNumber, financialYearOf } from './receipt-number'
import type { ReceiptDocument } from './receipt-pdf.server'

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
type ReceiptOwner = { userId: number | null; email: string }

/** The receipt of an order, ready to render, with its owner; null when the order has no receipt. */
export async function receiptOf(orderId: string): Promise<{ document: ReceiptDocument; owner: ReceiptOwner; bookingId: number | null } | null> {
  const [row] = await db()
    .select({
      paymentId: payments.id,
      orderId: payments.orderId,
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
  const [settings] = await db()
    .select({ legalName: siteSettings.legalName, address: siteSettings.postalAddress, gstin: siteSettings.gstin, rate: siteSettings.gstRateBasisPoints, email: siteSettings.supportEmail, phone: siteSettings.phone })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
  // Refunded when the whole amount went back (one swimmer's fee back from a group's payment is not).
  const [refundedTotal] = await db()
    .select({ paise: sql<number>`coalesce(sum(${refunds.amountPaise}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, row.paymentId), eq(refunds.state, 'completed')))
  const refunded = (refundedTotal?.paise ?? 0) >= row.amountPaise
  const item = row.bookingId !== null ? await bookingItem(row.bookingId) : await campItem(row.campRegistrationId!)
  // A payment for several swimmers registered together: a line for each, with its own fee.
  const group = row.campRegistrationId !== null ? await campGroupLines(row.campRegistrationId) : null
  const gstin = settings!.gstin.trim() || null
  return {
    owner: item.owner,
    bookingId: row.bookingId,
    document: {
      receiptNumber: row.number,
      issuedAt: row.issuedAt,
      seller: { legalName: settings!.legalName, address: settings!.address, gstin, email: settings!.email, phone: settings!.phone },
      customer: item.customer,
      lines: group ?? [{ description: item.description, detail: item.detail, amountPaise: row.amountPaise }],
      payment: { orderId: row.orderId, transactionId: row.transactionId, method: paymentMethod(row.paymentMode), paidAt: row.completedAt ?? row.issuedAt },
      gstRateBasisPoints: gstin ? settings!.rate : null,
      status: refunded ? 'refunded' : 'paid',
    },
  }
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

async function bookingItem(bookingId: number) {
  const [booking] = await db()
    .select({ reference: bookings.reference, swimmerName: bookings.swimmerName, name: bookings.customerName, email: bookings.customerEmail, phone: bookings.customerPhone, userId: bookings.userId, productName: catalogueItems.name })
    .from(bookings)
    .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .where(eq(bookings.id, bookingId))
  const days = await bookingDaysOf(bookingId)
  const location = await sessionLocationIn(db())
  return {
    owner: { userId: booking!.userId, email: booking!.email },
    customer: { name: booking!.name, email: booking!.email, phone: booking!.phone },
    description: booking!.productName,
    detail: [
      `Swimmer: ${booking!.swimmerName}`,
      ...bookingDayLines(days).map(({ label, value }) => `${label}: ${value}`),
      `Location: ${location}`,
      `Booking ID: ${booking!.reference}`,
    ],
  }
}

async function campItem(registrationId: number) {
  const r = await registrationDetails(db(), registrationId)
  return {
    owner: { userId: null, email: r.email },
    customer: { name: r.swimmerName, email: r.email, phone: r.phone },
    description: `${r.campName} swimming camp`,
    detail: [
      `Swimmer: ${r.swimmerName}`,
      `${formatLongDate(r.startsOn)} to ${formatLongDate(r.endsOn)}, ${r.venue}`,
      `${r.batchName}: ${batchTimes(r.timeRanges)}`,
      `Registration ID: ${r.reference}`,
    ],
  }
}

async function campGroupLines(leadId: number) {
  const members = await groupMembers(db(), leadId)
  if (members.length === 0) return null
  return Promise.all(
    members.map(async (member) => {
      const { description, detail } = await campItem(member.id)
      return { description, detail, amountPaise: member.amountPaise }
    }),
  )
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
