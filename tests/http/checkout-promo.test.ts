import { describe, expect, it } from 'vitest'
import { promoCodes } from '~/db/schema'
import { bookableDate, chooseSlot } from '../support/booking-flow'
import { decodeHtml, text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'
import { addFamily, FAMILY } from '../support/family-site'
import { paySummary } from '../support/camp-summary'

// Promo codes at the checkout, as a browser without JavaScript uses them: applied on the payment
// step, refused next to the field, removed, paid for at the discounted price, and a free order.

const site = useTestSite(
  {},
  {
    async prepare(db) {
      await addFamily(db)
      await db.insert(promoCodes).values([
        { code: 'SWIM10', discountKind: 'percent', discountValue: 10_00 },
        { code: 'CAMPS', discountKind: 'amount', discountValue: 500_00, products: ['camp'] },
        { code: 'ONUS', discountKind: 'percent', discountValue: 100_00, products: ['three_day'] },
        { code: 'SINGLE500', discountKind: 'amount', discountValue: 500_00, products: ['single'] },
        { code: 'ONCEONLY', discountKind: 'percent', discountValue: 20_00, maxUses: 1 },
        { code: 'CAMPFREE', discountKind: 'amount', discountValue: 100_000_00, products: ['camp'] },
      ])
    },
  },
)

/** Holds a 3-day session on /book-slot and opens its payment page. */
async function heldSession(visitor: Visitor, skip: number) {
  const slot = await chooseSlot(visitor, skip)
  const held = await visitor.post(slot.href, { date: slot.date, time: slot.time, website_url: '' })
  expect(held.location).toMatch(/^\/slot-payment\?booking=\d+$/)
  return held.location!
}

const promoError = (html: string) => decodeHtml(/<p id="promo-code-error"[^>]*>([^<]*)<\/p>/.exec(html)?.[1] ?? '')

describe('a promo code on the 3-day session’s payment page', () => {
  it('applies, shows the discount as its own line, is refused next to the field, and comes off again', async () => {
    const parent = await site.customer('Meera Iyer')
    const page = await heldSession(parent, 0)
    expect(text((await parent.get(page)).html)).toContain('Pay ₹30,000.00')

    const empty = await parent.post(page, { intent: 'apply-promo', promoCode: '  ', website_url: '' })
    expect(empty.status).toBe(400)
    expect(promoError(empty.html)).toBe('Please enter a promo code.')

    const wrong = await parent.post(page, { intent: 'apply-promo', promoCode: 'camps', website_url: '' })
    expect(wrong.status).toBe(400)
    expect(promoError(wrong.html)).toBe('This promo code is only for camps.')
    expect(wrong.html).toMatch(/<input[^>]*id="promo-code"[^>]*aria-invalid="true"[^>]*aria-describedby="promo-code-error"/)
    expect(decodeHtml(wrong.html)).toContain('value="camps"')
    expect(text(wrong.html)).toContain('Pay ₹30,000.00')

    const applied = await parent.post(page, { intent: 'apply-promo', promoCode: 'swim10', website_url: '' })
    expect(applied.location).toBe(page)
    const discounted = text((await parent.get(page)).html)
    for (const line of ['3-Day Biomechanical Analysis ₹30,000.00', 'Promo code SWIM10 −₹3,000.00', 'Total ₹27,000.00', 'Promo code SWIM10 applied: ₹3,000.00 off.', 'Pay ₹27,000.00']) expect(discounted).toContain(line)

    expect((await parent.post(page, { intent: 'remove-promo', website_url: '' })).location).toBe(page)
    const restored = text((await parent.get(page)).html)
    expect(restored).toContain('Pay ₹30,000.00')
    expect(restored).not.toContain('SWIM10')
  })

  it('is charged at the discounted price: the gateway asks for it, and the status page shows it', async () => {
    const parent = await site.customer('Kiran Das')
    const page = await heldSession(parent, 1)
    await parent.post(page, { intent: 'apply-promo', promoCode: 'SWIM10', website_url: '' })
    const pay = await parent.post(page, { website_url: '' })
    const checkout = await parent.get(pay.location!)
    expect(text(checkout.html)).toContain('₹27,000.00')
    const back = await parent.post(pay.location!, { outcome: 'success' })
    const status = text((await parent.get(back.location!)).html)
    expect(status).toContain('Payment Successful!')
    expect(status).toContain('Amount ₹27,000.00')
  })

  it('makes a free order when the code takes the whole price: confirmed without the gateway', async () => {
    const parent = await site.customer('Free Swimmer')
    const page = await heldSession(parent, 2)
    await parent.post(page, { intent: 'apply-promo', promoCode: 'ONUS', website_url: '' })
    const summary = text((await parent.get(page)).html)
    expect(summary).toContain('Total ₹0.00')
    expect(summary).toContain('Confirm Booking')
    const confirm = await parent.post(page, { website_url: '' })
    expect(confirm.location).toMatch(new RegExp(`^${site.url}/slot-payment-status\\?orderId=SLOT_`))
    const status = text((await parent.get(confirm.location!)).html)
    expect(status).toContain('Payment Successful!')
    expect(status).toContain('Amount ₹0.00')
    await site.sink.waitForMailTo('freeswimmer@example.com', /Booking confirmed/)
  })
})

/** /booking's step 1, filled in and sent: the visitor is on step 2. */
async function singleSessionDetails(visitor: Visitor, email: string, time: string) {
  const step1 = await visitor.post('/booking', { name: 'Guest Parent', email, phone: '', service: 'both', date: bookableDate(5), time, notes: '', intent: 'details', website_url: '' })
  expect(step1.location).toBe('/booking?step=2')
}

describe('a promo code on /booking’s payment step', () => {
  it('is checked and shown before any seat is held, then charged when the booking is paid', async () => {
    const guest = new Visitor(site.url)
    await singleSessionDetails(guest, 'guestparent@example.com', '12:00')
    const wrong = await guest.post('/booking?step=2', { intent: 'apply-promo', promoCode: 'ONUS', website_url: '' })
    expect(wrong.status).toBe(400)
    expect(promoError(wrong.html)).toBe('This promo code is only for 3-day analysis sessions.')
    expect(text(wrong.html)).toContain('Total ₹5,999.00')

    // A percentage off first, then an amount instead.
    expect((await guest.post('/booking?step=2', { intent: 'apply-promo', promoCode: 'swim10', website_url: '' })).location).toBe('/booking?step=2')
    const tenPercent = text((await guest.get('/booking?step=2')).html)
    expect(tenPercent).toContain('Promo code SWIM10 −₹599.90')
    expect(tenPercent).toContain('Total ₹5,399.10')
    expect((await guest.post('/booking?step=2', { intent: 'apply-promo', promoCode: 'single500', website_url: '' })).location).toBe('/booking?step=2')
    const summary = text((await guest.get('/booking?step=2')).html)
    for (const line of ['Race + Biomechanical Analysis Session ₹5,999.00', 'Promo code SINGLE500 −₹500.00', 'Total ₹5,499.00', 'Promo code SINGLE500 applied: ₹500.00 off.']) expect(summary).toContain(line)

    const pay = await guest.post('/booking?step=2', { intent: 'pay', website_url: '' })
    expect(text((await guest.get(pay.location!)).html)).toContain('₹5,499.00')
    const back = await guest.post(pay.location!, { outcome: 'success' })
    expect(text((await guest.get(back.location!)).html)).toContain('Booking Confirmed!')
  })

  it('says so, holds nothing and shows the full price when the code was used up between the summary and paying', async () => {
    const first = new Visitor(site.url)
    const second = new Visitor(site.url)
    await singleSessionDetails(first, 'firstparent@example.com', '13:00')
    await singleSessionDetails(second, 'secondparent@example.com', '14:00')
    await first.post('/booking?step=2', { intent: 'apply-promo', promoCode: 'ONCEONLY', website_url: '' })
    await second.post('/booking?step=2', { intent: 'apply-promo', promoCode: 'ONCEONLY', website_url: '' })
    expect(text((await second.get('/booking?step=2')).html)).toContain('Promo code ONCEONLY applied')

    const firstPay = await first.post('/booking?step=2', { intent: 'pay', website_url: '' })
    expect(firstPay.location).toMatch(/sandbox-gateway\/checkout/)
    const refused = await second.post('/booking?step=2', { intent: 'pay', website_url: '' })
    expect(refused.status).toBe(409)
    expect(promoError(refused.html)).toBe('Promo code ONCEONLY: This promo code has been used up: all its uses have been taken.')
    const again = text((await second.get('/booking?step=2')).html)
    expect(again).toContain('Total ₹5,999.00')
    expect(again).not.toContain('ONCEONLY')
    // Nothing was left held: the full-price booking goes through.
    const pay = await second.post('/booking?step=2', { intent: 'pay', website_url: '' })
    expect(pay.location).toMatch(/sandbox-gateway\/checkout/)
  })
})

/** The message next to a Conform field of the camp forms. */
function fieldError(html: string, name: string) {
  const input = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? ''
  const id = /aria-describedby="([^"]*)"/.exec(input)?.[1]?.split(' ').find((candidate) => candidate.endsWith('-error'))
  return id ? decodeHtml(new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1] ?? '') : null
}

describe('a promo code on the camp forms', () => {
  it('a guest’s code is checked before anything is held, and the gateway charges the fee less its discount', async () => {
    const guest = new Visitor(site.url)
    const form = { name: 'Ria Shah', email: 'ria.parent@example.com', phone_number: '98450 12121', guardianDeclaration: 'on', camp: 'camp2', batch: 'batch1', website_url: '', intent: 'register' }
    const wrong = await guest.post('/onboarding', { ...form, promoCode: 'SINGLE500' })
    expect(wrong.status).toBe(400)
    expect(fieldError(wrong.html, 'promoCode')).toBe('This promo code is only for single sessions.')
    const held = await guest.post('/onboarding', { ...form, promoCode: 'camps' })
    expect(held.status).toBe(302)
    const pay = await paySummary(guest, held.location!)
    expect(text((await guest.get(pay.location!)).html)).toContain('₹34,500.00')
    const back = await guest.post(pay.location!, { outcome: 'success' })
    const status = text((await guest.get(back.location!)).html)
    expect(status).toContain('Registration Complete!')
    expect(status).toContain('Promo code CAMPS −₹500.00')
    expect(status).toContain('Amount ₹34,500.00')
  })

  it('a code that covers the fee registers without the gateway, and staff have nothing to refund', async () => {
    const guest = new Visitor(site.url)
    const registered = await guest.post('/onboarding', { name: 'Zoya Free', email: 'zoya.parent@example.com', phone_number: '98450 34343', guardianDeclaration: 'on', camp: 'camp2', batch: 'batch2', website_url: '', intent: 'register', promoCode: 'CAMPFREE' })
    expect(registered.status).toBe(302)
    expect(text((await guest.get(registered.location!)).html)).toContain('Confirm Registration')
    const held = await paySummary(guest, registered.location!)
    expect(held.location).toMatch(new RegExp(`^${site.url}/payment-status\\?orderId=CAMP_`))
    const status = text((await guest.get(held.location!)).html)
    expect(status).toContain('Registration Complete!')
    expect(status).toContain('No payment was needed: the promo code covered the full price.')
    expect(status).toContain('Amount ₹0.00')
    const admin = await site.staff()
    const camp = text((await admin.get('/admin/camps/camp2')).html)
    const row = camp.slice(camp.indexOf('Zoya Free'), camp.indexOf('Zoya Free') + 600)
    expect(row).toContain('Promo code −₹35,000.00')
    expect(row).not.toMatch(/Refund ₹/)
  })

  it('a family’s code comes off the two swimmers’ payment once, shared between them', async () => {
    const parent = new Visitor(site.url)
    expect((await parent.post('/login', { email: FAMILY.email, password: FAMILY.password, website_url: '' })).status).toBe(302)
    const page = (await parent.get('/onboarding')).html
    const values = new URLSearchParams({ intent: 'register_swimmers', phone_number: FAMILY.phone, camp: 'camp1', batch: 'batch2', website_url: '', promoCode: 'NOSUCH' })
    for (const match of page.matchAll(/name="swimmers"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="swimmers"/g)) values.append('swimmers', match[1] ?? match[2]!)
    expect(values.getAll('swimmers')).toHaveLength(2)
    const wrong = await parent.post('/onboarding', values)
    expect(wrong.status).toBe(400)
    expect(fieldError(wrong.html, 'promoCode')).toBe('This promo code is not valid.')

    values.set('promoCode', 'CAMPS')
    const submitted = await parent.post('/onboarding', values)
    expect(submitted.status).toBe(302)
    const pay = await paySummary(parent, submitted.location!)
    expect(text((await parent.get(pay.location!)).html)).toContain('₹69,500.00')
    const back = await parent.post(pay.location!, { outcome: 'success' })
    const status = text((await parent.get(back.location!)).html)
    expect(status).toContain('₹69,500 payment completed successfully')
    expect(status).toContain('Promo code CAMPS −₹500.00')
    const mail = await site.sink.waitForMailTo(FAMILY.email, /Camp registration confirmed/)
    expect(mail.text).toMatch(/Promo code CAMPS\W+−₹500\.00/)
  })
})
