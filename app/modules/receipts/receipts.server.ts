import { and, eq, sql } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { payments, receipts, receiptSequences, refunds, siteSettings, venues, type TaxKind } from '~/db/schema'
import { LAB_STATE_CODE } from '~/lib/gst-states'
import { promoOfOrder } from '~/modules/promotions/uses.server'
import { formatReceiptNumber, financialYearOf, LAB_SERIES_PREFIX } from './receipt-number'
import type { PlaceOfSupply, ReceiptDocument } from './receipt-pdf.server'
import { receiptItems, supplyVenue } from './receipt-items.server'

/** The gateway of an order a promo code took to nothing: recorded as paid, through no gateway. */
export const FREE_GATEWAY = 'free'

/** What a receipt is issued with, kept on it: the series, the seller's GSTIN ('' for none), the tax and its rate, and where the service is performed. */
type Supply = Pick<typeof receipts.$inferInsert, 'series' | 'sellerGstin' | 'taxKind' | 'gstRateBasisPoints' | 'supplyVenueName' | 'supplyVenueAddress' | 'supplyStateCode'>

type SupplyVenueRow = { name: string; address: string; city: string; stateCode: string; gstin: string | null; invoiceSeries: string | null }

/**
 * How a supply at `venue` is taxed. A family is not registered for GST, so the place of supply is
 * where the service is performed: the venue's state. A venue where the lab holds a registration of
 * its own is invoiced by it (its GSTIN, its series, CGST and SGST within its state); elsewhere the lab
 * invoices, with CGST and SGST in its own state and IGST at the full rate in another. Without a GSTIN
 * in the settings nothing is taxed; a GSTIN at a 0% rate issues a bill of supply, untaxed.
 */
export function taxOfSupply(settings: { gstin: string; rateBasisPoints: number }, venue: SupplyVenueRow): Supply {
  const place = supplyVenue(venue)
  const at = { supplyVenueName: place.name, supplyVenueAddress: place.address, supplyStateCode: venue.stateCode }
  const labGstin = settings.gstin.trim()
  if (!labGstin) return { ...at, series: '', sellerGstin: '', taxKind: 'none', gstRateBasisPoints: null }
  const rate = settings.rateBasisPoints > 0 ? settings.rateBasisPoints : null
  const own = venue.gstin && venue.invoiceSeries ? { series: venue.invoiceSeries, sellerGstin: venue.gstin } : null
  const taxKind: TaxKind = rate === null ? 'none' : own || venue.stateCode === LAB_STATE_CODE ? 'cgst_sgst' : 'igst'
  return { ...at, ...(own ?? { series: '', sellerGstin: labGstin }), taxKind, gstRateBasisPoints: rate }
}

const supplyVenueColumns = { name: venues.name, address: venues.address, city: venues.city, stateCode: venues.stateCode, gstin: venues.gstin, invoiceSeries: venues.invoiceSeries }

/** The supply a payment pays for: a booking at its sessions' venue, a camp registration at the lab's home. */
async function supplyOf(tx: Executor, paymentId: number): Promise<Supply> {
  const [payment] = await tx.select({ bookingId: payments.bookingId }).from(payments).where(eq(payments.id, paymentId))
  const where = payment?.bookingId != null ? eq(venues.id, await receiptItems().bookingVenue(tx, payment.bookingId)) : eq(venues.isHome, true)
  const [venue] = await tx.select(supplyVenueColumns).from(venues).where(where)
  const [settings] = await tx.select({ gstin: siteSettings.gstin, rateBasisPoints: siteSettings.gstRateBasisPoints }).from(siteSettings).where(eq(siteSettings.id, 1))
  return taxOfSupply(settings!, venue!)
}

/**
 * Issues the receipt of a payment that just completed, inside that payment's transaction, with how
 * it is taxed where it is performed (taxOfSupply): the next number of its series (the lab's, or a
 * venue registration's) and financial year (Asia/Kolkata), taken with one atomic upsert, so numbers
 * are sequential without gaps or repeats, whatever the concurrency.
 */
export async function issueReceipt(tx: Executor, paymentId: number, now: Date) {
  const supply = await supplyOf(tx, paymentId)
  const series = supply.series ?? ''
  const { startYear } = financialYearOf(now)
  const [row] = await tx
    .insert(receiptSequences)
    .values({ series, financialYear: startYear, lastNumber: 1 })
    .onConflictDoUpdate({ target: [receiptSequences.series, receiptSequences.financialYear], set: { lastNumber: sql`${receiptSequences.lastNumber} + 1` } })
    .returning({ sequence: receiptSequences.lastNumber })
  const sequence = row!.sequence
  await tx.insert(receipts).values({ paymentId, number: formatReceiptNumber(startYear, sequence, series || LAB_SERIES_PREFIX), financialYear: startYear, sequence, issuedAt: now, ...supply })
}

/** The receipt's columns that say how it was issued: its series, the seller's GSTIN and the tax, and the place of supply. */
export const issuedWith = {
  series: receipts.series,
  sellerGstin: receipts.sellerGstin,
  taxKind: receipts.taxKind,
  gstRateBasisPoints: receipts.gstRateBasisPoints,
  supplyVenueName: receipts.supplyVenueName,
  supplyVenueAddress: receipts.supplyVenueAddress,
  supplyStateCode: receipts.supplyStateCode,
}

/** The place of supply as a document shows it. */
export function placeOfSupplyOf(row: { supplyVenueName: string; supplyVenueAddress: string; supplyStateCode: string }): PlaceOfSupply {
  return { venueName: row.supplyVenueName, venueAddress: row.supplyVenueAddress, stateCode: row.supplyStateCode }
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
      ...issuedWith,
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
  const place = { name: row.supplyVenueName, address: row.supplyVenueAddress }
  const item = row.bookingId !== null ? await items.booking(executor, row.bookingId, promoCode, place) : await items.camp(executor, row.campRegistrationId!, promoCode)
  // A payment for several swimmers registered together: a line for each, with its own fee.
  const group = row.campRegistrationId !== null ? await items.campGroup(executor, row.campRegistrationId, promoCode) : null
  const free = row.gateway === FREE_GATEWAY
  return {
    owner: item.owner,
    bookingId: row.bookingId,
    document: {
      receiptNumber: row.number,
      issuedAt: row.issuedAt,
      seller: { ...seller, gstin: row.sellerGstin || null },
      customer: item.customer,
      lines: group ?? [{ description: item.description, detail: item.detail, amountPaise: row.amountPaise, discounts: item.discounts }],
      payment: { orderId: row.orderId, transactionId: row.transactionId, method: free ? null : paymentMethod(row.paymentMode), paidAt: row.completedAt ?? row.issuedAt },
      gstRateBasisPoints: row.gstRateBasisPoints,
      interState: row.taxKind === 'igst',
      placeOfSupply: placeOfSupplyOf(row),
      status: refunded ? 'refunded' : 'paid',
      ...(free ? { free: { promoCode } } : {}),
    },
  }
}

/** The lab as its receipts and credit notes name it; the GSTIN is the one each document was issued under. */
export async function sellerIn(executor: Executor) {
  const [settings] = await executor
    .select({ legalName: siteSettings.legalName, address: siteSettings.postalAddress, email: siteSettings.supportEmail, phone: siteSettings.phone })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
  return settings!
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
