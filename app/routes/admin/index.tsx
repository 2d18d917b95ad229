import { Link } from 'react-router'
import type { Route } from './+types/index'
import { requireAdmin } from '~/lib/auth.server'

export const meta: Route.MetaFunction = () => [{ title: 'Admin | Swimming Sport Science Lab' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request)
  return { name: admin.name }
}

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  return (
    <section className="container-page py-12 sm:py-16">
      <h1 className="text-3xl font-extrabold text-brand-900">Admin</h1>
      <p className="mt-3 text-lg text-muted">Signed in as {loaderData.name}. The admin console (availability, bookings, camps, prices, the banner) is being built.</p>
      <ul className="mt-8 space-y-3">
        <li>
          <Link to="/admin/mail" className="font-semibold text-brand-700 underline underline-offset-2">
            Mailbox: e-mails the site has sent
          </Link>
        </li>
      </ul>
    </section>
  )
}
