/** The lab's time zone: every date and time the product shows or reasons about is in it. */
export const LAB_TIME_ZONE = 'Asia/Kolkata'

const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' })
const wholeRupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 })

/** 3500000 → "₹35,000.00"; money is integer paise everywhere and formatted only here. */
export function formatRupees(paise: number): string {
  return rupees.format(paise / 100)
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
  const fractionDigits = paise % 100 === 0 ? 0 : 2
  return new Intl.NumberFormat('en-IN', { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }).format(paise / 100)
}

/** 3500000 → "₹35,000", for headline prices that are whole rupees. */
export function formatWholeRupees(paise: number): string {
  return paise % 100 === 0 ? wholeRupees.format(paise / 100) : formatRupees(paise)
}

/** Today's date in Asia/Kolkata as yyyy-mm-dd, whatever the server's own time zone. */
export function labToday(now: Date = new Date()): string {
  return labDateParts(now).date
}

const labClock = new Intl.DateTimeFormat('en-CA', {
  timeZone: LAB_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})

/** The wall-clock date (yyyy-mm-dd) and time (HH:MM) in Asia/Kolkata at an instant. */
export function labDateParts(now: Date): { date: string; time: string } {
  const parts = Object.fromEntries(labClock.formatToParts(now).map((part) => [part.type, part.value]))
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` }
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

const dayMonth = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', timeZone: 'UTC' })
const dayMonthYear = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })

/** "2027-08-08", "2027-08-16" → "8–16 Aug" (or "28 Jul – 3 Aug" across months). */
export function formatDateRange(start: string, end: string): string {
  const [from, to] = [new Date(`${start}T00:00:00Z`), new Date(`${end}T00:00:00Z`)]
  if (from.getUTCMonth() === to.getUTCMonth()) {
    return `${from.getUTCDate()}–${dayMonth.format(to)}`
  }
  return `${dayMonth.format(from)} – ${dayMonth.format(to)}`
}

/** "2027-08-08" → "8 August 2027". */
export function formatLongDate(date: string): string {
  return dayMonthYear.format(new Date(`${date}T00:00:00Z`))
}

const weekdayDate = new Intl.DateTimeFormat('en-IN', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
const weekdayDayMonth = new Intl.DateTimeFormat('en-IN', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' })

/** "2026-12-01" → "Tuesday, 1 December 2026" (the spec's full weekday date). */
export function formatWeekdayDate(date: string): string {
  return weekdayDate.format(new Date(`${date}T00:00:00Z`))
}

/** "2026-12-01" → "Tuesday, 1 December". */
export function formatWeekdayDayMonth(date: string): string {
  return weekdayDayMonth.format(new Date(`${date}T00:00:00Z`))
}

/** An instant as the lab's calendar shows it: "23 November 2026". */
export function formatLabDate(at: Date): string {
  return formatLongDate(labDateParts(at).date)
}

const monthName = new Intl.DateTimeFormat('en-IN', { month: 'long', timeZone: 'UTC' })

/** "2027-08-08" → "8th August", as the camp form writes camp dates. */
export function formatOrdinalDayMonth(date: string): string {
  const day = Number(date.slice(8, 10))
  const suffix = day % 100 >= 11 && day % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th')
  return `${day}${suffix} ${monthName.format(new Date(`${date}T00:00:00Z`))}`
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
