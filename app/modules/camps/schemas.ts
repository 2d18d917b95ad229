// The camp registration form's rules and the messages a parent sees, used by the server action and, in the
// browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import { promoCodeField } from '~/modules/promotions/schemas'
import { emailField, personNameField } from '~/modules/accounts/schemas'

export const CAMP_DECLARATION_MESSAGE = 'Please confirm that the swimmer is 18 or older, or that you are their parent or guardian and agree to the Privacy Policy'

const code = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^[a-z0-9_-]{1,40}$/, message)

export const CampRegistrationSchema = z.object({
  name: personNameField(),
  email: emailField,
  phone_number: z
    .string({ error: 'Phone number must be at least 10 digits' })
    .trim()
    .min(10, 'Phone number must be at least 10 digits')
    .max(20, 'Please use at most 20 characters')
    .regex(/^[+\d][\d\s()-]*$/, 'Please enter a phone number, using digits, spaces, + and -'),
  camp: code('Please select a camp'),
  batch: code('Please select a batch'),
  promoCode: promoCodeField,
  /** The swimmer is an adult, or the person registering is their parent or guardian and agrees to the Privacy Policy: never ticked for them. */
  guardianDeclaration: z
    .string({ error: CAMP_DECLARATION_MESSAGE })
    .optional()
    .refine((value) => value === 'on', CAMP_DECLARATION_MESSAGE)
    .transform(() => true as const),
})

export type CampRegistrationInput = z.output<typeof CampRegistrationSchema>
