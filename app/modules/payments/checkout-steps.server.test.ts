import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { config, setConfig } from '~/config.server'
import { db } from '~/db/client.server'
import { campRegistrations, camps, payments, promoCodes, promoCodeUses, whatsappConsents } from '~/db/schema'
import { labInstant } from '~/lib/lab-time'
import { holdSession } from '~/modules/booking/holds.server'
import { holdCampSeat } from '~/modules/camps/registrations.server'
import { HOLD_ATTEMPT_LIMITS, limitHoldAttempts } from '~/modules/holders/holders.server'
import { limitPromoAttempts, PROMO_ATTEMPT_LIMITS } from '~/modules/promotions/uses.server'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { bookingRow, createCustomers, setWindows } from '../../../tests/support/booking'
import { visitor } from '../../../tests/support/holders'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { WHATSAPP_TEST_SETTINGS } from '../../../tests/support/whatsapp-on'
import { checkout, storedQuote } from './checkout.server'

// The one checkout every page runs: its steps in one order (attempts, the WhatsApp box, the promo
// code, the confirmed quote, the payment), the first refusal ending it.

useTestDatabase()
const sandbox = useSandboxPayments()

let whatsappBefore: ReturnType<typeof config> | undefined
/** WhatsApp on for one test, the rest of the configuration (the sandbox's address) as it is. */
function turnWhatsAppOn() {
  whatsappBefore = config()
  setConfig({ ...config(), ...WHATSAPP_TEST_SETTINGS })
}
afterEach(() => {
  if (whatsappBefore) setConfig(whatsappBefore)
  whatsappBefore = undefined
})

beforeEach(async () => {
  await sandbox.ready()
  // Camps of August 2030 at ₹35,000 (the early-bird price), so that their seats can be held and paid in real time.
  await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp1'))
})

// Payments happen in real time (the sandbox runs on the clock), so sessions are far ahead.
const DATES = ['2030-03-04', '2030-03-05', '2030-03-06']
const SESSION_PRICE = 30_000_00
const PHONE = '+919845011111'

let networks = 0
const network = () => `198.51.100.${++networks % 250}`
const statusUrl = (orderId: string) => `${sandbox.url}/status?orderId=${orderId}`
const pay = { description: 'Checkout test', statusUrl }

async function heldBooking() {
  const [customer] = await createCustomers(1)
  await setWindows(DATES.map((date) => ({ date, capacity: 1 })))
  const held = await holdSession({ customer: customer!, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3 })
  return { payable: { kind: 'booking', id: held.bookingId } as const, email: customer!.email }
}

let guests = 0
async function heldCampSeat() {
  guests += 1
  const applicant = { swimmerName: `Checkout Child ${guests}`, email: `checkout${guests}@example.com`, phone: '9845012345', guardianDeclaration: true as const }
  const held = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant, holder: visitor({ network: network(), email: applicant.email }) })
  return { payable: { kind: 'camp', id: held.id } as const, email: applicant.email }
}

async function createCode(code: string, values: Partial<typeof promoCodes.$inferInsert> = {}) {
  await db().insert(promoCodes).values({ code, discountKind: 'percent', discountValue: 10_00, ...values })
}

const consents = () => db().select({ phone: whatsappConsents.phone, optedIn: whatsappConsents.optedIn, requestSource: whatsappConsents.requestSource }).from(whatsappConsents)
const codeUses = () => db().select({ state: promoCodeUses.state }).from(promoCodeUses)
const paymentsOf = (payable: { kind: 'booking' | 'camp'; id: number }) =>
  db()
    .select({ orderId: payments.orderId, amountPaise: payments.amountPaise, state: payments.state, gateway: payments.gateway })
    .from(payments)
    .where(payable.kind === 'booking' ? eq(payments.bookingId, payable.id) : eq(payments.campRegistrationId, payable.id))
const campStatus = async (id: number) => (await db().select({ status: campRegistrations.status }).from(campRegistrations).where(eq(campRegistrations.id, id)))[0]!.status

describe('the attempts of whoever pays', () => {
  it('past the limit, refuse first: nothing is asked on WhatsApp, no code is used, no payment is made and the order stays held', async () => {
    turnWhatsAppOn()
    await createCode('SWIM10')
    const { payable, email } = await heldBooking()
    const holder = { network: network(), email }
    const now = new Date()
    for (let attempt = 0; attempt < HOLD_ATTEMPT_LIMITS.perEmail.limit; attempt++) await limitHoldAttempts(holder, now)

    const result = await checkout({ payable, attempts: holder, whatsapp: { phone: PHONE, ticked: true, source: 'booking' }, promo: { code: 'SWIM10', network: holder.network, givesUpWhen: 'anything' }, pay, now })
    expect(result).toMatchObject({ step: 'attempts', gaveUp: false })
    expect('refused' in result && result.refused).toBeInstanceOf(RateLimitedError)
    expect(await consents()).toEqual([])
    expect(await codeUses()).toEqual([])
    expect(await paymentsOf(payable)).toEqual([])
    expect(await bookingRow(payable.id)).toMatchObject({ status: 'pending', amountPaise: SESSION_PRICE, promoDiscountPaise: 0 })
  })

  it('counts one attempt per checkout, against the e-mail address as holding does', async () => {
    const { payable } = await heldCampSeat()
    // Whoever pays from the summary's link: holding the seat counted against the address that held it.
    const holder = { network: network(), email: 'payer@example.com' }
    const now = new Date()
    for (let attempt = 1; attempt < HOLD_ATTEMPT_LIMITS.perEmail.limit; attempt++) await limitHoldAttempts(holder, now)
    expect(await checkout({ payable, attempts: holder, now })).toEqual({ toConfirm: true })
    expect(await checkout({ payable, attempts: holder, now })).toMatchObject({ step: 'attempts' })
  })

  it('counts none when the page leaves them out (holding the order counted them)', async () => {
    const { payable, email } = await heldCampSeat()
    const holder = { network: network(), email }
    const now = new Date()
    for (let attempt = 0; attempt < HOLD_ATTEMPT_LIMITS.perEmail.limit; attempt++) await checkout({ payable, now })
    await expect(limitHoldAttempts(holder, now)).resolves.toBeUndefined()
  })
})

describe('the WhatsApp box', () => {
  it('asks the number to confirm when it was ticked while WhatsApp is on, before the code and the payment', async () => {
    turnWhatsAppOn()
    await createCode('SWIM10')
    const { payable } = await heldBooking()
    const result = await checkout({ payable, whatsapp: { phone: '98450 11111', ticked: true, source: 'booking' }, promo: { code: 'swim10', network: network(), givesUpWhen: 'anything' }, pay })
    expect(result).toMatchObject({ paying: { redirectUrl: expect.stringMatching(/sandbox-gateway\/checkout/) } })
    expect(await consents()).toEqual([{ phone: PHONE, optedIn: false, requestSource: 'booking' }])
    expect(await paymentsOf(payable)).toMatchObject([{ amountPaise: 27_000_00, state: 'pending' }])
  })

  it('asks nothing when the box was not ticked, no number was typed, or WhatsApp is off', async () => {
    turnWhatsAppOn()
    const { payable } = await heldCampSeat()
    await checkout({ payable, whatsapp: { phone: PHONE, ticked: false, source: 'camp' } })
    await checkout({ payable, whatsapp: { phone: '', ticked: true, source: 'camp' } })
    setConfig(whatsappBefore!)
    await checkout({ payable, whatsapp: { phone: PHONE, ticked: true, source: 'camp' } })
    expect(await consents()).toEqual([])
  })
})

describe('the promo code', () => {
  it('refused: the booking is given up (its seat back), the refusal returned for the code’s field, nothing paid; the WhatsApp request before it stands', async () => {
    turnWhatsAppOn()
    await createCode('OFFNOW', { active: false })
    const { payable } = await heldBooking()
    const result = await checkout({ payable, whatsapp: { phone: PHONE, ticked: true, source: 'booking' }, promo: { code: 'OFFNOW', network: network(), givesUpWhen: 'anything' }, pay })
    expect(result).toMatchObject({ step: 'promo', gaveUp: true, refused: { field: 'promoCode', message: 'This promo code is not valid.' } })
    expect(await bookingRow(payable.id)).toMatchObject({ status: 'payment_failed', holdExpiresAt: null })
    expect(await paymentsOf(payable)).toEqual([])
    expect(await consents()).toHaveLength(1)
  })

  it('refused on a camp form: that seat is given up, the order that holds the code keeps it', async () => {
    await createCode('ONCE', { maxUses: 1 })
    const first = await heldCampSeat()
    expect(await checkout({ payable: first.payable, promo: { code: 'ONCE', network: network(), givesUpWhen: 'refused' } })).toEqual({ toConfirm: true })
    const second = await heldCampSeat()
    const result = await checkout({ payable: second.payable, promo: { code: 'ONCE', network: network(), givesUpWhen: 'refused' } })
    expect(result).toMatchObject({ step: 'promo', gaveUp: true, refused: { field: 'promoCode' } })
    expect(await campStatus(second.payable.id)).toBe('payment_failed')
    expect(await campStatus(first.payable.id)).toBe('pending')
    expect(await codeUses()).toEqual([{ state: 'held' }])
  })

  it('stopped by the limit of attempts at codes: /booking gives its order up, a camp form keeps its seat', async () => {
    await createCode('SWIM10')
    const from = network()
    const now = new Date()
    const booking = await heldBooking()
    const camp = await heldCampSeat()
    for (let attempt = 0; attempt < PROMO_ATTEMPT_LIMITS.perOrder.limit; attempt++) {
      await limitPromoAttempts({ network: from, order: { bookingId: booking.payable.id } }, now)
      await limitPromoAttempts({ network: from, order: { campRegistrationId: camp.payable.id } }, now)
    }
    expect(await checkout({ payable: booking.payable, promo: { code: 'SWIM10', network: from, givesUpWhen: 'anything' }, pay, now })).toMatchObject({ step: 'promo', gaveUp: true })
    expect((await bookingRow(booking.payable.id)).status).toBe('payment_failed')
    expect(await checkout({ payable: camp.payable, promo: { code: 'SWIM10', network: from, givesUpWhen: 'refused' }, now })).toMatchObject({ step: 'promo', gaveUp: false })
    expect(await campStatus(camp.payable.id)).toBe('pending')
  })

  it('on a camp form: quoted once the seat is held, and the customer confirms the summary before anything is paid', async () => {
    await createCode('TENOFF')
    const { payable } = await heldCampSeat()
    expect(await checkout({ payable, promo: { code: 'tenoff', network: network(), givesUpWhen: 'refused' } })).toEqual({ toConfirm: true })
    expect(await storedQuote(payable)).toMatchObject({ totalPaise: 31_500_00, promo: { code: 'TENOFF' } })
    expect(await paymentsOf(payable)).toEqual([])
    // Coming back with the same code (the line's page opened again) changes nothing and uses nothing more.
    expect(await checkout({ payable, promo: { code: 'TENOFF', network: network(), givesUpWhen: 'refused' } })).toEqual({ toConfirm: true })
    expect(await codeUses()).toEqual([{ state: 'held' }])
  })
})

describe('the quote the customer confirms', () => {
  it('pays only the total they were shown; a total that no longer stands returns the new quote and pays nothing', async () => {
    await createCode('TENOFF')
    const { payable } = await heldCampSeat()
    await checkout({ payable, promo: { code: 'TENOFF', network: network(), givesUpWhen: 'refused' } })
    expect(await checkout({ payable, pay: { ...pay, quotedTotalPaise: 35_000_00 } })).toMatchObject({ changed: { totalPaise: 31_500_00 }, refusal: null })
    expect(await paymentsOf(payable)).toEqual([])
    const paid = await checkout({ payable, pay: { ...pay, quotedTotalPaise: 31_500_00 } })
    expect(paid).toMatchObject({ paying: { redirectUrl: expect.stringMatching(/sandbox-gateway\/checkout/) } })
    expect(await paymentsOf(payable)).toMatchObject([{ amountPaise: 31_500_00 }])
  })
})

describe('the payment', () => {
  it('is started once: a second checkout resumes the payment already open', async () => {
    const { payable } = await heldBooking()
    const first = await checkout({ payable, pay })
    const second = await checkout({ payable, pay })
    expect('paying' in first && 'paying' in second && second.paying).toEqual('paying' in first && first.paying)
    expect(await paymentsOf(payable)).toHaveLength(1)
  })

  it('of an order the code made free is made at once, without the gateway: the customer goes to its status page', async () => {
    await createCode('FREEDAY', { discountKind: 'percent', discountValue: 100_00 })
    const { payable } = await heldBooking()
    const result = await checkout({ payable, promo: { code: 'FREEDAY', network: network(), givesUpWhen: 'anything' }, pay })
    const [payment] = await paymentsOf(payable)
    expect(payment).toMatchObject({ amountPaise: 0, state: 'completed', gateway: 'free' })
    expect(result).toEqual({ paying: { orderId: payment!.orderId, redirectUrl: statusUrl(payment!.orderId) } })
    expect((await bookingRow(payable.id)).status).toBe('confirmed')
  })
})
