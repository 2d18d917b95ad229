import { Link } from 'react-router'

type BookingActionsProps = {
  /** The page that moves this booking to another time; null for a camp place, which can only be cancelled. */
  reschedulePath: string | null
  /** The page that cancels this booking or camp place. */
  cancelPath: string
  /** Appended to the change pages' URLs: the private link's key for a guest, empty with an account. */
  linkQuery: string
  change: { allowed: true; until: string } | { allowed: false; reason: string } | null
  receiptUrl: string | null
}

/** What a customer can do with a booking or a camp place: reschedule, cancel (or why not), download its receipt. */
export function BookingActions({ reschedulePath, cancelPath, linkQuery, change, receiptUrl }: BookingActionsProps) {
  if (!change && !receiptUrl) return null
  return (
    <div className="mt-4 space-y-3 border-t border-slate-200 pt-4">
      <div className="flex flex-wrap gap-3">
        {change?.allowed && (
          <>
            {reschedulePath && (
              <Link to={`${reschedulePath}${linkQuery}`} className="btn-secondary">
                Reschedule
              </Link>
            )}
            <Link to={`${cancelPath}${linkQuery}`} className="btn-secondary">
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
      {change && <p className="text-sm text-muted">{change.allowed ? `You can ${reschedulePath ? 'reschedule or cancel' : 'cancel'} until ${change.until}.` : change.reason}</p>}
    </div>
  )
}
