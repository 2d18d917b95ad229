import { data } from 'react-router'
import type { PaymentState } from '~/db/schema'
import { secondsBetween } from '~/lib/lab-time'
import { checkPaymentForPage } from '~/modules/payments/payments.server'
import { getSiteSettings } from '~/modules/site/site.server'

/**
 * What every product's payment status page and its polling share (the 3-day session's, /booking's
 * confirmation step, a camp's): the order found for whoever may follow it, asked of the gateway
 * while it waits, how long the customer has waited, and whom to contact. Each product supplies only
 * how its order is found (which also says who may see it) and its texts.
 */

type Followable = { orderId: string; paymentState: PaymentState }

/** Finds an order; null when there is none this caller may see. */
export type OrderFinder<View extends Followable> = (orderId: string) => Promise<View | null>

/** The state a customer sees: an order the gateway has not acknowledged yet is simply pending. */
export type ShownPaymentState = 'pending' | 'completed' | 'failed'
export const shownState = (state: PaymentState): ShownPaymentState => (state === 'initiated' ? 'pending' : state)

/**
 * The order as it stands now: while it waits, the gateway is asked first (at most every few
 * seconds, whoever asks), then the order is read again.
 */
export async function followOrder<View extends Followable>(find: OrderFinder<View>, orderId: string): Promise<View | null> {
  // PostgreSQL cannot compare text holding a NUL character: such an order id is simply not found.
  if (orderId.includes('\u0000')) return null
  const view = await find(orderId)
  if (!view || shownState(view.paymentState) !== 'pending') return view
  await checkPaymentForPage(view.orderId)
  return find(view.orderId)
}

/**
 * The small JSON answer a status page polls: the order's state. `notFound` is the product's own
 * words for an order this caller cannot see; `gone` says when a link that found it no longer works.
 */
export async function orderCheck<View extends Followable>({ find, orderId, notFound, gone }: { find: OrderFinder<View>; orderId: string | null; notFound: string; gone?: (view: View) => Promise<string | null> }) {
  const view = orderId ? await followOrder(find, orderId) : null
  if (!view) return data({ state: null, error: notFound }, { status: 404 })
  const goneMessage = gone ? await gone(view) : null
  if (goneMessage) return data({ state: null, error: goneMessage }, { status: 410 })
  return data({ state: shownState(view.paymentState), error: null }, { headers: { 'Cache-Control': 'no-store' } })
}

/**
 * What a status page's loader starts with: since when the customer has waited (without JavaScript
 * the page reloads itself and carries `since` along), whether they asked to check once more, and the
 * lab's support contacts for when something went wrong.
 */
export async function statusPageBasics(url: URL) {
  const settings = await getSiteSettings()
  const now = Date.now()
  const since = Number(url.searchParams.get('since'))
  const startedAt = Number.isSafeInteger(since) && since > 0 && since <= now ? since : now
  return {
    support: { email: settings.supportEmail, phone: settings.phone, hours: settings.phoneHours },
    startedAt,
    elapsed: Math.floor(secondsBetween(startedAt, now)),
    recheck: url.searchParams.get('recheck') === '1',
  }
}
