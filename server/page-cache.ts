import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlib, gzip } from 'node:zlib'
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import { chooseEncoding } from './encoding'
import { durationMs } from '~/lib/lab-time'
import { savesData } from '~/lib/save-data'

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

/** A rendered page as the cache keeps it: the HTML in each encoding, with every header worked out once. */
type Entry = {
  status: 200 | 404
  etag: string
  /** The complete header list of each encoding, and of a 304. */
  responses: Record<Encoding, { headers: OutgoingHttpHeaders; body: Buffer }>
  notModified: OutgoingHttpHeaders
  storedAt: number
}

type Encoding = 'br' | 'gzip' | 'identity'

export type PageCacheOptions = {
  /** Paths served from the cache (exactly, without a query string). */
  paths: readonly string[]
  /** Further paths served from the cache: those this matches whole (an address with a query string never does). */
  pattern?: RegExp
  /**
   * Whether an address leads to the site's "page not found" page, which is the same for every such
   * address: one copy answers them all (anonymous visitors only, like the pages).
   */
  isNotFound?: (pathname: string) => boolean
  /** Renders a path as an anonymous visitor sees it; `nonce` is the nonce the page's scripts carry. */
  render: (path: string, request: Request, nonce: string) => Promise<globalThis.Response>
  /** The Content-Security-Policy for a page whose scripts are allowed by these sources. */
  contentSecurityPolicy: (scriptSources: string[]) => string
  /** Headers every response carries (the security headers other than the policy). */
  headers?: OutgoingHttpHeaders
  /** Cookies that make a visitor not anonymous (signed in, with a message waiting, or who closed the camp banner). */
  personalCookies: readonly string[]
  /** Entries are rendered again after this long, so time-bound content (early-bird prices, the year) moves on. */
  ttlMs?: number
  /**
   * Brotli's quality for the kept copies: 11 (the smallest, ~80 ms of a core for a page) suits pages
   * kept for minutes; pages rendered again every few seconds, or at every seat sold in a rush, take
   * a quality that costs about a millisecond and is a few per cent larger.
   */
  brotliQuality?: number
  now?: () => number
}

const NOT_FOUND = ' not found'

/**
 * The anonymous marketing pages, rendered once and served from memory with an ETag, as fast as a
 * static file: a hit is answered by `handle` straight from the HTTP server, before any middleware.
 * Entries are dropped when catalogue, settings or camps change (the database's notification, see
 * LiveEvents) and after `ttlMs`. Signed-in visitors, anyone with a message waiting or who closed
 * the camp banner (`personalCookies`), and anything with a query string are rendered as usual.
 * A browser that asks to save data (`Save-Data: on`) has copies of its own.
 *
 * A cached page is the same for every visitor, so its inline scripts are allowed by their hashes
 * rather than by a per-response nonce: a conditional request answered with 304 then keeps a policy
 * that matches the copy the browser already has.
 */
export function pageCache({ paths, pattern, isNotFound = () => false, render, contentSecurityPolicy, headers: common = {}, personalCookies, ttlMs = durationMs({ minutes: 1 }), brotliQuality = 11, now = Date.now }: PageCacheOptions) {
  const cacheable = new Set(paths)
  const entries = new Map<string, Entry>()
  const rendering = new Map<string, Promise<Entry | null>>()
  const personalCookie = new RegExp(`(?:^|;\\s*)(?:${personalCookies.join('|')})=`)
  let generation = 0

  /** The entry's key for this request, or null when it is not one the cache answers. */
  function keyOf(request: IncomingMessage): string | null {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null
    const cookie = request.headers.cookie
    if (cookie && personalCookie.test(cookie)) return null
    const url = request.url ?? '/'
    // A browser saving data is sent the page without its video loop: a copy of its own.
    if (cacheable.has(url) || pattern?.test(url)) return savesData(request.headers['save-data']) ? `${url} save-data` : url
    const pathname = url.split('?', 1)[0]!
    // React Router's data requests and route manifest answer in their own formats.
    if (pathname.endsWith('.data') || pathname.startsWith('/__')) return null
    return isNotFound(pathname) ? NOT_FOUND : null
  }

  async function fill(key: string, path: string, request: Request, nonce: string): Promise<Entry | null> {
    const started = generation
    const response = await render(path, request, nonce)
    const status = key === NOT_FOUND ? 404 : 200
    if (response.status !== status || response.headers.has('Set-Cookie')) return null
    const html = Buffer.from(await response.text())
    const entry = await entryFor(status, html, response.headers.get('Content-Type') ?? 'text/html; charset=utf-8')
    // Content changed while this page was rendering: serve it this once, keep nothing.
    if (started === generation) entries.set(key, entry)
    return entry
  }

  async function entryFor(status: 200 | 404, html: Buffer, contentType: string): Promise<Entry> {
    const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 32)}"`
    const shared = {
      ...common,
      'Content-Security-Policy': contentSecurityPolicy(inlineScriptHashes(html.toString())),
      // A missing page is not kept by browsers or proxies: the address may lead somewhere tomorrow.
      ...(status === 200 ? { ETag: etag, 'Cache-Control': 'public, no-cache' } : { 'Cache-Control': 'no-store' }),
      Vary: 'Accept-Encoding, Cookie, Save-Data',
      'X-Page-Cache': 'hit',
    }
    const bodies = await encodings(html, brotliQuality)
    const response = (encoding: Encoding) => {
      const body = bodies[encoding]
      return { body, headers: { ...shared, 'Content-Type': contentType, ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }), 'Content-Length': body.length } }
    }
    const responses = { br: response('br'), gzip: response('gzip'), identity: response('identity') }
    return { status, etag, responses, notModified: shared, storedAt: now() }
  }

  function send(entry: Entry, request: IncomingMessage, response: ServerResponse) {
    if (entry.status === 200 && request.headers['if-none-match']?.split(/\s*,\s*/).includes(entry.etag)) {
      response.writeHead(304, entry.notModified)
      response.end()
      return
    }
    const { headers, body } = entry.responses[chooseEncoding(request.headers['accept-encoding'])]
    response.writeHead(entry.status, headers)
    response.end(request.method === 'HEAD' ? undefined : body)
  }

  /** Answers from memory when the request is for a fresh cached page; false lets the site answer it. */
  function handle(request: IncomingMessage, response: ServerResponse): boolean {
    const key = keyOf(request)
    const entry = key === null ? undefined : entries.get(key)
    if (!entry || now() - entry.storedAt > ttlMs) return false
    send(entry, request, response)
    return true
  }

  /** Renders a cacheable page that is missing or stale (once, however many visitors arrive together) and answers with it. */
  const middleware = async (request: Request, response: Response, next: NextFunction) => {
    if (handle(request, response)) return
    const key = keyOf(request)
    if (key === null) return next()
    try {
      let pending = rendering.get(key)
      if (!pending) {
        pending = fill(key, request.path, request, response.locals.cspNonce).finally(() => rendering.delete(key))
        rendering.set(key, pending)
      }
      const entry = await pending
      // Not cacheable this time (an error page, say): render it for this visitor as usual.
      if (!entry) return next()
      send(entry, request, response)
    } catch (error) {
      next(error)
    }
  }

  return {
    handle,
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

async function encodings(identity: Buffer, brotliQuality: number) {
  const [br, gzip] = await Promise.all([brotli(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: brotliQuality, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } }), gzipped(identity, { level: 9 })])
  return { identity, gzip, br }
}
