import type { Route } from './+types/receipts.$orderId'
import { isLinkKey, RECEIPT_LINK } from '~/lib/private-links.server'
import { taxDocumentDownload } from '~/web/receipts/tax-documents.server'
import { renderReceiptPdf } from '~/modules/receipts/receipt-pdf.server'
import { receiptOf } from '~/modules/receipts/receipts.server'
import { refuseNul } from '~/web/nul.server'

/** A payment's receipt as a PDF, for its customer, staff, or the holder of a link the site made (see taxDocumentDownload). */
export async function loader({ request, params }: Route.LoaderArgs) {
  refuseNul(request, params)
  return taxDocumentDownload(request, {
    found: await receiptOf(params.orderId),
    keyed: await isLinkKey(RECEIPT_LINK, params.orderId, new URL(request.url).searchParams.get('key')),
    render: renderReceiptPdf,
    fileName: (document) => `receipt-${document.receiptNumber.replaceAll('/', '-')}.pdf`,
  })
}
