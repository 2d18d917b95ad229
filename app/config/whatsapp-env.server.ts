import { z } from 'zod'

/**
 * The WhatsApp Business Cloud API's settings. All four secrets together turn WhatsApp on; none
 * leaves it off (the site then sends e-mail only, as without WhatsApp). `whatsappConfigProblems`
 * names what is missing when only some are set.
 */
export const WhatsAppEnvSchema = z.object({
  /** A system user's permanent access token for the WhatsApp Business Account. */
  WHATSAPP_ACCESS_TOKEN: z.string().min(20, 'must be the access token from Meta (a long string)').optional(),
  /** The id of the lab's business phone number in the Cloud API (digits, not the number itself). */
  WHATSAPP_PHONE_NUMBER_ID: z.string().regex(/^\d{6,20}$/, 'must be the phone number id from Meta (digits only, not the phone number)').optional(),
  /** The Meta app's secret: signs every webhook notification (X-Hub-Signature-256). */
  WHATSAPP_APP_SECRET: z.string().min(16, 'must be the app secret from Meta (at least 16 characters)').optional(),
  /** A string of your choice, given to Meta with the webhook address, which Meta sends back to verify it. */
  WHATSAPP_VERIFY_TOKEN: z.string().min(16, 'must be at least 16 characters (choose a random string)').optional(),
  /** The Graph API's address with its version; a local fake in tests. */
  WHATSAPP_API_URL: z
    .url({ message: 'must be an absolute URL such as https://graph.facebook.com/v23.0' })
    .transform((url) => url.replace(/\/+$/, ''))
    .default('https://graph.facebook.com/v23.0'),
})

type ConfigProblem = { path: string; message: string }

const REQUIRED = ['WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN'] as const

/** Some WhatsApp settings without the others: each missing one is named (blank counts as unset). */
export function whatsappConfigProblems(env: Record<string, unknown>): ConfigProblem[] {
  const present = (name: string) => env[name] !== undefined && env[name] !== null && env[name] !== ''
  const given = REQUIRED.filter(present)
  if (given.length === 0 || given.length === REQUIRED.length) return []
  return REQUIRED.filter((name) => !present(name)).map((name) => ({
    path: name,
    message: `required with ${given.join(', ')}: set all four WhatsApp settings, or none to leave WhatsApp off`,
  }))
}
