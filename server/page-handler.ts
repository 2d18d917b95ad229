import { promisify } from 'node:util'
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib'
import { createReadableStreamFromReadable } from '@react-router/node'
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import { createRequestHandler, type AppLoadContext, type ServerBuild } from 'react-router'
import { renderedBody } from '~/entry.server'
import { chooseEncoding } from './encoding'
import { pageBuilds } from './page-builds'

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Bodies up to this size (a page is 10-60 KB) are compressed in the request's own turn of the event
 * loop: requests start one a turn (see server/turns.ts), so this holds up no one for long, and it
 * costs half the CPU of handing the body to libuv's thread pool (/book-slot's 38 KB at brotli 4:
 * 0.55 ms against 0.99 ms, a stream and a thread switch per call). Larger bodies (an export) are
 * compressed on the thread pool, so that none holds the loop for long.
 */
const COMPRESSED_IN_TURN_BYTES = 256 * 1024

/** Bodies smaller than this go out as they are: compressing them saves less than the headers weigh. */
const MIN_COMPRESSED_BYTES = 1_024

const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|x-component)|image\/svg\+xml)/i

/**
 * React Router's answer to every request no earlier handler took, written straight to Node's
 * response: the request is built once, and a page (rendered whole, see entry.server.tsx) is sent as
 * one buffer compressed in one call, without passing through web streams or a compression stream
 * per response. Other text is read whole and compressed likewise; other bodies are piped as they come.
 */
export function pageHandler({ build, siteUrl, loadContext }: { build: ServerBuild; siteUrl: () => string; loadContext: (request: ExpressRequest, response: ExpressResponse) => AppLoadContext }) {
  const handle = createRequestHandler(build, 'production')
  // A page at a fixed address is answered with the routes it uses only (see pageBuilds).
  const pageBuildOf = pageBuilds(build)
  const pageHandlers = new Map<string, ReturnType<typeof createRequestHandler>>()
  const handlerOf = (pathname: string) => {
    let pageHandler = pageHandlers.get(pathname)
    if (pageHandler) return pageHandler
    const pageBuild = pageBuildOf(pathname)
    if (!pageBuild) return handle
    pageHandlers.set(pathname, (pageHandler = createRequestHandler(pageBuild, 'production')))
    return pageHandler
  }
  let origin = { of: '', is: '' }
  const siteOrigin = () => {
    const url = siteUrl()
    if (origin.of !== url) origin = { of: url, is: new URL(url).origin }
    return origin.is
  }
  return async (request: ExpressRequest, response: ExpressResponse, next: NextFunction) => {
    try {
      const answer = await handlerOf(request.path)(fetchRequest(request, response, siteOrigin()), loadContext(request, response))
      if (response.destroyed || response.writableEnded) {
        await answer.body?.cancel()
        return
      }
      response.statusCode = answer.status
      if (answer.statusText) response.statusMessage = answer.statusText
      // A page's own referrer policy (a results page whose address holds a coach's token) replaces the site's.
      for (const [name, value] of answer.headers) {
        if (name === 'referrer-policy') response.setHeader(name, value)
        else response.appendHeader(name, value)
      }
      // A refusal a file's route throws (404, 403, 410) comes without the route's own headers: it is
      // as private as the file it refuses.
      if (answer.status >= 400 && !answer.headers.has('Cache-Control')) response.setHeader('Cache-Control', 'private, no-store')
      // React Router answers 405 to a post to a page or file that takes none: say what it does take.
      if (answer.status === 405) response.setHeader('Allow', 'GET, HEAD')
      const whole = renderedBody(answer)
      if (whole) return await sendWhole(request, response, answer, whole)
      if (!answer.body) return void response.end()
      // Text (a CSV export, the sitemap, route data) is read whole and compressed in one call;
      // anything else (a PDF, a report's file) is passed on as it comes.
      if (COMPRESSIBLE.test(answer.headers.get('Content-Type') ?? '') && !answer.headers.has('Content-Encoding')) {
        return await sendWhole(request, response, answer, Buffer.from(await answer.arrayBuffer()))
      }
      for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
        // A client that went away ends the stream (leaving the loop cancels the body).
        if (response.destroyed) return
        if (!response.write(chunk)) await drainedOrClosed(response)
      }
      response.end()
    } catch (error) {
      next(error)
    }
  }
}

/**
 * The Fetch API request React Router reads, addressed as the client addressed it (React Router
 * compares a form's Origin with it); a Host header that makes no address gives the site's own.
 */
function fetchRequest(request: ExpressRequest, response: ExpressResponse, siteOrigin: string) {
  const controller = new AbortController()
  response.once('close', () => {
    if (!response.writableFinished) controller.abort()
  })
  const headers = new Headers()
  const raw = request.rawHeaders
  for (let index = 0; index < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!)
  const withBody = request.method !== 'GET' && request.method !== 'HEAD'
  // A body read before the page (server/day-line-joins.ts) is handed on as it came.
  const read: unknown = response.locals.body
  return new Request(`${originOf(request) ?? siteOrigin}${request.originalUrl}`, {
    method: request.method,
    headers,
    signal: controller.signal,
    ...(withBody && (Buffer.isBuffer(read) ? { body: read } : { body: createReadableStreamFromReadable(request), duplex: 'half' })),
  } as RequestInit)
}

function originOf(request: ExpressRequest) {
  const host = request.get('host')
  if (!host) return null
  try {
    const url = new URL(`${request.protocol}://${host}`)
    return url.pathname === '/' && !url.username && !url.password ? url.origin : null
  } catch {
    return null
  }
}

async function sendWhole(request: ExpressRequest, response: ExpressResponse, answer: globalThis.Response, body: Buffer) {
  const encoding = body.length >= MIN_COMPRESSED_BYTES && COMPRESSIBLE.test(answer.headers.get('Content-Type') ?? '') ? chooseEncoding(request.headers['accept-encoding']) : 'identity'
  const sent = encoding === 'identity' ? body : await compressed(body, encoding)
  if (encoding !== 'identity') response.setHeader('Content-Encoding', encoding)
  if (COMPRESSIBLE.test(answer.headers.get('Content-Type') ?? '')) varyByEncoding(response)
  response.setHeader('Content-Length', sent.length)
  response.end(request.method === 'HEAD' ? undefined : sent)
}

/**
 * The body compressed with brotli at quality 3 or gzip at level 6: in this turn when it is small, else
 * on the thread pool. Quality 3 takes half the CPU of 4 for a page 5 % larger (/book-slot: 7.1 KB
 * against 6.8 KB); 5 and above cost more than rendering the page.
 */
function compressed(body: Buffer, encoding: 'br' | 'gzip') {
  const inTurn = body.length <= COMPRESSED_IN_TURN_BYTES
  if (encoding === 'gzip') return inTurn ? gzipSync(body, GZIP) : gzipAsync(body, GZIP)
  const brotli: BrotliOptions = { params: { [zlib.BROTLI_PARAM_QUALITY]: 3, [zlib.BROTLI_PARAM_LGWIN]: 18, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }
  return inTurn ? brotliCompressSync(body, brotli) : brotliAsync(body, brotli)
}

const GZIP: ZlibOptions = { level: 6 }

function varyByEncoding(response: ExpressResponse) {
  const vary = [response.getHeader('Vary') ?? []].flat().join(', ')
  if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) response.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
}

function drainedOrClosed(response: ExpressResponse) {
  return new Promise<void>((resolve) => {
    const done = () => {
      response.off('drain', done)
      response.off('close', done)
      resolve()
    }
    response.once('drain', done)
    response.once('close', done)
  })
}
