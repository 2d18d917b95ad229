import { formatLabDate } from '~/lib/lab-time'
import { receiptFonts } from './receipt-fonts.server'

/**
 * The page, fonts and blocks receipts and credit notes share, so a credit note looks like the
 * receipt it corrects: the same seller header, customer block, table and totals.
 */

export type Seller = { legalName: string; address: string; gstin: string | null; email: string; phone: string }
/** Who paid: a guest who gave no name of their own is billed by their e-mail address. */
export type Customer = { name: string | null; email: string; phone: string | null }

export const REGULAR = 'DejaVuSans'
export const BOLD = 'DejaVuSans-Bold'
export const MARGIN = 50
const PAGE_WIDTH = 595.28
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN
export const RIGHT = PAGE_WIDTH - MARGIN
export const AMOUNT_WIDTH = 120
export const INK = '#1a1a1a'
export const MUTED = '#5c6670'
const RULE = '#d0d5da'

export type Doc = PDFKit.PDFDocument

/** An A4 document in DejaVu Sans, with its bytes collected; each new page repeats what it is. */
export async function openDocument({ title, author, createdAt }: { title: string; author: string; createdAt: Date }) {
  // Loaded with the first document, not with the site: pdfkit and its fonts' code take 0.4 s to load.
  const { default: PDFDocument } = await import('pdfkit')
  const fonts = receiptFonts()
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    // Font data, not a name: pdfkit opens it as it does in font(), though its types list only names.
    // Without it pdfkit would load Helvetica as the default and write it into every document unused.
    font: fonts.regular as unknown as string,
    lang: 'en-IN',
    displayTitle: true,
    info: { Title: title, Author: author, CreationDate: createdAt },
  })
  doc.registerFont(REGULAR, fonts.regular)
  doc.registerFont(BOLD, fonts.bold)
  const finished = collect(doc)
  doc.on('pageAdded', () => {
    doc.font(REGULAR).fontSize(8.5).fillColor(MUTED).text(`${title} (continued)`, MARGIN, MARGIN, { width: CONTENT_WIDTH })
    doc.moveDown(1)
  })
  return { doc, finished }
}

function collect(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
}

/** The seller on the left; the document's title, number and date on the right. */
export function drawHeader(doc: Doc, { seller, title, numberLabel, number, issuedAt }: { seller: Seller; title: string; numberLabel: string; number: string; issuedAt: Date }) {
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
  doc.font(BOLD).fontSize(20).fillColor(INK).text(title, boxLeft, top - 2, { width: boxWidth, align: 'right' })
  doc.moveDown(0.3)
  labelled(doc, numberLabel, number, boxLeft, boxWidth)
  labelled(doc, 'Date', formatLabDate(issuedAt), boxLeft, boxWidth)

  doc.y = Math.max(sellerBottom, doc.y) + 14
  rule(doc)
}

function labelled(doc: Doc, label: string, value: string, left: number, width: number) {
  doc.font(REGULAR).fontSize(8.5).fillColor(MUTED).text(label, left, doc.y, { width, align: 'right' })
  doc.font(BOLD).fontSize(10.5).fillColor(INK).text(value, left, doc.y, { width, align: 'right' })
  doc.moveDown(0.3)
}

/** A coloured band across the page: a word in bold, then a sentence. */
export function drawNote(doc: Doc, { word, sentence, background, colour }: { word: string; sentence: string; background: string; colour: string }) {
  const top = doc.y + 4
  doc.rect(MARGIN, top, CONTENT_WIDTH, 30).fill(background)
  doc.font(BOLD).fontSize(11).fillColor(colour).text(word, MARGIN + 12, top + 9, { continued: true })
  doc.font(REGULAR).fillColor(INK).text(`   ${sentence}`)
  doc.x = MARGIN
  doc.y = top + 30 + 10
}

export function drawBilledTo(doc: Doc, customer: Customer) {
  doc.moveDown(0.6)
  sectionLabel(doc, 'Billed to')
  if (customer.name) {
    doc.font(BOLD).fontSize(10.5).fillColor(INK).text(customer.name, MARGIN, doc.y, { width: CONTENT_WIDTH })
    doc.font(REGULAR).fontSize(9.5).fillColor(INK).text(customer.email)
  } else {
    doc.font(BOLD).fontSize(10.5).fillColor(INK).text(customer.email, MARGIN, doc.y, { width: CONTENT_WIDTH })
    doc.font(REGULAR).fontSize(9.5).fillColor(INK)
  }
  if (customer.phone) doc.text(customer.phone)
  doc.moveDown(1)
}

export function sectionLabel(doc: Doc, text: string) {
  doc.font(BOLD).fontSize(8.5).fillColor(MUTED).text(text.toUpperCase(), MARGIN, doc.y, { characterSpacing: 0.6 })
  doc.moveDown(0.25)
}

/** A row of the totals block: a label, and its amount at the right edge. */
export function totalRow(doc: Doc, label: string, amount: string, left: number, width: number) {
  const top = doc.y
  doc.font(REGULAR).fontSize(10).fillColor(INK).text(label, left, top, { width: width - AMOUNT_WIDTH })
  doc.text(amount, RIGHT - AMOUNT_WIDTH - 8, top, { width: AMOUNT_WIDTH, align: 'right' })
  doc.moveDown(0.25)
}

/** Label and value rows, such as a payment's order and transaction ids; a row without a value is left out. */
export function drawFacts(doc: Doc, title: string, rows: Array<[string, string | null]>) {
  keepTogether(doc, 100)
  sectionLabel(doc, title)
  for (const [label, value] of rows) {
    if (value === null) continue
    const top = doc.y
    doc.font(REGULAR).fontSize(9.5).fillColor(MUTED).text(label, MARGIN, top, { width: 110 })
    doc.fillColor(INK).text(value, MARGIN + 110, top, { width: CONTENT_WIDTH - 110 })
    doc.moveDown(0.2)
  }
  doc.moveDown(1.2)
}

export function drawFooter(doc: Doc, seller: Seller, title: string) {
  keepTogether(doc, 40)
  rule(doc)
  doc.moveDown(0.5)
  doc.font(REGULAR).fontSize(8.5).fillColor(MUTED)
  doc.text(`This is a computer-generated ${title.toLowerCase()} and needs no signature.`, MARGIN, doc.y, { width: CONTENT_WIDTH })
  doc.text(`Questions about it: ${seller.email} · ${seller.phone}`, { width: CONTENT_WIDTH })
}

/** Starts a new page when fewer than `height` points are left, so a block is not split. */
export function keepTogether(doc: Doc, height: number) {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage()
}

export function rule(doc: Doc, left = MARGIN) {
  doc.moveTo(left, doc.y).lineTo(RIGHT, doc.y).lineWidth(0.5).strokeColor(RULE).stroke()
}
