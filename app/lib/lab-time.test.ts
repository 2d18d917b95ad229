import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  addDays,
  addHours,
  addMinutes,
  addMonths,
  addMonthsToDate,
  addSeconds,
  DAYS_OF_WEEK,
  daysBetween,
  durationMs,
  formatClockTime,
  formatDateRange,
  formatLabClockTime,
  formatLabDate,
  formatLabDateThenTime,
  formatLabDateTime,
  formatLabTime,
  formatLastDayBefore,
  formatLongDate,
  formatMonthTitle,
  formatShortDayMonth,
  formatShortWeekdayDayMonth,
  formatTimeRange,
  formatWeekdayDate,
  formatWeekdayDayMonth,
  fromUnixSeconds,
  isoWeekday,
  labDateParts,
  labInstant,
  labIsoDateTime,
  labToday,
  monthBounds,
  secondsBetween,
  toHourMinute,
  toUnixSeconds,
} from './lab-time'

describe('the same texts as Intl in en-IN, without building an Intl formatter', () => {
  const dates = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10))
  // One formatter per set of options: building one per date made this test take most of its timeout on a busy machine.
  const intl = (options: Intl.DateTimeFormatOptions) => {
    const formatter = new Intl.DateTimeFormat('en-IN', { ...options, timeZone: 'UTC' })
    return (date: string) => formatter.format(new Date(`${date}T00:00:00Z`))
  }

  it('dates', () => {
    const [longDate, weekdayDate, weekdayDayMonth, monthName, monthYear, dayShortMonth] = [
      intl({ day: 'numeric', month: 'long', year: 'numeric' }),
      intl({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
      intl({ weekday: 'long', day: 'numeric', month: 'long' }),
      intl({ month: 'long' }),
      intl({ month: 'long', year: 'numeric' }),
      intl({ day: 'numeric', month: 'short' }),
    ]
    fc.assert(
      fc.property(dates, dates, (date, other) => {
        expect(formatLongDate(date)).toBe(longDate(date))
        expect(formatWeekdayDate(date)).toBe(weekdayDate(date))
        expect(formatWeekdayDayMonth(date)).toBe(weekdayDayMonth(date))
        expect(formatMonthTitle(date.slice(0, 7))).toBe(monthYear(date))
        expect(formatShortDayMonth(date)).toBe(dayShortMonth(date))
        expect(isoWeekday(date)).toBe(new Date(`${date}T00:00:00Z`).getUTCDay() || 7)
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

  it('prints 12-hour clock times with AM and PM, noon as 12 PM and midnight as 12 AM', () => {
    expect(formatClockTime('09:00')).toBe('9:00 AM')
    expect(formatClockTime('12:00:00')).toBe('12:00 PM')
    expect(formatClockTime('00:30')).toBe('12:30 AM')
    expect(formatTimeRange('13:00', '14:30')).toBe('1:00 PM - 2:30 PM')
  })
})

describe('moving instants and dates', () => {
  const at = new Date('2027-08-08T10:15:00Z')

  it('adds seconds, minutes, hours and days to an instant, and takes them away when negative', () => {
    expect(addSeconds(at, 90).toISOString()).toBe('2027-08-08T10:16:30.000Z')
    expect(addMinutes(at, 15).toISOString()).toBe('2027-08-08T10:30:00.000Z')
    expect(addMinutes(at, -1).toISOString()).toBe('2027-08-08T10:14:00.000Z')
    expect(addHours(at, 24).toISOString()).toBe('2027-08-09T10:15:00.000Z')
    expect(addHours(at, -48).toISOString()).toBe('2027-08-06T10:15:00.000Z')
    expect(addDays(at, 7).toISOString()).toBe('2027-08-15T10:15:00.000Z')
    expect(addDays(at, -7).toISOString()).toBe('2027-08-01T10:15:00.000Z')
    expect(at.toISOString()).toBe('2027-08-08T10:15:00.000Z')
  })

  it('measures lengths of time in milliseconds', () => {
    expect(durationMs({ seconds: 1 })).toBe(1000)
    expect(durationMs({ minutes: 15 })).toBe(900_000)
    expect(durationMs({ hours: 1 })).toBe(3_600_000)
    expect(durationMs({ days: 1, hours: 2, minutes: 3, seconds: 4 })).toBe(93_784_000)
  })

  it('counts whole seconds and calendar days between two points', () => {
    expect(secondsBetween(at, addSeconds(at, 90))).toBe(90)
    expect(secondsBetween(at.getTime(), at.getTime() + 1500)).toBe(1.5)
    expect(secondsBetween(addSeconds(at, 90), at)).toBe(-90)
    expect(daysBetween('2027-08-08', '2027-08-16')).toBe(8)
    expect(daysBetween('2027-12-30', '2028-03-01')).toBe(62)
    expect(daysBetween('2027-08-16', '2027-08-08')).toBe(-8)
  })

  it('turns instants into Unix seconds and back', () => {
    expect(toUnixSeconds(new Date('2027-08-08T10:15:00.999Z'))).toBe(1_817_720_100)
    expect(fromUnixSeconds(1_817_720_100).toISOString()).toBe('2027-08-08T10:15:00.000Z')
  })

  it('finds the bounds of a month and moves by months across years', () => {
    expect(monthBounds('2028-02')).toEqual({ first: '2028-02-01', last: '2028-02-29' })
    expect(monthBounds('2027-12')).toEqual({ first: '2027-12-01', last: '2027-12-31' })
    expect(addMonths('2027-12', 1)).toBe('2028-01')
    expect(addMonths('2027-01', -1)).toBe('2026-12')
  })

  it('moves a date by months, keeping its day or the last day of a shorter month', () => {
    expect(addMonthsToDate('2030-03-09', 6)).toBe('2030-09-09')
    expect(addMonthsToDate('2030-11-15', 3)).toBe('2031-02-15')
    expect(addMonthsToDate('2031-01-31', 1)).toBe('2031-02-28')
    expect(addMonthsToDate('2031-12-31', 2)).toBe('2032-02-29')
    expect(addMonthsToDate('2030-08-31', 24)).toBe('2032-08-31')
  })

  it('cuts a time column to the minute', () => {
    expect(toHourMinute('09:00:00')).toBe('09:00')
    expect(toHourMinute('13:45')).toBe('13:45')
    expect(toHourMinute(null)).toBeUndefined()
  })

  it('names the days of the week, Monday first', () => {
    expect(DAYS_OF_WEEK.map((day) => `${day.number} ${day.short} ${day.name}`)).toEqual(['1 Mon Monday', '2 Tue Tuesday', '3 Wed Wednesday', '4 Thu Thursday', '5 Fri Friday', '6 Sat Saturday', '7 Sun Sunday'])
    expect(['2027-08-09', '2027-08-15'].map(isoWeekday)).toEqual([1, 7])
    expect(formatShortWeekdayDayMonth('2027-09-08')).toBe('Wed 8 Sept')
  })
})

describe('instants as the lab clock shows them', () => {
  // 10:15 UTC is 3:45 PM in Bangalore; 20:00 UTC is already the next day there.
  const afternoon = new Date('2027-08-08T10:15:00Z')
  const pastMidnight = new Date('2027-08-08T20:00:00Z')

  it('prints the time, the date, and both in a sentence or a record', () => {
    expect(formatLabClockTime(afternoon)).toBe('3:45 PM')
    expect(formatLabTime(afternoon)).toBe('3:45 PM IST')
    expect(formatLabDate(afternoon)).toBe('8 August 2027')
    expect(formatLabDateTime(afternoon)).toBe('3:45 PM IST on 8 August 2027')
    expect(formatLabDateThenTime(afternoon)).toBe('8 August 2027, 3:45 PM IST')
    expect(formatLabDateTime(pastMidnight)).toBe('1:30 AM IST on 9 August 2027')
    expect(formatLabDateThenTime(pastMidnight)).toBe('9 August 2027, 1:30 AM IST')
  })

  it('writes a lab date and time, or an instant, in ISO 8601 with the lab’s offset, as schema.org reads them', () => {
    expect(labIsoDateTime('2030-12-07', '09:00')).toBe('2030-12-07T09:00:00+05:30')
    expect(labIsoDateTime('2030-12-07', '17:30:00')).toBe('2030-12-07T17:30:00+05:30')
    // 20:00 UTC is already the next day at the lab.
    expect(labIsoDateTime(new Date('2030-12-06T20:00:00Z'))).toBe('2030-12-07T01:30:00+05:30')
    expect(new Date(labIsoDateTime(labInstant('2030-12-07', '07:00'))).getTime()).toBe(labInstant('2030-12-07', '07:00').getTime())
  })

  it('names the last lab day before an instant', () => {
    expect(formatLastDayBefore(labInstant('2027-07-16'))).toBe('15 July 2027')
    expect(formatLastDayBefore(labInstant('2027-07-16', '00:00:01'))).toBe('16 July 2027')
  })
})
