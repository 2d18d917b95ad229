import { Form, href, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/customers'
import { StaffTable } from '~/components/staff-table'
import { requireAdmin } from '~/web/auth.server'
import { formatLabDate } from '~/lib/lab-time'
import { searchCustomers } from '~/modules/accounts/staff.server'
import { refuseNul } from '~/web/nul.server'
import { formatPhone } from '~/lib/phone'
import { adminCustomerLink } from '~/lib/links'

export const meta: Route.MetaFunction = () => [{ title: 'Customers | Admin' }, { name: 'robots', content: 'noindex' }]

const SearchSchema = z.object({ q: z.string().trim().max(100).optional().catch(undefined) })
const SHOWN = 50

/** How an account stands, in a word staff can scan down a list. */
function accountStatus(customer: { isVerified: boolean; disabledAt: Date | null }) {
  if (customer.disabledAt) return 'Disabled'
  return customer.isVerified ? 'Active' : 'Not verified'
}

export async function loader({ request }: Route.LoaderArgs) {
  refuseNul(request)
  await requireAdmin(request)
  const { q = '' } = SearchSchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const rows = await searchCustomers(q, SHOWN)
  return {
    q,
    more: rows.length === SHOWN,
    rows: rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      phone: row.phone ? formatPhone(row.phone) : '',
      status: accountStatus(row),
      registeredOn: formatLabDate(row.createdAt),
    })),
  }
}

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const { q, more, rows } = loaderData
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Customers</h1>
      <Form method="get" role="search" className="card mt-6 flex flex-wrap items-end gap-3 p-4">
        <div className="min-w-0 flex-1 basis-64">
          <label htmlFor="q" className="text-sm font-semibold text-ink">
            Name (account holder's or a swimmer's), e-mail or phone
          </label>
          <input id="q" name="q" type="search" defaultValue={q} className="input mt-1" />
        </div>
        <button type="submit" className="btn-primary">
          Search
        </button>
        {q && (
          <Link to={href('/admin/customers')} className="btn-secondary">
            Clear
          </Link>
        )}
      </Form>

      <p className="mt-6 text-sm text-muted" role="status">
        {rows.length === 0
          ? 'No customers match.'
          : more
            ? `The ${rows.length} newest ${q ? 'matches; search for more of the name, e-mail or phone to find others' : 'customers; search to find others'}.`
            : q
              ? `${rows.length} ${rows.length === 1 ? 'customer matches' : 'customers match'}`
              : `${rows.length} ${rows.length === 1 ? 'customer' : 'customers'}`}
      </p>
      {rows.length > 0 && (
        <StaffTable caption="Customers" columns={['Customer', 'Phone', 'Account', 'Registered']} className="card mt-3">
          {rows.map((row) => (
            <tr key={row.id} className="border-t border-slate-200 align-top">
              <td className="px-3 py-2">
                <Link to={adminCustomerLink(row.id)} className="link">
                  {row.name}
                </Link>
                <span className="block text-muted [overflow-wrap:anywhere]">{row.email}</span>
              </td>
              <td className="px-3 py-2 text-ink">{row.phone}</td>
              <td className={`px-3 py-2 ${row.status === 'Disabled' ? 'font-semibold text-red-800' : 'text-ink'}`}>{row.status}</td>
              <td className="px-3 py-2 text-ink">{row.registeredOn}</td>
            </tr>
          ))}
        </StaffTable>
      )}
    </section>
  )
}
