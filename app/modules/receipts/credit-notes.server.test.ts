import { asc, eq } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { camps, creditNotes, payments, receipts, refunds, siteSettings, swimmers } from '~/db/schema'
import { labInstant } from '~/lib/lab-time'
import { splitGst } from '~/lib/money'
import { holdSession } from '~/modules/booking/holds.server'
import { holdFamilySeats } from '~/modules/camps/groups.server'
import { cancelRegistration } from '~/modules/camps/staff-registrations.server'
import { applyOrderStatus, startPayment } from '~/modules/payments/payments.server'
import { applyRefundStatus, requestRefund, settleFailedRefund } from '~/modules/payments/refunds.server'
import { buildDataExport } from '~/modules/privacy/export.server'
import { recordConsent } from '~/modules/swimmers/consent.server'
import { createCustomers, createStaff, mailTo, setWindows } from '../../../tests/support/booking'
import { visitor } from '../../../tests/support/holders'
import { pdfText } from '../../../tests/support/pdf-text'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { renderCreditNotePdf } from './credit-note-pdf.server'
import { creditNoteOf, creditNotesOfBookings, creditNotesOfRegistrations, issueCreditNote } from './credit-notes.server'

useTestDatabase()
const sandbox = useSandboxPayments()
beforeEach(() => sandbox.ready())

const DATES = ['2030-03-04', '2030-03-05', '2030-03-06']
const PAID_AT = new Date('2030-02-01T06:30:00Z') // noon in Bangalore, 1 February 2030

let customers = 0

/** A paid 3-day booking (₹30,000), its receipt issued on 1 February 2030. */
async function paidBooking(start = '09:00') {
  customers += 1
  const [customer] = await createCustomers(1, `refunded${customers}-`)
  const held = await holdSession({ customer: customer!, productCode: 'biomechanical_package', date: DATES[0]!, start, days: 3 })
  const { orderId } = await startPayment({ payable: { kind: 'booking', id: held.bookingId }, description: 'Slot booking - test', statusUrl: (id) => `${sandbox.url}/x?orderId=${id}` })
  await applyOrderStatus(orderId, { state: 'completed', amountPaise: 30_000_00, transactionId: `T${customers}`, paymentMode: 'UPI_QR' }, PAID_AT)
  const [payment] = await db().select({ id: payments.id }).from(payments).where(eq(payments.orderId, orderId))
  return { customer: customer!, orderId, paymentId: payment!.id, held }
}

/** Staff refund part (or all) of a payment, and the gateway completes it at `at`. */
async function refunded(paymentId: number, amountPaise: number, at: Date, reason = 'Cancelled by the lab: pool closed for repairs') {
  const refundId = await db().transaction((tx) => requestRefund(tx, { paymentId, amountPaise, reason, now: at }))
  expect(await applyRefundStatus(refundId, { state: 'completed', gatewayRefundId: `G-${refundId}`, amountPaise }, at)).toBe('applied')
  return refundId
}

const numberOf = async (refundId: string) => (await creditNoteOf(refundId))?.document.number

async function withGstin() {
  await db().update(siteSettings).set({ legalName: 'Example Swim Science LLP', postalAddress: 'PDCSE, Bangalore 560001', gstin: '29ABCDE1234F1Z5', gstRateBasisPoints: 1800 }).where(eq(siteSettings.id, 1))
}

describe('credit note numbers', () => {
  it('run in their own series within the financial year, starting again on 1 April in Bangalore', async () => {
    await setWindows(DATES.map((date) => ({ date, start: '09:00', end: '18:00', capacity: 10 })))
    const lastMarch = labInstant('2030-03-31', '23:59')
    const firstApril = labInstant('2030-04-01', '00:01')
    const [a, b, c] = [await paidBooking('09:00'), await paidBooking('10:00'), await paidBooking('11:00')]
    const first = await refunded(a.paymentId, 30_000_00, lastMarch)
    const second = await refunded(b.paymentId, 10_000_00, lastMarch)
    const third = await refunded(c.paymentId, 30_000_00, firstApril)
    expect([await numberOf(first), await numberOf(second), await numberOf(third)]).toEqual(['SSL/CN29-30/0001', 'SSL/CN29-30/0002', 'SSL/CN30-31/0001'])
    // Receipts keep their own series: the three payments were receipts 1 to 3 of 2029-30.
    expect((await db().select({ number: receipts.number }).from(receipts).orderBy(asc(receipts.id))).map((row) => row.number)).toEqual(['SSL/29-30/000001', 'SSL/29-30/000002', 'SSL/29-30/000003'])
  })

  it(`never repeat or skip when many refunds complete at once (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    await setWindows(DATES.map((date) => ({ date, start: '09:00', end: '18:00', capacity: 20 })))
    const paid = []
    for (let index = 0; index < 12; index++) paid.push(await paidBooking())
    const at = labInstant('2030-03-10', '12:00')
    const refundIds = await Promise.all(paid.map((booking) => db().transaction((tx) => requestRefund(tx, { paymentId: booking.paymentId, amountPaise: 30_000_00, reason: 'Cancelled', now: at }))))
    await Promise.all(refundIds.map((refundId) => applyRefundStatus(refundId, { state: 'completed', gatewayRefundId: null, amountPaise: 30_000_00 }, at)))
    const numbers = (await Promise.all(refundIds.map(numberOf))).sort()
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, index) => `SSL/CN29-30/${String(index + 1).padStart(4, '0')}`))
  })

  it('a refund reported completed again, or credited again, gets no second credit note', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const { paymentId } = await paidBooking()
    const at = labInstant('2030-03-10', '12:00')
    const refundId = await refunded(paymentId, 30_000_00, at)
    expect(await applyRefundStatus(refundId, { state: 'completed', gatewayRefundId: 'again', amountPaise: 30_000_00 }, at)).toBe('unchanged')
    const [refund] = await db().select({ id: refunds.id }).from(refunds).where(eq(refunds.refundId, refundId))
    expect(await db().transaction((tx) => issueCreditNote(tx, refund!.id, at))).toBeNull()
    expect(await db().select({ number: creditNotes.number }).from(creditNotes)).toEqual([{ number: 'SSL/CN29-30/0001' }])
  })
})

describe('a credit note', () => {
  it('for a partial refund under a GSTIN reverses the GST on that amount, against the receipt, and goes with the "Refund completed" e-mail', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    await withGstin()
    const { paymentId, customer, held } = await paidBooking()
    const refundId = await refunded(paymentId, 15_000_00, labInstant('2030-03-02', '10:00'), 'Day 3 cancelled by the lab')

    expect(splitGst(15_000_00, 1800)).toEqual({ taxablePaise: 12_711_86, cgstPaise: 1_144_07, sgstPaise: 1_144_07 })
    const [row] = await db().select().from(creditNotes)
    expect(row).toMatchObject({ amountPaise: 15_000_00, gstin: '29ABCDE1234F1Z5', gstRateBasisPoints: 1800, taxablePaise: 12_711_86, cgstPaise: 1_144_07, sgstPaise: 1_144_07, igstPaise: 0, reason: 'Day 3 cancelled by the lab' })

    const note = (await creditNoteOf(refundId))!
    const text = (await pdfText(await renderCreditNotePdf(note.document))).lines.join('\n')
    for (const expected of [
      'Example Swim Science LLP',
      'GSTIN: 29ABCDE1234F1Z5',
      'Credit Note',
      'SSL/CN29-30/0001',
      '2 March 2030',
      'Against receipt SSL/29-30/000001 dated 1 February 2030',
      customer.name,
      '3-Day Biomechanical Analysis',
      `Booking ID: ${held.reference}`,
      'Taxable value ₹12,711.86',
      'CGST @ 9% ₹1,144.07',
      'SGST @ 9% ₹1,144.07',
      'Amount refunded ₹15,000.00',
      'Day 3 cancelled by the lab',
      refundId,
    ]) {
      expect(text).toContain(expected)
    }
    expect(text).not.toContain('IGST')

    const mail = (await mailTo(customer.email)).find((email) => email.subject.startsWith('Refund completed'))!
    expect(mail.attachments.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([['credit-note-SSL-CN29-30-0001.pdf', 'application/pdf']])
    expect((await pdfText(Buffer.from(mail.attachments[0]!.contentBase64, 'base64'))).lines).toContain('Against receipt SSL/29-30/000001 dated 1 February 2030')
    expect(await creditNotesOfBookings([held.bookingId])).toEqual(new Map([[held.bookingId, [{ refundId, number: 'SSL/CN29-30/0001', issuedAt: labInstant('2030-03-02', '10:00'), amountPaise: 15_000_00 }]]]))
  })

  it('without a GSTIN is a plain refund note with no tax lines, also when staff repaid the customer by hand', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const { paymentId, customer } = await paidBooking()
    const at = labInstant('2030-03-03', '09:00')
    const refundId = await db().transaction((tx) => requestRefund(tx, { paymentId, amountPaise: 30_000_00, reason: 'Cancelled by the customer', now: at }))
    await applyRefundStatus(refundId, { state: 'failed', gatewayRefundId: null, amountPaise: 30_000_00 }, at)
    expect(await db().select().from(creditNotes)).toEqual([])
    const staff = await createStaff()
    await settleFailedRefund({ refundId, how: 'Bank transfer, UTR 42', actor: { id: staff.id, email: staff.email }, now: at })

    const [row] = await db().select().from(creditNotes)
    expect(row).toMatchObject({ amountPaise: 30_000_00, gstin: '', gstRateBasisPoints: null, taxablePaise: 30_000_00, cgstPaise: 0, sgstPaise: 0 })
    const text = (await pdfText(await renderCreditNotePdf((await creditNoteOf(refundId))!.document))).lines.join('\n')
    expect(text).toContain('Refund Note')
    expect(text).toContain('Refund Note No.')
    expect(text).not.toMatch(/Credit Note|GST|Taxable/)
    expect(text).toContain('Amount refunded ₹30,000.00')
    expect(text).toContain('by hand: Bank transfer, UTR 42')
    const mail = (await mailTo(customer.email)).find((email) => email.subject.startsWith('Refund completed'))!
    expect(mail.attachments.map((attachment) => attachment.filename)).toEqual(['credit-note-SSL-CN29-30-0001.pdf'])
  })
})

describe('the account’s data export', () => {
  it('carries each credit note with the receipts, and its number with the refund', async () => {
    await setWindows(DATES.map((date) => ({ date })))
    const { paymentId, customer } = await paidBooking()
    const refundId = await refunded(paymentId, 12_000_00, labInstant('2030-03-02', '10:00'))
    const files = unzipSync((await buildDataExport(customer.userId!))!)
    expect(Object.keys(files).filter((name) => name.startsWith('receipts/')).sort()).toEqual(['receipts/credit-note-SSL-CN29-30-0001.pdf', 'receipts/receipt-SSL-29-30-000001.pdf'])
    expect((await pdfText(files['receipts/credit-note-SSL-CN29-30-0001.pdf']!)).lines).toContain('Amount refunded ₹12,000.00')
    expect(JSON.parse(strFromU8(files['data.json']!)).refunds).toEqual([expect.objectContaining({ refundId, amountPaise: 12_000_00, creditNoteNumber: 'SSL/CN29-30/0001' })])
  })
})

describe('one swimmer refunded from a family’s camp payment', () => {
  it('gets a credit note of that swimmer’s fee, naming that swimmer, listed with their registration only', async () => {
    await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp1'))
    await withGstin()
    const [parent] = await createCustomers(1, 'family-')
    const [child] = await db()
      .insert(swimmers)
      .values({ accountId: parent!.userId!, name: 'Asha Family', ageYears: 10, ageGivenOn: '2026-01-01', gender: 'female', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' })
      .returning()
    await recordConsent(db(), { swimmerId: child!.id, guardianName: parent!.name, guardianEmail: parent!.email, emailVerifiedBy: 'account_code', method: 'registration_form', now: new Date() })
    const held = await holdFamilySeats({
      accountId: parent!.userId!,
      swimmerIds: [parent!.swimmerId!, child!.id],
      campCode: 'camp1',
      batchCode: 'batch1',
      contact: { email: parent!.email, phone: '9845012345' },
      holder: visitor({ userId: parent!.userId, email: parent!.email }),
    })
    const { orderId } = await startPayment({ payable: { kind: 'camp', id: held.leadId }, description: 'Camp Registration', statusUrl: (id) => `${sandbox.url}/payment-status?orderId=${id}` })
    await applyOrderStatus(orderId, { state: 'completed', amountPaise: 70_000_00, transactionId: 'TCAMP', paymentMode: 'CARD' }, PAID_AT)
    const [lead, second] = held.registrations
    const staff = await createStaff()
    await cancelRegistration({ id: staff.id, email: staff.email }, { campCode: 'camp1', reference: second!.reference, refund: true })
    const [refund] = await db().select({ refundId: refunds.refundId }).from(refunds)
    await applyRefundStatus(refund!.refundId, { state: 'completed', gatewayRefundId: null, amountPaise: 35_000_00 }, labInstant('2030-03-05', '15:00'))

    const note = (await creditNoteOf(refund!.refundId))!
    expect(note.document.lines).toHaveLength(1)
    expect(note.document.lines[0]!.detail).toContain('Swimmer: Asha Family')
    expect(note.document.tax).toEqual({ rateBasisPoints: 1800, ...splitGst(35_000_00, 1800), igstPaise: 0, interState: false })
    const text = (await pdfText(await renderCreditNotePdf(note.document))).lines.join('\n')
    expect(text).toContain('Swimmer: Asha Family')
    expect(text).not.toContain(`Swimmer: ${parent!.swimmerName}`)
    expect(text).toContain('Amount refunded ₹35,000.00')
    const listed = await creditNotesOfRegistrations([lead!.id, second!.id])
    expect(listed.get(second!.id)?.map((summary) => summary.amountPaise)).toEqual([35_000_00])
    expect(listed.get(lead!.id)).toBeUndefined()
    const mail = (await mailTo(parent!.email)).find((email) => email.subject.startsWith('Refund completed'))!
    expect(mail.attachments.map((attachment) => attachment.filename)).toEqual([`credit-note-${note.document.number.replaceAll('/', '-')}.pdf`])
  })
})
