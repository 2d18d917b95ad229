import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { database, db } from '~/db/client.server'
import { outboxMessages } from '~/db/schema'
import { config } from '~/config.server'
import { addMinutes } from '~/lib/lab-time'
import { isLinkKey, WAITLIST_OFFER_LINK } from '~/lib/private-links.server'
import { enqueueEmail, enqueueWhatsApp, MAX_DELIVERY_ATTEMPTS, processOutbox, type OutboxSender } from '~/modules/mail/outbox.server'
import { classifyMailError, type MailTransport, type OutgoingMail } from '~/modules/mail/transport.server'
import { BackgroundJobs } from '../../../server/background-jobs'
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../tests/support/fake-whatsapp'
import { useTestDatabase } from '../../../tests/support/test-database'
import { cloudApiSender, failureOfGraphError, messageBody } from './cloud-api.server'
import type { WhatsAppSettings } from './config.server'
import { renderTemplate } from './templates'
import { WHATSAPP_TEMPLATES, type WhatsAppTemplateName } from './templates'

useTestDatabase()

let fake: FakeWhatsApp
let settings: WhatsAppSettings
let sender: OutboxSender

beforeAll(async () => {
  fake = await startFakeWhatsApp()
  settings = { accessToken: fake.accessToken, phoneNumberId: fake.phoneNumberId, appSecret: fake.appSecret, verifyToken: fake.verifyToken, apiUrl: fake.apiUrl }
})
afterAll(async () => {
  await fake?.close()
})
beforeEach(async () => {
  await fake.reset()
  // A sender per test: whether the service was down is remembered per sender.
  sender = cloudApiSender(settings)
})

// The samples given to Meta with each template: parameters that fit it.
const samples = (name: WhatsAppTemplateName) => WHATSAPP_TEMPLATES[name].parameters.map((parameter) => parameter.sample)
const CONFIRMED = samples('booking_confirmed')

function queueConfirmation(to = '+919845012345', now = new Date()) {
  return enqueueWhatsApp({ to, title: 'Booking confirmed', text: renderTemplate('booking_confirmed', CONFIRMED), template: { name: 'booking_confirmed', parameters: CONFIRMED } }, {}, db(), now)
}

async function row(id: number) {
  const [found] = await db().select().from(outboxMessages).where(eq(outboxMessages.id, id))
  return found!
}

describe('WhatsApp messages from the outbox', () => {
  it('sends a template message once, in the documented form, and keeps its WhatsApp id', async () => {
    const id = await queueConfirmation()
    expect(await processOutbox(sender)).toEqual({ sent: 1, failed: 0 })
    expect(await processOutbox(sender)).toEqual({ sent: 0, failed: 0 })
    expect(fake.sent).toHaveLength(1)
    expect(fake.sent[0]).toMatchObject({ to: '919845012345', type: 'template', template: 'booking_confirmed', language: 'en', parameters: CONFIRMED })
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, lastError: null, providerMessageId: fake.sent[0]!.wamid })
    expect((await row(id)).sentAt).toBeInstanceOf(Date)
  })

  it("sends a code in the Authentication template, in its body and its copy-code button, as Meta requires", async () => {
    await enqueueWhatsApp({ to: '+919845012345', title: 'Code', text: renderTemplate('verification_code', ['482913']), template: { name: 'verification_code', parameters: ['482913'] } }, {})
    expect(await processOutbox(sender)).toEqual({ sent: 1, failed: 0 })
    expect(fake.sent[0]).toMatchObject({ template: 'verification_code', parameters: ['482913'] })
    expect(messageBody({ to: '+919845012345', text: 'x', templateName: 'verification_code', templateParams: ['482913'] }).template!.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: '482913' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] },
    ])
  })

  it('makes a private link whole only when sending: the outbox keeps it without its key', async () => {
    const offer = samples('waitlist_seat_offered').slice(0, 4)
    const kept = `${config().SITE_URL}/onboarding/offer?registration=CAMP-2027-0042`
    const id = await enqueueWhatsApp({
      to: '+919845012345',
      title: 'Waitlist seat offered',
      text: renderTemplate('waitlist_seat_offered', [...offer, kept]),
      template: { name: 'waitlist_seat_offered', parameters: [...offer, kept] },
      privateLink: { parameter: 4, kind: 'waitlist-offer', reference: 'CAMP-2027-0042' },
    }, {})
    expect(await processOutbox(sender)).toEqual({ sent: 1, failed: 0 })
    const link = new URL(fake.sent[0]!.parameters[4]!)
    expect(link.searchParams.get('registration')).toBe('CAMP-2027-0042')
    expect(await isLinkKey(WAITLIST_OFFER_LINK, 'CAMP-2027-0042', link.searchParams.get('key'))).toBe(true)
    expect((await row(id)).templateParams![4]).toBe(kept)
  })

  it('sends a plain-text reply as text', async () => {
    await enqueueWhatsApp({ to: '+447700900123', title: 'Reply', text: 'This number does not read messages.' }, {})
    await processOutbox(sender)
    expect(fake.sent).toEqual([expect.objectContaining({ to: '447700900123', type: 'text', template: null, text: 'This number does not read messages.' })])
  })

  it('a connection the API closes as the next message is sent on it loses no message: each goes on a connection of its own', async () => {
    fake.closeReusedConnections()
    const ids = [await queueConfirmation('+919845000001'), await queueConfirmation('+919845000002'), await queueConfirmation('+919845000003')]
    expect(await processOutbox(sender)).toEqual({ sent: 3, failed: 0 })
    expect((await Promise.all(ids.map(row))).map((message) => [message.status, message.attempts, message.lastError])).toEqual(Array.from({ length: 3 }, () => ['sent', 1, null]))
    expect(fake.sent.map((message) => message.to)).toEqual(['919845000001', '919845000002', '919845000003'])
  })

  it('a number not on WhatsApp fails at once, with Meta’s code and words for staff; the others go out', async () => {
    fake.markUnregistered('+919845000001')
    const unregistered = await queueConfirmation('+919845000001')
    const fine = await queueConfirmation('+919845000002')
    expect(await processOutbox(sender)).toEqual({ sent: 1, failed: 1 })
    expect(await row(unregistered)).toMatchObject({ status: 'failed', attempts: 1, providerMessageId: null })
    expect((await row(unregistered)).lastError).toMatch(/^WhatsApp error 131026: \(#131026\) Message undeliverable \(Unable to deliver message/)
    expect(await row(fine)).toMatchObject({ status: 'sent' })
  })

  it('a template that does not exist, or parameters that do not fit it, fail at once', async () => {
    fake.removeTemplate('booking_confirmed')
    const removed = await queueConfirmation()
    const wrongCount = await enqueueWhatsApp({ to: '+919845012345', title: 'x', text: 'x', template: { name: 'report_ready', parameters: ['Priya'] } }, {})
    const emptyParameter = await enqueueWhatsApp({ to: '+919845012345', title: 'x', text: 'x', template: { name: 'report_ready', parameters: samples('report_ready').map((sample, index) => (index === 1 ? '' : sample)) } }, {})
    await processOutbox(sender)
    expect(await row(removed)).toMatchObject({ status: 'failed' })
    expect((await row(removed)).lastError).toMatch(/^WhatsApp error 132001/)
    expect((await row(wrongCount)).lastError).toMatch(/^WhatsApp error 132000/)
    expect(await row(emptyParameter)).toMatchObject({ status: 'failed' })
    expect((await row(emptyParameter)).lastError).toMatch(/^WhatsApp error 100/)
    expect(fake.sent).toHaveLength(0)
  })

  it('a paused template is retried with back-off and sent once Meta lets it out again', async () => {
    let now = new Date('2027-03-10T06:00:00Z')
    const id = await queueConfirmation(undefined, now)
    fake.pauseTemplate('booking_confirmed')
    await processOutbox(sender, () => now)
    expect(await row(id)).toMatchObject({ status: 'retrying', attempts: 1 })
    expect((await row(id)).lastError).toMatch(/^WhatsApp error 132015: \(#132015\) Template is Paused/)
    expect((await row(id)).nextAttemptAt.toISOString()).toBe('2027-03-10T06:01:00.000Z')
    now = addMinutes(now, 1)
    await processOutbox(sender, () => now)
    expect(await row(id)).toMatchObject({ status: 'retrying', attempts: 2 })
    expect((await row(id)).nextAttemptAt.toISOString()).toBe('2027-03-10T06:03:00.000Z')

    fake.restoreTemplate('booking_confirmed')
    now = addMinutes(now, 2)
    await processOutbox(sender, () => now)
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 3, lastError: null })
    expect(fake.sent).toHaveLength(1)
  })

  it('a rate limit is retried; it does not stop the round', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    const first = await queueConfirmation('+919845000001', now)
    const second = await queueConfirmation('+919845000002', now)
    fake.rateLimit(1)
    expect(await processOutbox(sender, () => now)).toEqual({ sent: 1, failed: 1 })
    expect(await row(first)).toMatchObject({ status: 'retrying' })
    expect((await row(first)).lastError).toMatch(/^WhatsApp error 130429/)
    expect(await row(second)).toMatchObject({ status: 'sent' })
  })

  it('gives up after MAX_DELIVERY_ATTEMPTS tries', async () => {
    let now = new Date('2027-03-10T06:00:00Z')
    const id = await queueConfirmation(undefined, now)
    fake.pauseTemplate('booking_confirmed')
    for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS + 2; attempt += 1) {
      await processOutbox(sender, () => now)
      now = addMinutes(now, 61)
    }
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: MAX_DELIVERY_ATTEMPTS })
  })

  it('a wrong access token stops the round like an outage: nothing is given up on', async () => {
    const now = new Date('2027-03-10T06:00:00Z')
    const ids = [await queueConfirmation('+919845000001', now), await queueConfirmation('+919845000002', now), await queueConfirmation('+919845000003', now)]
    const wrongToken = cloudApiSender({ ...settings, accessToken: 'EAAG-a-token-that-expired-long-ago' })
    expect(await processOutbox(wrongToken, () => now)).toEqual({ sent: 0, failed: 3 })
    expect(fake.requests).toHaveLength(1)
    const rows = await Promise.all(ids.map(row))
    expect(rows.map((message) => message.status)).toEqual(['retrying', 'retrying', 'retrying'])
    expect(rows[0]!.lastError).toMatch(/^WhatsApp error 190: .*access token/)
  })

  it('a request that gets no answer in time is an outage, well within the claim lease', async () => {
    const stalled = cloudApiSender(settings, { timeoutMs: 200, fetch: (_url, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))) })
    const id = await queueConfirmation()
    expect(await processOutbox(stalled)).toEqual({ sent: 0, failed: 1 })
    expect(await row(id)).toMatchObject({ status: 'retrying', lastError: 'WhatsApp Cloud API unreachable: no answer within 0.2 s' })
  })

  it('a slow API does not keep a batch past its claim: the untried messages go back, and each is sent once', async () => {
    const startedAt = performance.now()
    const base = new Date('2027-03-10T06:00:00Z').getTime()
    let clock = startedAt
    const now = () => new Date(base + clock - startedAt)
    const spy = vi.spyOn(performance, 'now').mockImplementation(() => clock)
    const sentAfterTheirLease: string[] = []
    try {
      const slow: OutboxSender = {
        ...sender,
        async send(message) {
          // Another instance may claim a message once its lease is over: it must be sent before.
          const [claimed] = await db().select({ until: outboxMessages.nextAttemptAt }).from(outboxMessages).where(eq(outboxMessages.id, message.id))
          if (claimed!.until.getTime() <= now().getTime()) sentAfterTheirLease.push(message.to)
          // Each answer comes 25 s after the request, inside the timeout.
          clock += 25_000
          return sender.send(message)
        },
      }
      for (let i = 0; i < 10; i += 1) await queueConfirmation(`+9198452${String(i).padStart(5, '0')}`, now())
      expect(await processOutbox(slow, now)).toEqual({ sent: 10, failed: 0 })
    } finally {
      spy.mockRestore()
    }
    expect(sentAfterTheirLease).toEqual([])
    expect(fake.sent).toHaveLength(10)
    const rows = await db().select().from(outboxMessages).where(eq(outboxMessages.channel, 'whatsapp'))
    expect(rows.map((message) => [message.status, message.attempts])).toEqual(Array.from({ length: 10 }, () => ['sent', 1]))
  })

  it('maps Graph API errors to what the outbox does', () => {
    expect(failureOfGraphError(401, 190)).toBe('down')
    expect(failureOfGraphError(503, null)).toBe('down')
    expect(failureOfGraphError(500, 131000)).toBe('down')
    for (const code of [131026, 100, 132000, 132001, 131008, 131009]) expect(failureOfGraphError(400, code), String(code)).toBe('permanent')
    for (const code of [132015, 132016, 130429, 131056, 4, 80007, 131000]) expect(failureOfGraphError(400, code), String(code)).toBe('retry')
    expect(messageBody({ to: '+919845012345', text: 'x', templateName: 'report_ready', templateParams: ['a', 'b'] })).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919845012345',
      type: 'template',
      template: { name: 'report_ready', language: { code: 'en' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }] },
    })
  })
})

describe('one channel down, the other goes on', () => {
  const delivered: OutgoingMail[] = []
  const mailbox: MailTransport = { channel: 'email', kind: 'local', classify: classifyMailError, send: async (mail) => void delivered.push(mail), close() {} }
  const smtpDown: MailTransport = {
    channel: 'email',
    kind: 'smtp',
    classify: classifyMailError,
    send: async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:587'), { code: 'ESOCKET' })
    },
    close() {},
  }

  it('WhatsApp down: e-mail is delivered all the same', async () => {
    delivered.length = 0
    await fake.goDown('refusing')
    const whatsapp = await queueConfirmation()
    const email = await enqueueEmail({ to: 'a@example.com', subject: 'Hello', text: 'Body' }, {})
    await Promise.all([processOutbox(sender), processOutbox(mailbox)])
    expect(await row(whatsapp)).toMatchObject({ status: 'retrying' })
    expect((await row(whatsapp)).lastError).toMatch(/^WhatsApp Cloud API unreachable: fetch failed: /)
    expect(await row(email)).toMatchObject({ status: 'sent' })
    expect(delivered.map((mail) => mail.to)).toEqual(['a@example.com'])
  })

  it('the mail server down: WhatsApp messages are delivered all the same', async () => {
    const whatsapp = await queueConfirmation()
    const email = await enqueueEmail({ to: 'a@example.com', subject: 'Hello', text: 'Body' }, {})
    await Promise.all([processOutbox(smtpDown), processOutbox(sender)])
    expect(await row(email)).toMatchObject({ status: 'retrying' })
    expect(await row(whatsapp)).toMatchObject({ status: 'sent' })
    expect(fake.sent).toHaveLength(1)
  })
})

describe('the Cloud API down for ten minutes', () => {
  it('every message queued meanwhile is delivered once, within minutes of its return', async () => {
    const start = new Date('2027-03-10T06:00:00Z').getTime()
    const returnsAt = start + 10 * 60_000
    let now = start
    const queued: number[] = []
    let deliveredBy = 0
    await fake.goDown('http-503')
    for (; now < start + 30 * 60_000; now += 5_000) {
      if (now < returnsAt && (now - start) % 30_000 === 0) queued.push(await queueConfirmation(`+9198450${String(queued.length).padStart(5, '0')}`, new Date(now)))
      // Half the outage answering 503, the other half refusing connections.
      if (now === start + 5 * 60_000) await fake.goDown('refusing')
      if (now === returnsAt) await fake.comeBack()
      await processOutbox(sender, () => new Date(now))
      if (fake.sent.length === queued.length && !deliveredBy && now >= returnsAt) deliveredBy = now
    }
    expect(queued).toHaveLength(20)
    const rows = await Promise.all(queued.map(row))
    expect(rows.every((message) => message.status === 'sent')).toBe(true)
    expect(fake.sent).toHaveLength(20)
    expect(new Set(fake.sent.map((message) => message.to)).size).toBe(20)
    expect(new Set(rows.map((message) => message.providerMessageId)).size).toBe(20)
    expect(deliveredBy - returnsAt).toBeLessThanOrEqual(3 * 60_000)
  })
})

describe('two instances sharing the outbox', () => {
  it('each message reaches WhatsApp exactly once', async () => {
    for (let i = 0; i < 40; i += 1) await queueConfirmation(`+9198451${String(i).padStart(5, '0')}`)
    const silent = pino({ level: 'silent' })
    const mailbox: MailTransport = { channel: 'email', kind: 'local', classify: classifyMailError, send: async () => {}, close() {} }
    const instances = [new BackgroundJobs(mailbox, silent, database(), cloudApiSender(settings)), new BackgroundJobs(mailbox, silent, database(), cloudApiSender(settings))]
    // Two rounds each at once, and two bare loops besides, with small batches so they interleave.
    await Promise.all([...instances.flatMap((jobs) => [jobs.trigger('whatsapp'), jobs.trigger('whatsapp')]), processOutbox(cloudApiSender(settings), undefined, 3), processOutbox(cloudApiSender(settings), undefined, 3)])
    for (const jobs of instances) await jobs.stop()
    expect(fake.sent).toHaveLength(40)
    expect(new Set(fake.sent.map((message) => message.to)).size).toBe(40)
    const rows = await db().select().from(outboxMessages).where(eq(outboxMessages.channel, 'whatsapp'))
    expect(rows.every((message) => message.status === 'sent' && message.attempts === 1)).toBe(true)
  })

  it('without a WhatsApp sender the jobs leave WhatsApp messages queued', async () => {
    const id = await queueConfirmation()
    const mailbox: MailTransport = { channel: 'email', kind: 'local', classify: classifyMailError, send: async () => {}, close() {} }
    const jobs = new BackgroundJobs(mailbox, pino({ level: 'silent' }), database())
    await jobs.trigger('outbox')
    await jobs.trigger('whatsapp')
    await jobs.stop()
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 0 })
    expect(fake.sent).toHaveLength(0)
  })
})
