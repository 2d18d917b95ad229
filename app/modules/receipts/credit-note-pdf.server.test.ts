import { describe, expect, it } from 'vitest'
import { pdfText } from '../../../tests/support/pdf-text'
import { renderCreditNotePdf, type CreditNoteDocument } from './credit-note-pdf.server'

const seller = { legalName: 'Swimming Sport Science Lab LLP', address: 'PDCSE, Bengaluru 560001', email: 'hello@swimlab.example', phone: '+91 80 4000 1234' }

/** ₹15,000 of a ₹30,000 booking refunded at 3 PM in Bangalore on 2 December 2026, against a receipt of 23 November. */
function note(overrides: Partial<CreditNoteDocument> = {}): CreditNoteDocument {
  return {
    number: 'SSL/CN26-27/0007',
    issuedAt: new Date('2026-12-02T09:30:00Z'),
    seller: { ...seller, gstin: '29ABCDE1234F1Z5' },
    customer: { name: 'Ananya Rao', email: 'ananya@example.com', phone: '+91 98450 12345' },
    against: { receiptNumber: 'SSL/26-27/000042', issuedAt: new Date('2026-11-23T10:35:00Z') },
    lines: [{ description: '3-Day Stroke Analysis Session', detail: ['Swimmer: Kavya Rao', 'Booking ID: SWP-0000000042'], amountPaise: 1_500_000 }],
    amountPaise: 1_500_000,
    tax: { rateBasisPoints: 1800, taxablePaise: 1_271_186, cgstPaise: 114_407, sgstPaise: 114_407, igstPaise: 0 },
    reason: 'Day 3 cancelled by the lab',
    refund: { refundId: 'RFND_1', orderId: 'SLOT_1', completedAt: new Date('2026-12-02T09:30:00Z'), byHand: null },
    ...overrides,
  }
}

describe('a credit note', () => {
  it('under a GSTIN names the receipt it is against, what was refunded, the GST reversed and why', async () => {
    const { lines, info, pages, offPage } = await pdfText(await renderCreditNotePdf(note()))
    expect(pages).toHaveLength(1)
    expect(offPage).toEqual([])
    expect(info.Title).toBe('Credit Note SSL/CN26-27/0007')
    expect(lines).toEqual(
      expect.arrayContaining([
        'Credit Note',
        'Credit Note No.',
        'SSL/CN26-27/0007',
        '2 December 2026',
        'GSTIN: 29ABCDE1234F1Z5',
        'Against receipt SSL/26-27/000042 dated 23 November 2026',
        'Ananya Rao',
        '3-Day Stroke Analysis Session ₹15,000.00',
        'Swimmer: Kavya Rao',
        'Taxable value ₹12,711.86',
        'CGST @ 9% ₹1,144.07',
        'SGST @ 9% ₹1,144.07',
        'Amount refunded ₹15,000.00',
        'REASON',
        'Day 3 cancelled by the lab',
        'Refund ID RFND_1',
        'Refunded at 2 December 2026, 3:00 PM IST',
      ]),
    )
    // Intra-state: no IGST line while none was charged.
    expect(lines.filter((line) => line.includes('IGST'))).toEqual([])
  })

  it('against an IGST receipt reverses one IGST amount at the full rate, and names the place of supply', async () => {
    const placeOfSupply = { venueName: 'Balewadi Aquatics', venueAddress: 'Balewadi, Pune', stateCode: '27' }
    const { lines } = await pdfText(await renderCreditNotePdf(note({ tax: { rateBasisPoints: 1800, taxablePaise: 1_271_186, cgstPaise: 0, sgstPaise: 0, igstPaise: 228_814, interState: true }, placeOfSupply })))
    expect(lines).toEqual(expect.arrayContaining(['IGST @ 18% ₹2,288.14', 'Place of supply: Maharashtra (27)', 'Service performed at Balewadi Aquatics, Balewadi, Pune']))
    expect(lines.filter((line) => /CGST|SGST/.test(line))).toEqual([])
  })

  it('without a GSTIN is a plain refund note with no tax lines, and says when staff repaid by hand', async () => {
    const { lines, info } = await pdfText(await renderCreditNotePdf(note({ seller: { ...seller, gstin: null }, tax: null, refund: { ...note().refund, byHand: 'Bank transfer' } })))
    expect(info.Title).toBe('Refund Note SSL/CN26-27/0007')
    expect(lines).toEqual(expect.arrayContaining(['Refund Note', 'Refund Note No.', 'Amount refunded ₹15,000.00', 'Repaid by hand: Bank transfer']))
    expect(lines.filter((line) => /GST|Taxable|Credit Note/.test(line))).toEqual([])
  })
})
