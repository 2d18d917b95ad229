import { randomBytes } from 'node:crypto'
import { createCookie, type AppLoadContext } from 'react-router'
import { config } from '~/config.server'
import { browserFingerprint, type Holder } from '~/modules/holders/holders.server'
import { clientNetwork } from '~/modules/rate-limit/client-network'
import { callerOf } from '~/web/auth.server'

const TOKEN = /^[A-Za-z0-9_-]{43}$/

/**
 * A random token that tells one browser's holds apart from another's, so a new hold in the same
 * browser replaces the earlier one. It proves nothing and identifies no one; a browser that drops it
 * is simply a new browser, which the per-address and per-network rules still bound.
 */
function holderCookie() {
  return createCookie('swimlab_holder', { httpOnly: true, sameSite: 'lax', path: '/', secure: config().SITE_URL.startsWith('https://'), maxAge: 30 * 24 * 60 * 60 })
}

/**
 * Who is asking to hold a seat: their account, the e-mail address the hold is for, their network and
 * their browser. `setCookie` is the header to send when the browser had no holder token yet.
 */
export async function holderOf(request: Request, context: AppLoadContext, { userId, email }: { userId: number | null; email: string }): Promise<{ holder: Holder; setCookie: string | null }> {
  const sent = await holderCookie().parse(request.headers.get('Cookie'))
  const token = typeof sent === 'string' && TOKEN.test(sent) ? sent : randomBytes(32).toString('base64url')
  return {
    holder: { userId, email: email.toLowerCase(), network: clientNetwork(callerOf(request, context).ip), browser: browserFingerprint(token) },
    setCookie: token === sent ? null : await holderCookie().serialize(token),
  }
}
