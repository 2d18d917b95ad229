import { formatWholeRupees } from '~/lib/money'

/** How a camp registration's confirmation (its page and its e-mail) begins: the amount paid, or that a promo code covered it. */
export function campPaidSentence(amountPaise: number) {
  return amountPaise === 0 ? 'No payment was needed: the promo code covered the full price.' : `${formatWholeRupees(amountPaise)} payment completed successfully.`
}
