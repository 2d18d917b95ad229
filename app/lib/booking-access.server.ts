import { data } from 'react-router'
import { isLinkKey, linkKey } from '~/db/secrets.server'
import { bookingByReference } from '~/modules/booking/bookings.server'
import { GUEST_BOOKING_LINK } from '~/modules/booking/public-booking.server'
import { requireUser } from './auth.server'
import { refuseNul } from './nul.server'

/**
 * A booking someone wants to act on (reschedule, cancel): allowed for the holder of its private
 * link, its account, an account verified for the address it was booked under, and staff. Anyone
 * else gets 404, the same answer as for a booking that does not exist. Also says where to go back.
 */
export async function bookingForChange(request: Request, reference: string) {
  refuseNul(request, { reference })
  const key = new URL(request.url).searchParams.get('key')
  const booking = await bookingByReference(reference)
  if (key) {
    if (!booking || !(await isLinkKey(GUEST_BOOKING_LINK, reference, key))) throw data('Not found', { status: 404 })
    return { booking, backTo: `/booking/view?${new URLSearchParams({ ref: reference, key })}`, linkQuery: `?${new URLSearchParams({ key })}`, staff: null }
  }
  const user = await requireUser(request)
  const owns = booking && (booking.userId === user.id || (booking.userId === null && booking.customerEmail === user.email.toLowerCase()))
  if (!booking || !(owns || user.isAdmin)) throw data('Not found', { status: 404 })
  // Staff acting on someone else's booking are not bound by the 24-hour rule, and are audited.
  const staff = !owns && user.isAdmin ? { id: user.id, email: user.email } : null
  return { booking, backTo: staff ? `/admin/bookings/${encodeURIComponent(reference)}` : '/my-bookings', linkQuery: '', staff }
}

/** The private link of a guest's booking (its page, and what to append to the change pages' URLs). */
export async function guestBookingKey(reference: string) {
  return linkKey(GUEST_BOOKING_LINK, reference)
}
