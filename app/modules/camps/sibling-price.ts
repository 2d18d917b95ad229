// A camp's sibling price: a family's second and each further swimmer registered for the same camp
// pays less. What each swimmer of a family pays, worked out the same way by the server when it holds
// their seats and by the registration form in the browser while the parent ticks swimmers. Nothing
// server-only may be imported here.
import { basisPointsToPercentInput, discountOff, formatWholeRupees, type Discount } from '~/lib/money'

/** A camp's sibling price as stored: none, or a percentage (basis points) or amount (paise) off. */
export function siblingDiscountOf(camp: { siblingDiscountKind: Discount['kind'] | null; siblingDiscountValue: number }): Discount | null {
  return camp.siblingDiscountKind ? { kind: camp.siblingDiscountKind, value: camp.siblingDiscountValue } : null
}

/** One swimmer's registration: the fee in force, what the sibling price takes off it, and what is charged. */
export type SwimmerPrice = { feePaise: number; siblingDiscountPaise: number; amountPaise: number }

/**
 * What each of `count` swimmers of one family, registered together, pays for a camp whose fee is
 * `feePaise`: the first pays the fee and each further one the sibling price; when an earlier swimmer
 * of the family is already paid for, every one of them pays the sibling price.
 */
export function swimmerPrices(feePaise: number, sibling: Discount | null, count: number, earlierSiblingPaid: boolean): SwimmerPrice[] {
  return Array.from({ length: count }, (_, index) => {
    const siblingDiscountPaise = sibling && (earlierSiblingPaid || index > 0) ? discountOff(feePaise, sibling) : 0
    return { feePaise, siblingDiscountPaise, amountPaise: feePaise - siblingDiscountPaise }
  })
}

/** "10% off", "₹2,000 off": how much the sibling price takes off. */
export function siblingDiscountText(sibling: Discount) {
  return sibling.kind === 'percent' ? `${basisPointsToPercentInput(sibling.value)}% off` : `${formatWholeRupees(sibling.value)} off`
}

/** "Each further swimmer of your family: ₹31,500 (10% off)": the sibling price next to a fee. */
export function siblingPriceText(feePaise: number, sibling: Discount) {
  const [price] = swimmerPrices(feePaise, sibling, 1, true)
  return `Each further swimmer of your family: ${formatWholeRupees(price!.amountPaise)} (${siblingDiscountText(sibling)})`
}

/** What staff read of a camp's sibling price: "10% off each further swimmer of a family". */
export function siblingPriceSummary(sibling: Discount) {
  return `${siblingDiscountText(sibling)} each further swimmer of a family`
}
