import { randomBytes } from 'node:crypto'
import { type AppLoadContext, createCookie, data, href, redirect } from 'react-router'
import { z } from 'zod'
import { config } from '~/config.server'
import { instanceSecret } from '~/db/secrets.server'
import { findSessionUser, revokeSession, SESSION_TTL_SECONDS, type NewSession } from '~/modules/accounts/sessions.server'
import type { KnownBrowser } from '~/modules/accounts/sign-in.server'
import type { PublicUser } from '~/modules/accounts/users.server'
import { loginLink } from '~/lib/links'

type CurrentUser = PublicUser

let cookie: { key: string; value: ReturnType<typeof createCookie> } | undefined

/** httpOnly, SameSite=Lax, Secure whenever the site is served over https; 7 days. */
function sessionCookie() {
  const { SESSION_COOKIE_NAME, SITE_URL } = config()
  const secure = SITE_URL.startsWith('https://')
  const key = `${SESSION_COOKIE_NAME}|${secure}`
  if (cookie?.key !== key) {
    cookie = { key, value: createCookie(SESSION_COOKIE_NAME, { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: SESSION_TTL_SECONDS }) }
  }
  return cookie.value
}

export async function sessionToken(request: Request): Promise<string | null> {
  const value = await sessionCookie().parse(request.headers.get('Cookie'))
  return typeof value === 'string' && value.length > 0 && value.length < 200 ? value : null
}

// The root loader and the page's loader both ask for the user; one lookup per request is enough.
const lookups = new WeakMap<Request, Promise<CurrentUser | null>>()

/** The signed-in user, or null. */
export function getUser(request: Request): Promise<CurrentUser | null> {
  let lookup = lookups.get(request)
  if (!lookup) {
    lookup = sessionToken(request).then((token) => (token ? findSessionUser(token) : null))
    lookups.set(request, lookup)
  }
  return lookup
}

/** Where a signed-in person belongs: the admin console for staff, booking for customers. */
export function homeFor(user: Pick<CurrentUser, 'isAdmin'>) {
  return user.isAdmin ? href('/admin') : href('/book-slot')
}

/** The path (with query) the browser asked for, also when React Router fetched it as `.data`. */
export function requestedPath(request: Request) {
  const url = new URL(request.url)
  url.searchParams.delete('_routes')
  url.searchParams.delete('index')
  let pathname = url.pathname.replace(/\.data$/, '')
  if (pathname === '/_root') pathname = '/'
  return `${pathname}${url.search}`
}

/** Guests are sent to sign in, and brought back here afterwards. */
export async function requireUser(request: Request): Promise<CurrentUser> {
  const user = await getUser(request)
  if (!user) throw redirect(loginLink(requestedPath(request)))
  return user
}

/** Staff only: guests sign in first; signed-in customers get 403. */
export async function requireAdmin(request: Request): Promise<CurrentUser> {
  const user = await requireUser(request)
  if (!user.isAdmin) throw data('Forbidden', { status: 403 })
  return user
}

/** Sign-in, registration and password reset are for guests; a signed-in user goes home. */
export async function requireGuest(request: Request) {
  const user = await getUser(request)
  if (user) throw redirect(homeFor(user))
}

/**
 * A redirect target from a query string or form, accepted only if it is a path on this site;
 * anything else ('https://evil.example', '//evil.example', '/\\evil.example') gives `fallback`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback: string) {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  if (/[\u0000-\u001f\u007f]/.test(to)) return fallback
  try {
    const base = 'http://site.invalid'
    const url = new URL(to, base)
    // Dot segments collapse on parsing ('/.//evil.example' becomes '//evil.example'): check the result too.
    const target = `${url.pathname}${url.search}${url.hash}`
    return url.origin === base && !target.startsWith('//') ? target : fallback
  } catch {
    return fallback
  }
}

/** The Set-Cookie header that signs this browser in with `session`. */
export function sessionHeader(session: NewSession) {
  return sessionCookie().serialize(session.token, { expires: session.expiresAt, maxAge: SESSION_TTL_SECONDS })
}

/** Revokes this browser's session (if any) and returns the header that removes the cookie. */
export async function endSession(request: Request) {
  const token = await sessionToken(request)
  if (token) await revokeSession(token)
  return sessionCookie().serialize('', { maxAge: 0 })
}

/** Who is asking: the client's address (behind TRUST_PROXY, as the trusted proxies saw it) and browser. */
export function callerOf(request: Request, context: AppLoadContext) {
  return { ip: context.clientIp || 'unknown', userAgent: request.headers.get('User-Agent') }
}

// Two signed cookies (HMAC-SHA256 under a secret of this installation, so a browser cannot forge
// them) let the sign-in and verification pages recognise the owner's own browser:
//  - "_browser" names the accounts this browser has signed in to; a right password from it gets
//    through even when strangers have used up the account's sign-in limit (it has its own limit);
//  - "_pending" names the account this browser registered (or typed the right password for while
//    it was unverified); only that browser is signed in by the e-mailed code.

const KNOWN_BROWSER_SECONDS = 180 * 24 * 60 * 60
const PENDING_ACCOUNT_SECONDS = 24 * 60 * 60
/** A shared family computer may know a few accounts; the oldest is forgotten first. */
const KNOWN_ACCOUNTS_KEPT = 5

const signedCookies = new Map<string, ReturnType<typeof createCookie>>()

async function signedCookie(suffix: '_browser' | '_pending', maxAge: number) {
  const { SESSION_COOKIE_NAME, SITE_URL } = config()
  const secure = SITE_URL.startsWith('https://')
  const secret = await instanceSecret('browser_cookies')
  const key = `${SESSION_COOKIE_NAME}${suffix}|${secure}|${secret}`
  let cookie = signedCookies.get(key)
  if (!cookie) {
    cookie = createCookie(`${SESSION_COOKIE_NAME}${suffix}`, { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge, secrets: [secret] })
    signedCookies.set(key, cookie)
  }
  return cookie
}

const KnownBrowserSchema = z.object({ id: z.string().regex(/^[\w-]{16,64}$/), accountIds: z.array(z.number().int().positive()).max(KNOWN_ACCOUNTS_KEPT) })

/** The accounts this browser has signed in to, if its cookie is ours and intact. */
export async function knownBrowser(request: Request): Promise<KnownBrowser | null> {
  const parsed = KnownBrowserSchema.safeParse(await (await signedCookie('_browser', KNOWN_BROWSER_SECONDS)).parse(request.headers.get('Cookie')))
  return parsed.success ? parsed.data : null
}

/** The Set-Cookie header that remembers that this browser signed in to `userId`. */
export async function rememberBrowserHeader(request: Request, userId: number) {
  const browser = (await knownBrowser(request)) ?? { id: randomBytes(18).toString('base64url'), accountIds: [] }
  const accountIds = [...browser.accountIds.filter((id) => id !== userId), userId].slice(-KNOWN_ACCOUNTS_KEPT)
  return (await signedCookie('_browser', KNOWN_BROWSER_SECONDS)).serialize({ id: browser.id, accountIds })
}

/** The unverified account this browser registered, if any. */
export async function pendingAccount(request: Request): Promise<number | null> {
  const value = await (await signedCookie('_pending', PENDING_ACCOUNT_SECONDS)).parse(request.headers.get('Cookie'))
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null
}

/** The Set-Cookie header that lets this browser be signed in when `userId`'s address is verified. */
export async function pendingAccountHeader(userId: number) {
  return (await signedCookie('_pending', PENDING_ACCOUNT_SECONDS)).serialize(userId)
}

/** The Set-Cookie header that forgets the pending account (it is verified now). */
export async function clearPendingAccountHeader() {
  return (await signedCookie('_pending', PENDING_ACCOUNT_SECONDS)).serialize('', { maxAge: 0 })
}
