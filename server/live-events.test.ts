import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Request, Response } from 'express'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { siteSettings } from '~/db/schema'
import { useTestDatabase } from '../tests/support/test-database'
import { LiveEvents } from './live-events'

const { database } = useTestDatabase()
// Any change to the settings row, whoever makes it, reaches the open pages.
const setBannerVisible = (visible: boolean) => db().update(siteSettings).set({ bannerVisible: visible, updatedAt: new Date() }).where(eq(siteSettings.id, 1))

describe('live banner events', () => {
  let events: LiveEvents
  let server: Server
  let url: string

  beforeEach(async () => {
    events = new LiveEvents(await database(), pino({ level: 'silent' }), 60)
    await events.start()
    server = createServer((request, response) => events.handle(request as Request, response as Response))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`
  })
  afterEach(async () => {
    await events.stop()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('tells a newly opened page the current banner state', async () => {
    const stream = await openStream(url)
    expect(await stream.nextBanner()).toEqual({ visible: true })
    stream.close()
  })

  it('pushes the change to every open page when the banner row changes', async () => {
    const [first, second] = [await openStream(url), await openStream(url)]
    await first.nextBanner()
    await second.nextBanner()

    await setBannerVisible(false)
    expect(await first.nextBanner()).toEqual({ visible: false })
    expect(await second.nextBanner()).toEqual({ visible: false })

    await setBannerVisible(true)
    expect(await first.nextBanner()).toEqual({ visible: true })
    first.close()
    second.close()
  })

  it('notices a change made straight in SQL, not only through the app', async () => {
    const stream = await openStream(url)
    await stream.nextBanner()
    await (await database()).db.execute('UPDATE site_settings SET banner_visible = false WHERE id = 1')
    expect(await stream.nextBanner()).toEqual({ visible: false })
    stream.close()
  })

  it('forgets pages that have closed', async () => {
    const stream = await openStream(url)
    await stream.nextBanner()
    expect(events.connectionCount).toBe(1)
    stream.close()
    await expect.poll(() => events.connectionCount).toBe(0)
  })
})

describe('open live streams', () => {
  let events: LiveEvents
  let server: Server
  let url: string

  beforeEach(async () => {
    events = new LiveEvents(await database(), pino({ level: 'silent' }), 60, { perAddress: 2, total: 3 })
    await events.start()
    // The client's address as Express gives it (from the trusted proxies), here from a test header.
    server = createServer((request, response) => events.handle(Object.assign(request, { ip: String(request.headers['x-client']) }) as Request, response as Response))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`
  })
  afterEach(async () => {
    await events.stop()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  const refused = async (client: string) => {
    const controller = new AbortController()
    const response = await fetch(url, { headers: { 'X-Client': client }, signal: controller.signal })
    controller.abort()
    return response.status === 429 && response.headers.get('Retry-After') === '60'
  }

  it('are bounded per client address and in all; a closed one makes room again', async () => {
    const first = await openStream(url, { 'X-Client': '198.51.100.1' })
    const second = await openStream(url, { 'X-Client': '198.51.100.1' })
    expect(await refused('198.51.100.1')).toBe(true)
    const third = await openStream(url, { 'X-Client': '198.51.100.2' })
    expect(await refused('198.51.100.3')).toBe(true)
    expect(events.connectionCount).toBe(3)

    first.close()
    await expect.poll(() => events.connectionCount).toBe(2)
    const again = await openStream(url, { 'X-Client': '198.51.100.1' })
    expect(await again.nextBanner()).toEqual({ visible: true })
    for (const stream of [second, third, again]) stream.close()
    await expect.poll(() => events.connectionCount).toBe(0)
    expect(events.addressCount).toBe(0)
  })
})

/** A minimal server-sent-events reader over fetch. */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController()
  const response = await fetch(url, { signal: controller.signal, headers })
  expect(response.headers.get('content-type')).toContain('text/event-stream')
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  return {
    async nextBanner(): Promise<unknown> {
      const deadline = Date.now() + 5_000
      for (;;) {
        const match = /event: banner\ndata: (.*)\n\n/.exec(buffer)
        if (match) {
          buffer = buffer.slice(match.index + match[0].length)
          return JSON.parse(match[1]!)
        }
        if (Date.now() > deadline) throw new Error(`No banner event; received: ${buffer}`)
        const { value, done } = await reader.read()
        if (done) throw new Error('The stream ended')
        buffer += value
      }
    },
    close() {
      controller.abort()
    },
  }
}
