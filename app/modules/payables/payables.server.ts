import { bookingPayable } from '~/modules/booking/fulfilment.server'
import { bookingReceiptItem, bookingVenueId } from '~/modules/booking/receipt-item.server'
import { campPayable } from '~/modules/camps/fulfilment.server'
import { campGroupReceiptLines, campReceiptItem } from '~/modules/camps/receipt-items.server'
import { usePayableKinds } from '~/modules/payments/payable-kinds.server'
import { useReceiptItems } from '~/modules/receipts/receipt-items.server'

/**
 * Gives the payments and receipts modules the kinds of thing the site takes payment for (a booking,
 * a camp registration): what paying, failing and refunding mean for each, and how each reads on a
 * receipt. Payments and receipts sit below booking and camps and call them only through this, so it
 * runs at start-up wherever payments are taken: the server (and each of its workers, with the
 * background jobs) and the tests.
 */
export function registerPayables() {
  usePayableKinds({ booking: bookingPayable, camp: campPayable })
  useReceiptItems({ booking: bookingReceiptItem, bookingVenue: bookingVenueId, camp: campReceiptItem, campGroup: campGroupReceiptLines })
}
