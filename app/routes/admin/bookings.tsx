import { Form, href, Link } from 'react-router'
import type { Route } from './+types/bookings'
import { StaffTable } from '~/components/staff-table'
import { requireAdmin } from '~/web/auth.server'
import { formatRupees } from '~/lib/money'
import { formatTimeRange, formatWeekdayDate, labToday } from '~/lib/lab-time'
import { bookingFilters } from '~/modules/booking/staff-filters'
import { staffBookings } from '~/modules/booking/staff.server'
import { overdueAnalyses } from '~/modules/analyses/publishing.server'
import { BOOKING_STATUS_LABELS } from '~/modules/booking/texts'
import { getCatalogue } from '~/modules/site/site.server'
import { refuseNul } from '~/web/nul.server'
import { adminBookingLink, adminBookingsCsvLink, adminCustomerLink, adminDaySheetLink } from '~/lib/links'
import { homeVenue } from '~/modules/venues/venues.server'

export const meta: Route.MetaFunction = () => [{ title: 'Bookings | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  refuseNul(request)
  await requireAdmin(request)
  const params = new URL(request.url).searchParams
  const filters = bookingFilters(params)
  const [rows, overdue, catalogue, home] = await Promise.all([
    staffBookings({ from: filters.from, to: filters.to, status: filters.status, product: filters.product || null, search: filters.q }),
    overdueAnalyses(),
    getCatalogue(),
    homeVenue(),
  ])
  const overdueIds = new Set(overdue.map((row) => row.id))
  return {
    filters,
    csvQuery: params.toString(),
    // Who comes to the lab today, for the staff at the poolside.
    todaySheet: adminDaySheetLink(home.id, labToday()),
    products: Object.values(catalogue)
      .filter((item) => item.code !== 'race_analysis')
      .map((item) => ({ code: item.code, label: `${item.name}${item.tagline ? ` (${item.tagline})` : ''}` })),
    rows: rows.map((row) => ({
      reference: row.reference,
      swimmer: row.swimmerName,
      customer: row.customerName,
      customerHref: row.userId ? adminCustomerLink(row.userId) : null,
      contact: [row.customerEmail, row.customerPhone].filter(Boolean).join(' · '),
      product: row.productName,
      when: row.firstDay ? `${formatWeekdayDate(row.firstDay)}, ${formatTimeRange(row.startTime, row.endTime)}` : '',
      status: BOOKING_STATUS_LABELS[row.status],
      amount: formatRupees(row.amountPaise),
      reportOverdue: overdueIds.has(row.id),
    })),
  }
}

export default function AdminBookings({ loaderData }: Route.ComponentProps) {
  const { filters, products, rows, csvQuery, todaySheet } = loaderData
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold text-brand-900">Bookings</h1>
        <div className="flex flex-wrap gap-3">
          <Link to={href('/admin/bookings/new')} className="btn-primary">
            New booking
          </Link>
          <Link to={todaySheet} className="btn-secondary">
            Today at the lab
          </Link>
          <a href={adminBookingsCsvLink(csvQuery)} className="btn-secondary" download>
            Export CSV
          </a>
        </div>
      </div>
      <Form method="get" className="card mt-6 grid gap-4 p-4 sm:grid-cols-2 lg:grid-cols-3">
        <div className="sm:col-span-2 lg:col-span-3">
          <label htmlFor="q" className="text-sm font-semibold text-ink">
            Search (swimmer's or account holder's name, e-mail, phone, booking or order id)
          </label>
          <input id="q" name="q" type="search" defaultValue={filters.q ?? ''} className="input mt-1" />
        </div>
        <div>
          <label htmlFor="from" className="text-sm font-semibold text-ink">
            First day from
          </label>
          <input id="from" name="from" type="date" defaultValue={filters.from ?? ''} className="input mt-1" />
        </div>
        <div>
          <label htmlFor="to" className="text-sm font-semibold text-ink">
            First day to
          </label>
          <input id="to" name="to" type="date" defaultValue={filters.to ?? ''} className="input mt-1" />
        </div>
        <div>
          <label htmlFor="status" className="text-sm font-semibold text-ink">
            Status
          </label>
          <select id="status" name="status" defaultValue={filters.status ?? ''} className="input mt-1">
            <option value="">Any (not unpaid attempts)</option>
            {Object.entries(BOOKING_STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="product" className="text-sm font-semibold text-ink">
            Product
          </label>
          <select id="product" name="product" defaultValue={filters.product ?? ''} className="input mt-1">
            <option value="">Any</option>
            {products.map((product) => (
              <option key={product.code} value={product.code}>
                {product.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-end gap-3">
          <button type="submit" className="btn-primary">
            Show bookings
          </button>
          <Link to={href('/admin/bookings')} className="btn-secondary">
            Clear
          </Link>
        </div>
      </Form>

      <p className="mt-6 text-sm text-muted" role="status">
        {rows.length === 0 ? 'No bookings match.' : `${rows.length} ${rows.length === 1 ? 'booking' : 'bookings'}`}
      </p>
      {rows.length > 0 && (
        <StaffTable caption="Bookings matching the filters" columns={['Booking', 'Swimmer', 'Booked by', 'Session', 'Status', { label: 'Amount', align: 'right' }]} className="card mt-3">
          {rows.map((row) => (
            <tr key={row.reference} className={`border-t border-slate-200 align-top ${row.reportOverdue ? 'bg-red-50' : ''}`}>
              <td className="px-3 py-2">
                <Link to={adminBookingLink(row.reference)} className="link">
                  {row.reference}
                </Link>
                {row.reportOverdue && <span className="mt-1 block text-xs font-bold text-red-800">Report overdue</span>}
              </td>
              <td className="px-3 py-2 font-medium text-ink">{row.swimmer}</td>
              <td className="px-3 py-2">
                {row.customerHref ? (
                  <Link to={row.customerHref} className="block font-medium text-brand-700 underline underline-offset-2">
                    {row.customer}
                  </Link>
                ) : (
                  <span className="block font-medium text-ink">{row.customer}</span>
                )}
                <span className="block text-muted [overflow-wrap:anywhere]">{row.contact}</span>
              </td>
              <td className="px-3 py-2">
                <span className="block text-ink">{row.product}</span>
                <span className="block text-muted">{row.when}</span>
              </td>
              <td className="px-3 py-2 text-ink">{row.status}</td>
              <td className="px-3 py-2 text-right text-ink">{row.amount}</td>
            </tr>
          ))}
        </StaffTable>
      )}
    </section>
  )
}
