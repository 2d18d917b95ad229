import { Link } from 'react-router'
import type { Route } from './+types/book-slot'
import { requireUser } from '~/lib/auth.server'
import { pageMeta } from '~/lib/seo'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Book a Slot', description: 'Choose a date and time for your 3-day swimming analysis session.', path: '/book-slot' }),
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  return { name: user.name }
}

export default function BookSlot({ loaderData }: Route.ComponentProps) {
  return (
    <section className="container-page py-12 sm:py-16">
      <h1 className="text-3xl font-extrabold text-brand-900 sm:text-4xl">Book Your Analysis Session</h1>
      <p className="mt-3 text-lg text-muted">Hello, {loaderData.name}. Pick a date and an available time slot for your 3-day analysis session.</p>
      <p className="mt-6">
        <Link to="/my-bookings" className="btn-secondary">
          My Bookings
        </Link>
      </p>
    </section>
  )
}
