import { href, redirect } from 'react-router'
import type { Route } from './+types/account.data.export'
import { labToday } from '~/lib/lab-time'
import { buildDataExport, EXPORT_LIMIT, exportLimitKey } from '~/modules/privacy/export.server'
import { enforce, RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { requireUser } from '~/web/auth.server'
import { redirectWithToast } from '~/web/toast.server'

/** Only a POST builds an export; an address typed or followed goes back to the page. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request)
  throw redirect(href('/account/data'))
}

/**
 * The signed-in account's data as a ZIP, built for this request and sent as its answer: nothing is
 * written to disk or kept, so there is no link to leak and nothing to clean up, and no cache may
 * keep a copy. Limited per account, since each export reads everything and renders every receipt.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request)
  try {
    await enforce([{ key: exportLimitKey(user.id), rule: EXPORT_LIMIT }])
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error
    return redirectWithToast(href('/account/data'), { type: 'error', title: 'Please wait before downloading again', description: error.message })
  }
  const zip = await buildDataExport(user.id)
  if (!zip) throw redirect(href('/login'))
  return new Response(zip as Uint8Array<ArrayBuffer>, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="swimming-lab-data-${labToday()}.zip"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}
