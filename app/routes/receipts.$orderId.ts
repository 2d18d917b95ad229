import type { Route } from './+types/receipts.$orderId'
import { getUser } from '~/lib/auth.server'
import { linkExpired } from '~/lib/booking-access.server'
import { isLinkKey, RECEIPT_LINK } from '~/lib/private-links.server'
import { guestLinkOpenFor } from '~/modules/booking/guest-links.server'
import { renderReceiptPdf } from '~/modules/receipts/receipt-pdf.server'
import { mayDownloadReceipt, receiptOf } from '~/modules/receipts/receipts.server'
import { refuseNul } from '~/lib/nul.server'
import { notFoundUnless } from '~/lib/refusals.server'

/**
 * A payment's receipt as a PDF, for its customer, staff, or the holder of a link the site made
 * (for a session booking, only while the guest's link to the booking works). Anyone else gets 404:
 * the same answer as for an order that does not exist.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  refuseNul(request, params)
  const receipt = await receiptOf(params.orderId)
  const keyed = await isLinkKey(RECEIPT_LINK, params.orderId, new URL(request.url).searchParams.get('key'))
  notFoundUnless(receipt)
  if (!mayDownloadReceipt(receipt.owner, await getUser(request))) {
    notFoundUnless(keyed)
    if (receipt.bookingId !== null && !(await guestLinkOpenFor(receipt.bookingId))) throw linkExpired()
  }
  const pdf = await renderReceiptPdf(receipt.document)
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="receipt-${receipt.document.receiptNumber.replaceAll('/', '-')}.pdf"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
