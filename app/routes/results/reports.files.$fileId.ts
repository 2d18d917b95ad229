import type { Route } from './+types/reports.files.$fileId'
import { getUser } from '~/web/auth.server'
import { linkExpired } from '~/web/booking/booking-access.server'
import { isLinkKey, REPORT_FILE_LINK } from '~/lib/private-links.server'
import { notFoundUnless } from '~/web/refusals.server'
import { guestLinkOpenFor } from '~/modules/booking/guest-links.server'
import { reportFile } from '~/modules/reports/reports.server'
import { rowId } from '~/lib/row-id'

/**
 * A report file, for the booking's customer, staff, or the holder of the private link the site
 * made for it while the guest's link to the booking works; anyone else gets 404, as for a file
 * that does not exist.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const fileId = rowId(params.fileId)
  const file = fileId ? await reportFile(fileId) : null
  notFoundUnless(file)
  const user = await getUser(request)
  if (!(user && (user.isAdmin || file.userId === user.id || (file.userId === null && file.email === user.email.toLowerCase())))) {
    notFoundUnless(await isLinkKey(REPORT_FILE_LINK, String(fileId), new URL(request.url).searchParams.get('key')))
    if (!(await guestLinkOpenFor(file.bookingId))) throw linkExpired()
  }
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      'Content-Type': file.contentType,
      'Content-Disposition': `inline; filename="${file.filename.replace(/[^\x20-\x7e]/g, '_')}"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
