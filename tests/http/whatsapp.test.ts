import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enqueueWhatsApp } from '~/modules/mail/outbox.server'
import { startFakeWhatsApp, type FakeWhatsApp } from '../support/fake-whatsapp'
import { startTestServer, type TestServer } from '../support/test-server'
import { WHATSAPP_TEMPLATES } from '~/modules/whatsapp/templates'
import { eventually } from '../support/eventually'

/** Parameters that fit the template: the samples given to Meta with it. */
const REPORT_READY = WHATSAPP_TEMPLATES.report_ready.parameters.map((parameter) => parameter.sample)

// The started site with WhatsApp on, its Cloud API being the local fake of Meta: messages queued
// go out through it, and the fake posts Meta's webhooks back to the site.

let fake: FakeWhatsApp
let server: TestServer
let webhook: string

const PARENT = '+919845012345'
const QUEUED_BEFORE_START = '+919845011111'

beforeAll(async () => {
  fake = await startFakeWhatsApp()
  server = await startTestServer(fake.env, {
    // A message waiting in the outbox when the site starts: it goes out at once.
    prepare: async (db) => {
      await enqueueWhatsApp(
        { to: QUEUED_BEFORE_START, title: 'Analysis results ready', text: 'x', template: { name: 'report_ready', parameters: REPORT_READY } },
        {},
        db,
      )
    },
  })
  webhook = `${server.url}/webhooks/whatsapp`
})
afterAll(async () => {
  await server?.stop()
  await fake?.close()
})

describe('the site with WhatsApp on', () => {
  it('says so at start-up without logging a secret, and sends what was queued', async () => {
    expect(server.logs()).toMatch(/WhatsApp: on, sending through the Cloud API/)
    const [sent] = await eventually(
      () => fake.sentTo(QUEUED_BEFORE_START),
      (messages) => messages.length > 0,
    )
    expect(sent).toMatchObject({ type: 'template', template: 'report_ready', parameters: REPORT_READY })
    // Its delivery statuses come back through the webhook.
    expect((await fake.deliver(webhook, fake.statusNotification([{ wamid: sent!.wamid, status: 'delivered' }]))).status).toBe(200)
  })

  it('answers Meta’s verification handshake for the right token only, and keeps the token out of the log', async () => {
    const right = await fetch(`${webhook}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(fake.verifyToken)}&hub.challenge=987654321`)
    expect(right.status).toBe(200)
    expect(await right.text()).toBe('987654321')
    const wrong = await fetch(`${webhook}?hub.mode=subscribe&hub.verify_token=not-the-verify-token-at-all&hub.challenge=987654321`)
    expect(wrong.status).toBe(403)
    expect(await wrong.text()).not.toContain('987654321')
    await eventually(server.logs, (logs) => logs.includes('hub.verify_token=[redacted]'))
    for (const secret of [fake.verifyToken, fake.accessToken, fake.appSecret]) expect(server.logs()).not.toContain(secret)
  })

  it('refuses notifications unsigned, forged or tampered with, and acts on none of them', async () => {
    const stop = fake.incomingNotification({ from: PARENT, text: 'STOP' })
    expect((await fake.deliver(webhook, stop, { signature: 'missing' })).status).toBe(401)
    expect((await fake.deliver(webhook, stop, { signature: 'forged' })).status).toBe(401)
    const hello = fake.incomingNotification({ from: PARENT, text: 'hello' })
    expect((await fake.deliver(webhook, hello, { tamper: (body) => body.replace('hello', 'STOP!') })).status).toBe(401)
    await fake.siteCaughtUp(webhook)
    expect(fake.sentTo(PARENT)).toEqual([])
  })

  it('STOP opts the number out, with exactly one confirmation, however often the notification comes', async () => {
    const number = '+919845022222'
    const stop = fake.incomingNotification({ from: number, text: 'stop' })
    // Sent from Meta's servers: no Origin of this site, or one of another; the origin check is not theirs to pass.
    for (let i = 0; i < 3; i += 1) expect((await fake.deliver(webhook, stop)).status).toBe(200)
    const [confirmation] = await eventually(
      () => fake.sentTo(number),
      (messages) => messages.length > 0,
    )
    expect(confirmation).toMatchObject({ type: 'text', template: null })
    expect(confirmation!.text).toBe('You will get no more WhatsApp messages from the Swimming Sport Science Lab. To get them again, reply START.')
    await fake.siteCaughtUp(webhook)
    expect(fake.sentTo(number)).toHaveLength(1)

    const unsubscribe = fake.incomingNotification({ from: '919845033333', text: 'UNSUBSCRIBE' })
    expect((await fake.deliver(webhook, unsubscribe)).status).toBe(200)
    await eventually(
      () => fake.sentTo('919845033333'),
      (messages) => messages.length === 1,
    )
  })

  it('anything else gets one reply pointing to the lab’s e-mail and phone', async () => {
    const number = '+447911123456'
    expect((await fake.deliver(webhook, fake.incomingNotification({ from: number, text: 'Is Saturday free?' }))).status).toBe(200)
    expect((await fake.deliver(webhook, fake.incomingNotification({ from: number, text: 'Hello??' }))).status).toBe(200)
    const [reply] = await eventually(
      () => fake.sentTo(number),
      (messages) => messages.length > 0,
    )
    // The seed's contact details are still the lab's placeholders: the reply points to the contact page instead.
    expect(reply!.text).toBe(
      `Thank you for your message. This WhatsApp number of the Swimming Sport Science Lab only sends booking updates and does not read replies. Please contact the lab through ${server.url}/contact.`,
    )
    await fake.siteCaughtUp(webhook)
    expect(fake.sentTo(number)).toHaveLength(1)
  })

  it('a signed request with a browser’s foreign Origin is still Meta’s notification', async () => {
    const body = JSON.stringify(fake.statusNotification([{ wamid: 'wamid.unknown', status: 'read' }]))
    const response = await fetch(webhook, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'https://elsewhere.example', 'X-Hub-Signature-256': fake.signature(body) }, body })
    expect(response.status).toBe(200)
  })
})

describe('the site with WhatsApp off', () => {
  it('has no WhatsApp webhook', async () => {
    const off = await startTestServer()
    try {
      expect(off.logs()).not.toMatch(/WhatsApp: on/)
      expect((await fetch(`${off.url}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`)).status).toBe(404)
      expect((await fake.deliver(`${off.url}/webhooks/whatsapp`, fake.incomingNotification({ from: PARENT, text: 'STOP' }))).status).toBe(404)
    } finally {
      await off.stop()
    }
  })
})
