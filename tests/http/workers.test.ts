import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpSink } from '../support/smtp-sink'
import { startTestServer, type TestServer } from '../support/test-server'
import { signUp, text, Visitor } from '../support/visitor'

// WEB_CONCURRENCY=2: two worker processes answer on one port, on one PostgreSQL database (the
// embedded one belongs to one process, so this runs on PostgreSQL only).

const running = (logs: string) => [...logs.matchAll(/"pid":(\d+)[^\n]*"msg":"listening"/g)].map((match) => Number(match[1]))

describe.skipIf(!process.env.DATABASE_URL)('several workers (needs DATABASE_URL)', () => {
  let server: TestServer
  let sink: Awaited<ReturnType<typeof startSmtpSink>>

  beforeAll(async () => {
    sink = await startSmtpSink()
    server = await startTestServer({ SMTP_URL: sink.url, WEB_CONCURRENCY: '2' })
    for (let waited = 0; running(server.logs()).length < 2 && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100))
  })
  afterAll(async () => {
    await server?.stop()
    await sink?.close()
  })

  it('answers from every worker, a signed-in customer is known to each, and a worker that dies is replaced', async () => {
    const workers = running(server.logs())
    expect(new Set(workers).size).toBe(2)
    const customer = await signUp(new Visitor(server.url), sink, { email: 'two.workers@example.com', name: 'Two Workers' })
    const pages = await Promise.all(Array.from({ length: 40 }, () => customer.get('/my-bookings')))
    for (const page of pages) {
      expect(page.status).toBe(200)
      expect(text(page.html)).toContain('Two Workers')
    }

    process.kill(workers[0]!, 'SIGKILL')
    for (let waited = 0; running(server.logs()).length < 3 && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(running(server.logs())).toHaveLength(3)
    expect(server.logs()).toContain('a worker stopped unexpectedly')
    const after = await Promise.all(Array.from({ length: 20 }, () => customer.get('/my-bookings')))
    expect(after.every((page) => page.status === 200)).toBe(true)
  })

  it('stops gracefully: every worker finishes, then the process exits cleanly', async () => {
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)))
    server.process.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(server.logs().match(/"msg":"stopped"/g)).toHaveLength(2)
  })
})
