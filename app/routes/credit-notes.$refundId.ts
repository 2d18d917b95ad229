import type { Route } from './+types/credit-notes.$refundId'
import { getUser } from '~/lib/auth.server'
import { linkExpired } from '~/lib/booking-access.server'
import { CREDIT_NOTE_LINK, isLinkKey } from '~/lib/private-links.server'
import { guestLinkOpenFor } from '~/modules/booking/guest-links.server'
import { renderCreditNotePdf } from '~/modules/receipts/credit-note-pdf.server'
import { creditNoteFileName, creditNoteOf } from '~/modules/receipts/credit-notes.server'
import { mayDownloadReceipt } from '~/modules/receipts/receipts.server'
import { refuseNul } from '~/lib/nul.server'
import { notFoundUnless } from '~/lib/refusals.server'

/**
 * A refund's credit note as a PDF, for whoever may have the receipt it is against: its customer,
 * staff, or the holder of a link the site made (for a session booking, only while the guest's link
 * to the booking works). Anyone else gets 404, as for a refund that does not exist.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  refuseNul(request, params)
  const note = await creditNoteOf(params.refundId)
  const keyed = await isLinkKey(CREDIT_NOTE_LINK, params.refundId, new URL(request.url).searchParams.get('key'))
  notFoundUnless(note)
  if (!mayDownloadReceipt(note.owner, await getUser(request))) {
    notFoundUnless(keyed)
    if (note.bookingId !== null && !(await guestLinkOpenFor(note.bookingId))) throw linkExpired()
  }
  const pdf = await renderCreditNotePdf(note.document)
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${creditNoteFileName(note.document.number)}"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
