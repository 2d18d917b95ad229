import type { ReactNode } from 'react'
import { href, Link } from 'react-router'
import type { Route } from './+types/book'
import { formatWholeRupees } from '~/lib/money'
import { pageMeta } from '~/lib/seo'
import { singleServicePrices } from '~/modules/booking/public-booking.server'
import { SESSION_PRODUCT_CODE } from '~/modules/booking/texts'
import { getCatalogue, requireItem } from '~/modules/site/site.server'
import { publicBookingLink } from '~/lib/links'

/**
 * Where every "Book a Session" button leads: the lab's products with their prices and durations,
 * as the catalogue holds them, and the way to book each. Nothing here asks for an account; the 3-day
 * analysis, which needs one, asks once it is chosen.
 */
export async function loader() {
  const [catalogue, singleSessions] = await Promise.all([getCatalogue(), singleServicePrices()])
  return { analysis: requireItem(catalogue, SESSION_PRODUCT_CODE), race: requireItem(catalogue, 'race_analysis'), singleSessions }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Choose Your Session',
    description: "The 3-day biomechanical analysis, single sessions and race analysis at India's first sport science lab for swimming, Bangalore: prices, durations and booking.",
    path: href('/book'),
  })

export default function Book({ loaderData }: Route.ComponentProps) {
  const { analysis, race, singleSessions } = loaderData
  const regular = analysis.regularPricePaise !== null && analysis.regularPricePaise > analysis.pricePaise ? analysis.regularPricePaise : null
  return (
    <section aria-labelledby="page-title" className="container-page py-10 sm:py-14">
      <h1 id="page-title" className="text-3xl font-extrabold text-brand-900 sm:text-4xl">
        Choose Your Session
      </h1>
      <p className="mt-3 max-w-3xl text-lg text-muted">Every price is in Indian rupees and includes GST.</p>

      <ul className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        <ProductCard
          headingId="product-analysis"
          name={analysis.name}
          description={analysis.description}
          duration={analysis.duration}
          price={
            <>
              {formatWholeRupees(analysis.pricePaise)}
              {regular !== null && (
                <>
                  {' '}
                  <s className="text-base font-semibold text-muted">
                    <span className="sr-only">regular price </span>
                    {formatWholeRupees(regular)}
                  </s>
                </>
              )}
            </>
          }
          featured
        >
          <Link to={href('/book-slot')} className="btn-primary w-full">
            Book Now<span className="sr-only">: {analysis.name}</span>
          </Link>
          <p className="mt-3 text-center text-sm text-muted">
            Booked with an account.{' '}
            <Link to={href('/registration')} className="link">
              New here? Register
            </Link>
          </p>
        </ProductCard>

        {singleSessions.map((session) => (
          <ProductCard
            key={session.value}
            headingId={`product-${session.value}`}
            name={session.label}
            description={session.description}
            duration={session.duration}
            price={formatWholeRupees(session.pricePaise)}
          >
            <Link to={publicBookingLink({ service: session.value })} className="btn-secondary w-full">
              Book This Session<span className="sr-only">: {session.label}</span>
            </Link>
            <p className="mt-3 text-center text-sm text-muted">No account needed.</p>
          </ProductCard>
        ))}

        <ProductCard headingId="product-race" name={race.name} description={race.description} duration={race.duration} price={formatWholeRupees(race.pricePaise)} note="Travel and accommodation additional">
          {/* Filmed at the swimmer's competition: dates, place and travel are agreed first. */}
          <Link to={href('/contact')} className="btn-secondary w-full">
            Contact Us to Book<span className="sr-only">: {race.name}</span>
          </Link>
        </ProductCard>
      </ul>

      <p className="mt-8 text-lg text-muted">
        Away from Bangalore? The lab also brings its cameras to pools in other cities:{' '}
        <Link to={href('/analysis-days')} className="link">
          analysis days near you
        </Link>
        .
      </p>
    </section>
  )
}

/** One product: its name, what it is, how long it takes, its price, and how to book it. */
function ProductCard({
  headingId,
  name,
  description,
  duration,
  price,
  note,
  featured = false,
  children,
}: {
  headingId: string
  name: string
  description: string
  duration: string
  price: ReactNode
  note?: string
  featured?: boolean
  children: ReactNode
}) {
  return (
    <li className={`card flex flex-col p-6 ${featured ? 'border-2 border-brand-700 shadow-lg' : 'shadow-sm'}`}>
      <h2 id={headingId} className="text-xl font-bold text-brand-900">
        {name}
      </h2>
      <p className="mt-2 text-muted">{description}</p>
      <dl className="mt-4 mb-6 space-y-1">
        <div className="flex gap-2">
          <dt className="font-semibold text-ink">Duration:</dt>
          <dd className="text-ink">{duration}</dd>
        </div>
        <div className="flex flex-wrap items-baseline gap-2">
          <dt className="font-semibold text-ink">Price:</dt>
          <dd className="text-2xl font-extrabold text-ink">{price}</dd>
        </div>
      </dl>
      {note && <p className="-mt-4 mb-6 text-sm text-muted">{note}</p>}
      <div className="mt-auto">{children}</div>
    </li>
  )
}
