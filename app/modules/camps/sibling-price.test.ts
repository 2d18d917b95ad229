import { describe, expect, it } from 'vitest'
import { siblingPriceText, swimmerPrices } from './sibling-price'

describe("what each swimmer of a family pays", () => {
  it('is the fee for the first and the sibling price for the others, to the paisa; every one pays the sibling price after an earlier paid swimmer', () => {
    const twelveAndAHalf = { kind: 'percent', value: 1250 } as const
    expect(swimmerPrices(35_000_50, twelveAndAHalf, 2, false)).toEqual([
      { feePaise: 35_000_50, siblingDiscountPaise: 0, amountPaise: 35_000_50 },
      { feePaise: 35_000_50, siblingDiscountPaise: 4_375_06, amountPaise: 30_625_44 },
    ])
    expect(swimmerPrices(35_000_00, { kind: 'amount', value: 2_000_00 }, 2, true).map((price) => price.amountPaise)).toEqual([33_000_00, 33_000_00])
    expect(swimmerPrices(35_000_00, null, 3, true).map((price) => price.amountPaise)).toEqual([35_000_00, 35_000_00, 35_000_00])
    // An amount off above an early-bird fee leaves nothing to pay, never less.
    expect(swimmerPrices(30_000_00, { kind: 'amount', value: 32_000_00 }, 2, false)[1]).toEqual({ feePaise: 30_000_00, siblingDiscountPaise: 30_000_00, amountPaise: 0 })
  })

  it('is told next to the fee as the price and what it takes off', () => {
    expect(siblingPriceText(35_000_00, { kind: 'percent', value: 1000 })).toBe('Each further swimmer of your family: ₹31,500 (10% off)')
    expect(siblingPriceText(35_000_00, { kind: 'percent', value: 1250 })).toBe('Each further swimmer of your family: ₹30,625 (12.5% off)')
    expect(siblingPriceText(35_000_00, { kind: 'amount', value: 2_000_50 })).toBe('Each further swimmer of your family: ₹32,999.50 (₹2,000.50 off)')
  })
})
