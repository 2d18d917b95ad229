import { guestLinkOpenFor } from '~/modules/booking/guest-links.server'
import { mayDownloadReceipt } from '~/modules/receipts/receipts.server'
import { getUser } from '~/web/auth.server'
import { linkExpired } from '~/web/booking/booking-access.server'
import { notFoundUnless } from '~/web/refusals.server'

type Found<Document> = { document: Document; owner: Parameters<typeof mayDownloadReceipt>[0]; bookingId: number | null }

/**
 * A receipt or a credit note as a PDF download, for its customer, staff, or the holder of a link the
 * site made for it (`keyed`; for a session booking, only while the guest's link to the booking
 * works). Anyone else gets 404, the same answer as for one that does not exist. Never cached.
 */
export async function taxDocumentDownload<Document>(
  request: Request,
  { found, keyed, render, fileName }: { found: Found<Document> | null; keyed: boolean; render: (document: Document) => Promise<Uint8Array>; fileName: (document: Document) => string },
) {
  notFoundUnless(found)
  if (!mayDownloadReceipt(found.owner, await getUser(request))) {
    notFoundUnless(keyed)
    if (found.bookingId !== null && !(await guestLinkOpenFor(found.bookingId))) throw linkExpired()
  }
  const pdf = await render(found.document)
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${fileName(found.document)}"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
