import { formatTimeRange, formatWeekdayDate } from '~/lib/lab-time'
import { formatCount } from '~/lib/money'
import { PRODUCT_NAME } from '~/lib/seo'
import type { BookingVenue } from './bookings.server'

/** What every customer should know before a session (the slot page, the payment page, e-mails). */
export const IMPORTANT_INFORMATION = [
  'Please arrive 15 minutes before your session.',
  'Bring your swimming gear and a towel.',
  'Cancellations must be made 24 hours in advance.',
] as const

/** The catalogue item a 3-day session on /book-slot is sold as: the 3-Day Biomechanical Analysis package. */
export const SESSION_PRODUCT_CODE = 'biomechanical_package'
export const SESSION_DAYS = 3

/**
 * What the analysis of each product is called in a sentence to the family ("Aarav's biomechanical
 * analysis is ready"): its short name, without the package's days or the word "session".
 */
const ANALYSIS_NAMES: Record<string, string> = {
  biomechanical_package: 'biomechanical analysis',
  single_biomechanical: 'biomechanical analysis',
  single_race: 'race analysis',
  single_both: 'race and biomechanical analysis',
  race_analysis: 'race analysis',
}

/** The short name of a product's analysis; a product without one is named as the catalogue names it. */
export function analysisNameOf(product: { productCode: string; productName: string }) {
  return ANALYSIS_NAMES[product.productCode] ?? product.productName.toLowerCase()
}

/** How each booking status reads to staff. */
export const BOOKING_STATUS_LABELS = {
  pending: 'Awaiting payment',
  confirmed: 'Confirmed',
  expired: 'Expired',
  payment_failed: 'Payment failed',
  cancelled: 'Cancelled',
  refund_pending: 'Refund in progress',
  refunded: 'Refunded',
} as const

/** Who a booking is for, as staff lists name it: "Kavya Kumar (booked by Ravi Kumar)", or the one name when they swim themselves. */
export function swimmerAndBooker({ swimmerName, customerName }: { swimmerName: string; customerName: string }) {
  return swimmerName === customerName ? swimmerName : `${swimmerName} (booked by ${customerName})`
}

/** A booking's days as every page, e-mail and receipt lists them: "Day 2" (or "Date" for a one-day session) with its date and times. */
export function bookingDayLines(days: ReadonlyArray<{ dayNumber: number; date: string; start: string; end: string }>) {
  return days.map((day) => ({ label: days.length > 1 ? `Day ${day.dayNumber}` : 'Date', value: `${formatWeekdayDate(day.date)}, ${formatTimeRange(day.start, day.end)}` }))
}

/** An analysis day's seats left as its public pages show them: "24 seats left", "1 seat left", "Full". */
export function seatsLeftText(seats: number) {
  return seats === 0 ? 'Full' : `${formatCount(seats)} ${seats === 1 ? 'seat' : 'seats'} left`
}

/**
 * Where a booking takes place in one line, as its messages and pages name it: the lab's session
 * location, or a venue away with its address ("Balewadi Aquatics, Shree Shiv Chhatrapati Sports
 * Complex, Balewadi, Pune").
 */
export function venueLine(venue: BookingVenue) {
  return [venue.name, venue.address, venue.city].filter(Boolean).join(', ')
}

/** Where a booking takes place in a few words: the lab's session location, or a venue away and its city ("Balewadi Aquatics, Pune"). */
export function venuePlace(venue: BookingVenue) {
  return [venue.name, venue.city].filter(Boolean).join(', ')
}

/** Where a booking takes place in a WhatsApp message: "the Swimming Sport Science Lab", as it always said, or a venue away and its city. */
export function venueOnWhatsApp(venue: BookingVenue) {
  return venue.home ? `the ${PRODUCT_NAME}` : venuePlace(venue)
}

/** A venue's map link, only when it is a web address (http or https), as a browser reads it; else null. */
export function mapLinkOf(venue: Pick<BookingVenue, 'mapUrl'>) {
  if (!venue.mapUrl) return null
  try {
    const url = new URL(venue.mapUrl)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
  } catch {
    return null
  }
}

/** Where a booking takes place as its pages list it: "Location", and for a venue with a map, "Map" linking to it. */
export function venueDetails(venue: BookingVenue, label = 'Location'): Array<{ term: string; value: string; href?: string }> {
  const map = mapLinkOf(venue)
  return [{ term: label, value: venueLine(venue) }, ...(map ? [{ term: 'Map', value: 'Open the map', href: map }] : [])]
}
