// The lab's clock and calendar: every date and time the product shows or reasons about is in
// Asia/Kolkata, and this module is the one place that reads, writes or moves one.
//
// Dates and times are written out here rather than by Intl: building an Intl formatter loads the
// locale's data, and Intl with a time zone its time-zone data, which takes a phone tens of
// milliseconds on every page that shows a date (every page shows today's year in its footer). The
// texts are exactly what Intl's en-IN gives (tested).

const SECOND_MS = 1000
const MINUTE_MS = 60 * SECOND_MS
const HOUR_MS = 60 * MINUTE_MS
const DAY_MS = 24 * HOUR_MS

/** Asia/Kolkata is UTC+05:30 all year (it has no daylight saving time), so a lab day is always 24 hours. */
const LAB_UTC_OFFSET_MS = 5 * HOUR_MS + 30 * MINUTE_MS

/** { minutes: 15 } → 900000: a length of time in milliseconds, for timers, leases and cache lifetimes. */
export function durationMs({ days = 0, hours = 0, minutes = 0, seconds = 0 }: { days?: number; hours?: number; minutes?: number; seconds?: number }): number {
  return days * DAY_MS + hours * HOUR_MS + minutes * MINUTE_MS + seconds * SECOND_MS
}

/** The instant `seconds` after `at` (before it when negative). */
export function addSeconds(at: Date, seconds: number): Date {
  return new Date(at.getTime() + seconds * SECOND_MS)
}

/** The instant `minutes` after `at` (before it when negative). */
export function addMinutes(at: Date, minutes: number): Date {
  return new Date(at.getTime() + minutes * MINUTE_MS)
}

/** The instant `hours` after `at` (before it when negative). */
export function addHours(at: Date, hours: number): Date {
  return new Date(at.getTime() + hours * HOUR_MS)
}

/**
 * Adds whole days to a yyyy-mm-dd calendar date, or to an instant (24 hours a day: the lab's clock
 * has no daylight saving time). Past year 9999 a date is no longer yyyy-mm-dd (and a loop that
 * counts days up to one would never end), so that throws instead: forms and addresses take dates
 * from 2000 to 2100 only.
 */
export function addDays(date: string, days: number): string
export function addDays(at: Date, days: number): Date
export function addDays(day: string | Date, days: number): string | Date {
  if (day instanceof Date) return new Date(day.getTime() + days * DAY_MS)
  const value = new Date(`${day}T00:00:00Z`)
  value.setUTCDate(value.getUTCDate() + days)
  const year = value.getUTCFullYear()
  if (Number.isNaN(year) || year < 1 || year > 9999) throw new RangeError(`Not a date from year 1 to 9999: ${day} + ${days} days`)
  return value.toISOString().slice(0, 10)
}

/** The seconds from `from` to `to` (negative when `to` is earlier), with their fraction; instants as Dates or epoch milliseconds. */
export function secondsBetween(from: Date | number, to: Date | number): number {
  return (Number(to) - Number(from)) / SECOND_MS
}

/** The calendar days from one yyyy-mm-dd date to another: 2027-08-08 → 2027-08-16 is 8. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}

/** An instant as whole seconds since 1970 (Unix time), as signed links and tokens carry it. */
export function toUnixSeconds(at: Date): number {
  return Math.floor(at.getTime() / SECOND_MS)
}

/** The instant of a Unix time in seconds. */
export function fromUnixSeconds(seconds: number): Date {
  return new Date(seconds * SECOND_MS)
}

/**
 * The wall-clock date (yyyy-mm-dd) and time (HH:MM) in Asia/Kolkata at an instant: UTC moved by
 * the fixed offset.
 */
export function labDateParts(now: Date): { date: string; time: string } {
  const wallClock = new Date(now.getTime() + LAB_UTC_OFFSET_MS).toISOString()
  return { date: wallClock.slice(0, 10), time: wallClock.slice(11, 16) }
}

/** Today's date in Asia/Kolkata as yyyy-mm-dd, whatever the server's own time zone. */
export function labToday(now: Date = new Date()): string {
  return labDateParts(now).date
}

/** The instant at which a wall-clock date and time ("HH:MM" or a time column's "HH:MM:SS") in Asia/Kolkata occurs. */
export function labInstant(date: string, time = '00:00'): Date {
  return new Date(`${date}T${time.length === 5 ? `${time}:00` : time}+05:30`)
}

/**
 * A wall-clock date and time at the lab in ISO 8601 with the lab's offset, as schema.org reads
 * them: "2030-12-07", "09:00" → "2030-12-07T09:00:00+05:30"; an instant, at the lab's clock.
 */
export function labIsoDateTime(date: string, time: string): string
export function labIsoDateTime(at: Date): string
export function labIsoDateTime(day: string | Date, time?: string): string {
  const { date, time: clock } = typeof day === 'string' ? { date: day, time: time! } : labDateParts(day)
  return `${date}T${toHourMinute(clock)}:00+05:30`
}

/** "09:00:00" → "09:00": a time column as the product compares and shows times, to the minute (nothing for a missing one). */
export function toHourMinute(time: string): string
export function toHourMinute(time: string | null): string | undefined
export function toHourMinute(time: string | null): string | undefined {
  return time?.slice(0, 5)
}

/** The first and last dates of a month given as yyyy-mm. */
export function monthBounds(month: string): { first: string; last: string } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number]
  const last = new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10)
  return { first: `${month}-01`, last }
}

/** Moves a yyyy-mm month by `months`. */
export function addMonths(month: string, months: number): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(year, monthNumber - 1 + months, 1)).toISOString().slice(0, 7)
}

/**
 * Moves a yyyy-mm-dd date by whole months, keeping its day of the month, or the month's last day
 * when it has fewer days: 31 January + 1 month is 28 (or 29) February.
 */
export function addMonthsToDate(date: string, months: number): string {
  const month = addMonths(date.slice(0, 7), months)
  const { last } = monthBounds(month)
  const day = Math.min(Number(date.slice(8, 10)), Number(last.slice(8, 10)))
  return `${month}-${String(day).padStart(2, '0')}`
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec']

/** The days of the lab's week, Monday first, as ISO numbers them (1 = Monday … 7 = Sunday). */
export const DAYS_OF_WEEK = [
  { number: 1, name: 'Monday', short: 'Mon' },
  { number: 2, name: 'Tuesday', short: 'Tue' },
  { number: 3, name: 'Wednesday', short: 'Wed' },
  { number: 4, name: 'Thursday', short: 'Thu' },
  { number: 5, name: 'Friday', short: 'Fri' },
  { number: 6, name: 'Saturday', short: 'Sat' },
  { number: 7, name: 'Sunday', short: 'Sun' },
] as const

type CalendarDay = Readonly<{ day: number; month: number; year: number; weekday: number }>

/**
 * Dates already read: a page writes the same few dozen dates out many times (a calendar's cells,
 * its times' days), and reading one through Date takes twenty times as long as finding it here.
 * Emptied when it grows past what a few months of pages ask for.
 */
const calendarDays = new Map<string, CalendarDay>()
const CALENDAR_DAYS_KEPT = 2_000

/** A yyyy-mm-dd date's day, month (0-11), year and ISO weekday (1 = Monday … 7 = Sunday); an unreadable date throws. */
function calendarDay(date: string): CalendarDay {
  const known = calendarDays.get(date)
  if (known) return known
  const value = new Date(`${date}T00:00:00Z`)
  if (Number.isNaN(value.getTime())) throw new RangeError(`Invalid time value: ${date}`)
  const read = Object.freeze({ day: value.getUTCDate(), month: value.getUTCMonth(), year: value.getUTCFullYear(), weekday: ((value.getUTCDay() + 6) % 7) + 1 })
  if (calendarDays.size >= CALENDAR_DAYS_KEPT) calendarDays.clear()
  calendarDays.set(date, read)
  return read
}

/** "2027-08-09" → 1: the ISO weekday of a date, 1 (Monday) to 7 (Sunday). */
export function isoWeekday(date: string): number {
  return calendarDay(date).weekday
}

/** "2027-08-09" → "Monday". */
function weekdayName(date: string): string {
  return DAYS_OF_WEEK[isoWeekday(date) - 1]!.name
}

/**
 * A camp's dates, with the year, as a visitor needs them: "8–16 August 2027", "28 July – 3 August
 * 2027", or "30 December 2027 – 2 January 2028" across a year.
 */
export function formatDateRange(start: string, end: string): string {
  const [from, to] = [calendarDay(start), calendarDay(end)]
  if (from.year !== to.year) return `${formatLongDate(start)} – ${formatLongDate(end)}`
  if (from.month !== to.month) return `${from.day} ${MONTHS[from.month]} – ${formatLongDate(end)}`
  return `${from.day}–${formatLongDate(end)}`
}

/** The last lab day before an instant, as "15 July 2027": the last day of an offer that ends at it. */
export function formatLastDayBefore(instant: Date): string {
  return formatLongDate(labDateParts(new Date(instant.getTime() - 1)).date)
}

/** "2026-12" → "December 2026". */
export function formatMonthTitle(month: string): string {
  const { month: index, year } = calendarDay(`${month}-01`)
  return `${MONTHS[index]} ${year}`
}

/** "2027-08-08" → "8 August 2027". */
export function formatLongDate(date: string): string {
  const { day, month, year } = calendarDay(date)
  return `${day} ${MONTHS[month]} ${year}`
}

/** "2027-09-08" → "8 Sept": a date in a chart's label. */
export function formatShortDayMonth(date: string): string {
  const { day, month } = calendarDay(date)
  return `${day} ${SHORT_MONTHS[month]}`
}

/** "2027-09-08" → "Wed 8 Sept": a day in a chart's label. */
export function formatShortWeekdayDayMonth(date: string): string {
  return `${DAYS_OF_WEEK[isoWeekday(date) - 1]!.short} ${formatShortDayMonth(date)}`
}

/** "2026-12-01" → "Tuesday, 1 December 2026": a session's date in full. */
export function formatWeekdayDate(date: string): string {
  return `${formatWeekdayDayMonth(date)} ${calendarDay(date).year}`
}

/** "2026-12-01" → "Tuesday, 1 December". */
export function formatWeekdayDayMonth(date: string): string {
  const { day, month } = calendarDay(date)
  return `${weekdayName(date)}, ${day} ${MONTHS[month]}`
}

/** An instant as the lab's calendar shows it: "23 November 2026". */
export function formatLabDate(at: Date): string {
  return formatLongDate(labDateParts(at).date)
}

/** "13:00" or "13:00:00" → "1:00 PM". */
export function formatClockTime(time: string): string {
  const [hours = 0, minutes = 0] = time.split(':').map(Number)
  const suffix = hours >= 12 ? 'PM' : 'AM'
  const hour12 = hours % 12 === 0 ? 12 : hours % 12
  return `${hour12}:${String(minutes).padStart(2, '0')} ${suffix}`
}

/** "13:00", "14:30" → "1:00 PM - 2:30 PM". */
export function formatTimeRange(start: string, end: string): string {
  return `${formatClockTime(start)} - ${formatClockTime(end)}`
}

/** An instant as the lab's clock shows it, where the page already says the time is the lab's: "3:45 PM". */
export function formatLabClockTime(at: Date): string {
  return formatClockTime(labDateParts(at).time)
}

/** An instant as the lab's clock shows it: "3:45 PM IST". */
export function formatLabTime(at: Date): string {
  return `${formatLabClockTime(at)} IST`
}

/** "3:45 PM IST on 8 August 2027": an instant in a sentence (a deadline, when something happened). */
export function formatLabDateTime(at: Date): string {
  return `${formatLabTime(at)} on ${formatLabDate(at)}`
}

/** "8 August 2027, 3:45 PM IST": an instant as a record shows it (paid at, completed at). */
export function formatLabDateThenTime(at: Date): string {
  return `${formatLabDate(at)}, ${formatLabTime(at)}`
}
