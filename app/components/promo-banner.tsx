import { Link } from 'react-router'
import { formatDateRange, formatTimeRange, formatWholeRupees } from '~/lib/format'
import { PortraitPlaceholder } from './icons'

export type BannerCamp = {
  code: string
  name: string
  startsOn: string
  endsOn: string
  venue: string
  earlyBird: boolean
  currentPricePaise: number
  regularPricePaise: number
  batches: { code: string; name: string; timeRanges: { start: string; end: string }[] }[]
}

export type BannerCoach = { name: string; credentials: string; placeholder: boolean }

/** The site-wide camp promotion. Prices and dates come from the camps table, never from copy. */
export function PromoBanner({ camps, coach }: { camps: BannerCamp[]; coach: BannerCoach }) {
  const [first] = camps
  if (!first) return null
  const saving = first.regularPricePaise - first.currentPricePaise
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
                {camp.name}: {formatDateRange(camp.startsOn, camp.endsOn)}
              </li>
            ))}
          </ul>
          <p className="text-brand-100">at {first.venue}</p>
          <ul className="mt-1 text-brand-100">
            {first.batches.map((batch) => (
              <li key={batch.code}>
                {batch.name}: {batch.timeRanges.map((range) => formatTimeRange(range.start, range.end)).join(' & ')}
              </li>
            ))}
          </ul>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <p>
            {first.earlyBird && saving > 0 ? (
              <>
                <span className="block text-xs font-semibold tracking-wide text-brand-100 uppercase">Early bird</span>
                <span className="text-2xl font-extrabold">{formatWholeRupees(first.currentPricePaise)}</span>{' '}
                <s className="text-brand-100" aria-label={`regular price ${formatWholeRupees(first.regularPricePaise)}`}>
                  {formatWholeRupees(first.regularPricePaise)}
                </s>{' '}
                <span className="rounded bg-accent-500 px-1.5 py-0.5 text-xs font-bold text-ink">Save {formatWholeRupees(saving)}</span>
              </>
            ) : (
              <span className="text-2xl font-extrabold">{formatWholeRupees(first.currentPricePaise)}</span>
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
