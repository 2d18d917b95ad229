import { data } from 'react-router'
import type { Route } from './+types/slot-payment-status.check'
import { paymentStatusView } from '~/modules/booking/bookings.server'
import { getUser } from '~/web/auth.server'
import { orderCheck } from '~/web/payments/order-status.server'

/** The small JSON answer the session's status page polls: the payment's state, for its owner only. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getUser(request)
  if (!user) return data({ state: null, error: 'Sign in to see this payment' }, { status: 401 })
  return orderCheck({
    find: (orderId) => paymentStatusView({ orderId, access: { userId: user.id } }),
    orderId: new URL(request.url).searchParams.get('orderId'),
    notFound: 'Slot booking payment record not found',
  })
}
