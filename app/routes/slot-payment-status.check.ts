import { data } from 'react-router'
import type { Route } from './+types/slot-payment-status.check'
import { getUser } from '~/lib/auth.server'
import { paymentStatusView } from '~/modules/booking/bookings.server'
import { checkPaymentForPage } from '~/modules/payments/payments.server'

/** The small JSON answer the status page polls: the payment's state, for its owner only. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getUser(request)
  if (!user) return data({ state: null, error: 'Sign in to see this payment' }, { status: 401 })
  const orderId = new URL(request.url).searchParams.get('orderId')
  // PostgreSQL cannot compare text holding a NUL character: such an order id is simply not found.
  const view = orderId && !orderId.includes('\u0000') ? await paymentStatusView({ orderId, access: { userId: user.id } }) : null
  if (!view) return data({ state: null, error: 'Slot booking payment record not found' }, { status: 404 })
  await checkPaymentForPage(view.orderId)
  const after = await paymentStatusView({ orderId: view.orderId, access: { userId: user.id } })
  const state = after?.paymentState === 'initiated' ? 'pending' : (after?.paymentState ?? view.paymentState)
  return data({ state, error: null }, { headers: { 'Cache-Control': 'no-store' } })
}
