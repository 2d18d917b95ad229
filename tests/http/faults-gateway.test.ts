import { describe, expect, it } from 'vitest'
import { holdSeat, usePhonePeSite } from '../support/phonepe-site'
import { mailCaughtUp, text } from '../support/visitor'

// The customer's side of a PhonePe that stops answering on Pay, with the site's real timeouts:
// the page answers with a clear message instead of hanging, and paying again works once PhonePe
// is back. The other gateway faults are followed through the booking engine in
// app/modules/payments/gateway-faults.server.test.ts.

const WEBHOOK = { username: 'lab-webhook', password: 'gateway-test-secret' }
const phonePe = usePhonePeSite(WEBHOOK)
const site = phonePe.site

describe('PhonePe too slow on Pay', () => {
  it('the customer is told within our timeout, not left waiting; paying again once PhonePe answers confirms the booking once', { timeout: 90_000 }, async () => {
    const email = 'slowpay@example.com'
    const customer = await site.customer('Slow Pay', email)
    const { paymentPath } = await holdSeat(customer, 0)

    // PhonePe takes the order but answers a minute later, which no visitor would wait for.
    phonePe.fake.delayResponses(60_000, { endpoint: 'pay' })
    const payCalls = phonePe.fake.requestCount('pay')
    const pressedAt = Date.now()
    const answer = await customer.post(paymentPath, { website_url: '' })
    const waitedMs = Date.now() - pressedAt
    // The answer came while PhonePe still held its answer to every try: the site gave up on each, none was waited out.
    expect(phonePe.fake.requestCount('pay') - payCalls).toBe(2)
    expect(phonePe.fake.answersHeldBack()).toBe(2)
    expect(answer.status).toBe(502)
    expect(text(answer.html)).toContain('Payment Error: Failed to create payment. Please try again.')
    expect(answer.html).not.toMatch(/timed out|PhonePe pay|node_modules/)

    phonePe.fake.clearFaults()
    const again = await customer.post(paymentPath, { website_url: '' })
    expect(again.location).toMatch(new RegExp(`^${phonePe.fake.url}/transact/`))
    const checkout = await customer.get(again.location!)
    const back = await customer.post(again.location!, { token: new URL(again.location!).searchParams.get('token')!, choice: 'pay' })
    expect(back.location).toMatch(/\/slot-payment-status\?orderId=SLOT_/)
    expect(text(checkout.html)).toContain('Test mode')
    expect(text((await customer.get(back.location!)).html)).toContain('Payment Successful!')
    await site.sink.waitForMailTo(email, /^Subject: Booking confirmed/m)
    // PhonePe's notifications have been answered, and every e-mail they led to has been sent.
    await phonePe.fake.settled()
    await mailCaughtUp(site.url, site.sink)
    expect(site.sink.messages.filter((mail) => mail.to.includes(email) && /^Subject: Booking confirmed/m.test(mail.raw))).toHaveLength(1)
    expect(text((await customer.get('/my-bookings')).html)).toContain('Confirmed')
    console.log(`slow PhonePe on Pay: the customer had a clear answer (HTTP 502, "Failed to create payment") after ${(waitedMs / 1000).toFixed(1)} s; paid and confirmed once on the next try`)
  })
})
