import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpSink } from '../support/smtp-sink'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'
import { startTestServer, type TestServer } from '../support/test-server'
import { registrationForm, Visitor } from '../support/visitor'
import { eventually } from '../support/eventually'

// The mail server unreachable while customers sign up: their messages wait in the outbox as
// "retrying" (staff see it on /admin/messages), and reach the mail server once each when it is back.
// The site's first retry comes a minute after a failure, which sets this test's length; the
// ten-minute outage itself is simulated with a clock in app/modules/mail/outbox.server.test.ts.

const ADMIN = { email: 'staff@example.com', password: 'staff-password-2027' }

let sink: Awaited<ReturnType<typeof startSmtpSink>>
let proxy: TcpProxy
let server: TestServer

beforeAll(async () => {
  sink = await startSmtpSink()
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(sink.url).port) })
  server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${proxy.port}`, TRUST_PROXY: 'true', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
})
afterAll(async () => {
  await server?.stop()
  await proxy?.close()
  await sink?.close()
})

type MailRow = { to: string; status: string }

async function outbox(admin: Visitor): Promise<MailRow[]> {
  const page = await admin.get('/admin/messages')
  expect(page.status).toBe(200)
  return [...page.html.matchAll(/<span class="rounded-full[^"]*">(\w+)<\/span>[^]*?data-testid="mail-to">([^<]+)</g)].map((match) => ({ status: match[1]!, to: match[2]! }))
}

describe('SMTP unreachable', () => {
  it('messages wait as retrying, visible to staff, and are delivered once each when the mail server is back', { timeout: 120_000 }, async () => {
    const admin = new Visitor(server.url)
    expect((await admin.post('/login', { email: ADMIN.email, password: ADMIN.password, website_url: '' })).location).toBe('/admin')

    await proxy.cut()
    const downAt = Date.now()
    const recipients = ['outage1@example.com', 'outage2@example.com', 'outage3@example.com']
    for (const email of recipients) {
      const registered = await new Visitor(server.url).post('/registration', registrationForm({ email, name: 'Outage Swimmer' }))
      expect(registered.status).toBe(302)
    }

    const waiting = await eventually(
      () => outbox(admin),
      (rows) => recipients.every((to) => rows.some((row) => row.to === to && row.status === 'retrying')),
      { everyMs: 500 },
    )
    expect(waiting.filter((row) => recipients.includes(row.to)).map((row) => row.status)).toEqual(['retrying', 'retrying', 'retrying'])
    expect((await admin.get('/admin/messages')).html).toMatch(/Last error: (?:<!-- -->)?connect ECONNREFUSED/)
    expect(sink.messages).toHaveLength(0)

    // Down for most of the minute before the first retry: the length of this test is spent in the outage.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, downAt + 45_000 - Date.now())))
    await proxy.reopen()
    const backAt = Date.now()

    await eventually(
      async () => sink.messages.length,
      () => recipients.every((to) => sink.messages.some((mail) => mail.to.includes(to))),
      { timeoutMs: 30_000, everyMs: 500 },
    )
    const deliveredAt = Date.now()
    // A few more worker rounds: nothing is sent twice.
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    for (const to of recipients) expect(sink.messages.filter((mail) => mail.to.includes(to)), to).toHaveLength(1)
    const rows = await outbox(admin)
    expect(rows.filter((row) => recipients.includes(row.to)).map((row) => row.status)).toEqual(['sent', 'sent', 'sent'])
    expect(server.process.exitCode).toBeNull()

    console.log(
      `SMTP unreachable ${Math.round((backAt - downAt) / 1000)} s: ${recipients.length} messages retrying meanwhile, all delivered once ${Math.round((deliveredAt - backAt) / 1000)} s after the server returned (the first retry is a minute after a failure)`,
    )
  })
})
