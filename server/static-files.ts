import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import path from 'node:path'
import { chooseEncoding } from './encoding'

const CONTENT_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
}

type Encoding = 'br' | 'gzip' | 'identity'

/** Scripts and stylesheets: loaded by a page, never shown as one. */
const SUBRESOURCE = /\.(js|mjs|css)$/

/**
 * Of the site's headers, those that apply to a script or a stylesheet: nosniff, and that no other
 * site may load it. The content security policy, framing, referrer and permission policies govern
 * documents (the page that loads the file has them), and each would cost a few hundred bytes on
 * every script a phone fetches.
 */
function subresourceHeaders(common: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const nosniff = Object.entries(common).filter(([name]) => name.toLowerCase() === 'x-content-type-options')
  return { ...Object.fromEntries(nosniff), 'Cross-Origin-Resource-Policy': 'same-origin' }
}

/** One way of sending a file: its bytes and every header that goes with them, worked out at start. */
/** `etag` is null for a file whose name changes with its content: a browser never asks again for it. */
type Variant = { body: Buffer; headers: OutgoingHttpHeaders; notModified: OutgoingHttpHeaders; etag: string | null }

type StaticFilesOptions = {
  /** The site's security headers: every file carries them, but a script or a stylesheet only those that apply to it. */
  headers: OutgoingHttpHeaders
  /** Files under this prefix are named after their content (the build's hashed assets): cached for a year. */
  immutablePrefix?: string
}

/**
 * The build's public files, read into memory once at start with the brotli and gzip copies
 * made at build time (scripts/precompress.mjs), and answered straight from the HTTP server
 * before any middleware runs: the header lists and ETags are worked out once too, so a request
 * for a script or the stylesheet costs a lookup and a write. The build does not change under a
 * running server. Nothing is remembered per request, so no address a client makes up can grow
 * what the server keeps.
 */
export function staticFiles(root: string, { headers, immutablePrefix = '/assets/' }: StaticFilesOptions) {
  const files = readFiles(root, headers, immutablePrefix)

  /** Answers the request if it asks for one of the files; false lets the rest of the site answer it. */
  function handle(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false
    const file = files.get(pathOf(request.url ?? '/'))
    if (!file) return false
    const variant = file[chooseEncoding(request.headers['accept-encoding'])] ?? file.identity
    if (variant.etag && matchesEtag(request.headers['if-none-match'], variant.etag)) {
      response.writeHead(304, variant.notModified)
      response.end()
      return true
    }
    response.writeHead(200, variant.headers)
    response.end(request.method === 'HEAD' ? undefined : variant.body)
    return true
  }

  return {
    handle,
    /** How many files it serves: the build's, however many requests come. */
    knownFiles: () => files.size,
  }
}

/** The path of a request's address, decoded; null-safe against malformed escapes. */
function pathOf(url: string) {
  const end = url.indexOf('?')
  const raw = end === -1 ? url : url.slice(0, end)
  if (!raw.includes('%')) return raw
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

function matchesEtag(header: string | undefined, etag: string) {
  return header !== undefined && (header === etag || header.split(/\s*,\s*/).includes(etag))
}

function readFiles(root: string, siteHeaders: OutgoingHttpHeaders, immutablePrefix: string) {
  const forSubresources = subresourceHeaders(siteHeaders)
  const names = new Set(readdirSync(root, { recursive: true, encoding: 'utf8', withFileTypes: false }))
  const files = new Map<string, Partial<Record<Encoding, Variant>> & { identity: Variant }>()
  for (const name of names) {
    if (/\.(br|gz)$/.test(name)) continue
    const absolute = path.join(root, name)
    let body: Buffer
    try {
      body = readFileSync(absolute)
    } catch {
      continue // a directory
    }
    const urlPath = `/${name.split(path.sep).join('/')}`
    const contentType = CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream'
    const common = SUBRESOURCE.test(name) ? forSubresources : siteHeaders
    const immutable = urlPath.startsWith(immutablePrefix)
    const cacheControl = immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600'
    const tag = immutable ? null : createHash('sha256').update(body).digest('base64url').slice(0, 27)
    const variant = (bytes: Buffer, encoding: Encoding): Variant => {
      const etag = tag && `"${tag}${encoding === 'identity' ? '' : `-${encoding}`}"`
      const notModified = { ...common, 'Cache-Control': cacheControl, Vary: 'Accept-Encoding', ...(etag && { ETag: etag }) }
      const headers = { ...notModified, 'Content-Type': contentType, ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }), 'Content-Length': bytes.length }
      return { body: bytes, etag, headers, notModified }
    }
    const entry: Partial<Record<Encoding, Variant>> & { identity: Variant } = { identity: variant(body, 'identity') }
    // A file without a copy (one that would gain nothing) goes as it is.
    if (names.has(`${name}.br`)) entry.br = variant(readFileSync(`${absolute}.br`), 'br')
    if (names.has(`${name}.gz`)) entry.gzip = variant(readFileSync(`${absolute}.gz`), 'gzip')
    files.set(urlPath, entry)
  }
  return files
}
