import { Link } from 'react-router'
import type { Route } from './+types/index'
import { requireAdmin } from '~/lib/auth.server'
import { formatClockTime, formatLongDate, labDateParts } from '~/lib/format'
import { overdueReports } from '~/modules/reports/reports.server'

export const meta: Route.MetaFunction = () => [{ title: 'Overview | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const overdue = await overdueReports()
  return {
    overdue: overdue.map((row) => {
      const due = labDateParts(row.dueAt)
      return { reference: row.reference, customerName: row.customerName, due: `${formatClockTime(due.time)} IST, ${formatLongDate(due.date)}` }
    }),
  }
}

export default function AdminOverview({ loaderData }: Route.ComponentProps) {
  const { overdue } = loaderData
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Overview</h1>
      <section aria-labelledby="overdue-reports" className="mt-8">
        <h2 id="overdue-reports" className="text-xl font-bold text-ink">
          Reports overdue <span className="rounded-full bg-red-700 px-2.5 py-0.5 text-sm text-white">{overdue.length}</span>
        </h2>
        {overdue.length === 0 ? (
          <p className="mt-2 text-muted">Every report promised so far has been delivered.</p>
        ) : (
          <ul className="mt-3 space-y-2">
            {overdue.map((row) => (
              <li key={row.reference} className="rounded-lg border border-red-300 bg-red-50 p-3">
                <Link to={`/admin/bookings/${row.reference}`} className="font-semibold text-red-900 underline underline-offset-2">
                  {row.reference}, {row.customerName}
                </Link>
                <span className="block text-sm text-red-900">Was due by {row.due}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  )
}
