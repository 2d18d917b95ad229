// The signed-in camp registration form (an account's swimmers, chosen together), used by the server
// action and, in the browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import { CampRegistrationSchema } from './schemas'

/** An account holds at most this many swimmers (MAX_SWIMMERS_PER_ACCOUNT): no form chooses more. */
const MAX_CHOSEN = 20

export const CHOOSE_A_SWIMMER = 'Please choose at least one swimmer'

export const CampFamilySchema = z.object({
  swimmers: z
    .array(z.string().regex(/^\d{1,9}$/, CHOOSE_A_SWIMMER), { error: CHOOSE_A_SWIMMER })
    .min(1, CHOOSE_A_SWIMMER)
    .max(MAX_CHOSEN, `Please choose at most ${MAX_CHOSEN} swimmers`),
  phone_number: CampRegistrationSchema.shape.phone_number,
  whatsappOptIn: CampRegistrationSchema.shape.whatsappOptIn,
  camp: CampRegistrationSchema.shape.camp,
  batch: CampRegistrationSchema.shape.batch,
  promoCode: CampRegistrationSchema.shape.promoCode,
})

export type CampFamilyInput = z.output<typeof CampFamilySchema>
