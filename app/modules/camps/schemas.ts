// The camp registration form's rules and the messages a parent sees, used by the server action and, in the
// browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import { emailField, personNameField } from '~/modules/accounts/schemas'

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
})

export type CampRegistrationInput = z.output<typeof CampRegistrationSchema>
