import { and, eq } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { availabilityWindows, bookingDays, bookings, catalogueItems } from '~/db/schema'
import { discountLines, promoCodeLabel, supplyVenue, type ReceiptItem, type SupplyVenue } from '~/modules/receipts/receipt-items.server'
import { sessionLocationIn } from '~/modules/site/site.server'
import { daysAndVenues, homeVenueNamed, type BookingVenue } from './bookings.server'
import { bookingDayLines } from './texts'

/** The venue of a booking's sessions: its first day's window's (every day of a booking is at one venue). */
export async function bookingVenueId(executor: Executor, bookingId: number): Promise<number> {
  const [row] = await executor
    .select({ venueId: availabilityWindows.venueId })
    .from(bookingDays)
    .innerJoin(availabilityWindows, eq(availabilityWindows.id, bookingDays.windowId))
    .where(and(eq(bookingDays.bookingId, bookingId), eq(bookingDays.dayNumber, 1)))
  if (!row) throw new Error(`Booking ${bookingId} has no first day`)
  return row.venueId
}

/** Where a booking's sessions are, as its line names it: the lab's session location at home, else the venue (as the receipt recorded it, when given). */
function locationOf(venue: BookingVenue, place: SupplyVenue | null) {
  if (venue.home) return venue.name
  const { name, address } = place ?? supplyVenue({ name: venue.name, address: venue.address ?? '', city: venue.city ?? '' })
  return [name, address].filter(Boolean).join(', ')
}

/**
 * A booking as a receipt's (or credit note's) line, with its customer and who may see it; `promoCode`
 * names its promo discount, `place` the venue as the receipt recorded it.
 */
export async function bookingReceiptItem(executor: Executor, bookingId: number, promoCode: string | null = null, place: SupplyVenue | null = null): Promise<ReceiptItem> {
  const [booking] = await executor
    .select({ reference: bookings.reference, swimmerName: bookings.swimmerName, name: bookings.customerName, email: bookings.customerEmail, phone: bookings.customerPhone, userId: bookings.userId, promoDiscountPaise: bookings.promoDiscountPaise, productName: catalogueItems.name })
    .from(bookings)
    .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .where(eq(bookings.id, bookingId))
  // The days, the venue and the lab's session location in one query.
  const found = (await daysAndVenues([bookingId], executor)).get(bookingId)
  const days = found?.days ?? []
  const location = locationOf(found?.venue ?? homeVenueNamed(await sessionLocationIn(executor)), place)
  return {
    owner: { userId: booking!.userId, email: booking!.email },
    customer: { name: booking!.name, email: booking!.email, phone: booking!.phone },
    description: booking!.productName,
    detail: [
      `Swimmer: ${booking!.swimmerName}`,
      ...bookingDayLines(days).map(({ label, value }) => `${label}: ${value}`),
      `Location: ${location}`,
      `Booking ID: ${booking!.reference}`,
    ],
    discounts: discountLines([[promoCodeLabel(promoCode), booking!.promoDiscountPaise]]),
  }
}
