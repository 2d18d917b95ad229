import { isLinkKey, type WAITLIST_CONFIRMATION_LINK } from '~/lib/private-links.server'

/** The entry a waitlist's e-mailed link names (`?entry=…&key=…`), if the link is one the site made for `kind`. */
export async function waitlistEntryOf(request: Request, kind: typeof WAITLIST_CONFIRMATION_LINK) {
  const params = new URL(request.url).searchParams
  const entry = params.get('entry') ?? ''
  if (!/^\d{1,9}$/.test(entry) || !(await isLinkKey(kind, entry, params.get('key')))) return null
  return Number(entry)
}
