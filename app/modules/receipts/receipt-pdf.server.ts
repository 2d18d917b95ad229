import { formatGstRate, formatHalfGstRate, formatRupees, splitGst } from '~/lib/money'
import { formatLabDate, formatLabDateThenTime } from '~/lib/lab-time'
import { receiptFonts } from './receipt-fonts.server'

export type ReceiptDocument = {
  receiptNumber: string
  issuedAt: Date
  seller: { legalName: string; address: string; gstin: string | null; email: string; phone: string }
  customer: { name: string; email: string; phone: string | null }
  /** `detail` lines sit under the description, e.g. 'Day 1: Tuesday, 1 December 2026, 9:00 AM - 10:00 AM'. */
  lines: Array<{ description: string; detail: string[]; amountPaise: number }>
  payment: { orderId: string; transactionId: string | null; method: string | null; paidAt: Date }
  /** The GST rate the prices include, in basis points (1800 = 18 %); applies only when the seller has a GSTIN. */
  gstRateBasisPoints: number | null
  status?: 'paid' | 'refunded'
}

/**
 * The receipt for a paid booking or camp registration as an A4 PDF. A seller with a GSTIN issues a
 * "Tax Invoice" showing the GST its prices include (or a "Bill of Supply" when no rate applies, as
 * GST rules name a document without tax); without a GSTIN it is a plain "Receipt" with no tax lines.
 */
export async function renderReceiptPdf(receipt: ReceiptDocument): Promise<Buffer> {
  // Loaded with the first receipt, not with the site: pdfkit and its fonts' code take 0.4 s to load.
  const { default: PDFDocument } = await import('pdfkit')
  const kind = documentKind(receipt)
  const fonts = receiptFonts()
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    // Font data, not a name: pdfkit opens it as it does in font(), though its types list only names.
    // Without it pdfkit would load Helvetica as the default and write it into every receipt unused.
    font: fonts.regular as unknown as string,
    lang: 'en-IN',
    displayTitle: true,
    info: { Title: `${kind.title} ${receipt.receiptNumber}`, Author: receipt.seller.legalName, CreationDate: receipt.issuedAt },
  })
  doc.registerFont(REGULAR, fonts.regular)
  doc.registerFont(BOLD, fonts.bold)
  const finished = collect(doc)
  doc.on('pageAdded', () => {
    doc.font(REGULAR).fontSize(8.5).fillColor(MUTED).text(`${kind.title} ${receipt.receiptNumber} (continued)`, MARGIN, MARGIN, { width: CONTENT_WIDTH })
    doc.moveDown(1)
  })

  drawHeader(doc, receipt, kind)
  if (receipt.status === 'refunded') drawRefundedNote(doc)
  drawBilledTo(doc, receipt.customer)
  drawLines(doc, receipt.lines)
  drawTotals(doc, receipt, kind)
  drawPayment(doc, receipt.payment)
  drawFooter(doc, receipt.seller, kind)

  doc.end()
  return finished
}

type DocumentKind = { title: 'Receipt' | 'Tax Invoice' | 'Bill of Supply'; numberLabel: string; gstRateBasisPoints: number | null }

function documentKind({ seller, gstRateBasisPoints }: ReceiptDocument): DocumentKind {
  if (!seller.gstin) return { title: 'Receipt', numberLabel: 'Receipt No.', gstRateBasisPoints: null }
  if (gstRateBasisPoints === null || gstRateBasisPoints === 0) return { title: 'Bill of Supply', numberLabel: 'Bill No.', gstRateBasisPoints: null }
  return { title: 'Tax Invoice', numberLabel: 'Invoice No.', gstRateBasisPoints }
}

const REGULAR = 'DejaVuSans'
const BOLD = 'DejaVuSans-Bold'
const MARGIN = 50
const PAGE_WIDTH = 595.28
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN
const RIGHT = PAGE_WIDTH - MARGIN
const AMOUNT_WIDTH = 120
const INK = '#1a1a1a'
const MUTED = '#5c6670'
const RULE = '#d0d5da'

type Doc = PDFKit.PDFDocument

function collect(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
}

function drawHeader(doc: Doc, { seller, receiptNumber, issuedAt }: ReceiptDocument, kind: DocumentKind) {
  const top = MARGIN
  const sellerWidth = CONTENT_WIDTH * 0.58
  doc.font(BOLD).fontSize(15).fillColor(INK).text(seller.legalName, MARGIN, top, { width: sellerWidth })
  doc.moveDown(0.2)
  doc.font(REGULAR).fontSize(9.5).fillColor(MUTED)
  doc.text(seller.address, { width: sellerWidth })
  if (seller.gstin) doc.text(`GSTIN: ${seller.gstin}`, { width: sellerWidth })
  doc.text(`${seller.email} · ${seller.phone}`, { width: sellerWidth })
  const sellerBottom = doc.y

  const boxLeft = MARGIN + sellerWidth + 10
  const boxWidth = RIGHT - boxLeft
  doc.font(BOLD).fontSize(20).fillColor(INK).text(kind.title, boxLeft, top - 2, { width: boxWidth, align: 'right' })
  doc.moveDown(0.3)
  labelled(doc, kind.numberLabel, receiptNumber, boxLeft, boxWidth)
  labelled(doc, 'Date', formatLabDate(issuedAt), boxLeft, boxWidth)

  doc.y = Math.max(sellerBottom, doc.y) + 14
  rule(doc)
}

function labelled(doc: Doc, label: string, value: string, left: number, width: number) {
  doc.font(REGULAR).fontSize(8.5).fillColor(MUTED).text(label, left, doc.y, { width, align: 'right' })
  doc.font(BOLD).fontSize(10.5).fillColor(INK).text(value, left, doc.y, { width, align: 'right' })
  doc.moveDown(0.3)
}

function drawRefundedNote(doc: Doc) {
  const top = doc.y + 4
  doc.rect(MARGIN, top, CONTENT_WIDTH, 30).fill('#fdecea')
  doc.font(BOLD).fontSize(11).fillColor('#a4161a').text('Refunded', MARGIN + 12, top + 9, { continued: true })
  doc.font(REGULAR).fillColor(INK).text('   The amount paid has been refunded to the customer.')
  doc.x = MARGIN
  doc.y = top + 30 + 10
}

function drawBilledTo(doc: Doc, customer: ReceiptDocument['customer']) {
  doc.moveDown(0.6)
  sectionLabel(doc, 'Billed to')
  doc.font(BOLD).fontSize(10.5).fillColor(INK).text(customer.name, MARGIN, doc.y, { width: CONTENT_WIDTH })
  doc.font(REGULAR).fontSize(9.5).fillColor(INK).text(customer.email)
  if (customer.phone) doc.text(customer.phone)
  doc.moveDown(1)
}

function sectionLabel(doc: Doc, text: string) {
  doc.font(BOLD).fontSize(8.5).fillColor(MUTED).text(text.toUpperCase(), MARGIN, doc.y, { characterSpacing: 0.6 })
  doc.moveDown(0.25)
}

function drawLines(doc: Doc, lines: ReceiptDocument['lines']) {
  const descriptionWidth = CONTENT_WIDTH - AMOUNT_WIDTH - 16
  const tableHeader = () => {
    const top = doc.y
    doc.rect(MARGIN, top, CONTENT_WIDTH, 20).fill('#eef1f4')
    doc.font(BOLD).fontSize(9).fillColor(INK)
    doc.text('Description', MARGIN + 8, top + 6, { width: descriptionWidth })
    doc.text('Amount', RIGHT - AMOUNT_WIDTH - 8, top + 6, { width: AMOUNT_WIDTH, align: 'right' })
    doc.y = top + 20
  }
  tableHeader()
  for (const line of lines) {
    const rowHeight = measureLine(doc, line, descriptionWidth) + 16
    if (doc.y + rowHeight > doc.page.height - doc.page.margins.bottom) {
      doc.addPage()
      tableHeader()
    }
    const top = doc.y + 8
    doc.font(BOLD).fontSize(10.5).fillColor(INK).text(formatRupees(line.amountPaise), RIGHT - AMOUNT_WIDTH - 8, top, { width: AMOUNT_WIDTH, align: 'right' })
    doc.text(line.description, MARGIN + 8, top, { width: descriptionWidth })
    doc.font(REGULAR).fontSize(9).fillColor(MUTED)
    for (const detail of line.detail) doc.text(detail, { width: descriptionWidth })
    doc.y = top + rowHeight - 8
    rule(doc)
  }
}

function measureLine(doc: Doc, line: ReceiptDocument['lines'][number], width: number) {
  doc.font(BOLD).fontSize(10.5)
  let height = doc.heightOfString(line.description, { width })
  doc.font(REGULAR).fontSize(9)
  for (const detail of line.detail) height += doc.heightOfString(detail, { width })
  return height
}

function drawTotals(doc: Doc, receipt: ReceiptDocument, kind: DocumentKind) {
  const total = receipt.lines.reduce((sum, line) => sum + line.amountPaise, 0)
  const left = MARGIN + CONTENT_WIDTH * 0.45
  const width = RIGHT - 8 - left
  keepTogether(doc, kind.gstRateBasisPoints === null ? 40 : 110)
  doc.moveDown(0.6)
  if (kind.gstRateBasisPoints !== null) {
    const { taxablePaise, cgstPaise, sgstPaise } = splitGst(total, kind.gstRateBasisPoints)
    const half = formatHalfGstRate(kind.gstRateBasisPoints)
    totalRow(doc, 'Taxable value', formatRupees(taxablePaise), left, width)
    totalRow(doc, `CGST @ ${half}`, formatRupees(cgstPaise), left, width)
    totalRow(doc, `SGST @ ${half}`, formatRupees(sgstPaise), left, width)
    doc.moveTo(left, doc.y).lineTo(RIGHT, doc.y).lineWidth(0.5).strokeColor(RULE).stroke()
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

function totalRow(doc: Doc, label: string, amount: string, left: number, width: number) {
  const top = doc.y
  doc.font(REGULAR).fontSize(10).fillColor(INK).text(label, left, top, { width: width - AMOUNT_WIDTH })
  doc.text(amount, RIGHT - AMOUNT_WIDTH - 8, top, { width: AMOUNT_WIDTH, align: 'right' })
  doc.moveDown(0.25)
}

function drawPayment(doc: Doc, payment: ReceiptDocument['payment']) {
  const rows: Array<[string, string | null]> = [
    ['Order ID', payment.orderId],
    ['Transaction ID', payment.transactionId],
    ['Method', payment.method],
    ['Paid at', formatLabDateThenTime(payment.paidAt)],
  ]
  keepTogether(doc, 100)
  sectionLabel(doc, 'Payment')
  for (const [label, value] of rows) {
    if (value === null) continue
    const top = doc.y
    doc.font(REGULAR).fontSize(9.5).fillColor(MUTED).text(label, MARGIN, top, { width: 110 })
    doc.fillColor(INK).text(value, MARGIN + 110, top, { width: CONTENT_WIDTH - 110 })
    doc.moveDown(0.2)
  }
  doc.moveDown(1.2)
}

function drawFooter(doc: Doc, seller: ReceiptDocument['seller'], kind: DocumentKind) {
  keepTogether(doc, 40)
  rule(doc)
  doc.moveDown(0.5)
  doc.font(REGULAR).fontSize(8.5).fillColor(MUTED)
  doc.text(`This is a computer-generated ${kind.title.toLowerCase()} and needs no signature.`, MARGIN, doc.y, { width: CONTENT_WIDTH })
  doc.text(`Questions about it: ${seller.email} · ${seller.phone}`, { width: CONTENT_WIDTH })
}

/** Starts a new page when fewer than `height` points are left, so a block is not split. */
function keepTogether(doc: Doc, height: number) {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage()
}

function rule(doc: Doc) {
  doc.moveTo(MARGIN, doc.y).lineTo(RIGHT, doc.y).lineWidth(0.5).strokeColor(RULE).stroke()
}
