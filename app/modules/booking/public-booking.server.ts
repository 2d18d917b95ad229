import type { Holder } from '~/modules/holders/holders.server'
import { getCatalogue, requireItem } from '~/modules/site/site.server'
import { addMonths, labToday } from '~/lib/lab-time'
import { daySchedule, monthCalendar, type TimeSlotState } from './availability.server'
import { holdSession, lastBookableDate, type Customer } from './holds.server'
import { BOOKING_TIMES, SINGLE_SERVICES, type PublicBookingInput } from './schemas'

export type BookingTime = { time: string; state: TimeSlotState }

/**
 * /booking's nine times on a date, each Available only when a seat is free at that time (the same
 * seats as the 3-day sessions) and it has not begun in Bangalore.
 */
export async function bookingTimesOn(date: string, now = new Date()): Promise<BookingTime[]> {
  const schedule = await daySchedule({ date, userId: null, days: 1, now })
  return BOOKING_TIMES.map((time) => ({ time, state: schedule.find((slot) => slot.start === time)?.state ?? 'not_available' }))
}

/** Said next to /booking's date when the date chosen has no times to offer. */
export const NO_TIMES_MESSAGE = 'There are no open times on this date. Please choose another date.'

/**
 * The dates /booking offers, from today as far as a single session may be booked: those on which
 * one of its times can still start a session (as /book-slot's calendar decides, so a hold accepts
 * it; a time may still be Full). And the dates the lab is closed (no opening hours, or a holiday)
 * up to the last open one: after that the lab has not yet set its hours.
 */
export async function bookingDates(now = new Date()): Promise<{ open: string[]; closed: string[] }> {
  const today = labToday(now)
  const last = lastBookableDate(1, today)
  const months: string[] = []
  for (let month = today.slice(0, 7); month <= last.slice(0, 7); month = addMonths(month, 1)) months.push(month)
  const calendars = await Promise.all(months.map((month) => monthCalendar(month, now, { days: 1, starts: BOOKING_TIMES })))
  const days = calendars.flat().filter((day) => day.date >= today && day.date <= last)
  const open = days.filter((day) => day.open).map((day) => day.date)
  const lastOpen = open.at(-1)
  return { open, closed: lastOpen ? days.filter((day) => day.closed && day.date < lastOpen).map((day) => day.date) : [] }
}

export function singleService(value: PublicBookingInput['service']) {
  return SINGLE_SERVICES.find((service) => service.value === value)!
}

/** The three services with their catalogue prices, in paise. */
/** How long a single session takes, as the catalogue says: "45-60 minutes", or each length there is. */
export function singleSessionLength(sessions: Array<{ duration: string }>) {
  return [...new Set(sessions.map((session) => session.duration))].join(' or ')
}

export async function singleServicePrices() {
  const catalogue = await getCatalogue()
  return SINGLE_SERVICES.map((service) => {
    const product = requireItem(catalogue, service.productCode)
    return { value: service.value, label: product.name, description: product.description, duration: product.duration, pricePaise: product.pricePaise }
  })
}

/**
 * Holds the seat of a single session for the details of step 1, for `holder` (a signed-in
 * customer's booking is theirs).
 */
export function holdSingleSession(details: PublicBookingInput, holder: Holder, now = new Date()) {
  const customer: Customer = { userId: holder.userId, swimmerId: null, swimmerName: details.name, name: details.name, email: details.email.toLowerCase(), phone: details.phone || null, swimmingExperience: null }
  return holdSession({ customer, productCode: singleService(details.service).productCode, date: details.date, start: details.time, days: 1, notes: details.notes || null, holder, now })
}
