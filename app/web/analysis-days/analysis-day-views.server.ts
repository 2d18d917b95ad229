import { formatClockTime, formatLabDateTime, formatWeekdayDayMonth, labDateParts, toHourMinute } from '~/lib/lab-time'
import { formatCount, formatRupees, paiseToRupeesInput } from '~/lib/money'
import type { analysisDayBookings, analysisDayById, analysisDayProducts, analysisDayVenues, listAnalysisDays, readinessOf } from '~/modules/booking/analysis-days.server'
import { describeDates } from '~/modules/booking/analysis-days.server'
import { BOOKING_STATUS_LABELS, swimmerAndBooker } from '~/modules/booking/texts'

// What the staff's analysis-day pages show of a day: its dates and hours in the lab's time, its
// capacity as a sentence, where it stands (draft, published, closed), whether each date is ready
// at its venue, and who booked its slots.

type Day = Awaited<ReturnType<typeof analysisDayById>>
type ListedDay = Awaited<ReturnType<typeof listAnalysisDays>>[number]
type StateOf = Pick<Day, 'publishedAt' | 'closedAt' | 'releaseAt'>

/** Where a day stands: "Draft", "Published, opens to everyone at 7:00 AM IST on 4 December 2030", "Published, open to everyone" or "Closed". */
export function analysisDayState(day: StateOf, now: Date) {
  if (day.closedAt) return 'Closed'
  if (!day.publishedAt) return 'Draft'
  return day.releaseAt > now ? `Published, opens to everyone at ${formatLabDateTime(day.releaseAt)}` : 'Published, open to everyone'
}

/** "9:00 AM–5:00 PM". */
const hoursOf = (day: Pick<Day, 'startTime' | 'endTime'>) => `${formatClockTime(day.startTime)}–${formatClockTime(day.endTime)}`

/** "3 of 24": the seats held (paid, or held while paying) of the day's capacity. */
const seatsOf = (held: number, total: number) => `${formatCount(held)} of ${formatCount(total)}`

/** A day as the list names it. */
export function analysisDayRow(day: ListedDay, now: Date) {
  return {
    id: day.id,
    dates: describeDates(day),
    hours: hoursOf(day),
    venueName: day.venueName,
    city: day.city,
    productName: day.productName,
    capacity: day.capacity.sentence,
    seats: seatsOf(day.held, day.capacity.total),
    state: analysisDayState(day, now),
  }
}

/** A day's details, for its page. */
export function analysisDayDetails(day: Day, held: number, now: Date) {
  return {
    id: day.id,
    venueId: day.venueId,
    venueName: day.venueName,
    city: day.city,
    dates: describeDates(day),
    hours: `${hoursOf(day)} IST, in ${day.slotMinutes}-minute slots`,
    productName: day.productName,
    price: formatRupees(day.pricePaise),
    capacity: day.capacity.sentence,
    seats: seatsOf(held, day.capacity.total),
    hostSeats: day.hostSeats,
    release: formatLabDateTime(day.releaseAt),
    whatToBring: day.whatToBring,
    state: analysisDayState(day, now),
    published: day.publishedAt !== null,
    closed: day.closedAt !== null,
    released: day.releaseAt <= now,
    firstMonth: day.firstDate.slice(0, 7),
  }
}

/** A day's values as its form starts with them. */
export function analysisDayFormValues(day: Day) {
  const release = labDateParts(day.releaseAt)
  return {
    venueId: String(day.venueId),
    productCode: day.productCode,
    firstDate: day.firstDate,
    lastDate: day.lastDate,
    startTime: toHourMinute(day.startTime),
    endTime: toHourMinute(day.endTime),
    slotMinutes: String(day.slotMinutes),
    rigs: String(day.rigs),
    price: paiseToRupeesInput(day.pricePaise),
    hostSeats: String(day.hostSeats),
    releaseDate: release.date,
    releaseTime: release.time,
    whatToBring: day.whatToBring,
  }
}

type Venue = Awaited<ReturnType<typeof analysisDayVenues>>[number]
type Product = Awaited<ReturnType<typeof analysisDayProducts>>[number]

/** The venues the form offers ("Balewadi Aquatics, Pune"); a day's own venue stays among them once closed, so its form shows it. */
export function venueOptions(venues: Venue[], own?: Pick<Day, 'venueId' | 'venueName' | 'city'>) {
  const options = venues.map((venue) => ({ value: String(venue.id), label: `${venue.name}, ${venue.city}` }))
  if (own && !venues.some((venue) => venue.id === own.venueId)) options.push({ value: String(own.venueId), label: `${own.venueName}, ${own.city} (closed)` })
  return options
}

/** The products the form offers, each with its catalogue price beside its name: the day's price starts from it. */
export function productOptions(products: Product[]) {
  return products.map((product) => ({ value: product.code, label: `${product.name} (${formatRupees(product.pricePaise)})` }))
}

/** Whether one date of the day can go ahead: the venue's hours, the kits placed there and the staff there, each a line with its verdict. */
export function readinessRow(date: Awaited<ReturnType<typeof readinessOf>>[number], day: Pick<Day, 'rigs' | 'startTime' | 'endTime'>) {
  const hours = date.open ? `open ${date.hours}, which covers ${hoursOf(day)}` : date.hours ? `open ${date.hours}, not all of ${hoursOf(day)}` : 'no opening hours that day'
  return {
    date: formatWeekdayDayMonth(date.date),
    ready: date.open && date.kits >= day.rigs && date.staff > 0,
    checks: [
      { label: 'Venue’s hours', ok: date.open, text: hours },
      { label: 'Kits placed', ok: date.kits >= day.rigs, text: `${formatCount(date.kits)} of ${formatCount(day.rigs)} needed` },
      { label: 'Staff there', ok: date.staff > 0, text: date.staff === 0 ? 'nobody' : formatCount(date.staff) },
    ],
  }
}

/** A booking of one of the day's slots. */
export function analysisDayBookingRow(booking: Awaited<ReturnType<typeof analysisDayBookings>>[number]) {
  return {
    reference: booking.reference,
    swimmer: swimmerAndBooker(booking),
    slot: `${formatWeekdayDayMonth(booking.date)}, ${formatClockTime(booking.startTime)}`,
    status: BOOKING_STATUS_LABELS[booking.status],
    viaHostLink: booking.viaHostLink,
  }
}
