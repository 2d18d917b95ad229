import { data, redirect } from 'react-router'
import type { Route } from './+types/banner.close'
import { safeRedirect } from '~/web/auth.server'
import { bannerClosedHeader } from '~/web/banner/banner-closed.server'
import { readForm } from '~/web/form-data.server'

/**
 * Closing the camp banner: a cookie for the rest of the visit, then back to the page the visitor
 * was on (a path on this site only; anything else leads home). The page's script posts with
 * `inPlace`, and gets an answer instead of a redirect: the page stays as it is and only the
 * banner goes. Cross-site posts never get here (`server/origin-check.ts`).
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request, { maxBytes: 4 * 1024 })
  const headers = { 'Set-Cookie': await bannerClosedHeader(), 'Cache-Control': 'private, no-store' }
  if (form.get('inPlace') === '1') return data({ closed: true }, { headers })
  return redirect(safeRedirect(form.get('returnTo'), '/'), { headers })
}

export function loader() {
  return redirect('/')
}
