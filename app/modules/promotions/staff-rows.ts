// A promo code as the staff's list and its CSV show it.
import type { DiscountKind, PromoProduct } from '~/db/schema'
import { addSeconds, formatLabDate, formatLastDayBefore, labDateParts } from '~/lib/lab-time'
import { formatRupees } from '~/lib/money'
import { promoDiscountText, promoProductsText } from './texts'

type PromoCodeWithUses = {
  code: string
  description: string
  discountKind: DiscountKind
  discountValue: number
  products: PromoProduct[]
  validFrom: Date | null
  validUntil: Date | null
  maxUses: number | null
  maxUsesPerCustomer: number | null
  active: boolean
  used: number
  held: number
  discountGivenPaise: number
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** The first and last day a code may be used (IST), or null for no limit on that side. */
export function promoValidDays(code: { validFrom: Date | null; validUntil: Date | null }) {
  return { from: code.validFrom ? formatLabDate(code.validFrom) : null, until: code.validUntil ? formatLastDayBefore(code.validUntil) : null }
}

/** The window as the form's dates (yyyy-mm-dd, IST): the last day is the one before the midnight the code stops at. */
export function promoValidDates(code: { validFrom: Date | null; validUntil: Date | null }) {
  return {
    validFrom: code.validFrom ? labDateParts(code.validFrom).date : undefined,
    validUntil: code.validUntil ? labDateParts(addSeconds(code.validUntil, -1)).date : undefined,
  }
}

/** "1 December 2026 to 31 December 2026", "From …", "Until …", or "Any time". */
function validityText(code: PromoCodeWithUses) {
  const { from, until } = promoValidDays(code)
  if (from && until) return `${from} to ${until}`
  if (from) return `From ${from}`
  if (until) return `Until ${until}`
  return 'Any time'
}

export function promoCodeRow(code: PromoCodeWithUses) {
  return {
    code: code.code,
    description: code.description,
    discount: promoDiscountText(code.discountKind, code.discountValue),
    products: capitalised(promoProductsText(code.products)),
    validity: validityText(code),
    uses: `${code.used} / ${code.maxUses ?? 'unlimited'}`,
    held: `${code.held} held now`,
    perCustomer: code.maxUsesPerCustomer === null ? 'Unlimited' : String(code.maxUsesPerCustomer),
    discountGiven: formatRupees(code.discountGivenPaise),
    status: code.active ? 'Active' : 'Inactive',
  }
}
