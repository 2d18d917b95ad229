import { eq } from 'drizzle-orm'
import type { Executor } from '~/db/client.server'
import { bookings, catalogueItems } from '~/db/schema'
import { discountLines, promoCodeLabel, type ReceiptItem } from '~/modules/receipts/receipt-items.server'
import { sessionLocationIn } from '~/modules/site/site.server'
import { bookingDaysOf } from './bookings.server'
import { bookingDayLines } from './texts'

/** A booking as a receipt's (or credit note's) line, with its customer and who may see it; `promoCode` names its promo discount. */
export async function bookingReceiptItem(executor: Executor, bookingId: number, promoCode: string | null = null): Promise<ReceiptItem> {
  const [booking] = await executor
    .select({ reference: bookings.reference, swimmerName: bookings.swimmerName, name: bookings.customerName, email: bookings.customerEmail, phone: bookings.customerPhone, userId: bookings.userId, promoDiscountPaise: bookings.promoDiscountPaise, productName: catalogueItems.name })
    .from(bookings)
    .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .where(eq(bookings.id, bookingId))
  const days = await bookingDaysOf(bookingId, executor)
  const location = await sessionLocationIn(executor)
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
