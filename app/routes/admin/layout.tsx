import type { ReactNode } from 'react'
import { href, NavLink, Outlet, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/layout'
import { ErrorPage } from '~/components/error-page'
import type { loader as rootLoader } from '~/root'
import { requireAdmin } from '~/web/auth.server'

/** Every admin page: staff only (each page's own loader and action check again, as they run in parallel). */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request)
  return { name: admin.name }
}

const SECTIONS = [
  { to: href('/admin'), label: 'Overview', end: true },
  { to: href('/admin/availability'), label: 'Availability' },
  { to: href('/admin/venues'), label: 'Venues' },
  { to: href('/admin/kits'), label: 'Kits' },
  { to: href('/admin/analysis-days'), label: 'Analysis days' },
  { to: href('/admin/bookings'), label: 'Bookings' },
  { to: href('/admin/camps'), label: 'Camps' },
  { to: href('/admin/promo-codes'), label: 'Promo codes' },
  { to: href('/admin/customers'), label: 'Customers' },
  { to: href('/admin/settings'), label: 'Catalogue & settings' },
  { to: href('/admin/media'), label: 'Media library' },
  { to: href('/admin/partners'), label: 'Partners and venues' },
  { to: href('/admin/testimonials'), label: 'Testimonials' },
  // Analyses
  { to: href('/admin/reference-bands'), label: 'Reference bands' },
  { to: href('/admin/sample-analysis'), label: 'Sample analysis' },
  { to: href('/admin/messages'), label: 'Messages' },
  { to: href('/admin/audit'), label: 'Audit log' },
]

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminFrame name={loaderData.name}>
      <Outlet />
    </AdminFrame>
  )
}

/**
 * An admin page that failed (a booking, customer or camp that does not exist, a refused form, a
 * fault) says so inside the admin navigation. Without the signed-in staff member, this layout's
 * own refusal, it is the site's error page.
 */
export function ErrorBoundary({ error, loaderData }: Route.ErrorBoundaryProps) {
  // After a form that failed, this layout's loader is not run again: the site's own data says who is signed in.
  const user = useRouteLoaderData<typeof rootLoader>('root')?.user
  const name = loaderData?.name ?? (user?.isAdmin ? user.name : null)
  if (name === null) return <ErrorPage error={error} />
  return (
    <AdminFrame name={name}>
      <ErrorPage error={error} className="py-12" />
    </AdminFrame>
  )
}

function AdminFrame({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className="container-page grid gap-8 py-8 lg:grid-cols-[13rem_minmax(0,1fr)] lg:py-12 print:block print:max-w-none print:p-0">
      <nav aria-label="Admin" className="lg:sticky lg:top-24 lg:self-start print:hidden">
        <p className="text-sm text-muted">Signed in as {name}</p>
        <ul className="mt-3 flex flex-wrap gap-2 lg:flex-col lg:gap-1">
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                end={section.end}
                className={({ isActive }) => `block rounded-lg px-3 py-2 font-semibold ${isActive ? 'bg-brand-700 text-white' : 'text-brand-800 hover:bg-brand-50'}`}
              >
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0">{children}</div>
    </div>
  )
}
