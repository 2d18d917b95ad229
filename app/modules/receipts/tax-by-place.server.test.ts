import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { payments, receipts, siteSettings } from '~/db/schema'
import { addMinutes } from '~/lib/lab-time'
import { holdAnalysisDaySlot } from '~/modules/booking/analysis-day-booking.server'
import type { AnalysisDayBookingInput } from '~/modules/booking/analysis-day-schemas'
import { holdSession } from '~/modules/booking/holds.server'
import { newOrderId } from '~/modules/payments/gateway-contract.server'
import { applyOrderStatus } from '~/modules/payments/payments.server'
import { applyRefundStatus, requestRefund } from '~/modules/payments/refunds.server'
import { venueById, updateVenue } from '~/modules/venues/venues.server'
import { publishedDay } from '../../../tests/support/analysis-days'
import { createCustomers, createStaff, setWindows } from '../../../tests/support/booking'
import { visitor } from '../../../tests/support/holders'
import { pdfText } from '../../../tests/support/pdf-text'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { renderCreditNotePdf } from './credit-note-pdf.server'
import { creditNoteOf } from './credit-notes.server'
import { renderReceiptPdf } from './receipt-pdf.server'
import { receiptOf, taxOfSupply } from './receipts.server'

useTestDatabase()
const sandbox = useSandboxPayments()
beforeEach(() => sandbox.ready())

// 1 December 2030, 10 AM at the lab. The Pune analysis day is Saturday 7 December, released at 7 AM
// on Friday 6 December; seats are paid for on the Friday, in the financial year 2030-31.
const NOW = new Date('2030-12-01T04:30:00Z')
const SATURDAY = '2030-12-07'
const PAID_AT = new Date('2030-12-06T02:00:00Z')
const LAB_DATE = '2030-12-10'

/** Valid GSTINs (their check characters right): the lab's in Karnataka, and a registration in Maharashtra. */
const LAB_GSTIN = '29AAGCB7383J1Z4'
const PUNE_GSTIN = '27AAPFU0939F1ZV'

let parents = 0

/** A seat of the analysis day at `start`, paid (₹1,500) on 6 December. */
async function paidSeat(dayId: number, start: string) {
  parents += 1
  const details = { name: `Parent ${parents}`, email: `parent${parents}@example.com`, whoSwims: 'myself', notes: '', slot: `${SATURDAY}|${start}` } as AnalysisDayBookingInput
  const held = await holdAnalysisDaySlot(dayId, details, visitor(), { now: PAID_AT })
  return paid(held.bookingId, 1_500_00)
}

/** A session at the lab on 10 December, paid on 6 December. */
async function paidAtTheLab(start = '09:00') {
  parents += 1
  const [customer] = await createCustomers(1, `lab${parents}-`)
  const held = await holdSession({ customer: customer!, productCode: 'race_analysis', date: LAB_DATE, start, days: 1, now: PAID_AT })
  return paid(held.bookingId, held.amountPaise)
}

async function paid(bookingId: number, amountPaise: number) {
  const orderId = newOrderId('SLOT', PAID_AT)
  await db().insert(payments).values({ orderId, bookingId, gateway: 'sandbox', amountPaise, state: 'pending', expiresAt: addMinutes(PAID_AT, 20), createdAt: PAID_AT, updatedAt: PAID_AT })
  await applyOrderStatus(orderId, { state: 'completed', amountPaise, transactionId: `T${orderId}`, paymentMode: 'UPI' }, PAID_AT)
  const [row] = await db().select({ paymentId: payments.id, number: receipts.number }).from(payments).innerJoin(receipts, eq(receipts.paymentId, payments.id)).where(eq(payments.orderId, orderId))
  return { orderId, ...row! }
}

const receiptText = async (orderId: string) => (await pdfText(await renderReceiptPdf((await receiptOf(orderId))!.document))).lines

async function setUp() {
  const staff = await createStaff()
  await db().update(siteSettings).set({ gstin: LAB_GSTIN, gstRateBasisPoints: 1800 }).where(eq(siteSettings.id, 1))
  await setWindows([{ date: LAB_DATE, start: '09:00', end: '18:00', capacity: 5 }])
  const { venueId, dayId } = await publishedDay(staff, SATURDAY, NOW, { releaseDate: '2030-12-06', releaseTime: '07:00' })
  return { staff, venueId, dayId }
}

/** Gives the Pune venue the lab's own registration in Maharashtra. */
async function registerInPune(staff: { id: number; email: string }, venueId: number) {
  const { id: _id, isHome: _home, closedAt: _closed, ...venue } = await venueById(venueId)
  await updateVenue(staff, venueId, { ...venue, stateCode: '27', gstin: PUNE_GSTIN, invoiceSeries: 'PUN' }, NOW)
}

describe('how a supply is taxed', () => {
  const pune = { name: 'Balewadi Aquatics', address: 'Balewadi', city: 'Pune', stateCode: '27', gstin: null, invoiceSeries: null }
  const home = { ...pune, name: 'PDCSE pool', address: '', city: 'Bengaluru', stateCode: '29' }
  const lab = { gstin: LAB_GSTIN, rateBasisPoints: 1800 }
  const at = (venue: typeof pune) => ({ supplyVenueName: venue.name, supplyVenueAddress: [venue.address, venue.city].filter(Boolean).join(', '), supplyStateCode: venue.stateCode })

  it('is CGST and SGST in the lab’s state, IGST in another, both under the lab’s GSTIN in its series', () => {
    expect(taxOfSupply(lab, home)).toEqual({ ...at(home), series: '', sellerGstin: LAB_GSTIN, taxKind: 'cgst_sgst', gstRateBasisPoints: 1800 })
    expect(taxOfSupply(lab, pune)).toEqual({ ...at(pune), series: '', sellerGstin: LAB_GSTIN, taxKind: 'igst', gstRateBasisPoints: 1800 })
  })

  it('is CGST and SGST under a venue’s own registration, in its series', () => {
    const registered = { ...pune, gstin: PUNE_GSTIN, invoiceSeries: 'PUN' }
    expect(taxOfSupply(lab, registered)).toEqual({ ...at(pune), series: 'PUN', sellerGstin: PUNE_GSTIN, taxKind: 'cgst_sgst', gstRateBasisPoints: 1800 })
  })

  it('is nothing without the lab’s GSTIN, wherever; untaxed at a 0% rate (a bill of supply)', () => {
    expect(taxOfSupply({ gstin: ' ', rateBasisPoints: 1800 }, { ...pune, gstin: PUNE_GSTIN, invoiceSeries: 'PUN' })).toEqual({ ...at(pune), series: '', sellerGstin: '', taxKind: 'none', gstRateBasisPoints: null })
    expect(taxOfSupply({ gstin: LAB_GSTIN, rateBasisPoints: 0 }, pune)).toEqual({ ...at(pune), series: '', sellerGstin: LAB_GSTIN, taxKind: 'none', gstRateBasisPoints: null })
  })
})

describe('the place of supply', () => {
  it('of an analysis day in Pune is Maharashtra: the lab’s tax invoice charges IGST at the full rate, and names the venue', async () => {
    const { dayId } = await setUp()
    const seat = await paidSeat(dayId, '09:00')
    expect(seat.number).toBe('SSL/30-31/000001')
    const lines = await receiptText(seat.orderId)
    expect(lines).toEqual(
      expect.arrayContaining([
        'Tax Invoice',
        `GSTIN: ${LAB_GSTIN}`,
        'Place of supply: Maharashtra (27)',
        'Service performed at Balewadi Aquatics, Shree Shiv Chhatrapati Sports Complex, Balewadi, Pune',
        'Taxable value ₹1,271.19',
        'IGST @ 18% ₹228.81',
        'Amount paid ₹1,500.00',
      ]),
    )
    expect(lines.filter((line) => /CGST|SGST/.test(line))).toEqual([])
    // The line names the venue, not the lab's session location.
    expect(lines.join(' ')).toContain('Location: Balewadi Aquatics, Shree Shiv Chhatrapati Sports Complex, Balewadi, Pune')
  })

  it('of a session at the lab is Karnataka: CGST and SGST, as before', async () => {
    await setUp()
    const session = await paidAtTheLab()
    expect(session.number).toBe('SSL/30-31/000001')
    const lines = await receiptText(session.orderId)
    expect(lines).toEqual(expect.arrayContaining(['Place of supply: Karnataka (29)', expect.stringMatching(/^CGST @ 9% /), expect.stringMatching(/^SGST @ 9% /)]))
    expect(lines.filter((line) => line.includes('IGST'))).toEqual([])
  })

  it('without a GSTIN in the settings stays a plain receipt with no tax lines, wherever the session is', async () => {
    const { dayId } = await setUp()
    await db().update(siteSettings).set({ gstin: '' }).where(eq(siteSettings.id, 1))
    const lines = await receiptText((await paidSeat(dayId, '09:00')).orderId)
    expect(lines).toContain('Receipt')
    expect(lines.filter((line) => /GST|Place of supply|Tax Invoice/.test(line))).toEqual([])
  })
})

describe('a venue where the lab holds a GST registration of its own', () => {
  it('is invoiced under that GSTIN with CGST and SGST, numbered in its own series; the lab’s numbering goes on as it was', async () => {
    const { staff, venueId, dayId } = await setUp()
    const before = await paidAtTheLab('09:00')
    await registerInPune(staff, venueId)
    const first = await paidSeat(dayId, '09:00')
    const second = await paidSeat(dayId, '09:20')
    const after = await paidAtTheLab('10:00')
    expect([before.number, first.number, second.number, after.number]).toEqual(['SSL/30-31/000001', 'PUN/30-31/000001', 'PUN/30-31/000002', 'SSL/30-31/000002'])
    const lines = await receiptText(first.orderId)
    expect(lines).toEqual(expect.arrayContaining(['Tax Invoice', `GSTIN: ${PUNE_GSTIN}`, 'PUN/30-31/000001', 'Place of supply: Maharashtra (27)', 'CGST @ 9% ₹114.41', 'SGST @ 9% ₹114.40']))
    expect(lines.filter((line) => line.includes('IGST') || line.includes(LAB_GSTIN))).toEqual([])
    // The lab's own receipt keeps the lab's GSTIN.
    expect(await receiptText(after.orderId)).toContain(`GSTIN: ${LAB_GSTIN}`)
  })

  it('credits a refund under the receipt’s registration and series; an IGST receipt gets an IGST credit note', async () => {
    const { staff, venueId, dayId } = await setUp()
    const igst = await paidSeat(dayId, '09:00')
    await registerInPune(staff, venueId)
    const own = await paidSeat(dayId, '09:20')
    const refund = async (paymentId: number) => {
      const refundId = await db().transaction((tx) => requestRefund(tx, { paymentId, amountPaise: 1_500_00, reason: 'Pool closed', now: PAID_AT }))
      await applyRefundStatus(refundId, { state: 'completed', gatewayRefundId: `G-${refundId}`, amountPaise: 1_500_00 }, PAID_AT)
      return (await creditNoteOf(refundId))!.document
    }
    const igstNote = await refund(igst.paymentId)
    expect(igstNote).toMatchObject({ number: 'SSL/CN30-31/0001', seller: { gstin: LAB_GSTIN }, tax: { rateBasisPoints: 1800, taxablePaise: 1_271_19, cgstPaise: 0, sgstPaise: 0, igstPaise: 228_81, interState: true } })
    const igstLines = (await pdfText(await renderCreditNotePdf(igstNote))).lines
    expect(igstLines).toEqual(expect.arrayContaining(['IGST @ 18% ₹228.81', 'Place of supply: Maharashtra (27)']))
    expect(igstLines.filter((line) => /CGST|SGST/.test(line))).toEqual([])
    const ownNote = await refund(own.paymentId)
    expect(ownNote).toMatchObject({ number: 'PUN/CN30-31/0001', seller: { gstin: PUNE_GSTIN }, tax: { cgstPaise: 114_41, sgstPaise: 114_40, igstPaise: 0, interState: false } })
  })
})

describe('a receipt issued', () => {
  it('keeps its place, seller’s GSTIN, tax and rate when the venue and the settings change later', async () => {
    const { staff, venueId, dayId } = await setUp()
    const seat = await paidSeat(dayId, '09:00')
    const before = await receiptText(seat.orderId)
    const { id: _id, isHome: _home, closedAt: _closed, ...venue } = await venueById(venueId)
    await updateVenue(staff, venueId, { ...venue, name: 'Renamed pool', address: 'Elsewhere', stateCode: '27', gstin: PUNE_GSTIN, invoiceSeries: 'PUN' }, NOW)
    await db().update(siteSettings).set({ gstin: '', gstRateBasisPoints: 500 }).where(eq(siteSettings.id, 1))
    expect(await receiptText(seat.orderId)).toEqual(before)
    expect(before).toContain('IGST @ 18% ₹228.81')
  })
})
