import { Writable } from 'node:stream'
import { renderToPipeableStream } from 'react-dom/server'
import { isRouteErrorResponse, ServerRouter, type AppLoadContext, type EntryContext } from 'react-router'
import { RETRY_AFTER_SECONDS } from './db/outage.server'
import { redactSecrets } from './lib/log-redaction.server'
import { logger } from './lib/logger.server'
import { NonceContext } from './web/nonce'

export const streamTimeout = 5_000

const rendered = new WeakMap<Response, Buffer>()

/**
 * The document of a response this module rendered, as the buffer it was written into: the server
 * sends it without reading it back through the Response's stream (see server/page-handler.ts).
 */
export function renderedBody(response: Response): Buffer | undefined {
  return rendered.get(response)
}

/**
 * Errors of loaders and actions (not those of requests the browser gave up on), as React Router logs
 * them. An answer a route meant (a refusal it threw), or React Router's own for a request no route
 * can serve (a post to a page that takes none: 405; no route matches: 404), is the client's doing:
 * the request line already says it, so it is no error and needs no stack.
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  if (isRouteErrorResponse(error) && error.status < 500) {
    logger().debug({ status: error.status, method: request.method, url: redactSecrets(request.url) }, 'a request refused by its route')
    return
  }
  // A route error response for a failure carries the error that says what happened.
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined
  logger().error({ err: inner ?? error }, 'a loader or action failed')
}

/**
 * Renders the whole document before sending it: pages are small, and a complete response gives
 * crawlers full HTML and every route its real status code. Scripts carry this request's CSP nonce.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce
  return new Promise<Response>((resolve, reject) => {
    let failed = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext>,
      {
        nonce,
        onAllReady() {
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          // Pages may show a person's own details: kept out of shared and disk caches unless a
          // route says otherwise (the anonymous marketing pages are cached by the server, see server/page-cache.ts).
          if (!responseHeaders.has('Cache-Control')) responseHeaders.set('Cache-Control', 'private, no-store')
          // 503: the database is out of reach for a moment (see server/database-outage.ts).
          if (responseStatusCode === 503) responseHeaders.set('Retry-After', String(RETRY_AFTER_SECONDS))
          // The document goes out as one piece: React writes it in hundreds of small chunks, and
          // compressing each as it comes cost more than rendering the page.
          const chunks: Buffer[] = []
          const body = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk)
              done()
            },
            final(done) {
              clearTimeout(deadline)
              const document = Buffer.concat(chunks)
              const response = new Response(document, { headers: responseHeaders, status: failed ? 500 : responseStatusCode })
              rendered.set(response, document)
              resolve(response)
              done()
            },
          })
          pipe(body)
        },
        onShellError: reject,
        onError(error: unknown) {
          failed = true
          logger().error({ err: error }, 'rendering a page failed')
        },
      },
    )
    // A render still waiting on data after this long is cut short (the timer ends with the response).
    const deadline = setTimeout(abort, streamTimeout + 1_000)
  })
}
