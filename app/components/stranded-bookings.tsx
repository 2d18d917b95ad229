import { Link } from 'react-router'
import { adminBookingLink } from '~/lib/links'

/** The bookings a refused change would have stranded, each linking to where staff can move or cancel it. */
export function StrandedBookingsAlert({ bookings }: { bookings: Array<{ reference: string; who: string; date: string; start: string }> }) {
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900">
      <p className="font-semibold">Bookings in the way:</p>
      <ul className="mt-1 list-disc pl-5">
        {bookings.map((booking) => (
          <li key={`${booking.reference}-${booking.date}-${booking.start}`}>
            <Link to={adminBookingLink(booking.reference)} className="underline underline-offset-2">
              {booking.reference}
            </Link>{' '}
            ({booking.who}), {booking.date} at {booking.start}
          </li>
        ))}
      </ul>
    </div>
  )
}
