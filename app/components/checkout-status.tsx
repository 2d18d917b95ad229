import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { POLL_SECONDS, usePaymentPolling } from '~/web/payments/use-payment-polling'
import { DetailRow, RefreshStatus, type StatusCard, StatusCardView, SupportDetails } from './payment-status-card'

export type OrderDetails = { id: string; title: string; rows: ReadonlyArray<{ term: string; value: string; href?: string | null }> }

/**
 * A payment's result, the same for everything the lab sells (a 3-day session, a single session, a
 * camp): the status card, kept current while the payment waits (polling with JavaScript, the page
 * reloading itself without), the order's details, the product's own next steps, Refresh Status and
 * the support contacts when something went wrong. The product gives its words and its buttons.
 */
export function CheckoutStatus({
  state,
  pageUrl,
  checkUrl,
  timing,
  card: cardFor,
  details,
  note,
  actions,
  homeLabel = 'Return Home',
  support,
}: {
  /** The order's state as the customer sees it; null when no order was found. */
  state: 'pending' | 'completed' | 'failed' | null
  /** This page's address for the order, with the extra parameters given; null when no order was found. */
  pageUrl: ((extra: Record<string, string>) => string) | null
  checkUrl: string | null
  timing: { startedAt: number; elapsed: number; recheck: boolean }
  /** The card for the state, given whether the page has stopped waiting and how long it waited. */
  card: (wait: { timedOut: boolean; elapsed: number }) => StatusCard
  details?: OrderDetails | null
  note?: string | null
  /** The product's own buttons, before Refresh Status, Contact Support and the way home. */
  actions?: ReactNode
  homeLabel?: string
  support: { email: string; phone: string; hours: string }
}) {
  const pending = state === 'pending'
  const { elapsed, timedOut, checking, refresh } = usePaymentPolling({ pending, checkUrl, initialElapsed: timing.elapsed, recheck: timing.recheck })
  const card = cardFor({ timedOut: Boolean(timedOut), elapsed })
  const autoRefresh = pending && !timedOut && pageUrl ? pageUrl({ since: String(timing.startedAt) }) : null
  const trouble = card.tone === 'error'

  return (
    <>
      {autoRefresh && (
        // Without JavaScript the page reloads itself every few seconds; with it, it polls instead.
        <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="${POLL_SECONDS};url=${autoRefresh.replace(/&/g, '&amp;')}">` }} />
      )}
      <StatusCardView card={card} autoRefreshing={Boolean(autoRefresh)} pollSeconds={POLL_SECONDS} />

      {details && (
        <section aria-labelledby={details.id} className="card mt-6 p-6 shadow-sm">
          <h2 id={details.id} className="text-lg font-bold text-ink">
            {details.title}
          </h2>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            {details.rows.map((row, index) => (
              <DetailRow key={`${row.term}-${index}`} term={row.term} value={row.value} href={row.href} />
            ))}
          </dl>
        </section>
      )}
      {note && <p className="mt-6 text-sm text-muted">{note}</p>}

      <div className="mt-6 flex flex-wrap gap-3">
        {actions}
        {(trouble || timedOut) && pageUrl && <RefreshStatus href={pageUrl({ recheck: '1' })} onRefresh={refresh} busy={checking} />}
        {trouble && (
          <a href="#support" className="btn-secondary">
            Contact Support
          </a>
        )}
        <Link to="/" className="btn-secondary">
          {homeLabel}
        </Link>
      </div>
      {trouble && <SupportDetails support={support} />}
    </>
  )
}

/** Download Receipt, once the order is paid. */
export function ReceiptButton({ href }: { href: string | null }) {
  return href ? (
    <a href={href} className="btn-secondary" download>
      Download Receipt
    </a>
  ) : null
}
