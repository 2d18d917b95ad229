import { addDays } from '~/lib/lab-time'

/** An availability window as staff enter it: one date, opening hours and a slot length. */
export type AvailabilityWindow = {
  date: string
  startTime: string | null
  endTime: string | null
  slotDurationMinutes: number | null
  isHoliday: boolean
}

type TimeSlot = { start: string; end: string }

/**
 * Cuts a window into consecutive time slots of its duration, each ending no later than the
 * window's end. A holiday, or a window missing its start, end or duration, yields none.
 */
export function timeSlotsOf(window: AvailabilityWindow): TimeSlot[] {
  const { startTime, endTime, slotDurationMinutes: duration } = window
  if (window.isHoliday || !startTime || !endTime || !duration || duration <= 0) return []
  const slots: TimeSlot[] = []
  const end = toMinutes(endTime)
  for (let start = toMinutes(startTime); start + duration <= end; start += duration) {
    slots.push({ start: fromMinutes(start), end: fromMinutes(start + duration) })
  }
  return slots
}

/** The days of one 3-day session: the chosen date, then the next two dates offering the same time slot. */
export function sessionDays(windows: AvailabilityWindow[], firstDate: string, start: string): string[] | null {
  const offering = new Set<string>()
  for (const window of windows) {
    if (timeSlotsOf(window).some((slot) => slot.start === start)) offering.add(window.date)
  }
  if (!offering.has(firstDate)) return null
  const later = [...offering].filter((date) => date > firstDate).sort()
  if (later.length < 2) return null
  return [firstDate, later[0]!, later[1]!]
}

export function toMinutes(time: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number)
  return hours * 60 + minutes
}

function fromMinutes(total: number): string {
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`
}

/** The calendar dates from `from` to `to` inclusive. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = []
  for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date)
  return dates
}
