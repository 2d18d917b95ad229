import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, useDatabase } from '~/db/client.server'
import { addMinutes } from '~/lib/lab-time'
import { smtpTransport } from '~/modules/mail/transport.server'
import { BackgroundJobs } from '../../server/background-jobs'
import { startSmtpSink } from '../support/smtp-sink'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'
import { startTestServer, type TestServer } from '../support/test-server'
import { mailCaughtUp, registrationForm, Visitor } from '../support/visitor'
import { eventually } from '../support/eventually'

// The mail server unreachable while customers sign up: their messages wait in the outbox as
// "retrying" (staff see it on /admin/messages), and reach the mail server once each when it is back
// and their back-off (a minute after the failure) is over. That minute passes on the clock of the
// site's own jobs, run on the site's data while it is stopped; the ten-minute outage is simulated
// in app/modules/mail/outbox.server.test.ts.

const ADMIN = { email: 'staff@example.com', password: 'staff-password-2027' }

let sink: Awaited<ReturnType<typeof startSmtpSink>>
let proxy: TcpProxy
let server: TestServer

beforeAll(async () => {
  sink = await startSmtpSink()
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(sink.url).port) })
  server = await startTestServer(siteEnv())
})
afterAll(async () => {
  await server?.stop()
  await proxy?.close()
  await sink?.close()
})

const siteEnv = () => ({ SMTP_URL: `smtp://127.0.0.1:${proxy.port}`, TRUST_PROXY: 'true', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })

type MailRow = { to: string; status: string }

/** One round of the stopped site's e-mail worker on its own data, with the clock at `now`. */
async function outboxRoundAt(stopped: TestServer, now: Date) {
  const database = await openDatabase(stopped.databaseUrl ? { databaseUrl: stopped.databaseUrl, poolSize: 2 } : { dataDir: stopped.dataDir })
  useDatabase(database)
  try {
    const jobs = new BackgroundJobs(smtpTransport(siteEnv().SMTP_URL, 'Swimming Sport Science Lab <no-reply@localhost>'), pino({ level: 'silent' }), database, undefined, () => now)
    await jobs.trigger('outbox')
    await jobs.stop()
  } finally {
    useDatabase(undefined)
    await database.close()
  }
}

async function outbox(admin: Visitor): Promise<MailRow[]> {
  const page = await admin.get('/admin/messages')
  expect(page.status).toBe(200)
  return [...page.html.matchAll(/<span class="rounded-full[^"]*">(\w+)<\/span>[^]*?data-testid="mail-to">([^<]+)</g)].map((match) => ({ status: match[1]!, to: match[2]! }))
}

describe('SMTP unreachable', () => {
  it('messages wait as retrying, visible to staff, and are delivered once each when the mail server is back', { timeout: 60_000 }, async () => {
    const admin = new Visitor(server.url)
    expect((await admin.post('/login', { email: ADMIN.email, password: ADMIN.password, website_url: '' })).location).toBe('/admin')

    await proxy.cut()
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
    expect(server.process.exitCode).toBeNull()

    // The mail server is back. Until their back-off is over the messages wait; a minute after the
    // failure each is delivered, once, and a later round sends nothing again.
    await server.kill()
    await proxy.reopen()
    await outboxRoundAt(server, new Date())
    expect(sink.messages).toHaveLength(0)
    await outboxRoundAt(server, addMinutes(new Date(), 1))
    await outboxRoundAt(server, addMinutes(new Date(), 2))
    for (const to of recipients) expect(sink.messages.filter((mail) => mail.to.includes(to)), to).toHaveLength(1)

    // The site, started again on that data, shows them sent and sends none of them again.
    server = await startTestServer(siteEnv(), { restartOf: server })
    await mailCaughtUp(server.url, sink)
    for (const to of recipients) expect(sink.messages.filter((mail) => mail.to.includes(to)), to).toHaveLength(1)
    const rows = await outbox(admin)
    expect(rows.filter((row) => recipients.includes(row.to)).map((row) => row.status)).toEqual(['sent', 'sent', 'sent'])
  })
})
