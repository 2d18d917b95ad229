import type { Executor } from '~/db/client.server'
import type { Customer } from './pdf-layout.server'
import type { ReceiptDiscount, ReceiptLine } from './receipt-pdf.server'
import type { ReceiptOwner } from './receipts.server'

/** A venue as a receipt records it: its name and address (with the city). */
export type SupplyVenue = { name: string; address: string }

export function supplyVenue(venue: { name: string; address: string; city: string }): SupplyVenue {
  return { name: venue.name, address: [venue.address, venue.city].filter(Boolean).join(', ') }
}

/** What is paid for, as a receipt's (or credit note's) line, with its customer and who may see the document. */
export type ReceiptItem = { owner: ReceiptOwner; customer: Customer; description: string; detail: string[]; discounts: ReceiptDiscount[] }

/**
 * How each kind of thing paid for reads on a receipt or credit note, given by its own module (a
 * booking, a camp registration) at start-up through registerPayables
 * (app/modules/payables/payables.server.ts): receipts are issued by payments, below those modules.
 * `promoCode` names the promo discount of the line.
 */
export type ReceiptItems = {
  /** `place`: where the receipt recorded the service as performed, named on the line when it is not the lab's home. */
  booking(executor: Executor, bookingId: number, promoCode?: string | null, place?: SupplyVenue | null): Promise<ReceiptItem>
  /** The venue a booking's sessions are at (its first day's), the place of supply its receipt records. */
  bookingVenue(executor: Executor, bookingId: number): Promise<number>
  camp(executor: Executor, registrationId: number, promoCode?: string | null): Promise<ReceiptItem>
  /** A line for each swimmer of a group paid for at once; null when the registration leads no group. */
  campGroup(executor: Executor, leadId: number, promoCode?: string | null): Promise<ReceiptLine[] | null>
}

let registered: ReceiptItems | undefined

export function useReceiptItems(items: ReceiptItems) {
  registered = items
}

export function receiptItems(): ReceiptItems {
  if (!registered) throw new Error('The receipt items have not been registered yet')
  return registered
}

/** "Promo code SUMMER10", or just "Promo code" should its use not be found. */
export const promoCodeLabel = (promoCode: string | null) => (promoCode ? `Promo code ${promoCode}` : 'Promo code')

/** The discounts a line shows: those that took something off. */
export function discountLines(discounts: Array<[string, number]>): ReceiptDiscount[] {
  return discounts.filter(([, amountPaise]) => amountPaise > 0).map(([label, amountPaise]) => ({ label, amountPaise }))
}
