import type { Request, Response } from 'express'
import type { Logger } from 'pino'
import type { Database } from '~/db/client.server'
import { isBannerVisible } from '~/modules/site/site.server'
import { durationMs } from '~/lib/lab-time'

/** The channel the database triggers announce site content changes on (see drizzle/0001). */
const SITE_CONTENT_CHANNEL = 'site_content_changed'

/**
 * How many streams stay open at once: each holds a connection for as long as its page is open, so
 * without a bound one client could hold thousands. A family's or a school's tabs behind one address
 * fit; a page refused its stream works as usual, without the live banner.
 */
type StreamLimits = { perAddress: number; total: number }
const STREAM_LIMITS: StreamLimits = { perAddress: 20, total: 5_000 }

/**
 * Server-sent events for every open page. Each instance LISTENs to the database, so a change made
 * through any instance (or straight in SQL) reaches every browser within moments.
 */
export class LiveEvents {
  private readonly clients = new Set<Response>()
  /** Open streams per client address; an address leaves when its last stream closes. */
  private readonly perAddress = new Map<string, number>()
  private bannerVisible = false
  private heartbeat: NodeJS.Timeout | undefined
  private unlisten: (() => Promise<void>) | undefined
  private readonly contentListeners = new Set<() => void>()

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly heartbeatSeconds: number,
    private readonly limits: StreamLimits = STREAM_LIMITS,
  ) {}

  async start() {
    this.bannerVisible = await isBannerVisible((error) => this.logger.warn({ err: error }, 'Failed to fetch banner status'))
    this.unlisten = await this.database.listen(SITE_CONTENT_CHANNEL, () => void this.onContentChanged())
    this.heartbeat = setInterval(() => this.broadcast(': keep-alive\n\n'), durationMs({ seconds: this.heartbeatSeconds }))
    this.heartbeat.unref()
  }

  /** Called on every change of catalogue, settings or camps (the page cache listens here). */
  onContentChange(listener: () => void) {
    this.contentListeners.add(listener)
  }

  private async onContentChanged() {
    for (const listener of this.contentListeners) listener()
    const visible = await isBannerVisible((error) => this.logger.warn({ err: error }, 'Failed to fetch banner status'))
    if (visible === this.bannerVisible) return
    this.bannerVisible = visible
    this.broadcast(bannerMessage(visible))
  }

  handle = (request: Request, response: Response) => {
    const address = request.ip ?? request.socket.remoteAddress ?? 'unknown'
    const open = this.perAddress.get(address) ?? 0
    if (open >= this.limits.perAddress || this.clients.size >= this.limits.total) {
      response.writeHead(429, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '60', 'Cache-Control': 'no-store' })
      return void response.end('Too many live update streams are open; this page works without one.')
    }
    this.perAddress.set(address, open + 1)
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    })
    response.write(`retry: 5000\n${bannerMessage(this.bannerVisible)}`)
    this.clients.add(response)
    request.on('close', () => {
      this.clients.delete(response)
      const left = (this.perAddress.get(address) ?? 1) - 1
      if (left > 0) this.perAddress.set(address, left)
      else this.perAddress.delete(address)
    })
  }

  private broadcast(message: string) {
    for (const client of this.clients) client.write(message)
  }

  get connectionCount() {
    return this.clients.size
  }

  /** How many client addresses have a stream open (never more than the streams themselves). */
  get addressCount() {
    return this.perAddress.size
  }

  async stop() {
    clearInterval(this.heartbeat)
    await this.unlisten?.()
    for (const client of this.clients) client.end()
    this.clients.clear()
    this.perAddress.clear()
  }
}

function bannerMessage(visible: boolean) {
  return `event: banner\ndata: ${JSON.stringify({ visible })}\n\n`
}
