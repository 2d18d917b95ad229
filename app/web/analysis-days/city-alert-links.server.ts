import { data, type AppLoadContext } from 'react-router'
import { PRIVATE_FORM_PAGE_HEADERS } from '~/lib/private-links.server'
import { cityAlertAnswerLimit } from '~/modules/rate-limit/limits.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { callerOf } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { refusalOf } from '~/web/refusals.server'

// The two e-mailed links of a city alert (confirming the address, stopping the alerts): opening one
// shows a page with a button and changes nothing (mail scanners open links); the button's POST acts.
// The link's token is the key, so the pages are never cached and never send their address to
// another site.

/** What a link's page shows: its city while the link works, then what was done, or that it no longer works. */
export type CityAlertLinkState = { state: 'open' | 'done'; city: string } | { state: 'gone' } | { state: 'refused'; message: string }

export const cityAlertLinkHeaders = () => PRIVATE_FORM_PAGE_HEADERS

/** The page's answer to opening the link: nothing changes. */
export async function cityAlertLinkLoader(token: string, read: (token: string) => Promise<{ city: string } | null>) {
  const found = await read(token)
  return data<CityAlertLinkState>(found ? { state: 'open', city: found.city } : { state: 'gone' }, { headers: PRIVATE_FORM_PAGE_HEADERS, status: found ? 200 : 404 })
}

/** The page's answer to its button (counted per client address): done, or the link no longer works. */
export async function cityAlertLinkAction(request: Request, context: AppLoadContext, token: string, act: (token: string) => Promise<{ city: string } | null>) {
  const formData = await readForm(request)
  rejectBots(formData)
  try {
    await enforce([cityAlertAnswerLimit(callerOf(request, context).ip)])
  } catch (error) {
    const refusal = refusalOf(error)
    return data<CityAlertLinkState>({ state: 'refused', message: refusal.message }, { status: refusal.status, headers: PRIVATE_FORM_PAGE_HEADERS })
  }
  const done = await act(token)
  return data<CityAlertLinkState>(done ? { state: 'done', city: done.city } : { state: 'gone' }, { headers: PRIVATE_FORM_PAGE_HEADERS, status: done ? 200 : 404 })
}
