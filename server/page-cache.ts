import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlib, gzip } from 'node:zlib'
import type { NextFunction, Request, Response } from 'express'
import { chooseEncoding } from './encoding'

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

/** A rendered page as the cache keeps it: the HTML in each encoding, and the headers that go with it. */
type Entry = {
  etag: string
  /** A policy allowing exactly this page's inline scripts, by hash (stable for the entry, unlike a nonce). */
  contentSecurityPolicy: string
  contentType: string
  bodies: { identity: Buffer; gzip: Buffer; br: Buffer }
  storedAt: number
}

export type PageCacheOptions = {
  /** Paths served from the cache (exactly, without a query string). */
  paths: readonly string[]
  /** Renders a path as an anonymous visitor sees it; `nonce` is the nonce the page's scripts carry. */
  render: (path: string, request: Request, nonce: string) => Promise<globalThis.Response>
  /** The Content-Security-Policy for a page whose scripts are allowed by these sources. */
  contentSecurityPolicy: (scriptSources: string[]) => string
  /** Cookies that make a visitor not anonymous (signed in, or with a message waiting). */
  personalCookies: readonly string[]
  /** Entries are rendered again after this long, so time-bound content (early-bird prices, the year) moves on. */
  ttlMs?: number
  now?: () => number
}

/**
 * The anonymous marketing pages, rendered once and served from memory with an ETag, as fast as a
 * static file. Entries are dropped when catalogue, settings or camps change (the database's
 * notification, see LiveEvents) and after `ttlMs`. Signed-in visitors, anyone with a message
 * waiting, and anything with a query string are rendered as usual.
 *
 * A cached page is the same for every visitor, so its inline scripts are allowed by their hashes
 * rather than by a per-response nonce: a conditional request answered with 304 then keeps a policy
 * that matches the copy the browser already has.
 */
export function pageCache({ paths, render, contentSecurityPolicy, personalCookies, ttlMs = 60_000, now = Date.now }: PageCacheOptions) {
  const cacheable = new Set(paths)
  const entries = new Map<string, Entry>()
  const rendering = new Map<string, Promise<Entry | null>>()
  let generation = 0

  const personal = (request: Request) => {
    const cookie = request.headers.cookie
    return !!cookie && personalCookies.some((name) => new RegExp(`(?:^|;\\s*)${name}=`).test(cookie))
  }

  async function fill(path: string, request: Request, nonce: string): Promise<Entry | null> {
    const started = generation
    const response = await render(path, request, nonce)
    if (response.status !== 200 || response.headers.has('Set-Cookie')) return null
    const html = await response.text()
    const entry: Entry = {
      etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 32)}"`,
      contentSecurityPolicy: contentSecurityPolicy(inlineScriptHashes(html)),
      contentType: response.headers.get('Content-Type') ?? 'text/html; charset=utf-8',
      bodies: await encodings(Buffer.from(html)),
      storedAt: now(),
    }
    // Content changed while this page was rendering: serve it this once, keep nothing.
    if (started === generation) entries.set(path, entry)
    return entry
  }

  const middleware = async (request: Request, response: Response, next: NextFunction) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !cacheable.has(request.originalUrl) || personal(request)) return next()
    try {
      let entry = entries.get(request.path)
      if (!entry || now() - entry.storedAt > ttlMs) {
        let pending = rendering.get(request.path)
        if (!pending) {
          pending = fill(request.path, request, response.locals.cspNonce).finally(() => rendering.delete(request.path))
          rendering.set(request.path, pending)
        }
        entry = (await pending) ?? undefined
      }
      // Not cacheable this time (an error page, say): render it for this visitor as usual.
      if (!entry) return next()
      response.setHeader('Content-Security-Policy', entry.contentSecurityPolicy)
      response.setHeader('ETag', entry.etag)
      response.setHeader('Cache-Control', 'public, no-cache')
      response.setHeader('Vary', 'Accept-Encoding, Cookie')
      response.setHeader('X-Page-Cache', 'hit')
      if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(entry.etag)) return response.status(304).end()
      const encoding = chooseEncoding(request.headers['accept-encoding'])
      const body = entry.bodies[encoding]
      response.setHeader('Content-Type', entry.contentType)
      if (encoding !== 'identity') response.setHeader('Content-Encoding', encoding)
      response.setHeader('Content-Length', body.length)
      response.status(200).end(request.method === 'HEAD' ? undefined : body)
    } catch (error) {
      next(error)
    }
  }

  return {
    middleware,
    /** Drops every page (catalogue, settings or camps changed). */
    clear() {
      generation += 1
      entries.clear()
    },
    get size() {
      return entries.size
    },
  }
}

/** The CSP source for each inline script of a page: the browser hashes the script's text exactly as sent. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>()
  for (const [, attributes, text] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attributes!) || text!.length === 0) continue
    hashes.add(`'sha256-${createHash('sha256').update(text!).digest('base64')}'`)
  }
  return [...hashes]
}

async function encodings(identity: Buffer) {
  const [br, gzip] = await Promise.all([brotli(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } }), gzipped(identity, { level: 9 })])
  return { identity, gzip, br }
}
