// The form on the list of analysis days that asks to be told when the lab comes to a city: its
// rules and messages, used by the server action and, in the browser, as people type. Nothing
// server-only may be imported here.
import { z } from 'zod'
import { emailField, text } from '~/modules/forms/fields'

/** The longest city name the form takes. */
export const CITY_MAX_LENGTH = 60

export const CITY_MESSAGE = 'Enter the city, such as Pune'
export const CITY_LETTERS_MESSAGE = 'Enter the city in letters, such as Pune'

/**
 * A city's name: letters, with spaces, hyphens and apostrophes between them. The name is
 * repeated in the e-mail sent to the address typed, so it can carry no link (no dot) or number.
 */
const CITY_NAME = /^\p{L}[\p{L}\p{M} '’-]*$/u

export const CityAlertSchema = z.object({
  email: emailField,
  city: text(CITY_MESSAGE, 2, CITY_MAX_LENGTH).refine((city) => CITY_NAME.test(city), CITY_LETTERS_MESSAGE),
  whatsapp: z
    .string()
    .optional()
    .transform((value) => value === 'on'),
})

export type CityAlertInput = z.infer<typeof CityAlertSchema>
