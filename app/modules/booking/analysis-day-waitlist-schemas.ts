// The form that puts a swimmer on the waitlist of a sold-out analysis day: its rules and messages,
// used by the server action and, in the browser, as people type. Nothing server-only may be imported here.
import { z } from 'zod'
import { INVALID_PHONE_NUMBER, phoneField } from '~/lib/phone-field'
import { emailField, personNameField } from '~/modules/forms/fields'

export const DayWaitlistSchema = z.object({
  swimmerName: personNameField({ required: "Swimmer's name must be at least 2 characters" }),
  email: emailField,
  phone: phoneField({ tooShort: 'Phone number must be at least 10 digits', invalid: INVALID_PHONE_NUMBER }).optional(),
})

export type DayWaitlistInput = z.output<typeof DayWaitlistSchema>
