/** The lab's time zone: every date and time the product shows or reasons about is in it. */
export const LAB_TIME_ZONE = 'Asia/Kolkata'

// Prices and dates are written out here rather than by Intl: building an Intl formatter loads the
// locale's data, which takes a phone tens of milliseconds on every page that shows a price or a
// date (the camp banner is on every page). The texts are exactly what Intl's en-IN gives (tested).

/** 1234567 → "12,34,567": the last three digits, then pairs, as amounts are grouped in India. */
function indianGrouping(whole: number): string {
  const digits = String(whole)
  if (digits.length <= 3) return digits
  return `${digits.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${digits.slice(-3)}`
}

/** Integer paise → "12,34,567.50" (or "12,34,567" with no paise digits), with a leading minus if below zero. */
function amount(paise: number, fractionDigits: 0 | 2, symbol = ''): string {
  const sign = paise < 0 ? '-' : ''
  const absolute = Math.round(Math.abs(paise))
  const paiseDigits = fractionDigits === 2 ? `.${String(absolute % 100).padStart(2, '0')}` : ''
  return `${sign}${symbol}${indianGrouping(Math.floor(absolute / 100))}${paiseDigits}`
}

/** 3500000 → "₹35,000.00"; money is integer paise everywhere and formatted only here. */
export function formatRupees(paise: number): string {
  return amount(paise, 2, '₹')
}

/**
 * Rupees as a person types them ("35000", "35,000", "₹3,499.50") → integer paise, exactly (no
 * floating point); null for anything else.
 */
export function rupeesToPaise(text: string): number | null {
  const match = /^\s*₹?\s*(\d{1,3}(?:,\d{2,3})*|\d+)(?:\.(\d{1,2}))?\s*$/.exec(text)
  if (!match) return null
  const paise = Number(match[1]!.replaceAll(',', '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
  return Number.isSafeInteger(paise) ? paise : null
}

/** 3500000 → "35,000", 3500050 → "35,000.50": an amount as a form shows it for editing. */
export function paiseToRupeesInput(paise: number): string {
  return amount(paise, paise % 100 === 0 ? 0 : 2)
}

/** 3500000 → "₹35,000", for headline prices that are whole rupees. */
export function formatWholeRupees(paise: number): string {
  return paise % 100 === 0 ? amount(paise, 0, '₹') : formatRupees(paise)
}

/** Today's date in Asia/Kolkata as yyyy-mm-dd, whatever the server's own time zone. */
export function labToday(now: Date = new Date()): string {
  return labDateParts(now).date
}

/** Asia/Kolkata is UTC+05:30 all year (it has no daylight saving time). */
const LAB_UTC_OFFSET_MS = (5 * 60 + 30) * 60_000

/**
 * The wall-clock date (yyyy-mm-dd) and time (HH:MM) in Asia/Kolkata at an instant: UTC moved by
 * the fixed offset. Arithmetic rather than Intl with a time zone, whose time-zone data takes a
 * phone tens of milliseconds to load, and every page shows today's year in its footer.
 */
export function labDateParts(now: Date): { date: string; time: string } {
  const wallClock = new Date(now.getTime() + LAB_UTC_OFFSET_MS).toISOString()
  return { date: wallClock.slice(0, 10), time: wallClock.slice(11, 16) }
}

/** The instant at which a wall-clock date and time in Asia/Kolkata (UTC+05:30, no DST) occurs. */
export function labInstant(date: string, time = '00:00'): Date {
  return new Date(`${date}T${time.length === 5 ? `${time}:00` : time}+05:30`)
}

/**
 * Adds whole days to a yyyy-mm-dd calendar date. Past year 9999 a date is no longer yyyy-mm-dd
 * (and a loop that counts days up to one would never end), so that throws instead: forms and
 * addresses take dates from 2000 to 2100 only.
 */
export function addDays(date: string, days: number): string {
  const value = new Date(`${date}T00:00:00Z`)
  value.setUTCDate(value.getUTCDate() + days)
  const year = value.getUTCFullYear()
  if (Number.isNaN(year) || year < 1 || year > 9999) throw new RangeError(`Not a date from year 1 to 9999: ${date} + ${days} days`)
  return value.toISOString().slice(0, 10)
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

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec']
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

/** A yyyy-mm-dd date's day, month (0-11), year and weekday (0 = Sunday); an unreadable date throws. */
function calendarDay(date: string) {
  const value = new Date(`${date}T00:00:00Z`)
  if (Number.isNaN(value.getTime())) throw new RangeError(`Invalid time value: ${date}`)
  return { day: value.getUTCDate(), month: value.getUTCMonth(), year: value.getUTCFullYear(), weekday: value.getUTCDay() }
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

/** "2026-12-01" → "Tuesday, 1 December 2026" (the spec's full weekday date). */
export function formatWeekdayDate(date: string): string {
  return `${formatWeekdayDayMonth(date)} ${calendarDay(date).year}`
}

/** "2026-12-01" → "Tuesday, 1 December". */
export function formatWeekdayDayMonth(date: string): string {
  const { day, month, weekday } = calendarDay(date)
  return `${WEEKDAYS[weekday]}, ${day} ${MONTHS[month]}`
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

export function formatTimeRange(start: string, end: string): string {
  return `${formatClockTime(start)} - ${formatClockTime(end)}`
}

/** 2_411_724 → "2.3 MB"; 48_000 → "47 KB". */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
  return `${Math.max(1, Math.round(bytes / 1024))} KB`
}
