// How promo codes read, for parents (refusals) and staff (the console, the CSV). No server-only imports:
// the staff's forms use these in the browser too.
import type { DiscountKind, PromoProduct } from '~/db/schema'
import { basisPointsToPercentInput, formatRupees } from '~/lib/money'

/** What a code can apply to, in the order forms and lists name them. */
export const PROMO_PRODUCTS: ReadonlyArray<{ value: PromoProduct; label: string }> = [
  { value: 'three_day', label: '3-day analysis sessions' },
  { value: 'single', label: 'single sessions' },
  { value: 'camp', label: 'camps' },
]

const LABELS = new Map(PROMO_PRODUCTS.map((product) => [product.value, product.label]))

/** ['three_day', 'camp'] → "3-day analysis sessions and camps"; none (everything) → "everything". */
export function promoProductsText(products: readonly PromoProduct[]): string {
  const labels = PROMO_PRODUCTS.filter((product) => products.includes(product.value)).map((product) => product.label)
  if (labels.length === 0 || labels.length === PROMO_PRODUCTS.length) return 'everything'
  return labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`
}

/** The products' labels one by one (for a cell of the staff's list). */
export function promoProductLabel(product: PromoProduct): string {
  return LABELS.get(product) ?? product
}

/** 1000 basis points → "10%", 12.5 % → "12.5%"; 50000 paise → "₹500.00". */
export function promoDiscountText(kind: DiscountKind, value: number): string {
  return kind === 'amount' ? formatRupees(value) : `${basisPointsToPercentInput(value)}%`
}

/** 1 → "once", 2 → "twice", 5 → "5 times". */
export function timesText(count: number): string {
  return count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`
}

/** A promo code's discount as its own line of an order: { term: "Promo code SUMMER10", value: "−₹500.00" }. */
export function promoDiscountRow(promo: { code: string; discountPaise: number }) {
  return { term: `Promo code ${promo.code}`, value: `−${formatRupees(promo.discountPaise)}` }
}
