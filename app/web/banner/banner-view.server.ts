import type { Coach } from '~/db/schema'
import { formatDateRange, formatLastDayBefore, formatTimeRange } from '~/lib/lab-time'
import { formatWholeRupees } from '~/lib/money'
import type { Picture } from '~/modules/media/picture'
import { isNamed, suppliedText } from '~/modules/site/people'
import type { CampSummary } from '~/modules/site/site.server'

/** A camp as the banner words it: dates, times and prices already formatted. */
export type BannerCamp = {
  code: string
  name: string
  dates: string
  venue: string
  batches: { code: string; name: string; times: string }[]
  price: string
  earlyBird: { regularPrice: string; saving: string; until: string } | null
}

/**
 * The camps as the site-wide banner shows them, worded here so the script every page runs does not
 * carry the date and money formatting (and the page's data carries only what the banner shows).
 */
export function bannerCamps(camps: CampSummary[]): BannerCamp[] {
  return camps.map((camp) => {
    const saving = camp.regularPricePaise - camp.currentPricePaise
    return {
      code: camp.code,
      name: camp.name,
      dates: formatDateRange(camp.startsOn, camp.endsOn),
      venue: camp.venue,
      batches: camp.batches.map((batch) => ({
        code: batch.code,
        name: batch.name,
        times: batch.timeRanges.map((range) => formatTimeRange(range.start, range.end)).join(' & '),
      })),
      price: formatWholeRupees(camp.currentPricePaise),
      earlyBird:
        camp.earlyBird && saving > 0
          ? { regularPrice: formatWholeRupees(camp.regularPricePaise), saving: formatWholeRupees(saving), until: formatLastDayBefore(new Date(camp.earlyBirdEndsAt)) }
          : null,
    }
  })
}

/** The coach as the banner names them: their credentials may still be to come. */
export type BannerCoach = { name: string; credentials: string }

/**
 * The coach as the banner shows them, and their photo if staff chose one that is ready and
 * described: that one picture, not the library it comes from (the banner's data goes with every page).
 * Until the lab names the coach the banner speaks of the camps alone, with no portrait.
 */
export function bannerCoach(coach: Coach, pictures: Map<number, Picture> | null): { coach: BannerCoach | null; coachPicture: Picture | null } {
  if (!isNamed(coach)) return { coach: null, coachPicture: null }
  const { name, credentials, photoId } = coach
  return { coach: { name, credentials: suppliedText(credentials) }, coachPicture: (photoId && pictures?.get(photoId)) || null }
}
