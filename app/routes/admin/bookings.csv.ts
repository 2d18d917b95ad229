import type { Route } from './+types/bookings.csv'
import { requireAdmin } from '~/web/auth.server'
import { csvResponse, toCsv } from '~/lib/csv'
import { formatLabDate, formatTimeRange, labToday } from '~/lib/lab-time'
import { paiseToDecimalRupees } from '~/lib/money'
import { staffBookings } from '~/modules/booking/staff.server'
import { BOOKING_STATUS_LABELS } from '~/modules/booking/texts'
import { bookingFilters } from '~/modules/booking/staff-filters'
import { refuseNul } from '~/web/nul.server'

/** The bookings list, with the same filters as the page, as a spreadsheet. */
export async function loader({ request }: Route.LoaderArgs) {
  refuseNul(request)
  await requireAdmin(request)
  const filters = bookingFilters(new URL(request.url).searchParams)
  const rows = await staffBookings({ from: filters.from, to: filters.to, status: filters.status, product: filters.product || null, search: filters.q }, 10_000)
  const csv = toCsv(
    ['Booking ID', 'Swimmer', 'Customer', 'E-mail', 'Phone', 'Product', 'Days', 'First day', 'Time', 'Status', 'Amount (₹)', 'Booked on'],
    rows.map((row) => [
      row.reference,
      row.swimmerName,
      row.customerName,
      row.customerEmail,
      row.customerPhone,
      row.productName,
      row.dayCount,
      row.firstDay,
      formatTimeRange(row.startTime, row.endTime),
      BOOKING_STATUS_LABELS[row.status],
      paiseToDecimalRupees(row.amountPaise),
      formatLabDate(row.createdAt),
    ]),
  )
  return csvResponse(`bookings-${labToday()}.csv`, csv)
}
