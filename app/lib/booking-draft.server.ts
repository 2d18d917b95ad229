import { createCookie } from 'react-router'
import { config } from '~/config.server'
import { PublicBookingSchema, type PublicBookingInput } from '~/modules/booking/schemas'

/**
 * Step 1's details of /booking, kept between the steps in an httpOnly cookie: they survive a
 * reload and a trip to the payment gateway, work without JavaScript, and stay out of URLs (and so
 * out of logs and history). Whatever the cookie says is validated again on every read.
 */
function draftCookie() {
  return createCookie('booking_draft', { httpOnly: true, sameSite: 'lax', path: '/', secure: config().SITE_URL.startsWith('https://'), maxAge: 24 * 60 * 60 })
}

export async function readDraft(request: Request): Promise<PublicBookingInput | null> {
  const value = await draftCookie().parse(request.headers.get('Cookie'))
  const parsed = PublicBookingSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}

export function draftHeader(details: PublicBookingInput) {
  return draftCookie().serialize(details)
}

export function clearDraftHeader() {
  return draftCookie().serialize('', { maxAge: 0 })
}
