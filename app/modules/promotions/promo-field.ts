// The promo code's field on every form that takes one: read the same way on the server wherever it
// is sent. Nothing server-only may be imported here.

/** The promo code's form field. */
export const PROMO_FIELD = 'promoCode'

/** The code typed, or null when the field was left empty (no code is not a refusal). */
export function typedPromoCode(formData: FormData): string | null {
  const value = formData.get(PROMO_FIELD)
  return typeof value === 'string' && value.trim() ? value : null
}
