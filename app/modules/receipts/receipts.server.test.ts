import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { payments, receipts, refunds, siteSettings } from '~/db/schema'
import { holdSession } from '~/modules/booking/holds.server'
import { applyOrderStatus, startPayment } from '~/modules/payments/payments.server'
import { createCustomers, setWindows } from '../../../tests/support/booking'
import { pdfText } from '../../../tests/support/pdf-text'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { renderReceiptPdf } from './receipt-pdf.server'
import { mayDownloadReceipt, receiptOf } from './receipts.server'

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
