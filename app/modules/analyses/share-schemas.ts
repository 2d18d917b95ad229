import { z } from 'zod'
import { emailField } from '~/modules/forms/fields'

/** How long a coach's link works, in days: the choices the form offers. */
export const SHARE_DAYS = ['7', '30', '90', '180'] as const
export const DEFAULT_SHARE_DAYS = '90'

export const SHARE_SCOPES = [
  { value: 'swimmer', label: 'All of this swimmer’s results' },
  { value: 'analysis', label: 'Only this analysis' },
] as const

/** A link for a coach: what it shows, for how long, and whom to e-mail it to (if anyone). */
export const ShareLinkSchema = z.object({
  scope: z.enum(['swimmer', 'analysis'], { error: 'Please choose what the link shows' }),
  days: z.enum(SHARE_DAYS, { error: 'Please choose how long the link works' }),
  coachEmail: emailField.optional(),
})

export type ShareLinkInput = z.output<typeof ShareLinkSchema>
