// What an order costs, as the customer is shown it before paying and everything after reads it: a
// line for each swimmer (the fee, less the sibling price and the promo code's share), the code, and
// the total the gateway asks. No server-only imports: the pages render these rows as they are.
import { formatRupees } from '~/lib/money'

export type QuoteLine = {
  /** The line's own row (a booking, or one swimmer's registration). */
  id: number
  /** What it is for, as its line reads: "Camp fee for Aarav Sharma". */
  label: string
  /** Who it is for: the sibling price's line names them. */
  swimmerName: string
  feePaise: number
  siblingDiscountPaise: number
  promoDiscountPaise: number
  /** What the line is charged: the fee less both discounts. */
  amountPaise: number
}

export type Quote = {
  lines: QuoteLine[]
  promo: { code: string; discountPaise: number } | null
  /** What the gateway asks: the sum of the lines' amounts. */
  totalPaise: number
}

/** A line as charged: its fee less the sibling price and the promo code's share. Every quoted line, stored or previewed, is made here. */
export function quoteLine(parts: Omit<QuoteLine, 'amountPaise'>): QuoteLine {
  return { ...parts, amountPaise: parts.feePaise - parts.siblingDiscountPaise - parts.promoDiscountPaise }
}

/** A quote made of its lines and the order's code: the code's discount and the total are always the lines' sums. */
export function quoteOf(lines: QuoteLine[], promoCode: string | null): Quote {
  const sum = (pick: (line: QuoteLine) => number) => lines.reduce((total, line) => total + pick(line), 0)
  return { lines, promo: promoCode ? { code: promoCode, discountPaise: sum((line) => line.promoDiscountPaise) } : null, totalPaise: sum((line) => line.amountPaise) }
}

export type QuoteRow = { term: string; value: string }

/**
 * The answer to the camp forms asking the price of what they describe (/onboarding/quote): the rows of
 * the quote and the total the gateway will ask, and why a code was left off (for its field); or why
 * nothing could be priced.
 */
export type CampQuoteAnswer = { rows: QuoteRow[]; total: string; promoError: string | null; error: null } | { rows: null; total: null; promoError: null; error: string }

/**
 * The quote as rows that add up: each line's fee, each sibling price taken off it, the promo code's
 * discount, and the total. The summary, the status page and the e-mails show these same rows.
 */
export function quoteRows(quote: Quote, totalTerm = 'Total'): QuoteRow[] {
  return [
    ...quote.lines.map((line) => ({ term: line.label, value: formatRupees(line.feePaise) })),
    ...quote.lines.filter((line) => line.siblingDiscountPaise > 0).map((line) => ({ term: `Sibling price for ${line.swimmerName}`, value: `−${formatRupees(line.siblingDiscountPaise)}` })),
    ...(quote.promo && quote.promo.discountPaise > 0 ? [{ term: `Promo code ${quote.promo.code}`, value: `−${formatRupees(quote.promo.discountPaise)}` }] : []),
    { term: totalTerm, value: formatRupees(quote.totalPaise) },
  ]
}
