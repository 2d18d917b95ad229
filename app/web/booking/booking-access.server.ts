import { data, href } from 'react-router'
import { GUEST_BOOKING_LINK, isLinkKey } from '~/lib/private-links.server'
import { bookingByReference } from '~/modules/booking/bookings.server'
import { guestLinkOpen } from '~/modules/booking/guest-links.server'
import { requireUser } from '~/web/auth.server'
import { refuseNul } from '~/web/nul.server'
import { notFoundUnless } from '~/web/refusals.server'
import { adminBookingLink, bookingViewLink } from '~/lib/links'

/** The answer to a guest link (or a receipt or report file it led to) past its end: the root's error page explains. */
export function linkExpired() {
  return data('This link has expired.', { status: 410 })
}

/**
 * A guest's booking from its private link (`ref` and `key`): null when the key is not this
 * booking's; throws 410 when the link has ended.
 */
export async function bookingFromGuestLink(reference: string, key: string | null | undefined, now = new Date()) {
  if (!(await isLinkKey(GUEST_BOOKING_LINK, reference, key))) return null
  const booking = await bookingByReference(reference)
  if (booking && !guestLinkOpen(booking, now)) throw linkExpired()
  return booking
}

/**
 * A booking someone wants to act on (reschedule, cancel): allowed for the holder of its private
 * link (until the link ends), its account, an account verified for the address it was booked
 * under, and staff. Anyone else gets 404, the same answer as for a booking that does not exist.
 * Also says where to go back.
 */
export async function bookingForChange(request: Request, reference: string) {
  refuseNul(request, { reference })
  const key = new URL(request.url).searchParams.get('key')
  if (key) {
    const booking = await bookingFromGuestLink(reference, key)
    notFoundUnless(booking)
    return { booking, backTo: bookingViewLink(reference, key), linkQuery: `?${new URLSearchParams({ key })}`, viaLink: true, staff: null }
  }
  const booking = await bookingByReference(reference)
  const user = await requireUser(request)
  const owns = booking && (booking.userId === user.id || (booking.userId === null && booking.customerEmail === user.email.toLowerCase()))
  notFoundUnless(booking && (owns || user.isAdmin))
  // Staff acting on someone else's booking are not bound by the 24-hour rule, and are audited.
  const staff = !owns && user.isAdmin ? { id: user.id, email: user.email } : null
  return { booking, backTo: staff ? adminBookingLink(reference) : href('/my-bookings'), linkQuery: '', viaLink: false, staff }
}
