import { randomBytes } from 'node:crypto'
import type { NextFunction, Request, Response } from 'express'

declare global {
  namespace Express {
    interface Locals {
      cspNonce: string
    }
  }
}

/**
 * Security headers for every response. Scripts run only with this request's nonce; the referrer
 * policy sends our origin (never the path) to other sites, which payment gateways check.
 */
export function securityHeaders({ production, formActions = [] }: { production: boolean; formActions?: string[] }) {
  const fixed = Object.entries(fixedSecurityHeaders({ production }))
  return (_request: Request, response: Response, next: NextFunction) => {
    const nonce = randomBytes(16).toString('base64')
    response.locals.cspNonce = nonce
    response.setHeader('Content-Security-Policy', contentSecurityPolicy({ production, formActions, scriptSources: [`'nonce-${nonce}'`] }))
    for (const [name, value] of fixed) response.setHeader(name, value)
    next()
  }
}

/** The headers that are the same on every response, whatever it is. */
export function fixedSecurityHeaders({ production }: { production: boolean }): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    ...(production ? { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' } : {}),
  }
}

/** The policy: scripts only from `scriptSources` (a nonce, or hashes) and what they load; everything else from this site. */
export function contentSecurityPolicy({ production, formActions = [], scriptSources }: { production: boolean; formActions?: string[]; scriptSources: string[] }) {
  return [
    `default-src 'self'`,
    `script-src ${[...scriptSources, `'strict-dynamic'`].join(' ')}`,
    `style-src 'self'`,
    `img-src 'self' data:`,
    `font-src 'self'`,
    `connect-src 'self'`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `frame-ancestors 'none'`,
    `form-action 'self' ${formActions.join(' ')}`.trim(),
    ...(production ? ['upgrade-insecure-requests'] : []),
  ].join('; ')
}
