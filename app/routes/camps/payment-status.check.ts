import type { Route } from './+types/payment-status.check'
import { CAMP_STATUS_LINK, isLinkKey } from '~/lib/private-links.server'
import { orderCheck } from '~/web/payments/order-status.server'
import { campPaymentView } from '~/modules/camps/status.server'

/** The small JSON answer the camp status page polls, for holders of the link's key only. */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const key = params.get('key')
  return orderCheck({
    find: async (orderId) => ((await isLinkKey(CAMP_STATUS_LINK, orderId, key)) ? campPaymentView(orderId) : null),
    orderId: params.get('orderId'),
    notFound: 'Payment record not found',
  })
}
