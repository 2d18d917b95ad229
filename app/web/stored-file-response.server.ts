import type { Readable } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import parseRange from 'range-parser'
import type { ByteRange, StoredFile } from '~/modules/storage/stored-file'

/** A store a file can be answered from: the analysis files' or the media library's. */
type ReadableStore = { stat(key: string): Promise<StoredFile | null>; read(key: string, range?: ByteRange): Promise<Readable> }

/**
 * Headers every private file carries: never kept by a browser or a proxy. (X-Content-Type-Options:
 * nosniff, which keeps a browser from reading it as another type, is on every answer of the site:
 * server/security-headers.ts.)
 */
const PRIVATE_FILE_HEADERS = { 'Cache-Control': 'private, no-store', 'Accept-Ranges': 'bytes', 'Content-Disposition': 'inline' }

/**
 * Headers of a public file named after its content (the media library's): the name changes when
 * the bytes do, so any browser or proxy may keep it for a year without asking again.
 */
export const PUBLIC_IMMUTABLE_HEADERS = { 'Cache-Control': 'public, max-age=31536000, immutable', 'Cross-Origin-Resource-Policy': 'same-origin' }

/**
 * A stored file as the answer to a GET or HEAD, streamed a chunk at a time with its byte ranges:
 * the first bytes, a middle, the last N (`bytes=-N`), from a byte to the end; a range beyond the
 * end is 416 with a Content-Range naming the size. Several ranges at once are answered with the
 * whole file (no player asks for them). A file the store no longer has answers 404. `extraHeaders`
 * go on every answer (a results file's referrer policy, a public file's caching).
 */
export async function storedFileResponse(request: Request, store: ReadableStore, key: string, contentType: string, extraHeaders: Record<string, string> = {}) {
  const file = await store.stat(key)
  // Never kept: the file may yet come (a photo still being processed).
  if (!file) return new Response('Not found', { status: 404, headers: { ...extraHeaders, 'Cache-Control': 'private, no-store', 'Content-Type': 'text/plain; charset=utf-8' } })
  const headers: Record<string, string> = { ...PRIVATE_FILE_HEADERS, 'Content-Type': contentType, ...extraHeaders }
  if (file.lastModified) headers['Last-Modified'] = file.lastModified.toUTCString()
  const asked = request.headers.get('Range')
  const ranges = asked ? parseRange(file.size, asked, { combine: true }) : -2
  if (ranges === -1) {
    return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${file.size}` } })
  }
  const range = Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1 ? ranges[0]! : null
  const length = range ? range.end - range.start + 1 : file.size
  headers['Content-Length'] = String(length)
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${file.size}`
  const status = range ? 206 : 200
  // A HEAD opens nothing: React Router drops the body of a HEAD, and an opened file would be left open.
  if (request.method === 'HEAD' || length === 0) return new Response(null, { status, headers })
  const stream = await store.read(key, range ?? undefined)
  return new Response(createReadableStreamFromReadable(stream), { status, headers })
}
