import { z } from 'zod'

/** The optional promo code field of an order form (the camp forms): what was typed, checked by the checkout. */
export const promoCodeField = z.string().trim().max(64, 'Please use at most 64 characters').optional()
