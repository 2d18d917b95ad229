// The staff's testimonial forms, checked by the admin action and, in the browser, as staff type.
import { z } from 'zod'
import { declarationField, emailField, personNameField, text } from '~/modules/forms/fields'
import { photoIdField } from '~/modules/media/schemas'

export const QUOTE_MAX = 600
export const ROLE_MAX = 80

/**
 * The words as the site shows them: one paragraph, so the line breaks and runs of spaces a paste
 * brings are made single spaces before they are checked.
 */
const quoteField = z
  .string({ error: 'Enter their words.' })
  .transform((value) => value.replace(/\s+/g, ' '))
  .pipe(text('Enter their words.', 1, QUOTE_MAX))

export const TestimonialSchema = z.object({
  quote: quoteField,
  // Their name is in the e-mail that asks them: the site's rule for names keeps it free of links.
  name: personNameField({ required: 'Enter the name to show', max: 100 }),
  role: text(`Enter their role, such as "parent of a 12-year-old", in up to ${ROLE_MAX} characters.`, 1, ROLE_MAX),
  photoId: photoIdField,
  email: emailField,
  aboutMinor: declarationField,
})

export type TestimonialFields = z.output<typeof TestimonialSchema>

export const EditTestimonialSchema = TestimonialSchema.extend({ id: z.coerce.number().int().positive() })

export const TestimonialIdSchema = z.object({ id: z.coerce.number().int().positive() })
