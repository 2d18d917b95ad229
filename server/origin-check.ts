import type { NextFunction, Request, Response } from 'express'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Cross-site request forgery defence for every state-changing request: a browser always names the
 * page's origin in the Origin header (or, failing that, Referer) of a POST; it must be this site's,
 * SITE_URL's. Not the host the request was addressed to: that is whatever name reached this server
 * (its address, another DNS name pointing at it, one rebound by an attacker), and a page served
 * under such a name is another site. Requests with neither header do not come from a web page
 * (curl, a monitoring probe) and cannot carry a victim's intent, unless the browser's Sec-Fetch-Site
 * says it came from another site.
 */
export function originCheck({ siteUrl }: { siteUrl: () => string }) {
  let known = { url: '', origin: '' }
  const siteOrigin = () => {
    const url = siteUrl()
    if (known.url !== url) known = { url, origin: new URL(url).origin }
    return known.origin
  }
  return (request: Request, response: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(request.method)) return next()
    const claimed = request.get('Origin') ?? refererOrigin(request.get('Referer'))
    // A browser that hides the origin (a privacy setting, an extension) still says where the request came from.
    if (claimed === undefined && !crossSiteFetch(request.get('Sec-Fetch-Site'))) return next()
    if (claimed === siteOrigin()) return next()
    response.status(403).type('text/plain').send('Forbidden: this request came from another site.')
  }
}

function refererOrigin(referer: string | undefined) {
  if (!referer) return undefined
  try {
    return new URL(referer).origin
  } catch {
    return 'null'
  }
}

function crossSiteFetch(site: string | undefined) {
  return site !== undefined && site !== 'same-origin' && site !== 'none'
}
