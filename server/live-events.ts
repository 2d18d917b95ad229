import type { Request, Response } from 'express'
import type { Logger } from 'pino'
import type { Database } from '~/db/client.server'
import { isBannerVisible } from '~/modules/site/site.server'

/** The channel the database triggers announce site content changes on (see drizzle/0001). */
export const SITE_CONTENT_CHANNEL = 'site_content_changed'

/**
 * Server-sent events for every open page. Each instance LISTENs to the database, so a change made
 * through any instance (or straight in SQL) reaches every browser within moments.
 */
export class LiveEvents {
  private readonly clients = new Set<Response>()
  private bannerVisible = false
  private heartbeat: NodeJS.Timeout | undefined
  private unlisten: (() => Promise<void>) | undefined
  private readonly contentListeners = new Set<() => void>()

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly heartbeatSeconds: number,
  ) {}

  async start() {
    this.bannerVisible = await isBannerVisible((error) => this.logger.warn({ err: error }, 'Failed to fetch banner status'))
    this.unlisten = await this.database.listen(SITE_CONTENT_CHANNEL, () => void this.onContentChanged())
    this.heartbeat = setInterval(() => this.broadcast(': keep-alive\n\n'), this.heartbeatSeconds * 1000)
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
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    })
    response.write(`retry: 5000\n${bannerMessage(this.bannerVisible)}`)
    this.clients.add(response)
    request.on('close', () => this.clients.delete(response))
  }

  private broadcast(message: string) {
    for (const client of this.clients) client.write(message)
  }

  get connectionCount() {
    return this.clients.size
  }

  async stop() {
    clearInterval(this.heartbeat)
    await this.unlisten?.()
    for (const client of this.clients) client.end()
    this.clients.clear()
  }
}

function bannerMessage(visible: boolean) {
  return `event: banner\ndata: ${JSON.stringify({ visible })}\n\n`
}
