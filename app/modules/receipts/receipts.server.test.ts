import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookings, campRegistrations, camps, payments, promoCodes, promoCodeUses, receipts, refunds, siteSettings, swimmers } from '~/db/schema'
import { labInstant } from '~/lib/lab-time'
import { holdCampSeat } from '~/modules/camps/registrations.server'
import { holdFamilySeats } from '~/modules/camps/groups.server'
import { recordConsent } from '~/modules/swimmers/consent.server'
import { visitor } from '../../../tests/support/holders'
import { holdSession } from '~/modules/booking/holds.server'
import { applyOrderStatus, startPayment } from '~/modules/payments/payments.server'
import { createCustomers, setWindows } from '../../../tests/support/booking'
import { pdfText } from '../../../tests/support/pdf-text'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { renderReceiptPdf } from './receipt-pdf.server'
import { issueReceipt, mayDownloadReceipt, receiptOf } from './receipts.server'

useTestDatabase()
const sandbox = useSandboxPayments()
beforeEach(() => sandbox.ready())

const DATES = ['2030-03-04', '2030-03-05', '2030-03-06']

/** A paid 3-day booking; `paidAt` decides the receipt's financial year. */
async function paidBooking(customerIndex: number, paidAt = new Date(), start = '09:00') {
  const [customer] = await createCustomers(1, `payer${customerIndex}`)
  const held = await holdSession({ customer: customer!, productCode: 'biomechanical_package', date: DATES[0]!, start, days: 3 })
  const { orderId } = await startPayment({ payable: { kind: 'booking', id: held.bookingId }, description: 'Slot booking - test', statusUrl: (id) => `${sandbox.url}/x?orderId=${id}` })
  await applyOrderStatus(orderId, { state: 'completed', amountPaise: 30_000_00, transactionId: `T${customerIndex}`, paymentMode: 'UPI_QR' }, paidAt)
  return { customer: customer!, orderId, held }
}

const numberOf = async (orderId: string) => (await db().select({ number: receipts.number }).from(receipts).innerJoin(payments, eq(payments.id, receipts.paymentId)).where(eq(payments.orderId, orderId)))[0]?.number

describe('receipt numbers', () => {
  it('run in sequence within an Indian financial year, starting again on 1 April in Bangalore', async () => {
    await setWindows(DATES.map((date) => ({ date, start: '09:00', end: '18:00', capacity: 10 })))
    const lastMarch = new Date('2030-03-31T18:29:00Z') // 23:59 IST, 31 March 2030
    const firstApril = new Date('2030-03-31T18:31:00Z') // 00:01 IST, 1 April 2030 (still 31 March in UTC)
    const first = await paidBooking(1, lastMarch)
    const second = await paidBooking(2, lastMarch, '10:00')
    const third = await paidBooking(3, firstApril, '11:00')
    expect([await numberOf(first.orderId), await numberOf(second.orderId), await numberOf(third.orderId)]).toEqual(['SSL/29-30/000001', 'SSL/29-30/000002', 'SSL/30-31/000001'])
  })

  it(`never repeat or skip when many payments complete at once (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    await setWindows(DATES.map((date) => ({ date, start: '09:00', end: '18:00', capacity: 40 })))
    const paid = await Promise.all(Array.from({ length: 30 }, (_, index) => paidBooking(index + 10)))
    const numbers = (await Promise.all(paid.map((booking) => numberOf(booking.orderId)))).sort()
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, index) => expect.stringMatching(new RegExp(`/${String(index + 1).padStart(6, '0')}$`))))
    expect(new Set(numbers).size).toBe(30)
  })

  it('a payment that is reported completed twice gets one receipt', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const { orderId } = await paidBooking(40)
    await applyOrderStatus(orderId, { state: 'completed', amountPaise: 30_000_00, transactionId: 'T40', paymentMode: 'UPI_QR' })
    expect(await db().select().from(receipts)).toHaveLength(1)
  })
})

describe('the receipt', () => {
  it('names the lab, the customer, the session and the amount; with a GSTIN it is a tax invoice split into taxable value and GST', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    await db().update(siteSettings).set({ legalName: 'Example Swim Science LLP', postalAddress: 'PDCSE, Bangalore 560001', gstin: '29ABCDE1234F1Z5', gstRateBasisPoints: 1800 }).where(eq(siteSettings.id, 1))
    const { orderId, held } = await paidBooking(50)
    const receipt = await receiptOf(orderId)
    const text = (await pdfText(await renderReceiptPdf(receipt!.document))).lines.join('\n')
    for (const expected of ['Example Swim Science LLP', 'PDCSE, Bangalore 560001', '29ABCDE1234F1Z5', 'Tax Invoice', 'payer501', 'Swimmer: payer50 1', held.reference, '3-Day Biomechanical Analysis', 'Monday, 4 March 2030, 9:00 AM - 10:00 AM', '₹30,000.00', '₹25,423.73', '₹2,288.14', '₹2,288.13', orderId, 'UPI']) {
      expect(text).toContain(expected)
    }
  })

  it('without a GSTIN is a plain receipt with no tax lines, and says Refunded once the money went back', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const { orderId } = await paidBooking(51)
    const [payment] = await db().select({ id: payments.id }).from(payments).where(eq(payments.orderId, orderId))
    await db().insert(refunds).values({ refundId: 'RFND_1', paymentId: payment!.id, amountPaise: 30_000_00, reason: 'test', state: 'completed' })
    const receipt = await receiptOf(orderId)
    const text = (await pdfText(await renderReceiptPdf(receipt!.document))).lines.join('\n')
    expect(text).toContain('Receipt')
    expect(text).not.toContain('Tax Invoice')
    expect(text).not.toMatch(/CGST|SGST|Taxable/)
    expect(text).toContain('Refunded')
  })

  it('may be downloaded by its customer, an account verified for its address, and staff; by no one else', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const { orderId, customer } = await paidBooking(52)
    const { owner } = (await receiptOf(orderId))!
    expect(mayDownloadReceipt(owner, { id: customer.userId!, email: customer.email, isAdmin: false })).toBe(true)
    expect(mayDownloadReceipt(owner, { id: 99_999, email: 'someone@example.com', isAdmin: false })).toBe(false)
    expect(mayDownloadReceipt(owner, { id: 99_998, email: 'staff@lab.example', isAdmin: true })).toBe(true)
    expect(mayDownloadReceipt(owner, null)).toBe(false)
    expect(mayDownloadReceipt({ userId: null, email: 'guest@example.com' }, { id: 5, email: 'Guest@Example.com', isAdmin: false })).toBe(true)
  })
})

async function promoCode(code: string) {
  const [row] = await db().insert(promoCodes).values({ code, discountKind: 'percent', discountValue: 1000 }).returning({ id: promoCodes.id })
  return row!.id
}

describe('discounts on the receipt', () => {
  it('show each line’s price, then each discount as its own line, then what was charged; the total is what was paid', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    await db().update(siteSettings).set({ gstin: '29ABCDE1234F1Z5', gstRateBasisPoints: 1800 }).where(eq(siteSettings.id, 1))
    const { orderId, held, customer } = await paidBooking(60)
    // ₹33,333.33 less SUMMER10's ₹3,333.33: ₹30,000 charged and paid.
    await db().update(bookings).set({ promoDiscountPaise: 3_333_33 }).where(eq(bookings.id, held.bookingId))
    await db().insert(promoCodeUses).values({ promoCodeId: await promoCode('SUMMER10'), bookingId: held.bookingId, customerKey: `account:${customer.userId}`, discountPaise: 3_333_33, state: 'used' })

    const receipt = (await receiptOf(orderId))!
    expect(receipt.document.lines).toEqual([expect.objectContaining({ amountPaise: 30_000_00, discounts: [{ label: 'Promo code SUMMER10', amountPaise: 3_333_33 }] })])
    const lines = (await pdfText(await renderReceiptPdf(receipt.document))).lines
    const at = lines.indexOf('3-Day Biomechanical Analysis ₹33,333.33')
    expect(at, lines.join('\n')).toBeGreaterThanOrEqual(0)
    expect(lines.slice(at)).toEqual(expect.arrayContaining(['Promo code SUMMER10 −₹3,333.33', 'Amount ₹30,000.00']))
    expect(lines.indexOf('Promo code SUMMER10 −₹3,333.33')).toBeLessThan(lines.indexOf('Amount ₹30,000.00'))
    // GST is on what was paid.
    expect(lines).toEqual(expect.arrayContaining(['Taxable value ₹25,423.73', 'Amount paid ₹30,000.00']))
  })

  it('a camp registration at the sibling price, with a promo code of the family too, shows both', async () => {
    await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp1'))
    const held = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: { swimmerName: 'Second Child', email: 'sibling@example.com', phone: '9845012345' } })
    await db().update(campRegistrations).set({ amountPaise: 30_000_00, siblingDiscountPaise: 3_500_00, promoDiscountPaise: 1_500_00 }).where(eq(campRegistrations.id, held.id))
    await db().insert(promoCodeUses).values({ promoCodeId: await promoCode('FAMILY5'), campRegistrationId: held.id, customerKey: 'email:sibling@example.com', discountPaise: 1_500_00, state: 'used' })
    const { orderId } = await startPayment({ payable: { kind: 'camp', id: held.id }, description: 'Camp Registration', statusUrl: (id) => `${sandbox.url}/payment-status?orderId=${id}` })
    await applyOrderStatus(orderId, { state: 'completed', amountPaise: 30_000_00, transactionId: 'TSIB', paymentMode: 'CARD' })

    const lines = (await pdfText(await renderReceiptPdf((await receiptOf(orderId))!.document))).lines
    expect(lines).toEqual(expect.arrayContaining(['Camp 1 swimming camp ₹35,000.00', 'Sibling price −₹3,500.00', 'Promo code FAMILY5 −₹1,500.00', 'Amount ₹30,000.00', 'Amount paid ₹30,000.00']))
  })
})

describe('a camp receipt', () => {
  beforeEach(async () => {
    await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp1'))
  })

  it('for two children of an account is billed to the parent who paid, with a line for each child', async () => {
    const [parent] = await createCustomers(1, 'camp-payer')
    const children: number[] = []
    for (const [name, age] of [['Tara Payer', 12], ['Ishan Payer', 9]] as const) {
      const [child] = await db()
        .insert(swimmers)
        .values({ accountId: parent!.userId!, name, ageYears: age, ageGivenOn: '2026-01-01', gender: 'female', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' })
        .returning()
      await recordConsent(db(), { swimmerId: child!.id, guardianName: parent!.name, guardianEmail: parent!.email, emailVerifiedBy: 'account_code', method: 'registration_form', now: new Date() })
      children.push(child!.id)
    }
    const held = await holdFamilySeats({ accountId: parent!.userId!, swimmerIds: children, campCode: 'camp1', batchCode: 'batch1', contact: { email: parent!.email, phone: '9845012345' }, holder: visitor({ userId: parent!.userId, email: parent!.email }) })
    const { orderId } = await startPayment({ payable: { kind: 'camp', id: held.leadId }, description: 'Camp Registration', statusUrl: (id) => `${sandbox.url}/payment-status?orderId=${id}` })
    await applyOrderStatus(orderId, { state: 'completed', amountPaise: 70_000_00, transactionId: 'TFAM', paymentMode: 'UPI_QR' })

    const lines = (await pdfText(await renderReceiptPdf((await receiptOf(orderId))!.document))).lines
    const billed = lines.indexOf('BILLED TO')
    expect(lines.slice(billed + 1, billed + 3)).toEqual([parent!.name, parent!.email])
    expect(lines.filter((line) => line.startsWith('Swimmer: '))).toEqual(['Swimmer: Tara Payer', 'Swimmer: Ishan Payer'])
    expect(lines.filter((line) => line === 'Camp 1 swimming camp ₹35,000.00')).toHaveLength(2)
    expect(lines).toContain('Amount paid ₹70,000.00')
  })

  it('of a guest is billed to the e-mail address that paid, the swimmer on the line', async () => {
    const held = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: { swimmerName: 'Guest Child', email: 'guest.payer@example.com', phone: '9845012345' } })
    const { orderId } = await startPayment({ payable: { kind: 'camp', id: held.id }, description: 'Camp Registration', statusUrl: (id) => `${sandbox.url}/payment-status?orderId=${id}` })
    await applyOrderStatus(orderId, { state: 'completed', amountPaise: 35_000_00, transactionId: 'TGUEST', paymentMode: 'UPI_QR' })

    const lines = (await pdfText(await renderReceiptPdf((await receiptOf(orderId))!.document))).lines
    const billed = lines.indexOf('BILLED TO')
    expect(lines[billed + 1]).toBe('guest.payer@example.com')
    expect(lines.slice(billed + 1, billed + 4)).not.toContain('Guest Child')
    expect(lines).toContain('Swimmer: Guest Child')
  })
})

describe('a free order', () => {
  it('gets a receipt saying no payment was needed and which promo code covered the price, with nothing taxed', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    await db().update(siteSettings).set({ gstin: '29ABCDE1234F1Z5', gstRateBasisPoints: 1800 }).where(eq(siteSettings.id, 1))
    const [customer] = await createCustomers(1, 'freebie')
    const held = await holdSession({ customer: customer!, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3 })
    await db().update(bookings).set({ amountPaise: 0, promoDiscountPaise: 30_000_00, status: 'confirmed' }).where(eq(bookings.id, held.bookingId))
    await db().insert(promoCodeUses).values({ promoCodeId: await promoCode('ALLFREE'), bookingId: held.bookingId, customerKey: `account:${customer!.userId}`, discountPaise: 30_000_00, state: 'used' })
    const now = new Date('2030-02-01T06:30:00Z')
    await db().transaction(async (tx) => {
      const [payment] = await tx.insert(payments).values({ orderId: 'FREE_1', bookingId: held.bookingId, gateway: 'free', amountPaise: 0, state: 'completed', expiresAt: now, completedAt: now, createdAt: now, updatedAt: now }).returning({ id: payments.id })
      await issueReceipt(tx, payment!.id, now)
    })

    const receipt = (await receiptOf('FREE_1'))!
    expect(receipt.document.free).toEqual({ promoCode: 'ALLFREE' })
    expect(receipt.document.status).toBe('paid')
    const text = (await pdfText(await renderReceiptPdf(receipt.document))).lines.join('\n')
    expect(text).toContain('No payment was needed: promo code ALLFREE covered the full price.')
    expect(text).toContain('3-Day Biomechanical Analysis ₹30,000.00')
    expect(text).toContain('Promo code ALLFREE −₹30,000.00')
    expect(text).toContain('Amount paid ₹0.00')
    expect(text).not.toContain('Refunded')
    expect(text).not.toContain('Method')
    for (const tax of text.split('\n').filter((line) => /^(Taxable value|CGST|SGST)/.test(line))) expect(tax).toMatch(/₹0\.00$/)
  })
})
