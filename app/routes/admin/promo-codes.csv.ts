import type { Route } from './+types/promo-codes.csv'
import { csvResponse, toCsv } from '~/lib/csv'
import { labToday } from '~/lib/lab-time'
import { paiseToDecimalRupees } from '~/lib/money'
import { promoCodeRow, promoValidDays } from '~/modules/promotions/staff-rows'
import { staffPromoCodes } from '~/modules/promotions/staff.server'
import { requireAdmin } from '~/web/auth.server'

/** The promo codes list as a spreadsheet: one row per code, newest first, with its uses and the discount it has given. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const codes = await staffPromoCodes()
  const csv = toCsv(
    ['Code', 'Description', 'Discount', 'For', 'Valid from', 'Valid until', 'Used', 'Held now', 'Uses in all', 'Uses per customer', 'Discount given (₹)', 'Status'],
    codes.map((code) => {
      const row = promoCodeRow(code)
      const { from, until } = promoValidDays(code)
      return [code.code, code.description, row.discount, row.products, from, until, code.used, code.held, code.maxUses ?? 'Unlimited', row.perCustomer, paiseToDecimalRupees(code.discountGivenPaise), row.status]
    }),
  )
  return csvResponse(`promo-codes-${labToday()}.csv`, csv)
}
