import { afterEach, describe, expect, it } from 'vitest'
import { pdfText } from '../../../tests/support/pdf-text'
import { renderReceiptPdf, type ReceiptDocument } from './receipt-pdf.server'

const seller = {
  legalName: 'Swimming Sport Science Lab Private Limited',
  address: '12, 4th Cross, Indiranagar\nBengaluru, Karnataka 560038',
  email: 'hello@swimlab.example',
  phone: '+91 80 4000 1234',
}

const analysis: ReceiptDocument['lines'][number] = {
  description: '3-Day Stroke Analysis Session',
  detail: [
    'Day 1: Tuesday, 1 December 2026, 9:00 AM - 10:00 AM',
    'Day 2: Wednesday, 2 December 2026, 9:00 AM - 10:00 AM',
    'Day 3: Thursday, 3 December 2026, 9:00 AM - 10:00 AM',
  ],
  amountPaise: 3_000_000,
}

/** A receipt issued and paid at 16:05 in Bangalore on 23 November 2026. */
function receipt(overrides: Partial<ReceiptDocument> = {}): ReceiptDocument {
  return {
    receiptNumber: 'SSL/26-27/000042',
    issuedAt: new Date('2026-11-23T10:35:00Z'),
    seller: { ...seller, gstin: null },
    customer: { name: 'Ananya Rao', email: 'ananya@example.com', phone: '+91 98450 12345' },
    lines: [analysis],
    payment: { orderId: 'ORD-20261123-8842', transactionId: 'T2611231605123456', method: 'UPI', paidAt: new Date('2026-11-23T10:35:00Z') },
    gstRateBasisPoints: null,
    ...overrides,
  }
}

const TAX_LINE = /GST|Taxable|Tax Invoice|Bill of Supply/

describe('a receipt without a GSTIN', () => {
  it('shows the seller, the customer, what was bought and the amount paid, and no tax at all', async () => {
    const pdf = await renderReceiptPdf(receipt({ gstRateBasisPoints: 1800 }))
    const { pages, lines, info } = await pdfText(pdf)

    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    expect(pages).toHaveLength(1)
    expect(info.Title).toBe('Receipt SSL/26-27/000042')
    expect(lines).toEqual(
      expect.arrayContaining([
        'Receipt',
        'Receipt No.',
        'SSL/26-27/000042',
        'Date',
        '23 November 2026',
        // The legal name wraps onto two lines in the seller block.
        'Swimming Sport Science Lab',
        'Private Limited',
        '12, 4th Cross, Indiranagar',
        'Bengaluru, Karnataka 560038',
        'hello@swimlab.example · +91 80 4000 1234',
        'BILLED TO',
        'Ananya Rao',
        'ananya@example.com',
        '+91 98450 12345',
        '3-Day Stroke Analysis Session ₹30,000.00',
        ...analysis.detail,
        'Amount paid ₹30,000.00',
        'Order ID ORD-20261123-8842',
        'Transaction ID T2611231605123456',
        'Method UPI',
        'Paid at 23 November 2026, 4:05 PM IST',
      ]),
    )
    // The rate alone does not make a tax document: only a registered seller charges GST.
    expect(lines.filter((line) => TAX_LINE.test(line))).toEqual([])
    expect(lines.filter((line) => line.startsWith('Refunded'))).toEqual([])
  })

  it('lists every line with its amount and totals them', async () => {
    const camp = { description: 'Summer Swim Camp 2027, Batch A', detail: ['8–16 Aug 2027, 6:30 AM - 8:30 AM'], amountPaise: 1_250_050 }
    const { lines } = await pdfText(await renderReceiptPdf(receipt({ lines: [camp, { ...analysis, amountPaise: 349_900 }] })))

    expect(lines).toEqual(
      expect.arrayContaining([
        'Summer Swim Camp 2027, Batch A ₹12,500.50',
        '8–16 Aug 2027, 6:30 AM - 8:30 AM',
        '3-Day Stroke Analysis Session ₹3,499.00',
        'Amount paid ₹15,999.50',
      ]),
    )
  })

  it('leaves out the payment details the gateway did not give, and a missing phone', async () => {
    const { lines } = await pdfText(
      await renderReceiptPdf(
        receipt({
          customer: { name: 'Ananya Rao', email: 'ananya@example.com', phone: null },
          payment: { orderId: 'ORD-1', transactionId: null, method: null, paidAt: new Date('2026-11-23T10:35:00Z') },
        }),
      ),
    )
    expect(lines).toContain('Order ID ORD-1')
    expect(lines.filter((line) => /^(Transaction ID|Method)\b|null|undefined/.test(line))).toEqual([])
    expect(lines.indexOf('ananya@example.com') + 1).toBe(lines.indexOf('3-Day Stroke Analysis Session ₹30,000.00') - 1)
  })
})

describe('a tax invoice from a seller with a GSTIN', () => {
  const gstin = '29ABCDE1234F1Z5'

  it('shows the GSTIN and splits the GST-inclusive total into taxable value, CGST and SGST', async () => {
    const { lines, info } = await pdfText(await renderReceiptPdf(receipt({ seller: { ...seller, gstin }, gstRateBasisPoints: 1800 })))

    expect(info.Title).toBe('Tax Invoice SSL/26-27/000042')
    expect(lines).toEqual(
      expect.arrayContaining([
        'Tax Invoice',
        'Invoice No.',
        'SSL/26-27/000042',
        `GSTIN: ${gstin}`,
        '3-Day Stroke Analysis Session ₹30,000.00',
        // 30,000 × 100 / 118 = 25,423.7288… → 25,423.73; GST 4,576.27, the odd paisa to CGST.
        'Taxable value ₹25,423.73',
        'CGST @ 9% ₹2,288.14',
        'SGST @ 9% ₹2,288.13',
        'Amount paid ₹30,000.00',
        'Prices include GST at 18%.',
      ]),
    )
    expect(lines).not.toContain('Receipt')
    expect(lines.filter((line) => /\bSAC\b|IGST/.test(line))).toEqual([])
  })

  it('for a service performed in another state names the place of supply and charges one IGST amount at the full rate', async () => {
    const placeOfSupply = { venueName: 'Balewadi Aquatics', venueAddress: 'Balewadi, Pune', stateCode: '27' }
    const { lines } = await pdfText(await renderReceiptPdf(receipt({ seller: { ...seller, gstin }, gstRateBasisPoints: 1800, interState: true, placeOfSupply })))
    expect(lines).toEqual(
      expect.arrayContaining(['Tax Invoice', 'Place of supply: Maharashtra (27)', 'Service performed at Balewadi Aquatics, Balewadi, Pune', 'Taxable value ₹25,423.73', 'IGST @ 18% ₹4,576.27', 'Amount paid ₹30,000.00']),
    )
    expect(lines.filter((line) => /CGST|SGST/.test(line))).toEqual([])
  })

  it('names a place of supply in the lab’s state with CGST and SGST; a plain receipt names none', async () => {
    const placeOfSupply = { venueName: 'PDCSE pool', venueAddress: 'Bengaluru', stateCode: '29' }
    const taxed = (await pdfText(await renderReceiptPdf(receipt({ seller: { ...seller, gstin }, gstRateBasisPoints: 1800, placeOfSupply })))).lines
    expect(taxed).toEqual(expect.arrayContaining(['Place of supply: Karnataka (29)', 'CGST @ 9% ₹2,288.14', 'SGST @ 9% ₹2,288.13']))
    const plain = (await pdfText(await renderReceiptPdf(receipt({ placeOfSupply })))).lines
    expect(plain.filter((line) => /Place of supply|GST/.test(line))).toEqual([])
  })

  it('splits the total of several lines, at a rate whose halves are fractional', async () => {
    const camp = { description: 'Summer Swim Camp 2027, Batch A', detail: [], amountPaise: 1_250_050 }
    const { lines } = await pdfText(
      await renderReceiptPdf(receipt({ seller: { ...seller, gstin }, gstRateBasisPoints: 500, lines: [camp, { ...analysis, amountPaise: 349_900 }] })),
    )
    // 15,999.50 × 100 / 105 = 15,237.619… → 15,237.62; GST 761.88 in two equal halves.
    expect(lines).toEqual(
      expect.arrayContaining(['Taxable value ₹15,237.62', 'CGST @ 2.5% ₹380.94', 'SGST @ 2.5% ₹380.94', 'Amount paid ₹15,999.50', 'Prices include GST at 5%.']),
    )
  })

  it('is a Bill of Supply, without tax lines, when no GST rate applies', async () => {
    const { lines } = await pdfText(await renderReceiptPdf(receipt({ seller: { ...seller, gstin }, gstRateBasisPoints: null })))
    expect(lines).toEqual(expect.arrayContaining(['Bill of Supply', 'Bill No.', `GSTIN: ${gstin}`, 'Amount paid ₹30,000.00']))
    expect(lines.filter((line) => /Tax Invoice|Taxable|CGST|SGST|Prices include GST/.test(line))).toEqual([])
  })
})

describe('dates and status', () => {
  const originalTimeZone = process.env.TZ
  afterEach(() => {
    if (originalTimeZone === undefined) delete process.env.TZ
    else process.env.TZ = originalTimeZone
  })

  for (const timeZone of ['UTC', 'America/Los_Angeles']) {
    it(`dates the receipt by the Bangalore calendar with the process in ${timeZone}`, async () => {
      process.env.TZ = timeZone
      // 19:00 UTC on 31 March is 00:30 on 1 April in Bangalore.
      const lateEveningUtc = new Date('2026-03-31T19:00:00Z')
      expect(lateEveningUtc.getDate(), 'the process zone switch took effect').toBe(31)

      const { lines } = await pdfText(await renderReceiptPdf(receipt({ issuedAt: lateEveningUtc, payment: { ...receipt().payment, paidAt: lateEveningUtc } })))
      expect(lines).toContain('1 April 2026')
      expect(lines).toContain('Paid at 1 April 2026, 12:30 AM IST')
      expect(lines.filter((line) => line.includes('31 March'))).toEqual([])
    })
  }

  it('says clearly that a refunded payment was refunded', async () => {
    const { lines } = await pdfText(await renderReceiptPdf(receipt({ status: 'refunded' })))
    expect(lines).toContain('Refunded The amount paid has been refunded to the customer.')
    expect(lines).toContain('Amount paid ₹30,000.00')
  })
})

describe('the rupee sign', () => {
  it('is drawn in an embedded font that has it, not a standard PDF font', async () => {
    const pdf = await renderReceiptPdf(receipt())
    const baseFonts = [...pdf.toString('latin1').matchAll(/\/BaseFont \/(?:[A-Z]{6}\+)?([\w-]+)/g)].map(([, name]) => name)
    expect(new Set(baseFonts)).toEqual(new Set(['DejaVuSans', 'DejaVuSans-Bold']))
    expect((await pdfText(pdf)).lines.filter((line) => line.includes('₹30,000.00'))).toHaveLength(2)
  })
})

describe('a long receipt', () => {
  it('continues on further pages, keeping every line and the totals on the paper', async () => {
    const lines = Array.from({ length: 25 }, (_, index) => ({ ...analysis, description: `Session ${index + 1}`, amountPaise: 100_000 }))
    const text = await pdfText(await renderReceiptPdf(receipt({ lines })))

    expect(text.pages.length).toBeGreaterThan(1)
    expect(text.offPage).toEqual([])
    for (const page of text.pages.slice(1)) expect(page[0]).toBe('Receipt SSL/26-27/000042 (continued)')
    for (let number = 1; number <= 25; number++) expect(text.lines).toContain(`Session ${number} ₹1,000.00`)
    expect(text.lines).toContain('Amount paid ₹25,000.00')
    expect(text.pages.at(-1)).toContain('Paid at 23 November 2026, 4:05 PM IST')
  })
})

describe('discounts', () => {
  const discounted: ReceiptDocument['lines'][number] = {
    description: 'Summer Swim Camp 2027, Batch A',
    detail: ['Swimmer: Second Child'],
    amountPaise: 3_000_000,
    discounts: [
      { label: 'Sibling price', amountPaise: 350_000 },
      { label: 'Promo code SUMMER10', amountPaise: 150_000 },
    ],
  }

  it('show the line’s price, each discount as its own line, then what was charged, and total what was paid', async () => {
    const { lines } = await pdfText(await renderReceiptPdf(receipt({ lines: [discounted, analysis] })))
    const start = lines.indexOf('Summer Swim Camp 2027, Batch A ₹35,000.00')
    expect(lines.slice(start, start + 5)).toEqual(['Summer Swim Camp 2027, Batch A ₹35,000.00', 'Swimmer: Second Child', 'Sibling price \u2212₹3,500.00', 'Promo code SUMMER10 \u2212₹1,500.00', 'Amount ₹30,000.00'])
    // The undiscounted line shows its amount once, as before.
    expect(lines).toContain('3-Day Stroke Analysis Session ₹30,000.00')
    expect(lines).toContain('Amount paid ₹60,000.00')
  })

  it('keep each line’s discounts on the page of its price across a long receipt', async () => {
    const many = Array.from({ length: 20 }, (_, index) => ({ ...discounted, description: `Swimmer ${index + 1}` }))
    const text = await pdfText(await renderReceiptPdf(receipt({ lines: many })))
    expect(text.pages.length).toBeGreaterThan(1)
    expect(text.offPage).toEqual([])
    for (const page of text.pages) {
      const prices = page.filter((line) => /^Swimmer \d+ ₹35,000.00$/.test(line)).length
      expect(page.filter((line) => line === 'Amount ₹30,000.00')).toHaveLength(prices)
      expect(page.filter((line) => line.startsWith('Sibling price'))).toHaveLength(prices)
    }
    expect(text.lines).toContain('Amount paid ₹6,00,000.00')
  })

  it('a free order says no payment was needed and which promo code covered the price', async () => {
    const free = { ...analysis, amountPaise: 0, discounts: [{ label: 'Promo code ALLFREE', amountPaise: 3_000_000 }] }
    const { lines } = await pdfText(
      await renderReceiptPdf(receipt({ lines: [free], free: { promoCode: 'ALLFREE' }, payment: { orderId: 'FREE-1', transactionId: null, method: null, paidAt: new Date('2026-11-23T10:35:00Z') } })),
    )
    expect(lines).toEqual(expect.arrayContaining(['Free No payment was needed: promo code ALLFREE covered the full price.', 'Promo code ALLFREE \u2212₹30,000.00', 'Amount ₹0.00', 'Amount paid ₹0.00', 'Ordered at 23 November 2026, 4:05 PM IST']))
    expect(lines.filter((line) => /^(Paid at|Method|Transaction ID)/.test(line))).toEqual([])
  })
})
