import { formatRupees } from '~/lib/money'
import { formatLabDate, formatLabDateThenTime } from '~/lib/lab-time'
import { AMOUNT_WIDTH, BOLD, CONTENT_WIDTH, drawBilledTo, drawFacts, drawFooter, drawHeader, INK, keepTogether, MARGIN, MUTED, openDocument, REGULAR, RIGHT, rule, sectionLabel, totalRow, type Customer, type Seller } from './pdf-layout.server'
import { drawLines, drawPlaceOfSupply, drawTaxRows, type PlaceOfSupply, type ReceiptLine } from './receipt-pdf.server'

export type CreditNoteDocument = {
  number: string
  issuedAt: Date
  /** The seller as now, with the GSTIN the credit note was issued under (none: a plain refund note). */
  seller: Seller
  customer: Customer
  /** The receipt (invoice) of the payment refunded. */
  against: { receiptNumber: string; issuedAt: Date }
  /** What the money came back for: the booking, or the camp swimmer(s) refunded. */
  lines: Array<Omit<ReceiptLine, 'discounts'>>
  amountPaise: number
  /** The tax reversed, at the rate charged on the receipt; null rate: no tax lines at all. */
  tax: { rateBasisPoints: number; taxablePaise: number; cgstPaise: number; sgstPaise: number; igstPaise: number; interState?: boolean } | null
  reason: string
  refund: { refundId: string; orderId: string; completedAt: Date; byHand: string | null }
  /** The place of supply of the receipt it is against. */
  placeOfSupply?: PlaceOfSupply
}

/** "Credit Note" under a GSTIN, where GST rules name the document that reverses an invoice's tax; a plain "Refund Note" without one. */
export function creditNoteTitle(document: Pick<CreditNoteDocument, 'tax'>) {
  return document.tax ? 'Credit Note' : 'Refund Note'
}

/** A refund's credit note as an A4 PDF, laid out like the receipt it is against. */
export async function renderCreditNotePdf(note: CreditNoteDocument): Promise<Buffer> {
  const title = creditNoteTitle(note)
  const { doc, finished } = await openDocument({ title: `${title} ${note.number}`, author: note.seller.legalName, createdAt: note.issuedAt })
  drawHeader(doc, { seller: note.seller, title, numberLabel: `${title} No.`, number: note.number, issuedAt: note.issuedAt })
  doc.moveDown(0.6)
  doc.font(BOLD).fontSize(10.5).fillColor(INK).text(`Against receipt ${note.against.receiptNumber} dated ${formatLabDate(note.against.issuedAt)}`, MARGIN, doc.y, { width: CONTENT_WIDTH })
  drawBilledTo(doc, note.customer)
  if (note.tax && note.placeOfSupply) drawPlaceOfSupply(doc, note.placeOfSupply)
  drawLines(doc, note.lines, 'Refunded')
  drawTotals(doc, note)
  keepTogether(doc, 60)
  sectionLabel(doc, 'Reason')
  doc.font(REGULAR).fontSize(10).fillColor(INK).text(note.reason, MARGIN, doc.y, { width: CONTENT_WIDTH })
  doc.moveDown(1.2)
  drawFacts(doc, 'Refund', [
    ['Refund ID', note.refund.refundId],
    ['Order ID', note.refund.orderId],
    ['Refunded at', formatLabDateThenTime(note.refund.completedAt)],
    ['Repaid', note.refund.byHand ? `by hand: ${note.refund.byHand}` : null],
  ])
  drawFooter(doc, note.seller, title)
  doc.end()
  return finished
}

function drawTotals(doc: PDFKit.PDFDocument, note: CreditNoteDocument) {
  const left = MARGIN + CONTENT_WIDTH * 0.45
  const width = RIGHT - 8 - left
  keepTogether(doc, note.tax ? 130 : 40)
  doc.moveDown(0.6)
  if (note.tax) {
    totalRow(doc, 'Taxable value', formatRupees(note.tax.taxablePaise), left, width)
    // IGST where the receipt charged it (a service performed in another state), else CGST and SGST.
    drawTaxRows(doc, { ...note.tax, interState: note.tax.interState ?? note.tax.igstPaise !== 0 }, left, width)
    rule(doc, left)
    doc.moveDown(0.4)
  }
  doc.font(BOLD).fontSize(12).fillColor(INK)
  const top = doc.y
  doc.text('Amount refunded', left, top, { width: width - AMOUNT_WIDTH })
  doc.text(formatRupees(note.amountPaise), RIGHT - AMOUNT_WIDTH - 8, top, { width: AMOUNT_WIDTH, align: 'right' })
  if (note.tax) doc.font(REGULAR).fontSize(8.5).fillColor(MUTED).text('The GST above is reversed from the receipt it is against.', left, doc.y + 2, { width })
  doc.x = MARGIN
  doc.moveDown(1.2)
}
