import { Link } from 'react-router'

type BookingActionsProps = {
  /** Where the change pages of this booking or camp place are: `/bookings/SWP-…`, `/camp-registrations/CMP-…`. */
  changePath: string
  /** Appended to the change pages' URLs: the private link's key for a guest, empty with an account. */
  linkQuery: string
  change: { allowed: true; until: string } | { allowed: false; reason: string } | null
  receiptUrl: string | null
  /** A session can be moved to another time; a camp place can only be cancelled. */
  reschedule?: boolean
}

/** What a customer can do with a booking or a camp place: reschedule, cancel (or why not), download its receipt. */
export function BookingActions({ changePath, linkQuery, change, receiptUrl, reschedule = true }: BookingActionsProps) {
  if (!change && !receiptUrl) return null
  return (
    <div className="mt-4 space-y-3 border-t border-slate-200 pt-4">
      <div className="flex flex-wrap gap-3">
        {change?.allowed && (
          <>
            {reschedule && (
              <Link to={`${changePath}/reschedule${linkQuery}`} className="btn-secondary">
                Reschedule
              </Link>
            )}
            <Link to={`${changePath}/cancel${linkQuery}`} className="btn-secondary">
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
      {change && <p className="text-sm text-muted">{change.allowed ? `You can ${reschedule ? 'reschedule or cancel' : 'cancel'} until ${change.until}.` : change.reason}</p>}
    </div>
  )
}
