import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  addDays,
  formatClockTime,
  formatDateRange,
  formatLongDate,
  formatMonthTitle,
  formatRupees,
  formatTimeRange,
  formatWeekdayDate,
  formatWeekdayDayMonth,
  formatWholeRupees,
  labDateParts,
  labInstant,
  labToday,
  paiseToRupeesInput,
  rupeesToPaise,
} from './format'

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

describe('the same texts as Intl in en-IN, without building an Intl formatter', () => {
  const paise = fc.integer({ min: -100_000_000_000_00, max: 100_000_000_000_00 })
  const dates = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10))
  const intl = (options: Intl.DateTimeFormatOptions) => (date: string) => new Intl.DateTimeFormat('en-IN', { ...options, timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))

  it('amounts of money', () => {
    const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' })
    const whole = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 })
    fc.assert(
      fc.property(paise, (amount) => {
        expect(formatRupees(amount)).toBe(rupees.format(amount / 100))
        if (amount % 100 === 0) expect(formatWholeRupees(amount)).toBe(whole.format(amount / 100))
        const digits = amount % 100 === 0 ? 0 : 2
        expect(paiseToRupeesInput(amount)).toBe(new Intl.NumberFormat('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount / 100))
      }),
      { numRuns: 3000 },
    )
  })

  it('dates', () => {
    const [longDate, weekdayDate, weekdayDayMonth, monthName, monthYear] = [
      intl({ day: 'numeric', month: 'long', year: 'numeric' }),
      intl({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
      intl({ weekday: 'long', day: 'numeric', month: 'long' }),
      intl({ month: 'long' }),
      intl({ month: 'long', year: 'numeric' }),
    ]
    fc.assert(
      fc.property(dates, dates, (date, other) => {
        expect(formatLongDate(date)).toBe(longDate(date))
        expect(formatWeekdayDate(date)).toBe(weekdayDate(date))
        expect(formatWeekdayDayMonth(date)).toBe(weekdayDayMonth(date))
        expect(formatMonthTitle(date.slice(0, 7))).toBe(monthYear(date))
        const [start, end] = [date, other].sort() as [string, string]
        const day = (value: string) => Number(value.slice(8, 10))
        const range =
          start.slice(0, 4) !== end.slice(0, 4)
            ? `${longDate(start)} – ${longDate(end)}`
            : start.slice(0, 7) !== end.slice(0, 7)
              ? `${day(start)} ${monthName(start)} – ${longDate(end)}`
              : `${day(start)}–${longDate(end)}`
        expect(formatDateRange(start, end)).toBe(range)
      }),
      { numRuns: 3000 },
    )
    expect(() => formatLongDate('2027-02-30x')).toThrow(RangeError)
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

  it('reads the same date and time as the Asia/Kolkata clock of Intl, at any instant from 2000 to 2100', () => {
    const kolkata = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true }), (instant) => {
        const parts = Object.fromEntries(kolkata.formatToParts(instant).map((part) => [part.type, part.value]))
        expect(labDateParts(instant)).toEqual({ date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` })
      }),
      { numRuns: 2000 },
    )
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
  it('prints camp date ranges with their year', () => {
    expect(formatDateRange('2027-08-08', '2027-08-16')).toBe('8–16 August 2027')
    expect(formatDateRange('2027-07-28', '2027-08-03')).toBe('28 July – 3 August 2027')
    expect(formatDateRange('2027-12-30', '2028-01-02')).toBe('30 December 2027 – 2 January 2028')
  })

  it('prints 12-hour clock times as the spec writes them', () => {
    expect(formatClockTime('09:00')).toBe('9:00 AM')
    expect(formatClockTime('12:00:00')).toBe('12:00 PM')
    expect(formatClockTime('00:30')).toBe('12:30 AM')
    expect(formatTimeRange('13:00', '14:30')).toBe('1:00 PM - 2:30 PM')
  })
})
