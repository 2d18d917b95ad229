import { Link } from 'react-router'

type BookingActionsProps = {
  reference: string
  /** Appended to the change pages' URLs: the private link's key for a guest, empty with an account. */
  linkQuery: string
  change: { allowed: true; until: string } | { allowed: false; reason: string } | null
  receiptUrl: string | null
}

/** What a customer can do with a booking: reschedule, cancel (or why not), download its receipt. */
export function BookingActions({ reference, linkQuery, change, receiptUrl }: BookingActionsProps) {
  if (!change && !receiptUrl) return null
  const path = `/bookings/${encodeURIComponent(reference)}`
  return (
    <div className="mt-4 space-y-3 border-t border-slate-200 pt-4">
      <div className="flex flex-wrap gap-3">
        {change?.allowed && (
          <>
            <Link to={`${path}/reschedule${linkQuery}`} className="btn-secondary">
              Reschedule
            </Link>
            <Link to={`${path}/cancel${linkQuery}`} className="btn-secondary">
              Cancel
            </Link>
          </>
        )}
        {receiptUrl && (
          <a href={receiptUrl} className="btn-secondary" download>
            Download Receipt
          </a>
        )}
      </div>
      {change && <p className="text-sm text-muted">{change.allowed ? `You can reschedule or cancel until ${change.until}.` : change.reason}</p>}
    </div>
  )
}
