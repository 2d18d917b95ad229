import { data } from 'react-router'
import type { Route } from './+types/payment-status.check'
import { CAMP_STATUS_LINK, isLinkKey } from '~/lib/private-links.server'
import { campPaymentView } from '~/modules/camps/status.server'
import { checkPaymentForPage } from '~/modules/payments/payments.server'

/** The small JSON answer the camp status page polls, for holders of the link's key only. */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const orderId = params.get('orderId')
  if (!orderId || !(await isLinkKey(CAMP_STATUS_LINK, orderId, params.get('key')))) return data({ state: null, error: 'Payment record not found' }, { status: 404 })
  await checkPaymentForPage(orderId)
  const view = await campPaymentView(orderId)
  if (!view) return data({ state: null, error: 'Payment record not found' }, { status: 404 })
  const state = view.paymentState === 'initiated' ? 'pending' : view.paymentState
  return data({ state, error: null }, { headers: { 'Cache-Control': 'no-store' } })
}
