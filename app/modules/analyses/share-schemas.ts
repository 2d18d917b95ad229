import { z } from 'zod'
import { emailField } from '~/modules/forms/fields'
import { SHARE_DAYS } from './share-choices'

/** A link for a coach: what it shows, for how long, and whom to e-mail it to (if anyone). */
export const ShareLinkSchema = z.object({
  scope: z.enum(['swimmer', 'analysis'], { error: 'Please choose what the link shows' }),
  days: z.enum(SHARE_DAYS, { error: 'Please choose how long the link works' }),
  coachEmail: emailField.optional(),
})

export type ShareLinkInput = z.output<typeof ShareLinkSchema>
