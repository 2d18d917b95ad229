// The camp registration form's rules and the messages a parent sees, used by the server action and, in the
// browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import { INVALID_PHONE_NUMBER, phoneField, whatsappOptInField } from '~/lib/phone-field'
import { promoCodeField } from '~/modules/promotions/schemas'
import { emailField, personNameField } from '~/modules/forms/fields'

export const CAMP_DECLARATION_MESSAGE = 'Please confirm that the swimmer is 18 or older, or that you are their parent or guardian and agree to the Privacy Policy'

const code = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^[a-z0-9_-]{1,40}$/, message)

export const CampRegistrationSchema = z.object({
  name: personNameField(),
  email: emailField,
  phone_number: phoneField({ tooShort: 'Phone number must be at least 10 digits', invalid: INVALID_PHONE_NUMBER }),
  /** Shown only when the site sends WhatsApp messages; the action ignores it otherwise. */
  whatsappOptIn: whatsappOptInField,
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
