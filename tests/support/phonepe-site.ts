import { afterAll, beforeAll, expect } from 'vitest'
import { chooseSlot } from './booking-flow'
import { startFakePhonePe, type FakePhonePe, type WebhookCredentials } from './fake-phonepe'
import { useTestSite } from './site'
import type { Visitor } from './visitor'

/** The environment that points the site at the fake PhonePe, with these webhook credentials. */
export function phonePeSiteEnv(fake: FakePhonePe, webhook: WebhookCredentials) {
  return {
    PAYMENT_GATEWAY: 'phonepe',
    PHONEPE_CLIENT_ID: fake.credentials.clientId,
    PHONEPE_CLIENT_SECRET: fake.credentials.clientSecret,
    PHONEPE_CLIENT_VERSION: String(fake.credentials.clientVersion),
    PHONEPE_WEBHOOK_USERNAME: webhook.username,
    PHONEPE_WEBHOOK_PASSWORD: webhook.password,
    PHONEPE_AUTH_BASE_URL: fake.authBaseUrl,
    PHONEPE_PG_BASE_URL: fake.pgBaseUrl,
    PHONEPE_CHECKOUT_ORIGINS: fake.url,
  }
}

/**
 * The test site paying through a fake PhonePe, started before it and stopped after it, which sends
 * its webhooks to the site with these credentials.
 */
export function usePhonePeSite(webhook: WebhookCredentials) {
  let fake: FakePhonePe | undefined
  beforeAll(async () => {
    fake = await startFakePhonePe()
  })
  afterAll(async () => {
    await fake?.close()
  })
  const started = () => {
    if (!fake) throw new Error('The fake PhonePe starts before the tests (beforeAll)')
    return fake
  }
  const site = useTestSite(() => phonePeSiteEnv(started(), webhook))
  beforeAll(() => {
    started().sendWebhooksTo(`${site.url}/api/payments/webhook/phonepe`, webhook)
  })
  return {
    site,
    get fake() {
      return started()
    },
  }
}

export type Slot = Awaited<ReturnType<typeof chooseSlot>>

/** Holds a seat on /book-slot (the `choice`-th open slot, or the slot given) without paying yet. */
export async function holdSeat(visitor: Visitor, choice: number | Slot) {
  const slot = typeof choice === 'number' ? await chooseSlot(visitor, choice, { daysAhead: 2 }) : choice
  const held = await visitor.post(slot.href, { date: slot.date, time: slot.time, website_url: '' })
  expect(held.location, 'a seat is held').toMatch(/^\/slot-payment\?booking=\d+$/)
  return { slot, paymentPath: held.location!, bookingId: Number(new URLSearchParams(held.location!.split('?')[1]).get('booking')) }
}

/** Holds a seat and presses Pay; PhonePe's checkout page names the order. */
export async function holdAndPay(visitor: Visitor, fake: FakePhonePe, choice: number | Slot) {
  const seat = await holdSeat(visitor, choice)
  const pay = await visitor.post(seat.paymentPath, { website_url: '' })
  expect(pay.location, 'sent to PhonePe').toMatch(new RegExp(`^${fake.url}/transact/`))
  const checkout = await visitor.get(pay.location!)
  const orderId = /<dt>Order<\/dt><dd>([A-Za-z0-9_-]+)<\/dd>/.exec(checkout.html)?.[1]
  expect(orderId).toMatch(/^SLOT_/)
  return { ...seat, checkoutUrl: pay.location!, orderId: orderId! }
}
