import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { db, type Executor } from '~/db/client.server'
import { campRegistrations, creditNotes, creditNoteSequences, payments, receipts, refunds, type MailAttachment } from '~/db/schema'
import { splitGst, splitIgst } from '~/lib/money'
import { logger } from '~/lib/logger.server'
import { formatCreditNoteNumber, financialYearOf, LAB_SERIES_PREFIX } from './receipt-number'
import { renderCreditNotePdf, type CreditNoteDocument } from './credit-note-pdf.server'
import { receiptItems } from './receipt-items.server'
import { issuedWith, placeOfSupplyOf, sellerIn, type ReceiptOwner } from './receipts.server'

/**
 * Issues the credit note of a refund that just completed, inside the transaction that completed it
 * (which holds the refund's row): the next number of the financial year's credit note series
 * (Asia/Kolkata), taken with one atomic upsert as receipts' are, so numbers run without gaps or
 * repeats, in the receipt's series. The tax it reverses is the GST the receipt charged, as the
 * receipt recorded it: under its GSTIN, at its rate, as CGST and SGST or as IGST. A refund already
 * credited gets no second note (null), nor does a payment without a receipt, which has nothing to credit.
 */
export async function issueCreditNote(tx: Executor, refundRowId: number, now: Date): Promise<number | null> {
  const [refund] = await tx
    .select({ amountPaise: refunds.amountPaise, reason: refunds.reason, receiptId: receipts.id, credited: creditNotes.id, series: receipts.series, gstin: receipts.sellerGstin, taxKind: receipts.taxKind, rate: receipts.gstRateBasisPoints })
    .from(refunds)
    .leftJoin(receipts, eq(receipts.paymentId, refunds.paymentId))
    .leftJoin(creditNotes, eq(creditNotes.refundId, refunds.id))
    .where(eq(refunds.id, refundRowId))
  if (!refund || refund.credited !== null) return null
  if (refund.receiptId === null) {
    logger().warn({ refundRowId }, 'a refund completed for a payment without a receipt: no credit note')
    return null
  }
  const rate = refund.taxKind === 'none' ? null : refund.rate
  const tax =
    rate === null
      ? { taxablePaise: refund.amountPaise, cgstPaise: 0, sgstPaise: 0, igstPaise: 0 }
      : refund.taxKind === 'igst'
        ? { ...splitIgst(refund.amountPaise, rate), cgstPaise: 0, sgstPaise: 0 }
        : { ...splitGst(refund.amountPaise, rate), igstPaise: 0 }
  const series = refund.series!
  const { startYear } = financialYearOf(now)
  const [row] = await tx
    .insert(creditNoteSequences)
    .values({ series, financialYear: startYear, lastNumber: 1 })
    .onConflictDoUpdate({ target: [creditNoteSequences.series, creditNoteSequences.financialYear], set: { lastNumber: sql`${creditNoteSequences.lastNumber} + 1` } })
    .returning({ sequence: creditNoteSequences.lastNumber })
  const sequence = row!.sequence
  const [note] = await tx
    .insert(creditNotes)
    .values({
      refundId: refundRowId,
      receiptId: refund.receiptId,
      number: formatCreditNoteNumber(startYear, sequence, series || LAB_SERIES_PREFIX),
      series,
      financialYear: startYear,
      sequence,
      amountPaise: refund.amountPaise,
      gstin: refund.gstin ?? '',
      gstRateBasisPoints: refund.gstin ? rate : null,
      ...tax,
      reason: refund.reason,
      issuedAt: now,
    })
    .returning({ id: creditNotes.id })
  return note!.id
}

type CreditNote = { document: CreditNoteDocument; owner: ReceiptOwner; bookingId: number | null }

/** A refund's credit note, by the refund's id, ready to render, with who it belongs to; null when there is none. */
export function creditNoteOf(refundId: string, executor: Executor = db()): Promise<CreditNote | null> {
  return creditNoteWhere(executor, eq(refunds.refundId, refundId))
}

async function creditNoteWhere(executor: Executor, where: SQL): Promise<CreditNote | null> {
  const [row] = await executor
    .select({
      number: creditNotes.number,
      issuedAt: creditNotes.issuedAt,
      amountPaise: creditNotes.amountPaise,
      gstin: creditNotes.gstin,
      rate: creditNotes.gstRateBasisPoints,
      taxablePaise: creditNotes.taxablePaise,
      cgstPaise: creditNotes.cgstPaise,
      sgstPaise: creditNotes.sgstPaise,
      igstPaise: creditNotes.igstPaise,
      reason: creditNotes.reason,
      receiptNumber: receipts.number,
      receiptIssuedAt: receipts.issuedAt,
      ...issuedWith,
      refundId: refunds.refundId,
      part: refunds.campRegistrationId,
      completedAt: refunds.completedAt,
      byHand: refunds.settledByHand,
      orderId: payments.orderId,
      paidPaise: payments.amountPaise,
      bookingId: payments.bookingId,
      campRegistrationId: payments.campRegistrationId,
    })
    .from(creditNotes)
    .innerJoin(refunds, eq(refunds.id, creditNotes.refundId))
    .innerJoin(receipts, eq(receipts.id, creditNotes.receiptId))
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(where)
  if (!row) return null
  const seller = await sellerIn(executor)
  const items = receiptItems()
  const item = row.bookingId !== null ? await items.booking(executor, row.bookingId, null, { name: row.supplyVenueName, address: row.supplyVenueAddress }) : await items.camp(executor, row.part ?? row.campRegistrationId!)
  // The whole of a group's payment back: a line for each swimmer it paid for.
  const group = row.bookingId === null && row.part === null && row.amountPaise === row.paidPaise ? await items.campGroup(executor, row.campRegistrationId!) : null
  return {
    owner: item.owner,
    bookingId: row.bookingId,
    document: {
      number: row.number,
      issuedAt: row.issuedAt,
      seller: { ...seller, gstin: row.gstin || null },
      customer: item.customer,
      against: { receiptNumber: row.receiptNumber, issuedAt: row.receiptIssuedAt },
      lines: group?.map(({ description, detail, amountPaise }) => ({ description, detail, amountPaise })) ?? [{ description: item.description, detail: item.detail, amountPaise: row.amountPaise }],
      amountPaise: row.amountPaise,
      tax: row.gstin && row.rate ? { rateBasisPoints: row.rate, taxablePaise: row.taxablePaise, cgstPaise: row.cgstPaise, sgstPaise: row.sgstPaise, igstPaise: row.igstPaise, interState: row.taxKind === 'igst' } : null,
      placeOfSupply: placeOfSupplyOf(row),
      reason: row.reason,
      refund: { refundId: row.refundId, orderId: row.orderId, completedAt: row.completedAt ?? row.issuedAt, byHand: row.byHand },
    },
  }
}

/** The file name a credit note is downloaded and attached under: its number, without slashes. */
export function creditNoteFileName(number: string) {
  return `credit-note-${number.replaceAll('/', '-')}.pdf`
}

/** A credit note as an e-mail attachment, read in the transaction that issued it. */
export async function creditNoteAttachment(executor: Executor, creditNoteId: number): Promise<MailAttachment> {
  const note = await creditNoteWhere(executor, eq(creditNotes.id, creditNoteId))
  const pdf = await renderCreditNotePdf(note!.document)
  return { filename: creditNoteFileName(note!.document.number), contentType: 'application/pdf', contentBase64: pdf.toString('base64') }
}

/** A credit note as a list shows it: its number, date and amount, and the refund it is downloaded by. */
export type CreditNoteSummary = { refundId: string; number: string; issuedAt: Date; amountPaise: number }

const summaryColumns = { refundId: refunds.refundId, number: creditNotes.number, issuedAt: creditNotes.issuedAt, amountPaise: creditNotes.amountPaise }

function grouped<Key>(rows: Array<CreditNoteSummary & { key: Key }>) {
  const byKey = new Map<Key, CreditNoteSummary[]>()
  for (const { key, ...note } of rows) byKey.set(key, [...(byKey.get(key) ?? []), note])
  return byKey
}

/** The credit notes of refunds of these bookings' payments, by booking, oldest first. */
export async function creditNotesOfBookings(bookingIds: number[]) {
  if (bookingIds.length === 0) return new Map<number, CreditNoteSummary[]>()
  const rows = await db()
    .select({ ...summaryColumns, key: sql<number>`${payments.bookingId}` })
    .from(creditNotes)
    .innerJoin(refunds, eq(refunds.id, creditNotes.refundId))
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(inArray(payments.bookingId, bookingIds))
    .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.id))
  return grouped(rows)
}

/**
 * The credit notes that refund these camp registrations, by registration, oldest first: one
 * swimmer's fee refunded from a group's payment is that swimmer's; the whole payment refunded is
 * every registration's it paid for.
 */
export async function creditNotesOfRegistrations(registrationIds: number[]) {
  if (registrationIds.length === 0) return new Map<number, CreditNoteSummary[]>()
  return grouped(await registrationCreditNotes<number>(campRegistrations.id, inArray(campRegistrations.id, registrationIds)))
}

/** The credit notes of a camp's registrations, by the registration's reference, oldest first. */
export async function creditNotesOfCamp(campId: number) {
  return grouped(await registrationCreditNotes<string>(campRegistrations.reference, eq(campRegistrations.campId, campId)))
}

function registrationCreditNotes<Key extends number | string>(key: AnyPgColumn, where: SQL) {
  return db()
    .select({ ...summaryColumns, key: sql<Key>`${key}` })
    .from(creditNotes)
    .innerJoin(refunds, eq(refunds.id, creditNotes.refundId))
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .innerJoin(
      campRegistrations,
      or(eq(refunds.campRegistrationId, campRegistrations.id), and(isNull(refunds.campRegistrationId), eq(payments.campRegistrationId, sql`coalesce(${campRegistrations.groupId}, ${campRegistrations.id})`))),
    )
    .where(where)
    .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.id))
}
