import { Link } from 'react-router'
import type { Route } from './+types/my-bookings'
import { requireUser } from '~/lib/auth.server'
import { pageMeta } from '~/lib/seo'
import { optionLabel, SWIMMING_EXPERIENCE } from '~/modules/accounts/schemas'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'My Bookings', description: 'Your swimming analysis bookings and account details.', path: '/my-bookings' }),
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  return {
    account: {
      name: user.name,
      email: user.email,
      phone: user.phone,
      swimmingExperience: optionLabel(SWIMMING_EXPERIENCE, user.swimmingExperience),
    },
  }
}

export default function MyBookings({ loaderData }: Route.ComponentProps) {
  const { account } = loaderData
  return (
    <section className="container-page py-12 sm:py-16">
      <h1 className="text-3xl font-extrabold text-brand-900 sm:text-4xl">My Bookings</h1>
      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <div className="rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm lg:col-span-2">
          <h2 className="text-xl font-bold text-ink">No bookings yet</h2>
          <p className="mt-2 text-muted">Book your 3-day swimming analysis session to see it here.</p>
          <Link to="/book-slot" className="btn-primary mt-6">
            Book a Session
          </Link>
        </div>
        <aside aria-labelledby="account-information" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="account-information" className="text-lg font-bold text-ink">
            Account Information
          </h2>
          <dl className="mt-4 space-y-3 text-sm">
            <AccountRow term="Name" value={account.name} />
            <AccountRow term="Email" value={account.email} />
            <AccountRow term="Phone" value={account.phone ?? 'Not specified'} />
            <AccountRow term="Swimming Experience" value={account.swimmingExperience ?? 'Not specified'} />
          </dl>
        </aside>
      </div>
    </section>
  )
}

function AccountRow({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt className="font-semibold text-muted">{term}</dt>
      <dd className="[overflow-wrap:anywhere] text-ink">{value}</dd>
    </div>
  )
}
