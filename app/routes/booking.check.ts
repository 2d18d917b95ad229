import { data } from 'react-router'
import type { Route } from './+types/booking.check'
import { BOOKING_STATUS_LINK, isLinkKey } from '~/lib/private-links.server'
import { paymentStatusView } from '~/modules/booking/bookings.server'
import { guestLinkOpenFor } from '~/modules/booking/guest-links.server'
import { checkPaymentForPage } from '~/modules/payments/payments.server'

/** The small JSON answer /booking's confirmation step polls, for holders of the link's key. */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const orderId = params.get('orderId')
  if (!orderId || !(await isLinkKey(BOOKING_STATUS_LINK, orderId, params.get('key')))) return data({ state: null, error: 'Payment record not found' }, { status: 404 })
  await checkPaymentForPage(orderId)
  const view = await paymentStatusView({ orderId, access: { linkKeyChecked: true } })
  if (!view) return data({ state: null, error: 'Payment record not found' }, { status: 404 })
  if (!(await guestLinkOpenFor(view.booking.id))) return data({ state: null, error: 'This link has expired.' }, { status: 410 })
  return data({ state: view.paymentState === 'initiated' ? 'pending' : view.paymentState }, { headers: { 'Cache-Control': 'no-store' } })
}
