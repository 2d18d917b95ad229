import { describe, expect, it } from 'vitest'
import { addDays, formatClockTime, formatDateRange, formatRupees, formatTimeRange, formatWholeRupees, labDateParts, labInstant, labToday, paiseToRupeesInput, rupeesToPaise } from './format'

describe('money', () => {
  it('reads rupees as people type them into exact paise', () => {
    expect(['35000', '35,000', '₹35,000', '1,00,000', '3,499.5', '3499.50', ' 0.01 '].map(rupeesToPaise)).toEqual([3_500_000, 3_500_000, 3_500_000, 10_000_000, 349_950, 349_950, 1])
    expect(['', 'abc', '35,000.001', '-5', '1e5', '35.', '.5'].map(rupeesToPaise)).toEqual([null, null, null, null, null, null, null])
    // 19.99 * 100 is 1998.9999999999998 in floating point; the digits are read as text.
    expect(['19.99', '1.15', '0.29'].map(rupeesToPaise)).toEqual([1_999, 115, 29])
    expect([30_000_00, 3_499_50, 1_00_000_50, 5].map(paiseToRupeesInput)).toEqual(['30,000', '3,499.50', '1,00,000.50', '0.05'])
  })

  it('shows paise as rupees with Indian digit grouping', () => {
    expect(formatRupees(10_000_000)).toBe('₹1,00,000.00')
    expect(formatRupees(3_500_000)).toBe('₹35,000.00')
    expect(formatRupees(349_900)).toBe('₹3,499.00')
    expect(formatRupees(100)).toBe('₹1.00')
    expect(formatRupees(0)).toBe('₹0.00')
  })

  it('drops the paise only for whole-rupee headline prices', () => {
    expect(formatWholeRupees(3_000_000)).toBe('₹30,000')
    expect(formatWholeRupees(349_950)).toBe('₹3,499.50')
  })
})

describe('the lab calendar is Asia/Kolkata whatever the server zone', () => {
  // 2026-11-22 20:00 UTC is already 23 November, 01:30 in Bangalore.
  const lateEveningUtc = new Date('2026-11-22T20:00:00Z')

  it(`knows today's date in Bangalore (process TZ=${process.env.TZ ?? 'unset'})`, () => {
    expect(labToday(lateEveningUtc)).toBe('2026-11-23')
    expect(labDateParts(lateEveningUtc)).toEqual({ date: '2026-11-23', time: '01:30' })
    expect(labToday(new Date('2026-11-22T18:29:59Z'))).toBe('2026-11-22')
    expect(labToday(new Date('2026-11-22T18:30:00Z'))).toBe('2026-11-23')
  })

  it('turns a Bangalore wall-clock time into the right instant', () => {
    expect(labInstant('2027-07-15', '23:59:59').toISOString()).toBe('2027-07-15T18:29:59.000Z')
    expect(labInstant('2027-08-08').toISOString()).toBe('2027-08-07T18:30:00.000Z')
  })

  it('adds calendar days across month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
  })

  it('refuses to count past year 9999, where a date stops being yyyy-mm-dd and a loop over days would never end', () => {
    expect(addDays('9999-12-30', 1)).toBe('9999-12-31')
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError)
    expect(() => addDays('0001-01-01', -1)).toThrow(RangeError)
    expect(() => addDays('+010000-01', 1)).toThrow(RangeError)
    expect(() => addDays('not a date', 1)).toThrow(RangeError)
  })
})

describe('dates and times as the pages print them', () => {
  it('prints camp date ranges compactly', () => {
    expect(formatDateRange('2027-08-08', '2027-08-16')).toBe('8–16 Aug')
    expect(formatDateRange('2027-07-28', '2027-08-03')).toBe('28 Jul – 3 Aug')
  })

  it('prints 12-hour clock times as the spec writes them', () => {
    expect(formatClockTime('09:00')).toBe('9:00 AM')
    expect(formatClockTime('12:00:00')).toBe('12:00 PM')
    expect(formatClockTime('00:30')).toBe('12:30 AM')
    expect(formatTimeRange('13:00', '14:30')).toBe('1:00 PM - 2:30 PM')
  })
})
