// Money is integer paise everywhere; this module is the one place that turns paise into text, text
// into paise, and works out the GST a price includes.
//
// Amounts are written out here rather than by Intl: building an Intl formatter loads the locale's
// data, which takes a phone tens of milliseconds on every page that shows a price (the camp banner
// is on every page). The texts are exactly what Intl's en-IN gives (tested).

/** 1234567 → "12,34,567": the last three digits, then pairs, as amounts are grouped in India. */
function indianGrouping(whole: number): string {
  const digits = String(whole)
  if (digits.length <= 3) return digits
  return `${digits.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${digits.slice(-3)}`
}

/** 120000 → "1,20,000": a count (swimmers, analyses) as the site shows it, grouped as numbers are in India. */
export function formatCount(count: number): string {
  return indianGrouping(count)
}

/** Integer paise → "12,34,567.50" (or "12,34,567" with no paise digits), with a leading minus if below zero. */
function amount(paise: number, fractionDigits: 0 | 2, symbol = ''): string {
  const sign = paise < 0 ? '-' : ''
  const absolute = Math.round(Math.abs(paise))
  const paiseDigits = fractionDigits === 2 ? `.${String(absolute % 100).padStart(2, '0')}` : ''
  return `${sign}${symbol}${indianGrouping(Math.floor(absolute / 100))}${paiseDigits}`
}

/** 3500000 → "₹35,000.00". */
export function formatRupees(paise: number): string {
  return amount(paise, 2, '₹')
}

/** 3500000 → "₹35,000", for headline prices that are whole rupees. */
export function formatWholeRupees(paise: number): string {
  return paise % 100 === 0 ? amount(paise, 0, '₹') : formatRupees(paise)
}

/** 3500000 → "35,000", 3500050 → "35,000.50": an amount as a form shows it for editing. */
export function paiseToRupeesInput(paise: number): string {
  return amount(paise, paise % 100 === 0 ? 0 : 2)
}

/**
 * 3500000 → "35000.00", -5 → "-0.05": rupees as a plain decimal, without grouping or symbol, as
 * spreadsheets and structured data read them.
 */
export function paiseToDecimalRupees(paise: number): string {
  const sign = paise < 0 ? '-' : ''
  const absolute = Math.abs(paise)
  return `${sign}${Math.trunc(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`
}

/** "3499", "5" → 349950: whole and decimal digits as an exact integer of hundredths (no floating point). */
function hundredths(whole: string, decimals = ''): number {
  return Number(whole) * 100 + Number(decimals.padEnd(2, '0'))
}

/**
 * Rupees as a person types them ("35000", "35,000", "₹3,499.50") → integer paise, exactly (no
 * floating point); null for anything else.
 */
export function rupeesToPaise(text: string): number | null {
  const match = /^\s*₹?\s*(\d{1,3}(?:,\d{2,3})*|\d+)(?:\.(\d{1,2}))?\s*$/.exec(text)
  if (!match) return null
  const paise = hundredths(match[1]!.replaceAll(',', ''), match[2])
  return Number.isSafeInteger(paise) ? paise : null
}

// The GST rate is kept as an integer of basis points (1800 = 18 %), so rates such as 0.25 % are exact.

/** "18" → 1800, "12.5" → 1250, "0.25" → 25, "18 %" → 1800; null when it is not such a number. */
export function percentToBasisPoints(input: string): number | null {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(input.replace(/[%\s]/g, ''))
  return match ? hundredths(match[1]!, match[2]) : null
}

/** 1800 → "18", 1250 → "12.5", 25 → "0.25": a rate as the settings form shows it for editing. */
export function basisPointsToPercentInput(basisPoints: number): string {
  return decimalText(basisPoints, 2)
}

/** 1800 → "18%", 25 → "0.25%": the GST rate as receipts and the audit log print it. */
export function formatGstRate(basisPoints: number): string {
  return `${decimalText(basisPoints, 2)}%`
}

/** 1800 → "9%", 25 → "0.125%": the CGST or the SGST rate, each half the GST rate of an intra-state supply. */
export function formatHalfGstRate(basisPoints: number): string {
  return `${decimalText(basisPoints * 5, 3)}%`
}

/** 1250, 2 → "12.5": an integer scaled down by 10^decimals, without trailing zeros. */
function decimalText(scaled: number, decimals: number): string {
  const unit = 10 ** decimals
  const fraction = String(scaled % unit).padStart(decimals, '0').replace(/0+$/, '')
  return `${Math.trunc(scaled / unit)}${fraction ? `.${fraction}` : ''}`
}

type GstSplit = { taxablePaise: number; cgstPaise: number; sgstPaise: number }

/** The taxable value a GST-inclusive total holds: total × 10000 / (10000 + rate in basis points), to the nearest paisa. */
function taxableOf(totalPaise: number, rateBasisPoints: number): bigint {
  if (!Number.isSafeInteger(totalPaise) || totalPaise < 0) throw new RangeError(`Not an amount in paise: ${totalPaise}`)
  if (!Number.isSafeInteger(rateBasisPoints) || rateBasisPoints < 0) throw new RangeError(`Not a GST rate in basis points: ${rateBasisPoints}`)
  const divisor = 10_000n + BigInt(rateBasisPoints)
  return (2n * BigInt(totalPaise) * 10_000n + divisor) / (2n * divisor)
}

/**
 * Splits a GST-inclusive total into its taxable value and the CGST and SGST halves of an
 * intra-state supply, exactly in paise: the taxable value is total × 10000 / (10000 + rate in basis
 * points) rounded to the nearest paisa, the GST is the rest, and when it is an odd number of paise
 * the extra paisa is CGST's. Integer arithmetic throughout, so rates such as 0.25 % round no differently.
 */
export function splitGst(totalPaise: number, rateBasisPoints: number): GstSplit {
  const taxable = taxableOf(totalPaise, rateBasisPoints)
  const gst = BigInt(totalPaise) - taxable
  const sgst = gst / 2n
  return { taxablePaise: Number(taxable), cgstPaise: Number(gst - sgst), sgstPaise: Number(sgst) }
}

/**
 * Splits a GST-inclusive total into its taxable value and the IGST of an inter-state supply (a
 * service performed in another state), exactly in paise: the same taxable value as splitGst, the
 * whole of the GST as one IGST amount.
 */
export function splitIgst(totalPaise: number, rateBasisPoints: number): { taxablePaise: number; igstPaise: number } {
  const taxable = taxableOf(totalPaise, rateBasisPoints)
  return { taxablePaise: Number(taxable), igstPaise: totalPaise - Number(taxable) }
}

/** A percentage (in basis points) or an amount (in paise) off a price: a promo code, a camp's sibling price. */
export type Discount = { kind: 'percent' | 'amount'; value: number }

/**
 * What a discount takes off one price, in whole paise: a percentage rounded to the nearest paisa
 * (half up), an amount as it stands; never more than the price, so nothing costs less than zero.
 */
export function discountOff(pricePaise: number, discount: Discount): number {
  if (!Number.isSafeInteger(pricePaise) || pricePaise < 0) throw new RangeError(`Not an amount in paise: ${pricePaise}`)
  const off = discount.kind === 'percent' ? Number((2n * BigInt(pricePaise) * BigInt(discount.value) + 10_000n) / 20_000n) : discount.value
  return Math.min(Math.max(off, 0), pricePaise)
}

/**
 * What a discount takes off an order of several prices, line by line, whole paise each: a percentage
 * off each line; an amount off the order as a whole, shared across the lines in proportion to their
 * prices (the paise left over by rounding go to the first lines), never more than the order.
 */
export function discountsOff(pricesPaise: readonly number[], discount: Discount): number[] {
  if (discount.kind === 'percent') return pricesPaise.map((price) => discountOff(price, discount))
  const total = pricesPaise.reduce((sum, price) => sum + price, 0)
  const off = discountOff(total, discount)
  if (total === 0) return pricesPaise.map(() => 0)
  const shares = pricesPaise.map((price) => Math.floor((price * off) / total))
  let left = off - shares.reduce((sum, share) => sum + share, 0)
  for (let i = 0; left > 0; i = (i + 1) % shares.length) {
    if (shares[i]! < pricesPaise[i]!) {
      shares[i] = shares[i]! + 1
      left -= 1
    }
  }
  return shares
}
