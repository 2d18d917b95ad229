import { createCookie } from 'react-router'
import { config } from '~/config.server'

/**
 * The cookie that says this visitor closed the camp banner. It has no Max-Age or Expires, so it
 * lasts until the browser is closed: the banner is back on the next visit. The page cache serves
 * its anonymous copies (which show the banner) only to visitors without it (`server/index.ts`).
 */
export const BANNER_CLOSED_COOKIE = 'banner_closed'

const cookies = new Map<boolean, ReturnType<typeof createCookie>>()

function bannerClosedCookie() {
  const secure = config().SITE_URL.startsWith('https://')
  let cookie = cookies.get(secure)
  if (!cookie) {
    cookie = createCookie(BANNER_CLOSED_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure })
    cookies.set(secure, cookie)
  }
  return cookie
}

/** The Set-Cookie header that hides the banner for the rest of the visit. */
export function bannerClosedHeader() {
  return bannerClosedCookie().serialize(true)
}

/** Whether this visitor closed the banner during this visit. */
export async function bannerClosed(request: Request) {
  const cookieHeader = request.headers.get('Cookie')
  if (!cookieHeader?.includes(`${BANNER_CLOSED_COOKIE}=`)) return false
  return (await bannerClosedCookie().parse(cookieHeader).catch(() => null)) === true
}
