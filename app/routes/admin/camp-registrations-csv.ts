import type { Route } from './+types/camp-registrations-csv'
import { requireAdmin } from '~/web/auth.server'
import { csvResponse, toCsv } from '~/lib/csv'
import { labDateParts } from '~/lib/lab-time'
import { paiseToDecimalRupees } from '~/lib/money'
import { BOOKING_STATUS_LABELS } from '~/modules/booking/texts'
import { campRegistrationsForExport } from '~/modules/camps/staff-views.server'
import { refuseNul } from '~/web/nul.server'
import { notFoundUnless } from '~/web/refusals.server'

const HEADER = ['Name', 'E-mail', 'Phone', 'Camp', 'Batch', 'Status', 'Amount (₹)', 'Registration ID', 'Order ID', 'Registered at (IST)']

/** A camp's registrations for a spreadsheet: amounts as plain numbers of rupees, times in Bangalore. */
export async function loader({ request, params }: Route.LoaderArgs) {
  refuseNul(request, params)
  await requireAdmin(request)
  const rows = await campRegistrationsForExport(params.code)
  notFoundUnless(rows)
  return csvResponse(
    `${params.code}-registrations.csv`,
    toCsv(
      HEADER,
      rows.map((row) => {
        const registeredAt = labDateParts(row.createdAt)
        return [
          row.swimmerName,
          row.email,
          row.phone,
          row.campName,
          row.batchName,
          BOOKING_STATUS_LABELS[row.status],
          paiseToDecimalRupees(row.amountPaise),
          row.reference,
          row.orderId,
          `${registeredAt.date} ${registeredAt.time}`,
        ]
      }),
    ),
  )
}
