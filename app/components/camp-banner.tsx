import { useEffect } from 'react'
import { href, Link, useFetcher, useLocation } from 'react-router'
import { BANNER_CLOSE_PATH } from '~/web/banner/banner'
import type { BannerCamp, BannerCoach } from '~/web/banner/banner-view.server'
import type { Picture } from '~/modules/media/picture'
import { useHydrated } from '~/web/use-hydrated'
import { BrandPattern } from './brand-pattern'
import { ResponsivePicture } from './picture'
import { CloseIcon } from './control-icons'

type BannerProps = { camps: BannerCamp[]; coach: BannerCoach | null; coachPicture: Picture | null }

/** The banner's controls on its dark background: a white focus ring, since the site's own would not show. */
const REGISTER_LINK = 'min-h-11 shrink-0 items-center rounded-lg bg-white px-4 font-bold text-brand-900 hover:bg-brand-50 focus-visible:outline-white'

/**
 * The site-wide camp promotion. Prices and dates come from the camps table, never from copy.
 *
 * One slim line at every size, a native <details> that needs no script: the camps (with the coach,
 * the price and the way to register as the width allows) and "Details" for the rest. Its close
 * button posts a plain form (the banner then stays closed for the visit, see
 * routes/resources/banner.close.ts); with JavaScript the post happens in the background and the
 * banner goes at once, without reloading the page.
 */
export function CampBanner({ camps, coach, coachPicture }: BannerProps) {
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
    <aside aria-label="Swimming camps" className="bg-gradient-to-r from-brand-900 to-brand-700 text-white print-alone:hidden" id="promo-banner">
      <div className="container-page flex items-start gap-2 py-1 md:gap-3">
        <details className="group min-w-0 flex-1">
          <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-lg text-sm md:gap-3 focus-visible:outline-white [&::-webkit-details-marker]:hidden">
            {coachPicture && (
              <ResponsivePicture picture={coachPicture} sizes="32px" className="hidden h-8 w-8 shrink-0 rounded-full ring-2 ring-white/60 md:block" imgClassName="h-full w-full object-cover" />
            )}
            <span className="min-w-0 flex-1 truncate">
              <span className="font-bold">Swimming camps</span>
              {coach && (
                <span className="hidden md:inline">
                  {' '}
                  with <span className="font-bold">{coach.name}</span>
                </span>
              )}{' '}
              <span className="text-brand-100">
                <span aria-hidden="true" className="hidden md:inline">
                  ·{' '}
                </span>
                {first.dates}
              </span>
            </span>
            <span className="hidden shrink-0 items-center gap-2 lg:flex">
              <span className="font-extrabold">{first.price}</span>
              {first.earlyBird && <SavingChip saving={first.earlyBird.saving} />}
            </span>
            <span className="inline-flex shrink-0 items-center gap-1 rounded-md border border-white/70 px-2 py-1 font-semibold">
              Details
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 transition-transform group-open:rotate-180" fill="currentColor">
                <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
              </svg>
            </span>
          </summary>
          <BannerDetails camps={camps} coach={coach} coachPicture={coachPicture} />
        </details>
        <Link to={href('/onboarding')} className={`hidden text-sm md:inline-flex ${REGISTER_LINK}`}>
          Register
        </Link>
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

function SavingChip({ saving }: { saving: string }) {
  return <span className="rounded bg-accent-500 px-1.5 py-0.5 text-xs font-bold text-ink">Save {saving}</span>
}

/**
 * What opens on "Details": the coach and their credentials, every camp with its dates, the venue and
 * batches, and the price in full. On a phone it also holds the coach's photo and the way to register,
 * which the line itself shows from the md breakpoint.
 */
function BannerDetails({ camps, coach, coachPicture }: BannerProps) {
  const [first] = camps
  if (!first) return null
  return (
    <div className="grid gap-3 pt-2 pb-3 text-sm md:grid-cols-3 md:gap-6 md:pt-1">
      {coach && (
        <div className="flex items-center gap-3">
          {coachPicture ? (
            <ResponsivePicture picture={coachPicture} sizes="56px" className="h-14 w-14 shrink-0 rounded-full md:hidden" imgClassName="h-full w-full object-cover" />
          ) : (
            <BrandPattern seed={coach.name} shape="circle" className="h-14 w-14 shrink-0 rounded-full ring-2 ring-white/40 md:hidden" />
          )}
          <div>
            <p className="text-xs font-semibold tracking-wide text-brand-100 uppercase md:hidden">Swimming camps with</p>
            <p className="font-bold">{coach.name}</p>
            {coach.credentials && <p className="text-brand-100">{coach.credentials}</p>}
          </div>
        </div>
      )}
      <div>
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
              <SavingChip saving={first.earlyBird.saving} />
            </>
          ) : (
            <span className="text-2xl font-extrabold">{first.price}</span>
          )}
          <span className="block text-xs text-brand-100">Limited slots available</span>
        </p>
        <Link to={href('/onboarding')} className={`inline-flex px-5 text-base md:hidden ${REGISTER_LINK}`}>
          Register
        </Link>
      </div>
    </div>
  )
}
