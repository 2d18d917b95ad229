import type { Holder } from '~/modules/holders/holders.server'
import { getCatalogue, requireItem } from '~/modules/site/site.server'
import { daySchedule, type TimeSlotState } from './availability.server'
import { holdSession, type Customer } from './holds.server'
import { BOOKING_TIMES, SINGLE_SERVICES, type PublicBookingInput } from './schemas'

/** The purposes of the keys in a guest's links: their booking, and a payment's result. */
export const GUEST_BOOKING_LINK = 'guest-booking'
export const BOOKING_STATUS_LINK = 'booking-status'

export type BookingTime = { time: string; state: TimeSlotState }

/**
 * /booking's nine times on a date, each Available only when a seat is free at that time (the same
 * seats as the 3-day sessions) and it has not begun in Bangalore.
 */
export async function bookingTimesOn(date: string, now = new Date()): Promise<BookingTime[]> {
  const schedule = await daySchedule({ date, userId: null, days: 1, now })
  return BOOKING_TIMES.map((time) => ({ time, state: schedule.find((slot) => slot.start === time)?.state ?? 'not_available' }))
}

export function singleService(value: PublicBookingInput['service']) {
  return SINGLE_SERVICES.find((service) => service.value === value)!
}

/** The three services with their catalogue prices, in paise. */
export async function singleServicePrices() {
  const catalogue = await getCatalogue()
  return SINGLE_SERVICES.map((service) => ({ value: service.value, label: service.label, pricePaise: requireItem(catalogue, service.productCode).pricePaise }))
}

/**
 * Holds the seat of a single session for the details of step 1, for `holder` (a signed-in
 * customer's booking is theirs).
 */
export function holdSingleSession(details: PublicBookingInput, holder: Holder, now = new Date()) {
  const customer: Customer = { userId: holder.userId, name: details.name, email: details.email.toLowerCase(), phone: details.phone || null, swimmingExperience: null }
  return holdSession({ customer, productCode: singleService(details.service).productCode, date: details.date, start: details.time, days: 1, notes: details.notes || null, holder, now })
}
