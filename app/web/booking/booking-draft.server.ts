import { createCookie } from 'react-router'
import { config } from '~/config.server'
import { instanceSecret } from '~/db/secrets.server'
import { PublicBookingSchema, type PublicBookingInput } from '~/modules/booking/schemas'

/**
 * Step 1's details of /booking, kept between the steps in an httpOnly cookie: they survive a
 * reload and a trip to the payment gateway, work without JavaScript, and stay out of URLs (and so
 * out of logs and history). It is signed, so what step 2 pays for is what step 1 checked; whatever
 * it says is validated again on every read all the same.
 */
async function draftCookie() {
  return createCookie('booking_draft', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: config().SITE_URL.startsWith('https://'),
    maxAge: 24 * 60 * 60,
    secrets: [await instanceSecret('booking_draft')],
  })
}

export async function readDraft(request: Request): Promise<PublicBookingInput | null> {
  const value = await (await draftCookie()).parse(request.headers.get('Cookie'))
  const parsed = PublicBookingSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}

/** The promo code the customer applied on step 2, kept with the draft; checked again whenever it is used. */
export async function readDraftPromoCode(request: Request): Promise<string | null> {
  const value: unknown = await (await draftCookie()).parse(request.headers.get('Cookie'))
  const code = value && typeof value === 'object' && 'promoCode' in value ? value.promoCode : null
  return typeof code === 'string' ? code : null
}

export async function draftHeader(details: PublicBookingInput, promoCode: string | null = null) {
  return (await draftCookie()).serialize(promoCode ? { ...details, promoCode } : details)
}

export async function clearDraftHeader() {
  return (await draftCookie()).serialize('', { maxAge: 0 })
}
