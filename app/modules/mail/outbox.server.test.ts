import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { outboxMessages } from '~/db/schema'
import { addHours, addMinutes, addSeconds } from '~/lib/lab-time'
import { registrationInput } from '../../../tests/support/accounts'
import { codeIn, startSmtpSink } from '../../../tests/support/smtp-sink'
import { useTestDatabase } from '../../../tests/support/test-database'
import { registerCustomer, verifyEmail } from '../accounts/registration.server'
import { CLAIM_LEASE_SECONDS, claimDueEmails, enqueueEmail, MAX_DELIVERY_ATTEMPTS, processOutbox, retryDelayMinutes } from './outbox.server'
import { classifyMailError, localMailbox, smtpTransport, type MailTransport, type OutgoingMail } from './transport.server'

useTestDatabase()

const failing = (message = 'connection refused'): MailTransport => ({
  channel: 'email',
  kind: 'smtp',
  classify: classifyMailError,
  send: async () => {
    throw new Error(message)
  },
  close() {},
})

async function row(id: number) {
  const [found] = await db().select().from(outboxMessages).where(eq(outboxMessages.id, id))
  return found!
}

describe('the e-mail outbox', () => {
  const closers: Array<() => unknown> = []
  afterEach(async () => {
    for (const close of closers.splice(0)) await close()
  })

  it('delivers queued mail once and marks it sent', async () => {
    const delivered: OutgoingMail[] = []
    const id = await enqueueEmail({ to: 'a@example.com', subject: 'Hello', text: 'Body' }, {})
    await processOutbox(localMailbox((mail) => delivered.push(mail)))
    await processOutbox(localMailbox((mail) => delivered.push(mail)))
    expect(delivered.map((mail) => mail.subject)).toEqual(['Hello'])
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, lastError: null })
  })

  it('keeps failed mail and retries it later with back-off, up to a limit', async () => {
    let now = new Date('2027-03-10T06:00:00Z')
    const id = await enqueueEmail({ to: 'a@example.com', subject: 'Hello', text: 'Body' }, {}, db(), now)
    await processOutbox(failing(), () => now)
    expect(await row(id)).toMatchObject({ status: 'retrying', attempts: 1, lastError: 'connection refused' })
    expect((await row(id)).nextAttemptAt.toISOString()).toBe('2027-03-10T06:01:00.000Z')

    // Not due yet: nothing happens.
    await processOutbox(failing('should not be called'), () => now)
    expect((await row(id)).attempts).toBe(1)

    for (let attempt = 2; attempt <= MAX_DELIVERY_ATTEMPTS; attempt += 1) {
      now = addMinutes(now, 61)
      await processOutbox(failing(), () => now)
    }
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: MAX_DELIVERY_ATTEMPTS })
    now = addHours(now, 24)
    await processOutbox(failing(), () => now)
    expect((await row(id)).attempts).toBe(MAX_DELIVERY_ATTEMPTS)
  })

  it('one failing message does not hold up the others', async () => {
    const delivered: string[] = []
    const transport: MailTransport = {
      channel: 'email',
      kind: 'local',
      classify: classifyMailError,
      async send(mail) {
        if (mail.to === 'bad@example.com') throw new Error('mailbox unavailable')
        delivered.push(mail.to)
      },
      close() {},
    }
    await enqueueEmail({ to: 'bad@example.com', subject: 'x', text: 'x' }, {})
    await enqueueEmail({ to: 'good@example.com', subject: 'x', text: 'x' }, {})
    await processOutbox(transport)
    expect(delivered).toEqual(['good@example.com'])
  })

  it('two workers claiming at once never get the same message', async () => {
    for (let i = 0; i < 30; i += 1) await enqueueEmail({ to: `p${i}@example.com`, subject: 'x', text: 'x' }, {})
    const claims = await Promise.all([claimDueEmails(new Date(), 20), claimDueEmails(new Date(), 20), claimDueEmails(new Date(), 20)])
    const ids = claims.flat().map((email) => email.id)
    expect(ids).toHaveLength(30)
    expect(new Set(ids).size).toBe(30)
  })

  it('a message claimed by a worker that died is retried after the lease', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    await enqueueEmail({ to: 'a@example.com', subject: 'x', text: 'x' }, {}, db(), now)
    expect(await claimDueEmails(now)).toHaveLength(1)
    expect(await claimDueEmails(addSeconds(now, 1))).toHaveLength(0)
    expect(await claimDueEmails(addSeconds(now, CLAIM_LEASE_SECONDS + 1))).toHaveLength(1)
  })

  it('sends real mail over SMTP; the code read from it verifies the account', async () => {
    const sink = await startSmtpSink()
    closers.push(sink.close)
    const transport = smtpTransport(sink.url, 'Swimming Sport Science Lab <no-reply@lab.example>')
    closers.push(() => transport.close())

    const registered = await registerCustomer(registrationInput(), { ip: '198.51.100.20' })
    expect(await processOutbox(transport)).toEqual({ sent: 1, failed: 0 })
    const mail = await sink.waitForMailTo('asha@example.com')
    expect(mail.from).toBe('no-reply@lab.example')
    expect(mail.raw).toMatch(/^Subject: Your verification code for Swimming Sport Science Lab/m)
    expect(mail.raw).toMatch(/Content-Type: text\/html/)

    const result = await verifyEmail({ email: 'asha@example.com', code: codeIn(mail.text), ip: '198.51.100.20', pendingAccountId: registered.id })
    expect(result.ok).toBe(true)
  })

  it('a server that refuses the message leaves it queued for a retry', async () => {
    const sink = await startSmtpSink({ rejectWith: 'try again later' })
    closers.push(sink.close)
    const transport = smtpTransport(sink.url, 'no-reply@lab.example')
    closers.push(() => transport.close())
    const id = await enqueueEmail({ to: 'a@example.com', subject: 'x', text: 'x' }, {})
    expect(await processOutbox(transport)).toEqual({ sent: 0, failed: 1 })
    expect(await row(id)).toMatchObject({ status: 'retrying', attempts: 1 })
    expect((await row(id)).lastError).toMatch(/try again later/)
  })
})

describe('the mail server down for ten minutes', () => {
  it('loses nothing and gives up on nothing: every message is delivered once, within minutes of its return', async () => {
    const start = new Date('2027-03-10T06:00:00Z').getTime()
    const returnsAt = start + 10 * 60_000
    let now = start
    const delivered: Array<{ to: string; at: number }> = []
    const transport: MailTransport = {
      channel: 'email',
      kind: 'smtp',
      classify: classifyMailError,
      async send(mail) {
        // What nodemailer reports when nothing answers on the SMTP port.
        if (now < returnsAt) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:587'), { code: 'ESOCKET' })
        delivered.push({ to: mail.to, at: now })
      },
      close() {},
    }
    // A message every 30 s of the outage; the worker polls every 5 s (the site's polls every second).
    const queued: number[] = []
    for (; now < start + 30 * 60_000 && delivered.length < 20; now += 5_000) {
      if (now < returnsAt && (now - start) % 30_000 === 0) queued.push(await enqueueEmail({ to: `m${queued.length}@example.com`, subject: 'x', text: 'x' }, {}, db(), new Date(now)))
      await processOutbox(transport, () => new Date(now))
      if (now === returnsAt - 5_000) {
        const rows = await Promise.all(queued.map(row))
        expect(rows.every((email) => email.status === 'retrying')).toBe(true)
        expect(Math.max(...rows.map((email) => email.attempts))).toBeLessThan(MAX_DELIVERY_ATTEMPTS)
      }
    }

    expect(queued).toHaveLength(20)
    expect(delivered.map((mail) => mail.to).sort()).toEqual(queued.map((_, index) => `m${index}@example.com`).sort())
    const rows = await Promise.all(queued.map(row))
    expect(rows.every((email) => email.status === 'sent')).toBe(true)
    const lastDelivery = Math.max(...delivered.map((mail) => mail.at))
    expect(lastDelivery - returnsAt).toBeLessThanOrEqual((CLAIM_LEASE_SECONDS + 60) * 1000)
    // Without catching up, the first message (tried at 0, 1, 3, 7 and 15 minutes) would wait until 15:00.
    console.log(`SMTP down 10 min: ${queued.length} messages, ${rows.reduce((sum, email) => sum + email.attempts, 0)} attempts, all delivered once by ${(lastDelivery - returnsAt) / 1000} s after the server returned`)
  })

  it('keeps retrying for far longer than ten minutes before giving up on a message', () => {
    const minutesBeforeGivingUp = Array.from({ length: MAX_DELIVERY_ATTEMPTS - 1 }, (_, index) => retryDelayMinutes(index + 1)).reduce((sum, minutes) => sum + minutes, 0)
    expect(minutesBeforeGivingUp).toBeGreaterThanOrEqual(120)
  })

  it('an unreachable server is tried once per round, not once per message, so a batch never outlives its claim', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    let tries = 0
    const transport: MailTransport = {
      channel: 'email',
      kind: 'smtp',
      classify: classifyMailError,
      async send() {
        tries += 1
        throw Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })
      },
      close() {},
    }
    const ids = []
    for (let i = 0; i < 12; i += 1) ids.push(await enqueueEmail({ to: `w${i}@example.com`, subject: 'x', text: 'x' }, {}, db(), now))
    expect(await processOutbox(transport, () => now)).toEqual({ sent: 0, failed: 10 })
    expect(tries).toBe(1)
    const rows = await Promise.all(ids.map(row))
    expect(rows.filter((email) => email.status === 'retrying' && email.attempts === 1 && email.lastError === 'Connection timeout')).toHaveLength(10)
    expect(rows.filter((email) => email.status === 'queued' && email.attempts === 0)).toHaveLength(2)
  })

  it('a message refused for its own sake does not make the others jump their back-off', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    const transport: MailTransport = {
      channel: 'email',
      kind: 'smtp',
      classify: classifyMailError,
      async send(mail) {
        if (mail.to === 'full@example.com') throw Object.assign(new Error('452 mailbox full'), { code: 'EENVELOPE', responseCode: 452 })
      },
      close() {},
    }
    // The process has seen the server answer, so nothing counts as a recovery.
    await enqueueEmail({ to: 'first@example.com', subject: 'x', text: 'x' }, {}, db(), now)
    await processOutbox(transport, () => now)
    // Refused three times before: its next try is 8 minutes away, further than any claim lease.
    const full = await enqueueEmail({ to: 'full@example.com', subject: 'x', text: 'x' }, {}, db(), now)
    await db().update(outboxMessages).set({ attempts: 3, status: 'retrying' }).where(eq(outboxMessages.id, full))
    await processOutbox(transport, () => now)
    const waitingUntil = (await row(full)).nextAttemptAt.getTime()
    await enqueueEmail({ to: 'other@example.com', subject: 'x', text: 'x' }, {}, db(), now)
    await processOutbox(transport, () => now)
    expect((await row(full)).nextAttemptAt.getTime()).toBe(waitingUntil)
    expect(waitingUntil - now.getTime()).toBe(8 * 60_000)
    expect((await row(full)).attempts).toBe(4)
  })
})
