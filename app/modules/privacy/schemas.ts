// The forms of /account/data, used by the server and, in the browser, for checking as you type.
// Nothing server-only may be imported here.
import { z } from 'zod'
import { whatsappOptInField } from '~/lib/phone-field'
import { personNameField, whatsappNumberField } from '~/modules/forms/fields'

/** The account holder's own details: the same rules as in the registration form. */
export const profileSchema = z.object({
  name: personNameField(),
  phone: whatsappNumberField,
  whatsappOptIn: whatsappOptInField,
  currentLocation: z
    .string({ error: 'Current location is required' })
    .trim()
    .min(2, 'Current location is required')
    .max(100, 'Please use at most 100 characters')
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'Please remove special characters such as tabs or invisible marks'),
})

/** The code sent on WhatsApp to prove the account's number. */
export const numberCodeSchema = z.object({
  code: z
    .string({ error: 'Enter the 6-digit code sent to your WhatsApp number' })
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code sent to your WhatsApp number'),
})

export const PASSWORD_NEEDED = 'Enter your password, or ask for a code by e-mail'

/** Confirming a deletion: the account's password, or the six-digit code e-mailed for it. */
export const deletionSchema = z
  .object({
    password: z.string().max(200).optional(),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'Enter the 6-digit code from the e-mail')
      .optional(),
  })
  .refine((form) => Boolean(form.password || form.code), { message: PASSWORD_NEEDED, path: ['password'] })
