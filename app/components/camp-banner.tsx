import { useEffect } from 'react'
import { href, Link, useFetcher, useLocation } from 'react-router'
import { BANNER_CLOSE_PATH } from '~/web/banner/banner'
import type { BannerCamp } from '~/web/banner/banner-view.server'
import type { Picture } from '~/modules/media/picture'
import { useHydrated } from '~/web/use-hydrated'
import { PortraitPlaceholder } from './icons'
import { ResponsivePicture } from './picture'
import { CloseIcon } from './control-icons'

type BannerCoach = { name: string; credentials: string; placeholder: boolean }
type BannerDetailsProps = { camps: BannerCamp[]; coach: BannerCoach; coachPicture: Picture | null }

/**
 * The site-wide camp promotion. Prices and dates come from the camps table, never from copy.
 *
 * On a phone it is one line (the camps and their first dates) that opens on "Details" for
 * everything else, a native <details> that needs no script; from the md breakpoint the whole
 * banner shows in one row. Its close button posts a plain form (the banner then stays closed for
 * the visit, see routes/resources/banner.close.ts); with JavaScript the post happens in the background and
 * the banner goes at once, without reloading the page.
 */
export function CampBanner({ camps, coach, coachPicture }: BannerDetailsProps) {
  const fetcher = useFetcher<{ closed: boolean }>({ key: 'close-banner' })
  const location = useLocation()
  const hydrated = useHydrated()
  const closing = fetcher.state !== 'idle' || fetcher.data?.closed === true

  // The close button is gone with the banner: keyboard and screen-reader users go on from the page's content.
  useEffect(() => {
    if (closing && document.activeElement === document.body) document.getElementById('main')?.focus({ preventScroll: true })
  }, [closing])

  const [first] = camps
  if (!first || closing) return null
  return (
    <aside aria-label="Swimming camps" className="bg-gradient-to-r from-brand-900 to-brand-700 text-white" id="promo-banner">
      <div className="container-page flex items-start gap-2 py-1 md:items-center md:gap-4 md:py-0">
        <details className="group min-w-0 flex-1 md:hidden">
          <summary className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg text-sm focus-visible:outline-white">
            <span className="min-w-0 flex-1 truncate">
              <span className="font-bold">Swimming camps</span> <span className="text-brand-100">{first.dates}</span>
            </span>
            <span className="inline-flex shrink-0 items-center gap-1 rounded-md border border-white/70 px-2 py-1 font-semibold">
              Details
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 transition-transform group-open:rotate-180" fill="currentColor">
                <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
              </svg>
            </span>
          </summary>
          <div className="flex flex-col gap-3 pt-2 pb-3">
            <BannerDetails camps={camps} coach={coach} coachPicture={coachPicture} />
          </div>
        </details>
        <div className="hidden min-w-0 flex-1 py-4 md:flex md:items-center md:justify-between md:gap-6">
          <BannerDetails camps={camps} coach={coach} coachPicture={coachPicture} />
        </div>
        <fetcher.Form method="post" action={BANNER_CLOSE_PATH} className="shrink-0">
          <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
          {hydrated && <input type="hidden" name="inPlace" value="1" />}
          <button
            type="submit"
            aria-label="Close the camp banner"
            className="flex h-11 w-11 cursor-pointer items-center justify-center rounded-lg text-white hover:bg-white/15 focus-visible:outline-white"
          >
            <CloseIcon className="h-5 w-5" />
          </button>
        </fetcher.Form>
      </div>
    </aside>
  )
}

/**
 * Everything the banner says: the coach (with their photo once staff choose one), the camps with
 * their venue and batches, the price and the way to register.
 */
function BannerDetails({ camps, coach, coachPicture }: BannerDetailsProps) {
  const [first] = camps
  if (!first) return null
  return (
    <>
      <div className="flex items-center gap-3">
        {coachPicture ? (
          <ResponsivePicture picture={coachPicture} sizes="56px" className="h-14 w-14 shrink-0 rounded-full" imgClassName="h-full w-full object-cover" />
        ) : (
          <PortraitPlaceholder className="h-14 w-14 shrink-0" label={coach.placeholder ? 'Coach photo (placeholder)' : `Photo of ${coach.name}`} />
        )}
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
              <s className="text-brand-100">
                <span className="sr-only">regular price </span>
                {first.earlyBird.regularPrice}
              </s>{' '}
              <span className="rounded bg-accent-500 px-1.5 py-0.5 text-xs font-bold text-ink">Save {first.earlyBird.saving}</span>
            </>
          ) : (
            <span className="text-2xl font-extrabold">{first.price}</span>
          )}
          <span className="block text-xs text-brand-100">Limited slots available</span>
        </p>
        <Link to={href('/onboarding')} className="inline-flex min-h-11 items-center rounded-lg bg-white px-5 font-bold text-brand-900 hover:bg-brand-50">
          Register
        </Link>
      </div>
    </>
  )
}
