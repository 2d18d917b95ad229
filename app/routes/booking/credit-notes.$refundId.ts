import type { Route } from './+types/credit-notes.$refundId'
import { CREDIT_NOTE_LINK, isLinkKey } from '~/lib/private-links.server'
import { taxDocumentDownload } from '~/web/receipts/tax-documents.server'
import { renderCreditNotePdf } from '~/modules/receipts/credit-note-pdf.server'
import { creditNoteFileName, creditNoteOf } from '~/modules/receipts/credit-notes.server'
import { refuseNul } from '~/web/nul.server'

/** A refund's credit note as a PDF, for whoever may have the receipt it is against (see taxDocumentDownload). */
export async function loader({ request, params }: Route.LoaderArgs) {
  refuseNul(request, params)
  return taxDocumentDownload(request, {
    found: await creditNoteOf(params.refundId),
    keyed: await isLinkKey(CREDIT_NOTE_LINK, params.refundId, new URL(request.url).searchParams.get('key')),
    render: renderCreditNotePdf,
    fileName: (document) => creditNoteFileName(document.number),
  })
}
