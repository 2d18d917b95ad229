import { gstStateName } from '~/lib/gst-states'
import { formatGstRate, formatHalfGstRate, formatRupees, splitGst, splitIgst } from '~/lib/money'
import { formatLabDateThenTime } from '~/lib/lab-time'
import {
  AMOUNT_WIDTH,
  BOLD,
  CONTENT_WIDTH,
  drawBilledTo,
  drawFacts,
  drawFooter,
  drawHeader,
  drawNote,
  INK,
  keepTogether,
  MARGIN,
  MUTED,
  openDocument,
  REGULAR,
  RIGHT,
  rule,
  totalRow,
  type Customer,
  type Doc,
  type Seller,
} from './pdf-layout.server'

/** Taken off a line's price: "Sibling price", "Promo code SUMMER10". */
export type ReceiptDiscount = { label: string; amountPaise: number }

export type ReceiptLine = {
  description: string
  /** Lines under the description, e.g. 'Day 1: Tuesday, 1 December 2026, 9:00 AM - 10:00 AM'. */
  detail: string[]
  /** What was charged for it: its price less its discounts. */
  amountPaise: number
  discounts?: ReceiptDiscount[]
}

/** Where the service is performed: a venue's name and address, and its state's GST code. */
export type PlaceOfSupply = { venueName: string; venueAddress: string; stateCode: string }

export type ReceiptDocument = {
  receiptNumber: string
  issuedAt: Date
  seller: Seller
  customer: Customer
  lines: ReceiptLine[]
  payment: { orderId: string; transactionId: string | null; method: string | null; paidAt: Date }
  /** The GST rate the prices include, in basis points (1800 = 18 %); applies only when the seller has a GSTIN. */
  gstRateBasisPoints: number | null
  /** The GST is one IGST amount, the service being performed in another state than the seller's; else CGST and SGST halves. */
  interState?: boolean
  /** Where the service is performed; a document under a GSTIN names it. */
  placeOfSupply?: PlaceOfSupply
  status?: 'paid' | 'refunded'
  /** Nothing was paid: a promo code (named when known) covered the whole price. */
  free?: { promoCode: string | null }
}

/**
 * The receipt for a paid booking or camp registration as an A4 PDF. A seller with a GSTIN issues a
 * "Tax Invoice" showing the GST its prices include (or a "Bill of Supply" when no rate applies, as
 * GST rules name a document without tax); without a GSTIN it is a plain "Receipt" with no tax lines.
 */
export async function renderReceiptPdf(receipt: ReceiptDocument): Promise<Buffer> {
  const kind = documentKind(receipt)
  const { doc, finished } = await openDocument({ title: `${kind.title} ${receipt.receiptNumber}`, author: receipt.seller.legalName, createdAt: receipt.issuedAt })
  drawHeader(doc, { seller: receipt.seller, title: kind.title, numberLabel: kind.numberLabel, number: receipt.receiptNumber, issuedAt: receipt.issuedAt })
  if (receipt.status === 'refunded') drawNote(doc, { word: 'Refunded', sentence: 'The amount paid has been refunded to the customer.', background: '#fdecea', colour: '#a4161a' })
  if (receipt.free) drawNote(doc, { word: 'Free', sentence: freeSentence(receipt.free), background: '#e8f5ec', colour: '#1b5e20' })
  drawBilledTo(doc, receipt.customer)
  if (receipt.seller.gstin && receipt.placeOfSupply) drawPlaceOfSupply(doc, receipt.placeOfSupply)
  drawLines(doc, receipt.lines)
  drawTotals(doc, receipt, kind)
  drawFacts(doc, 'Payment', [
    ['Order ID', receipt.payment.orderId],
    ['Transaction ID', receipt.payment.transactionId],
    ['Method', receipt.payment.method],
    [receipt.free ? 'Ordered at' : 'Paid at', formatLabDateThenTime(receipt.payment.paidAt)],
  ])
  drawFooter(doc, receipt.seller, kind.title)
  doc.end()
  return finished
}

/** Why a receipt for nothing paid exists: said on the receipt and wherever it is shown. */
export function freeSentence({ promoCode }: { promoCode: string | null }) {
  return `No payment was needed: ${promoCode ? `promo code ${promoCode}` : 'a promo code'} covered the full price.`
}

type DocumentKind = { title: 'Receipt' | 'Tax Invoice' | 'Bill of Supply'; numberLabel: string; gstRateBasisPoints: number | null }

function documentKind({ seller, gstRateBasisPoints }: ReceiptDocument): DocumentKind {
  if (!seller.gstin) return { title: 'Receipt', numberLabel: 'Receipt No.', gstRateBasisPoints: null }
  if (gstRateBasisPoints === null || gstRateBasisPoints === 0) return { title: 'Bill of Supply', numberLabel: 'Bill No.', gstRateBasisPoints: null }
  return { title: 'Tax Invoice', numberLabel: 'Invoice No.', gstRateBasisPoints }
}

/** "Place of supply: Maharashtra (27)", and the venue where the service is performed. */
export function drawPlaceOfSupply(doc: Doc, place: PlaceOfSupply) {
  doc.font(BOLD).fontSize(10).fillColor(INK).text(`Place of supply: ${gstStateName(place.stateCode)} (${place.stateCode})`, MARGIN, doc.y, { width: CONTENT_WIDTH })
  doc.font(REGULAR).fontSize(9.5).fillColor(INK).text(`Service performed at ${[place.venueName, place.venueAddress].filter(Boolean).join(', ')}`, { width: CONTENT_WIDTH })
  doc.moveDown(1)
}

/** The tax rows of a total: CGST and SGST, each at half the rate, or IGST at the full rate. */
export function drawTaxRows(doc: Doc, tax: { rateBasisPoints: number; cgstPaise: number; sgstPaise: number; igstPaise: number; interState: boolean }, left: number, width: number) {
  if (tax.interState) {
    totalRow(doc, `IGST @ ${formatGstRate(tax.rateBasisPoints)}`, formatRupees(tax.igstPaise), left, width)
    return
  }
  const half = formatHalfGstRate(tax.rateBasisPoints)
  totalRow(doc, `CGST @ ${half}`, formatRupees(tax.cgstPaise), left, width)
  totalRow(doc, `SGST @ ${half}`, formatRupees(tax.sgstPaise), left, width)
}

/** A line's price before its discounts. */
export function listPriceOf(line: ReceiptLine) {
  return line.amountPaise + (line.discounts ?? []).reduce((sum, discount) => sum + discount.amountPaise, 0)
}

/** "−₹1,500.00": a discount, with a true minus sign. */
export function formatDiscount(amountPaise: number) {
  return `\u2212${formatRupees(amountPaise)}`
}

export function drawLines(doc: Doc, lines: ReceiptLine[], amountHeading = 'Amount') {
  const descriptionWidth = CONTENT_WIDTH - AMOUNT_WIDTH - 16
  const tableHeader = () => {
    const top = doc.y
    doc.rect(MARGIN, top, CONTENT_WIDTH, 20).fill('#eef1f4')
    doc.font(BOLD).fontSize(9).fillColor(INK)
    doc.text('Description', MARGIN + 8, top + 6, { width: descriptionWidth })
    doc.text(amountHeading, RIGHT - AMOUNT_WIDTH - 8, top + 6, { width: AMOUNT_WIDTH, align: 'right' })
    doc.y = top + 20
  }
  tableHeader()
  for (const line of lines) {
    const discounts = (line.discounts ?? []).filter((discount) => discount.amountPaise > 0)
    const rowHeight = measureLine(doc, line, descriptionWidth, discounts.length) + 16
    if (doc.y + rowHeight > doc.page.height - doc.page.margins.bottom) {
      doc.addPage()
      tableHeader()
    }
    const top = doc.y + 8
    const amountLeft = RIGHT - AMOUNT_WIDTH - 8
    doc.font(BOLD).fontSize(10.5).fillColor(INK).text(formatRupees(discounts.length ? listPriceOf(line) : line.amountPaise), amountLeft, top, { width: AMOUNT_WIDTH, align: 'right' })
    doc.text(line.description, MARGIN + 8, top, { width: descriptionWidth })
    doc.font(REGULAR).fontSize(9).fillColor(MUTED)
    for (const detail of line.detail) doc.text(detail, { width: descriptionWidth })
    if (discounts.length) {
      // The price, each discount as its own line, then what was charged for this line.
      doc.moveDown(0.3)
      for (const discount of discounts) amountRow(doc, discount.label, formatDiscount(discount.amountPaise), descriptionWidth, REGULAR)
      amountRow(doc, 'Amount', formatRupees(line.amountPaise), descriptionWidth, BOLD)
    }
    doc.y = top + rowHeight - 8
    rule(doc)
  }
}

function amountRow(doc: Doc, label: string, amount: string, descriptionWidth: number, font: string) {
  const top = doc.y
  doc.font(font).fontSize(9.5).fillColor(INK).text(label, MARGIN + 8, top, { width: descriptionWidth })
  doc.text(amount, RIGHT - AMOUNT_WIDTH - 8, top, { width: AMOUNT_WIDTH, align: 'right' })
}

function measureLine(doc: Doc, line: ReceiptLine, width: number, discountRows: number) {
  doc.font(BOLD).fontSize(10.5)
  let height = doc.heightOfString(line.description, { width })
  doc.font(REGULAR).fontSize(9)
  for (const detail of line.detail) height += doc.heightOfString(detail, { width })
  if (discountRows > 0) {
    doc.font(REGULAR).fontSize(9.5)
    height += doc.currentLineHeight(true) * (0.3 + discountRows + 1)
  }
  return height
}

function drawTotals(doc: Doc, receipt: ReceiptDocument, kind: DocumentKind) {
  const total = receipt.lines.reduce((sum, line) => sum + line.amountPaise, 0)
  const left = MARGIN + CONTENT_WIDTH * 0.45
  const width = RIGHT - 8 - left
  keepTogether(doc, kind.gstRateBasisPoints === null ? 40 : 110)
  doc.moveDown(0.6)
  if (kind.gstRateBasisPoints !== null) {
    const rate = kind.gstRateBasisPoints
    const interState = receipt.interState === true
    const tax = interState ? { ...splitIgst(total, rate), cgstPaise: 0, sgstPaise: 0 } : { ...splitGst(total, rate), igstPaise: 0 }
    totalRow(doc, 'Taxable value', formatRupees(tax.taxablePaise), left, width)
    drawTaxRows(doc, { ...tax, rateBasisPoints: rate, interState }, left, width)
    rule(doc, left)
    doc.moveDown(0.4)
  }
  doc.font(BOLD).fontSize(12).fillColor(INK)
  const top = doc.y
  doc.text('Amount paid', left, top, { width: width - AMOUNT_WIDTH })
  doc.text(formatRupees(total), RIGHT - AMOUNT_WIDTH - 8, top, { width: AMOUNT_WIDTH, align: 'right' })
  if (kind.gstRateBasisPoints !== null) {
    doc.font(REGULAR).fontSize(8.5).fillColor(MUTED).text(`Prices include GST at ${formatGstRate(kind.gstRateBasisPoints)}.`, left, doc.y + 2, { width })
  }
  doc.x = MARGIN
  doc.moveDown(1.2)
}
