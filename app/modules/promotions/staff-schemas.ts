// The staff's promo code form: its rules and messages, used by the server actions and, in the
// browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import type { DiscountKind, PromoProduct } from '~/db/schema'
import { percentToBasisPoints, rupeesToPaise } from '~/lib/money'
import { optionalText } from '~/lib/text-fields'
import { dateField } from '~/modules/forms/fields'
import { PROMO_PRODUCTS } from './texts'

/** The largest amount a code may take off (₹10,00,000), far above any order and well inside an integer of paise. */
const MAX_AMOUNT_PAISE = 10_00_000_00
/** Far above any lab's sales, and well inside an integer. */
const MAX_USES = 1_000_000

const CODE_MESSAGE = 'Use 3 to 32 letters, digits, - or _, such as DIWALI25'
const DISCOUNT_MESSAGES: Record<DiscountKind, string> = {
  percent: 'Enter a percentage from 0.01 to 100, such as 10 or 12.5',
  amount: 'Enter an amount in rupees of at least ₹0.01, such as 500',
}

const uses = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,7}$/, `Enter ${what} as a whole number of at least 1, or leave it empty for no limit`)
    .transform(Number)
    .pipe(z.number().min(1, `Enter ${what} as a whole number of at least 1, or leave it empty for no limit`).max(MAX_USES, 'Enter at most 10,00,000, or leave it empty for no limit'))
    .optional()

export const PromoCodeSchema = z
  .object({
    code: z
      .string({ error: 'Please enter the code' })
      .trim()
      .regex(/^[A-Za-z0-9_-]{3,32}$/, CODE_MESSAGE)
      .transform((code) => code.toUpperCase()),
    description: optionalText(200),
    discountKind: z.enum(['percent', 'amount'], { error: 'Please choose a percentage or an amount' }),
    // Read against the kind chosen, below: a percentage or rupees.
    discountValue: z.string({ error: 'Please enter the discount' }).trim().max(20, 'Please enter the discount'),
    products: z.array(z.enum(['three_day', 'single', 'camp'])).optional(),
    validFrom: dateField('Please enter a date such as 2026-12-01').optional(),
    validUntil: dateField('Please enter a date such as 2026-12-31').optional(),
    maxUses: uses('the number of uses'),
    maxUsesPerCustomer: uses('the number of uses per customer'),
  })
  .superRefine((form, ctx) => {
    const kind = form.discountKind as DiscountKind | undefined
    if ((kind === 'percent' || kind === 'amount') && typeof form.discountValue === 'string' && discountOf(kind, form.discountValue) === null) {
      ctx.addIssue({ code: 'custom', path: ['discountValue'], message: DISCOUNT_MESSAGES[kind] })
    }
    // A code may be for a single day: from and until the same date.
    if (typeof form.validFrom === 'string' && typeof form.validUntil === 'string' && form.validUntil < form.validFrom) {
      ctx.addIssue({ code: 'custom', path: ['validUntil'], message: 'The last day cannot be before the first day' })
    }
  }, { when: () => true })

/** Basis points or paise, in the range the kind allows; null for anything else. */
function discountOf(kind: DiscountKind, text: string): number | null {
  if (kind === 'percent') {
    const basisPoints = percentToBasisPoints(text)
    return basisPoints !== null && basisPoints >= 1 && basisPoints <= 100_00 ? basisPoints : null
  }
  const paise = rupeesToPaise(text)
  return paise !== null && paise >= 1 && paise <= MAX_AMOUNT_PAISE ? paise : null
}

/** A promo code as the domain takes it: the discount in basis points or paise, the window as dates in Bangalore. */
export type PromoCodeDetails = {
  code: string
  description: string
  discountKind: DiscountKind
  discountValue: number
  /** None: everything. */
  products: PromoProduct[]
  /** From the start of this day (IST); none: from now. */
  validFrom: string | null
  /** Until the end of this day (IST); none: no end. */
  validUntil: string | null
  maxUses: number | null
  maxUsesPerCustomer: number | null
}

export function promoCodeDetails(form: z.output<typeof PromoCodeSchema>): PromoCodeDetails {
  return {
    code: form.code,
    description: form.description,
    discountKind: form.discountKind,
    discountValue: discountOf(form.discountKind, form.discountValue)!,
    products: PROMO_PRODUCTS.map((product) => product.value).filter((product) => form.products?.includes(product)),
    validFrom: form.validFrom ?? null,
    validUntil: form.validUntil ?? null,
    maxUses: form.maxUses ?? null,
    maxUsesPerCustomer: form.maxUsesPerCustomer ?? null,
  }
}
