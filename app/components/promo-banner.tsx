import { Link } from 'react-router'
import { PortraitPlaceholder } from './icons'

/** A camp as the banner words it (lib/banner-view.server.ts): dates, times and prices already formatted. */
export type BannerCamp = {
  code: string
  name: string
  dates: string
  venue: string
  batches: { code: string; name: string; times: string }[]
  price: string
  earlyBird: { regularPrice: string; saving: string; until: string } | null
}

export type BannerCoach = { name: string; credentials: string; placeholder: boolean }

/** The site-wide camp promotion. Prices and dates come from the camps table, never from copy. */
export function PromoBanner({ camps, coach }: { camps: BannerCamp[]; coach: BannerCoach }) {
  const [first] = camps
  if (!first) return null
  return (
    <aside aria-label="Swimming camps" className="bg-gradient-to-r from-brand-900 to-brand-700 text-white" id="promo-banner">
      <div className="container-page flex flex-col gap-3 py-4 md:flex-row md:items-center md:justify-between md:gap-6">
        <div className="flex items-center gap-3">
          <PortraitPlaceholder className="h-14 w-14 shrink-0" label={coach.placeholder ? 'Coach photo (placeholder)' : `Photo of ${coach.name}`} />
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand-100 uppercase">Swimming camps with</p>
            <p className="font-bold">{coach.name}</p>
            <p className="text-sm text-brand-100">{coach.credentials}</p>
          </div>
        </div>
        <div className="text-sm">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 font-semibold">
            {camps.map((camp) => (
              <li key={camp.code}>
                {camp.name}: {camp.dates}
              </li>
            ))}
          </ul>
          <p className="text-brand-100">at {first.venue}</p>
          <ul className="mt-1 text-brand-100">
            {first.batches.map((batch) => (
              <li key={batch.code}>
                {batch.name}: {batch.times}
              </li>
            ))}
          </ul>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <p>
            {first.earlyBird ? (
              <>
                <span className="block text-xs font-semibold text-brand-100">Early-bird price until {first.earlyBird.until}</span>
                <span className="text-2xl font-extrabold">{first.price}</span>{' '}
                <s className="text-brand-100" aria-label={`regular price ${first.earlyBird.regularPrice}`}>
                  {first.earlyBird.regularPrice}
                </s>{' '}
                <span className="rounded bg-accent-500 px-1.5 py-0.5 text-xs font-bold text-ink">Save {first.earlyBird.saving}</span>
              </>
            ) : (
              <span className="text-2xl font-extrabold">{first.price}</span>
            )}
            <span className="block text-xs text-brand-100">Limited slots available</span>
          </p>
          <Link to="/onboarding" className="inline-flex min-h-11 items-center rounded-lg bg-white px-5 font-bold text-brand-900 hover:bg-brand-50">
            Register
          </Link>
        </div>
      </div>
    </aside>
  )
}
