import type { Route } from './+types/booking.check'
import { BOOKING_STATUS_LINK, isLinkKey } from '~/lib/private-links.server'
import { orderCheck } from '~/web/payments/order-status.server'
import { paymentStatusView } from '~/modules/booking/bookings.server'
import { guestLinkOpenFor } from '~/modules/booking/guest-links.server'

/** The small JSON answer /booking's confirmation step polls, for holders of the link's key. */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const key = params.get('key')
  return orderCheck({
    find: async (orderId) => ((await isLinkKey(BOOKING_STATUS_LINK, orderId, key)) ? paymentStatusView({ orderId, access: { linkKeyChecked: true } }) : null),
    orderId: params.get('orderId'),
    notFound: 'Payment record not found',
    gone: async (view) => ((await guestLinkOpenFor(view.booking.id)) ? null : 'This link has expired.'),
  })
}
