import { INVOICE_SERIES_FORMAT, LAB_SERIES_PREFIX } from '~/lib/gstin'
import { labDateParts } from '~/lib/lab-time'

export { LAB_SERIES_PREFIX }

type FinancialYear = { startYear: number; label: string }

/**
 * The Indian financial year (1 April – 31 March) an instant falls in, by the lab's calendar: 1 April
 * 00:10 in Bangalore is already the new year although it is still 31 March in UTC.
 */
export function financialYearOf(at: Date): FinancialYear {
  const [year, month] = labDateParts(at).date.split('-').map(Number) as [number, number]
  const startYear = month >= 4 ? year : year - 1
  return { startYear, label: financialYearLabel(startYear) }
}

/** 2026 → "2026-27". */
function financialYearLabel(startYear: number): string {
  return `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`
}

/**
 * 2026, 42 → "SSL/26-27/000042" (or "PUN/26-27/000042" in a venue's series). Numbers run in one
 * series per financial year, as receipts and GST invoices must be unique within a financial year, and
 * fit the 16 characters a GST invoice number may have (Rule 46(b)); the series allows 999,999
 * receipts a year.
 */
export function formatReceiptNumber(startYear: number, sequence: number, prefix = LAB_SERIES_PREFIX): string {
  if (!Number.isInteger(startYear) || startYear < 2000 || startYear > 9998) throw new RangeError(`Not a financial year: ${startYear}`)
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`A receipt sequence number is a whole number from 1: ${sequence}`)
  if (sequence > 999_999) throw new RangeError(`More than 999,999 receipts in a financial year: ${sequence}`)
  if (prefix !== LAB_SERIES_PREFIX && !INVOICE_SERIES_FORMAT.test(prefix)) throw new RangeError(`Not an invoice series: ${prefix}`)
  return `${prefix}/${String(startYear % 100).padStart(2, '0')}-${String((startYear + 1) % 100).padStart(2, '0')}/${String(sequence).padStart(6, '0')}`
}

/**
 * 2026, 42 → "SSL/CN26-27/0042" (a venue's series: "PUN/CN26-27/0042"). Credit notes run in their own series per financial year, apart from
 * receipts (GST rule 53 asks for a consecutive serial number unique within the year, like an
 * invoice's), and "CN" keeps a credit note's number from ever being read as a receipt's. The 16
 * characters rule 46(b) allows leave four digits for the sequence: 9,999 credit notes a year, far
 * more than the lab refunds.
 */
export function formatCreditNoteNumber(startYear: number, sequence: number, prefix = LAB_SERIES_PREFIX): string {
  if (!Number.isInteger(startYear) || startYear < 2000 || startYear > 9998) throw new RangeError(`Not a financial year: ${startYear}`)
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`A credit note sequence number is a whole number from 1: ${sequence}`)
  if (sequence > 9_999) throw new RangeError(`More than 9,999 credit notes in a financial year: ${sequence}`)
  if (prefix !== LAB_SERIES_PREFIX && !INVOICE_SERIES_FORMAT.test(prefix)) throw new RangeError(`Not an invoice series: ${prefix}`)
  return `${prefix}/CN${String(startYear % 100).padStart(2, '0')}-${String((startYear + 1) % 100).padStart(2, '0')}/${String(sequence).padStart(4, '0')}`
}
