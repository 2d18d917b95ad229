import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  basisPointsToPercentInput,
  discountOff,
  discountsOff,
  formatCount,
  formatGstRate,
  formatHalfGstRate,
  formatRupees,
  formatWholeRupees,
  paiseToDecimalRupees,
  paiseToRupeesInput,
  percentToBasisPoints,
  rupeesToPaise,
  splitGst,
  splitIgst,
} from './money'

describe('money', () => {
  it('reads rupees as people type them into exact paise', () => {
    expect(['35000', '35,000', '₹35,000', '1,00,000', '3,499.5', '3499.50', ' 0.01 '].map(rupeesToPaise)).toEqual([3_500_000, 3_500_000, 3_500_000, 10_000_000, 349_950, 349_950, 1])
    expect(['', 'abc', '35,000.001', '-5', '1e5', '35.', '.5'].map(rupeesToPaise)).toEqual([null, null, null, null, null, null, null])
    // 19.99 * 100 is 1998.9999999999998 in floating point; the digits are read as text.
    expect(['19.99', '1.15', '0.29'].map(rupeesToPaise)).toEqual([1_999, 115, 29])
    expect(rupeesToPaise('9'.repeat(20))).toBeNull()
    expect([30_000_00, 3_499_50, 1_00_000_50, 5].map(paiseToRupeesInput)).toEqual(['30,000', '3,499.50', '1,00,000.50', '0.05'])
  })

  it('shows paise as rupees with Indian digit grouping', () => {
    expect(formatRupees(10_000_000)).toBe('₹1,00,000.00')
    expect(formatRupees(3_500_000)).toBe('₹35,000.00')
    expect(formatRupees(349_900)).toBe('₹3,499.00')
    expect(formatRupees(100)).toBe('₹1.00')
    expect(formatRupees(0)).toBe('₹0.00')
  })

  it('drops the paise only for whole-rupee headline prices', () => {
    expect(formatWholeRupees(3_000_000)).toBe('₹30,000')
    expect(formatWholeRupees(349_950)).toBe('₹3,499.50')
  })

  it('writes rupees as a plain decimal for spreadsheets and structured data', () => {
    expect([3_500_000, 10_000_050, 5, 0, -5].map(paiseToDecimalRupees)).toEqual(['35000.00', '100000.50', '0.05', '0.00', '-0.05'])
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000_00 }), (paise) => {
        expect(paiseToDecimalRupees(paise)).toBe((paise / 100).toFixed(2))
      }),
    )
  })
})

describe('the same texts as Intl in en-IN, without building an Intl formatter', () => {
  it('amounts of money', () => {
    const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' })
    const whole = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 })
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000_000_00, max: 100_000_000_000_00 }), (amount) => {
        expect(formatRupees(amount)).toBe(rupees.format(amount / 100))
        if (amount % 100 === 0) expect(formatWholeRupees(amount)).toBe(whole.format(amount / 100))
        const digits = amount % 100 === 0 ? 0 : 2
        expect(paiseToRupeesInput(amount)).toBe(new Intl.NumberFormat('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount / 100))
      }),
      { numRuns: 3000 },
    )
  })

  it('counts', () => {
    const counts = new Intl.NumberFormat('en-IN')
    expect(formatCount(120000)).toBe('1,20,000')
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (count) => {
        expect(formatCount(count)).toBe(counts.format(count))
      }),
      { numRuns: 1000 },
    )
  })
})

describe('the GST rate, kept in basis points', () => {
  it('reads a percentage as typed into exact basis points', () => {
    expect(['18', '12.5', '0.25', '0', '18 %', '100'].map(percentToBasisPoints)).toEqual([1800, 1250, 25, 0, 1800, 10_000])
    expect(['', '18.125', '-1', 'abc', '1000', '.5'].map(percentToBasisPoints)).toEqual([null, null, null, null, null, null])
  })

  it('shows basis points back as the percentage', () => {
    expect([1800, 1250, 25, 0, 1825].map(basisPointsToPercentInput)).toEqual(['18', '12.5', '0.25', '0', '18.25'])
    expect(percentToBasisPoints(basisPointsToPercentInput(1250))).toBe(1250)
  })

  it('prints the rate and its CGST and SGST halves as a receipt does', () => {
    expect([1800, 1250, 25, 500, 0].map(formatGstRate)).toEqual(['18%', '12.5%', '0.25%', '5%', '0%'])
    expect([1800, 1250, 25, 500, 1].map(formatHalfGstRate)).toEqual(['9%', '6.25%', '0.125%', '2.5%', '0.005%'])
    // The texts a percentage in floating point would print, for every rate the settings accept.
    for (let basisPoints = 0; basisPoints <= 10_000; basisPoints++) {
      expect(formatGstRate(basisPoints)).toBe(`${basisPoints / 100}%`)
      expect(formatHalfGstRate(basisPoints)).toBe(`${basisPoints / 100 / 2}%`)
    }
  })
})

describe('splitGst', () => {
  const rates = [10, 25, 100, 150, 300, 500, 600, 750, 1200, 1800, 2800, 4000]

  it('matches worked examples to the paisa', () => {
    expect(splitGst(3_000_000, 1800)).toEqual({ taxablePaise: 2_542_373, cgstPaise: 228_814, sgstPaise: 228_813 })
    expect(splitGst(3_000_000, 500)).toEqual({ taxablePaise: 2_857_143, cgstPaise: 71_429, sgstPaise: 71_428 })
    expect(splitGst(100, 1800)).toEqual({ taxablePaise: 85, cgstPaise: 8, sgstPaise: 7 })
    expect(splitGst(1, 1800)).toEqual({ taxablePaise: 1, cgstPaise: 0, sgstPaise: 0 })
    expect(splitGst(0, 1800)).toEqual({ taxablePaise: 0, cgstPaise: 0, sgstPaise: 0 })
    expect(splitGst(3_000_000, 0)).toEqual({ taxablePaise: 3_000_000, cgstPaise: 0, sgstPaise: 0 })
  })

  it('always adds up to the total, with the taxable value the nearest paisa and halves a paisa apart at most', () => {
    let seed = 42
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31)
    const totals = [...Array.from({ length: 3_000 }, (_, paise) => paise), ...Array.from({ length: 3_000 }, () => random() * 5 + (random() % 5))]
    const wrong: string[] = []
    for (const rate of rates) {
      const divisor = 10_000 + rate
      for (const total of totals) {
        const split = splitGst(total, rate)
        const { taxablePaise, cgstPaise, sgstPaise } = split
        const addsUp = taxablePaise + cgstPaise + sgstPaise === total
        const halves = cgstPaise - sgstPaise === 0 || cgstPaise - sgstPaise === 1
        const wholePaise = [taxablePaise, cgstPaise, sgstPaise].every((part) => Number.isInteger(part) && part >= 0)
        // taxable × (10000 + rate) lies within half a divisor of total × 10000: the nearest paisa.
        const nearest = Math.abs(taxablePaise * divisor - total * 10_000) * 2 <= divisor
        if (!(addsUp && halves && wholePaise && nearest)) wrong.push(`${total} paise at ${rate} basis points: ${JSON.stringify(split)}`)
      }
    }
    expect(totals.some((total) => total > 1e9)).toBe(true)
    expect(wrong.slice(0, 10)).toEqual([])
  })

  it('refuses amounts that are not whole paise and rates that are not whole basis points', () => {
    expect(() => splitGst(100.5, 1800)).toThrow(RangeError)
    expect(() => splitGst(-100, 1800)).toThrow(RangeError)
    expect(() => splitGst(100, -1)).toThrow(RangeError)
    expect(() => splitGst(100, 12.5)).toThrow(RangeError)
    expect(() => splitGst(100, Number.NaN)).toThrow(RangeError)
  })
})

describe('splitIgst', () => {
  it('takes the same taxable value as CGST and SGST would, and the whole GST as IGST, to the paisa', () => {
    expect(splitIgst(3_000_000, 1800)).toEqual({ taxablePaise: 2_542_373, igstPaise: 457_627 })
    expect(splitIgst(150_000, 1800)).toEqual({ taxablePaise: 127_119, igstPaise: 22_881 })
    expect(splitIgst(100, 1800)).toEqual({ taxablePaise: 85, igstPaise: 15 })
    expect(splitIgst(1, 1800)).toEqual({ taxablePaise: 1, igstPaise: 0 })
    expect(splitIgst(0, 1800)).toEqual({ taxablePaise: 0, igstPaise: 0 })
    expect(splitIgst(3_000_000, 0)).toEqual({ taxablePaise: 3_000_000, igstPaise: 0 })
    for (const rate of [25, 500, 1200, 1800, 2800]) {
      for (const total of [1, 99, 1_234_567, 4_999_999_999]) {
        const intra = splitGst(total, rate)
        expect(splitIgst(total, rate)).toEqual({ taxablePaise: intra.taxablePaise, igstPaise: intra.cgstPaise + intra.sgstPaise })
      }
    }
  })

  it('refuses amounts that are not whole paise and rates that are not whole basis points', () => {
    expect(() => splitIgst(100.5, 1800)).toThrow(RangeError)
    expect(() => splitIgst(-100, 1800)).toThrow(RangeError)
    expect(() => splitIgst(100, 12.5)).toThrow(RangeError)
  })
})

describe('discounts', () => {
  it('takes a percentage off a price, to the nearest paisa (half up), and never more than the price', () => {
    expect(discountOff(1_500_000, { kind: 'percent', value: 1000 })).toBe(150_000)
    expect(discountOff(999, { kind: 'percent', value: 1250 })).toBe(125) // 124.875
    expect(discountOff(1, { kind: 'percent', value: 5000 })).toBe(1) // 0.5 rounds up
    expect(discountOff(1_500_000, { kind: 'percent', value: 10_000 })).toBe(1_500_000)
  })

  it('takes an amount off, but never below nothing', () => {
    expect(discountOff(1_500_000, { kind: 'amount', value: 50_000 })).toBe(50_000)
    expect(discountOff(30_000, { kind: 'amount', value: 50_000 })).toBe(30_000)
    expect(() => discountOff(-1, { kind: 'amount', value: 1 })).toThrow(RangeError)
  })

  it('shares an amount off an order across its lines in proportion, to the paisa, and a percentage line by line', () => {
    expect(discountsOff([1_000_000, 1_000_000], { kind: 'amount', value: 100_001 })).toEqual([50_001, 50_000])
    expect(discountsOff([300_000, 100_000], { kind: 'amount', value: 100_000 })).toEqual([75_000, 25_000])
    expect(discountsOff([300, 100], { kind: 'amount', value: 1_000 })).toEqual([300, 100])
    expect(discountsOff([1_000_000, 900_000], { kind: 'percent', value: 1000 })).toEqual([100_000, 90_000])
    expect(discountsOff([0, 0], { kind: 'amount', value: 100 })).toEqual([0, 0])
    const shares = discountsOff([333_333, 333_333, 333_334], { kind: 'amount', value: 100_000 })
    expect(shares.reduce((a, b) => a + b, 0)).toBe(100_000)
  })
})
