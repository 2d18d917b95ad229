import { data } from 'react-router'

/**
 * A field people never see or fill in (it is off-screen and hidden from assistive technology);
 * simple bots fill in every field they find.
 */
export const HONEYPOT_FIELD = 'website_url'

/** Refuses a submission whose honeypot field is filled in, before anything else happens. */
export function rejectBots(formData: FormData) {
  const value = formData.get(HONEYPOT_FIELD)
  if (typeof value === 'string' && value.length > 0) {
    throw data({ error: 'Your submission could not be accepted.' }, { status: 400 })
  }
}
