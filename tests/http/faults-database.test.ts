import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, labToday } from '~/lib/lab-time'
import { SANDBOX_KEY_NAME, sign, SIGNATURE_HEADER } from '~/modules/payments/gateways/sandbox-gateway-orders.server'
import { chooseSlot } from '../support/booking-flow'
import { startSmtpSink } from '../support/smtp-sink'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'
import { startTestServer, type TestServer } from '../support/test-server'
import { signUp, text, Visitor } from '../support/visitor'

// PostgreSQL going away under a steady trickle of requests, as a restart or a failover does: the
// server sits behind a TCP proxy to the real database, the proxy cuts every connection and refuses
// new ones for a few seconds, then lets them through again. PGlite lives inside the process and
// cannot go away on its own, so this runs on PostgreSQL only.

const OUTAGE_MS = 4_000
const RECOVERY_LIMIT_MS = 10_000

type Sample = { at: number; doneAt: number; path: string; status: number | 'network error'; contentType: string; retryAfter: string | null; body: string }

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL restarted during load (needs DATABASE_URL)', () => {
  let proxy: TcpProxy
  let server: TestServer
  let sink: Awaited<ReturnType<typeof startSmtpSink>>

  beforeAll(async () => {
    const real = new URL(process.env.DATABASE_URL!)
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) })
    sink = await startSmtpSink()
    server = await startTestServer({ SMTP_URL: sink.url, TRUST_PROXY: 'true' }, { databaseVia: proxy.via })
  })
  afterAll(async () => {
    await server?.stop()
    await proxy?.close()
    await sink?.close()
  })

  it('answers 200 or a friendly 503 while the database is away, never crashes, and recovers by itself', async () => {
    const customer = await signUp(new Visitor(server.url), sink, { email: 'steady@example.com', name: 'Steady Swimmer' })
    const inTenDays = addDays(labToday(), 10)
    const paths = ['/book-slot', `/booking/times?date=${inTenDays}`, '/my-bookings', '/readyz']
    const sample = async (path: string): Promise<Sample> => {
      const at = Date.now()
      try {
        const response = await customer.request(path, { headers: { Accept: path.startsWith('/booking/times') ? 'application/json' : 'text/html' } })
        return { at, doneAt: Date.now(), path, status: response.status, contentType: response.headers.get('Content-Type') ?? '', retryAfter: response.headers.get('Retry-After'), body: response.html }
      } catch (error) {
        return { at, doneAt: Date.now(), path, status: 'network error', contentType: '', retryAfter: null, body: String((error as Error).cause ?? error) }
      }
    }
    for (const path of paths) expect((await sample(path)).status).toBe(200)
    const sandboxKey = await readSandboxKey(server.databaseUrl!)
    const notification = async () => {
      const body = JSON.stringify({ eventId: `outage-${Date.now()}`, event: 'order.completed', merchantOrderId: 'SLOT_1_1_outage', state: 'COMPLETED', amountPaise: 100, transactionId: 'T1' })
      const response = await fetch(`${server.url}/api/payments/webhook/sandbox`, { method: 'POST', headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: sign(sandboxKey, body) }, body })
      return { status: response.status, retryAfter: response.headers.get('Retry-After'), body: await response.text() }
    }
    const slot = await chooseSlot(customer, 0, { daysAhead: 2 })

    // Four visitors' worth of requests, one after another per path, until told to stop.
    const samples: Sample[] = []
    let running = true
    const trickle = Promise.all(
      paths.map(async (path) => {
        while (running) {
          samples.push(await sample(path))
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }),
    )

    // Every path answered under the trickle before the cut, and with the friendly 503 after it.
    await waitFor(() => paths.every((path) => samples.some((s) => s.path === path)), RECOVERY_LIMIT_MS)
    const cutAt = Date.now()
    await proxy.cut()
    await waitFor(() => paths.every((path) => samples.some((s) => s.path === path && s.at >= cutAt && s.status === 503)), OUTAGE_MS)
    // A form posted meanwhile (an action, not a loader) gets the same page, and nothing is held.
    const posted = await customer.post(slot.href, { date: slot.date, time: slot.time, website_url: '' })
    expect(posted.status).toBe(503)
    expect(text(posted.html)).toContain('Service temporarily unavailable')
    // A genuine gateway notification cannot be recorded: 503 JSON, so the gateway delivers it again.
    const notified = await notification()
    expect(notified.status).toBe(503)
    expect(notified.retryAfter).toMatch(/^\d+$/)
    expect(JSON.parse(notified.body)).toMatchObject({ error: 'Service temporarily unavailable' })
    // The outage lasts its full length whatever happens meanwhile: this is the scenario, not a wait for an outcome.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, cutAt + OUTAGE_MS - Date.now())))
    const reopeningAt = Date.now()
    await proxy.reopen()
    const reopenedAt = Date.now()

    // Recovered: every path has answered 200 since the database came back.
    const recoveredAt = await waitFor(() => paths.every((path) => samples.some((s) => s.path === path && s.at > reopenedAt && s.status === 200)), RECOVERY_LIMIT_MS)
    running = false
    await trickle

    const statuses = samples.map((s) => s.status)
    const unexpected = samples.filter((s) => s.status !== 200 && s.status !== 503)
    expect(unexpected.map((s) => `${s.path} ${s.status}: ${s.body.slice(0, 200)}`)).toEqual([])

    const unavailable = samples.filter((s) => s.status === 503)
    // Sent and answered while the database was away (one sent just before it returned may get a 200).
    const during = samples.filter((s) => s.at >= cutAt + 500 && s.doneAt < reopeningAt)
    expect(during.length).toBeGreaterThan(0)
    for (const s of during) expect(s.status, `${s.path} during the outage`).toBe(503)
    for (const s of unavailable) {
      if (s.path === '/readyz') {
        expect(JSON.parse(s.body)).toMatchObject({ status: 'unavailable' })
        continue
      }
      expect(s.retryAfter, `${s.path}: Retry-After`).toMatch(/^\d+$/)
      if (s.path.startsWith('/booking/times')) {
        expect(s.contentType).toMatch(/^application\/json/)
        expect(JSON.parse(s.body)).toMatchObject({ error: 'Service temporarily unavailable' })
      } else {
        expect(s.contentType).toMatch(/^text\/html/)
        expect(text(s.body)).toContain('Service temporarily unavailable')
        expect(s.body).toContain('Return Home')
        // The site's own look (its stylesheet), and nothing of the error's insides.
        expect(s.body).toMatch(/<link[^>]*rel="stylesheet"[^>]*href="\/assets\//)
        expect(s.body).not.toMatch(/ECONNREFUSED|Connection terminated|node_modules|\n\s+at /)
      }
    }

    expect(server.process.exitCode).toBeNull()
    expect(server.process.signalCode).toBeNull()
    expect(server.logs()).not.toMatch(/unhandled promise rejection/)
    // Still whole after the outage: pages, readiness, and the same form now holds the seat.
    expect((await sample('/book-slot')).status).toBe(200)
    expect((await sample('/readyz')).status).toBe(200)
    const held = await customer.post(slot.href, { date: slot.date, time: slot.time, website_url: '' })
    expect(held.location).toMatch(/^\/slot-payment\?booking=\d+$/)
    expect((await notification()).status).toBe(200)

    console.log(
      `database outage: ${OUTAGE_MS} ms cut, ${samples.length} requests (${statuses.filter((s) => s === 200).length} × 200, ${unavailable.length} × 503, 0 other), ` +
        `first 200 on every path ${recoveredAt - reopenedAt} ms after the database returned, server never restarted`,
    )
  })
})

/** The key the site signs its sandbox gateway's notifications with, from its database. */
async function readSandboxKey(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ value: string }>('SELECT value FROM instance_secrets WHERE name = $1', [SANDBOX_KEY_NAME])
    return rows[0]!.value
  } finally {
    await client.end()
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not seen within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return Date.now()
}
