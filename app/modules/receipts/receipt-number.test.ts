import { afterEach, describe, expect, it } from 'vitest'
import { financialYearOf, formatCreditNoteNumber, formatReceiptNumber } from './receipt-number'

const originalTimeZone = process.env.TZ

/** Runs `check` with the process in another time zone (Node applies a changed TZ at once). */
function inProcessTimeZone(timeZone: string, check: () => void) {
  process.env.TZ = timeZone
  check()
}

afterEach(() => {
  if (originalTimeZone === undefined) delete process.env.TZ
  else process.env.TZ = originalTimeZone
})

describe('the financial year runs April to March in Bangalore, whatever the server zone', () => {
  // 18:00 UTC on 31 March is 23:30 in Bangalore; 18:40 UTC is 00:10 on 1 April there.
  const lastEveningOfOldYear = new Date('2026-03-31T18:00:00Z')
  const firstMinutesOfNewYear = new Date('2026-03-31T18:40:00Z')

  // The local day of month at `firstMinutesOfNewYear` in each zone: in UTC and Los Angeles it is
  // still 31 March, so code that read the process's own calendar would get the year wrong there.
  const localDay = { UTC: 31, 'America/Los_Angeles': 31, 'Pacific/Kiritimati': 1, 'Asia/Kolkata': 1 }

  for (const [timeZone, day] of Object.entries(localDay)) {
    it(`with the process in ${timeZone}`, () => {
      inProcessTimeZone(timeZone, () => {
        expect(firstMinutesOfNewYear.getDate(), 'the process zone switch took effect').toBe(day)

        expect(financialYearOf(lastEveningOfOldYear)).toEqual({ startYear: 2025, label: '2025-26' })
        expect(financialYearOf(firstMinutesOfNewYear)).toEqual({ startYear: 2026, label: '2026-27' })
        // 31 March 2027, 23:59:59 in Bangalore closes the year; a second later the next begins.
        expect(financialYearOf(new Date('2027-03-31T18:29:59Z')).label).toBe('2026-27')
        expect(financialYearOf(new Date('2027-03-31T18:30:00Z')).label).toBe('2027-28')
        // 1 January belongs to the year that began the previous April.
        expect(financialYearOf(new Date('2026-12-31T18:30:00Z'))).toEqual({ startYear: 2026, label: '2026-27' })
      })
    })
  }

  it('labels a year that ends in a new century with two digits', () => {
    expect(financialYearOf(new Date('2099-06-01T00:00:00Z')).label).toBe('2099-00')
    expect(financialYearOf(new Date('2029-06-01T00:00:00Z')).label).toBe('2029-30')
  })
})

describe('receipt numbers', () => {
  it('carry the financial year and a six-digit sequence', () => {
    expect(formatReceiptNumber(2026, 42)).toBe('SSL/26-27/000042')
    expect(formatReceiptNumber(2026, 42)).toHaveLength(16)
    expect(formatReceiptNumber(2025, 1)).toBe('SSL/25-26/000001')
    expect(formatReceiptNumber(2099, 7)).toBe('SSL/99-00/000007')
    expect(formatReceiptNumber(2026, 999_999)).toBe('SSL/26-27/999999')
    expect(() => formatReceiptNumber(2026, 1_000_000)).toThrow(RangeError)
  })

  it('refuse a sequence or year that cannot be a receipt number', () => {
    expect(() => formatReceiptNumber(2026, 0)).toThrow(RangeError)
    expect(() => formatReceiptNumber(2026, -3)).toThrow(RangeError)
    expect(() => formatReceiptNumber(2026, 1.5)).toThrow(RangeError)
    expect(() => formatReceiptNumber(26, 1)).toThrow(RangeError)
  })
})

describe('credit note numbers', () => {
  it('carry the financial year and a four-digit sequence of their own, marked CN, in at most 16 characters', () => {
    expect(formatCreditNoteNumber(2026, 42)).toBe('SSL/CN26-27/0042')
    expect(formatCreditNoteNumber(2026, 42)).toHaveLength(16)
    expect(formatCreditNoteNumber(2025, 1)).toBe('SSL/CN25-26/0001')
    expect(formatCreditNoteNumber(2099, 7)).toBe('SSL/CN99-00/0007')
    expect(formatCreditNoteNumber(2026, 9_999)).toBe('SSL/CN26-27/9999')
    expect(formatCreditNoteNumber(2026, 1)).not.toBe(formatReceiptNumber(2026, 1))
    expect(() => formatCreditNoteNumber(2026, 10_000)).toThrow(RangeError)
  })

  it('refuse a sequence or year that cannot be a credit note number', () => {
    expect(() => formatCreditNoteNumber(2026, 0)).toThrow(RangeError)
    expect(() => formatCreditNoteNumber(2026, -3)).toThrow(RangeError)
    expect(() => formatCreditNoteNumber(2026, 2.5)).toThrow(RangeError)
    expect(() => formatCreditNoteNumber(26, 1)).toThrow(RangeError)
  })
})
