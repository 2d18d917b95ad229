import { addDays, labToday } from '~/lib/lab-time'
import { ISO_DATE, isRealDate } from '~/modules/forms/dates'

// What the /booking form offers and says, and the dates a customer may choose, for the page and
// for the schemas that check the form; no zod here, so the page can show before the rules load.

/** The single sessions sold on /booking, and the catalogue item that names, describes and prices each. */
export const SINGLE_SERVICES = [
  { value: 'race', productCode: 'single_race' },
  { value: 'biomechanical', productCode: 'single_biomechanical' },
  { value: 'both', productCode: 'single_both' },
] as const

/** /booking's time choices: 9:00 AM to 5:00 PM, hourly. */
export const BOOKING_TIMES = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00'] as const

/**
 * "Who will swim?" for a guest: the person booking, or someone else, named with their age. A
 * signed-in customer chooses one of their account's swimmers (by its id) or someone else.
 */
export const SOMEONE_ELSE = 'someone_else'
export const GUEST_WHO_SWIMS = [
  { value: 'myself', label: 'Myself' },
  { value: SOMEONE_ELSE, label: 'Someone else' },
] as const

export const MISSING_INFORMATION = 'Missing information - Please fill in all required fields.'

/** The fields a form must have for the "Missing information" message not to show. */
export const REQUIRED_BOOKING_FIELDS = ['name', 'email', 'service', 'date', 'time'] as const

/** How far ahead a customer may name a date at all; each booking page's own window is shorter. */
const CUSTOMER_DAYS_AHEAD = 366
export const BOOKABLE_DATE_MESSAGE = 'Choose a date from today up to a year ahead'

/** From today (in Bangalore) up to a year ahead, for a yyyy-mm-dd date. */
export function isInBookingWindow(date: string) {
  const today = labToday()
  return date >= today && date <= addDays(today, CUSTOMER_DAYS_AHEAD)
}

/** A date a customer may book or move to: a real yyyy-mm-dd within the booking window. */
export function isBookableDate(value: string) {
  return ISO_DATE.test(value) && isRealDate(value) && isInBookingWindow(value)
}
