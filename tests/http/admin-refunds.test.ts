import { describe, expect, it } from 'vitest'
import { holdAndPay, usePhonePeSite } from '../support/phonepe-site'
import { fieldState, mailCaughtUp, text } from '../support/visitor'

// A refund PhonePe fails leaves a customer owed money that the website cannot return by itself:
// staff see it on the overview, repay the customer themselves and mark it repaid there, without
// JavaScript, which settles the booking and tells the customer.

const WEBHOOK = { username: 'lab-webhook', password: 'gateway-test-secret' }

const phonePe = usePhonePeSite(WEBHOOK)
const site = phonePe.site

const FAILED_HEADING = 'Refunds that failed: repay these customers by hand, then mark each as repaid'

describe('a refund PhonePe failed', () => {
  it('staff mark it repaid by hand on the overview: the booking is refunded and the customer told, once', { timeout: 90_000 }, async () => {
    const email = 'owedmoney@example.com'
    const customer = await site.customer('Owed Money', email)
    const { checkoutUrl } = await holdAndPay(customer, phonePe.fake, 0)
    const back = await customer.post(checkoutUrl, { token: new URL(checkoutUrl).searchParams.get('token')!, choice: 'pay' })
    expect(text((await customer.get(back.location!)).html)).toContain('Payment Successful!')
    const reference = /Booking ID (SWP-\d{10})/.exec(text((await customer.get('/my-bookings')).html))![1]!

    const staff = await site.staff()
    expect((await staff.post(`/admin/bookings/${reference}`, { intent: 'cancel', refund: 'yes', confirm: 'yes' })).status).toBe(302)
    const refundId = /RFND_[A-Za-z0-9_-]+/.exec((await staff.get(`/admin/bookings/${reference}`)).html)![0]
    await expect.poll(() => phonePe.fake.refund(refundId), { timeout: 20_000 }).toBeDefined()
    phonePe.fake.failRefund(refundId)
    await expect.poll(async () => text((await staff.get('/admin')).html), { timeout: 30_000 }).toContain(FAILED_HEADING)
    expect(text((await customer.get('/my-bookings')).html)).toContain('Cancelled')
    // The form posts to the overview's own action, with or without JavaScript.
    expect((await staff.get('/admin')).html).toMatch(/<form[^>]*action="\/admin\?index" method="post"/)

    // Customers cannot settle anything.
    expect((await customer.post('/admin?index', { refundId, how: 'Bank transfer' })).status).toBe(403)

    const empty = await staff.post('/admin?index', { refundId, how: '  ' })
    expect(empty.status).toBe(400)
    expect(fieldState(empty.html, 'how')).toEqual({ invalid: true, message: 'Say how the customer was repaid' })
    expect(text(empty.html)).toContain(`How was the customer for ${reference} repaid?`)

    const settled = await staff.post('/admin?index', { refundId, how: 'Bank transfer, UTR 1234567890' })
    expect(settled.location).toBe('/admin')
    const overview = text((await staff.get('/admin')).html)
    expect(overview).toContain('Refund marked as repaid')
    expect(overview).not.toContain(FAILED_HEADING)
    const told = await site.sink.waitForMailTo(email, /^Subject: Refund completed/m)
    expect(told.text).toContain('our team has repaid you directly')
    expect(text((await customer.get('/my-bookings')).html)).toContain('Refunded')
    expect(text((await staff.get(`/admin/bookings/${reference}`)).html)).toContain('repaid by hand (Bank transfer, UTR 1234567890)')
    expect(text((await staff.get('/admin/audit')).html)).toContain('by hand: Bank transfer, UTR 1234567890')

    // Pressed again from an old tab: refused, and the customer hears nothing more.
    const again = await staff.post('/admin?index', { refundId, how: 'Bank transfer, UTR 1234567890' })
    expect(again.location).toBe('/admin')
    expect(text((await staff.get('/admin')).html)).toContain('This refund is no longer waiting to be repaid by hand.')
    await mailCaughtUp(site.url, site.sink)
    expect(site.sink.messages.filter((mail) => mail.to.includes(email) && /^Subject: Refund completed/m.test(mail.raw))).toHaveLength(1)
  })
})
