import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bookAndPay } from '../support/booking-flow'
import { startFakeWhatsApp, type FakeWhatsApp } from '../support/fake-whatsapp'
import { useTestSite } from '../support/site'
import { codeIn } from '../support/smtp-sink'
import { registrationForm, text, Visitor } from '../support/visitor'
import { eventually } from '../support/eventually'

// A parent's WhatsApp from beginning to end, on the started site with the local fake of Meta's
// Cloud API, without JavaScript: asking for messages on registration (the number is asked to
// confirm), proving the number with the code sent to it, the booking confirmed once, WhatsApp's
// delivery report on the staff's messages page, STOP (sent twice), nothing more while opted out,
// opting in again from the account, and a failed payment's message with its link.

let fake: FakeWhatsApp
beforeAll(async () => {
  fake = await startFakeWhatsApp()
})
afterAll(async () => {
  await fake?.close()
})
const site = useTestSite(() => fake.env)

const PARENT = { name: 'Lakshmi Menon', email: 'lakshmi@example.com', typed: '98450 77777', e164: '+919845077777' }


const templatesSent = () => fake.sentTo(PARENT.e164).map((message) => message.template ?? `text: ${message.text}`)

describe('a parent on WhatsApp', () => {
  it('opts in, hears of the booking once, says STOP, hears nothing more, opts in again and hears of a failed payment', async () => {
    const parent = new Visitor(site.url)
    const form = await parent.get('/registration')
    expect(text(form.html)).toContain('Send me booking confirmations, reminders, payment and refund updates and analysis results on WhatsApp')
    const registered = await parent.post('/registration', registrationForm({ name: PARENT.name, email: PARENT.email, phone: PARENT.typed, whatsappOptIn: 'on' }))
    expect(registered.status).toBe(302)
    const code = codeIn((await site.sink.waitForMailTo(PARENT.email, /verification code/)).text)
    expect((await parent.post(`/verify-email?${new URLSearchParams({ email: PARENT.email })}`, { email: PARENT.email, code, website_url: '' })).location).toBe('/book-slot')

    // The box asked the number to confirm; the account proves it is the parent's with the code sent to it.
    await eventually(templatesSent, (sent) => sent.length === 1)
    expect(templatesSent()).toEqual(['confirm_whatsapp_messages'])
    expect(text((await parent.get('/account/data')).html)).toContain('WhatsApp messages: off until you confirm that the number is yours')
    expect((await parent.post('/account/data', { intent: 'whatsapp-code' })).location).toBe('/account/data#whatsapp')
    await eventually(templatesSent, (sent) => sent.length === 2)
    const proof = fake.sentTo(PARENT.e164)[1]!
    expect(proof.template).toBe('verification_code')
    expect((await parent.post('/account/data', { intent: 'whatsapp-prove', code: proof.parameters[0]! })).location).toBe('/account/data#whatsapp')
    expect(text((await parent.get('/account/data')).html)).toMatch(/WhatsApp messages: on \(since /)

    // Booked and paid: one WhatsApp message, beside the e-mail.
    await bookAndPay(parent, site.url, 'success')
    await site.sink.waitForMailTo(PARENT.email, /Booking confirmed/)
    const [, , confirmed] = await eventually(templatesSent, (sent) => sent.length > 2)
    expect(confirmed).toBe('booking_confirmed')
    await fake.siteCaughtUp(`${site.url}/webhooks/whatsapp`)
    const message = fake.sentTo(PARENT.e164)[2]
    expect(fake.sentTo(PARENT.e164)).toHaveLength(3)
    expect(message!.parameters[0]).toBe(PARENT.name)
    expect(message!.parameters[1]).toMatch(/3-Day/)

    // WhatsApp reports it delivered, then read; a late (or replayed) "delivered" changes nothing.
    const webhook = `${site.url}/webhooks/whatsapp`
    for (const status of ['delivered', 'read', 'delivered'] as const) {
      expect((await fake.deliver(webhook, fake.statusNotification([{ wamid: message!.wamid, status }]))).status).toBe(200)
    }
    const staff = await site.sharedStaff()
    const messages = text((await staff.get(`/admin/messages?${new URLSearchParams({ channel: 'whatsapp', to: PARENT.typed })}`)).html)
    expect(messages).toContain('WhatsApp Booking confirmed sent To +91 98450 77777')
    expect(messages).toMatch(/template booking_confirmed Read \d/)

    // STOP, sent twice by WhatsApp: opted out, one confirmation.
    const stop = fake.incomingNotification({ from: PARENT.e164, text: 'Stop' })
    expect((await fake.deliver(webhook, stop)).status).toBe(200)
    expect((await fake.deliver(webhook, stop)).status).toBe(200)
    await eventually(templatesSent, (sent) => sent.length === 4)
    expect(templatesSent()[3]).toMatch(/^text: You will get no more WhatsApp messages/)
    expect(text((await parent.get('/account/data')).html)).toMatch(/WhatsApp messages: off \(you replied STOP on /)

    // Opted out: a second booking is e-mailed, not sent on WhatsApp.
    await bookAndPay(parent, site.url, 'success', 1)
    await eventually(
      () => site.sink.messages.filter((mail) => mail.to.includes(PARENT.email) && /^Subject: Booking confirmed/m.test(mail.raw)).length,
      (count) => count === 2,
    )
    await fake.siteCaughtUp(`${site.url}/webhooks/whatsapp`)
    expect(templatesSent()).toHaveLength(4)

    // Opting in again from the account; a payment that fails is then told, with where to book again.
    expect((await parent.post('/account/data', { intent: 'whatsapp-on' })).location).toBe('/account/data#whatsapp')
    expect(text((await parent.get('/account/data')).html)).toMatch(/WhatsApp messages: on \(since /)
    await bookAndPay(parent, site.url, 'failure', 2)
    await eventually(templatesSent, (sent) => sent.length === 5)
    const failed = fake.sentTo(PARENT.e164)[4]!
    expect(failed.template).toBe('payment_failed')
    const again = failed.parameters.at(-1)!
    expect(again.startsWith(`${site.url}/book-slot?`)).toBe(true)
    expect((await parent.get(again.slice(site.url.length))).status).toBe(200)
    await fake.siteCaughtUp(`${site.url}/webhooks/whatsapp`)
    expect(templatesSent()).toHaveLength(5)

    // Staff see the parent's WhatsApp state and messages on the customer's page.
    const found = (await staff.get(`/admin/customers?${new URLSearchParams({ q: PARENT.email })}`)).html
    const customer = text((await staff.get(/href="(\/admin\/customers\/\d+)"/.exec(found)![1]!)).html)
    expect(customer).toMatch(/WhatsApp messages On since .*, through their account/)
    expect(customer).toContain('WhatsApp Payment failed')
    expect(customer).toContain('WhatsApp Booking confirmed')
  })
})
