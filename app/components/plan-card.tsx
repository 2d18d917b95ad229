import { Link } from 'react-router'
import { formatWholeRupees } from '~/lib/money'
import { CheckIcon } from './control-icons'

type Plan = {
  name: string
  tagline: string
  description: string
  duration: string
  pricePaise: number
  /** The regular price, struck through, when the current price is an introductory one. */
  regularPricePaise: number | null
}

/** One pricing plan: name, price (with the struck regular price and the saving), inclusions, the button that starts buying it. */
export function PlanCard({
  plan,
  headingId,
  badge,
  priceNotes,
  features,
  bookHref,
  bookLabel = 'Book Now',
  featured = false,
}: {
  plan: Plan
  headingId: string
  badge?: string
  priceNotes: string[]
  features: string[]
  bookHref: string
  bookLabel?: string
  featured?: boolean
}) {
  const regular = plan.regularPricePaise
  const introductory = regular !== null && regular > plan.pricePaise
  return (
    <article
      aria-labelledby={headingId}
      className={`relative flex flex-col rounded-2xl bg-white p-6 sm:p-8 ${
        featured ? 'border-2 border-brand-700 shadow-xl shadow-brand-900/10' : 'border border-slate-200 shadow-md'
      }`}
    >
      {badge && (
        <p className="absolute -top-3.5 left-6 rounded-full bg-accent-500 px-3 py-1 text-xs font-bold tracking-wider text-ink shadow-sm sm:left-8">
          {badge}
        </p>
      )}
      <h3 id={headingId} className="text-2xl font-bold text-brand-900">
        {plan.name}
      </h3>
      <p className="mt-1 font-medium text-brand-700">{plan.tagline}</p>
      <p className="mt-3 text-muted">{plan.description}</p>
      <p className="mt-2 text-sm font-semibold text-ink">Duration: {plan.duration}</p>

      <div className="mt-6 border-y border-slate-200 py-5">
        {introductory && <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">Introductory price</p>}
        <p className="mt-1 flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <span className="text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">{formatWholeRupees(plan.pricePaise)}</span>
          {introductory && (
            <s className="text-xl text-muted">
              <span className="sr-only">Regular price </span>
              {formatWholeRupees(regular)}
            </s>
          )}
        </p>
        {introductory && (
          <p className="mt-3">
            <span className="inline-block rounded-md bg-brand-50 px-2.5 py-1 text-sm font-bold text-brand-800">Save {formatWholeRupees(regular - plan.pricePaise)}</span>
          </p>
        )}
        <ul className="mt-3 space-y-1 text-sm text-muted">
          {priceNotes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      </div>

      <h4 className="sr-only">What is included</h4>
      <ul className="mt-6 mb-8 space-y-3">
        {features.map((feature) => (
          <li key={feature} className="flex gap-3">
            <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
            <span>{feature}</span>
          </li>
        ))}
      </ul>

      <Link to={bookHref} className={`${featured ? 'btn-primary' : 'btn-secondary'} mt-auto w-full`}>
        {bookLabel}
        <span className="sr-only">: {plan.name}</span>
      </Link>
    </article>
  )
}
