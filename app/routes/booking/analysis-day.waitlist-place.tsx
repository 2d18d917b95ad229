import { data, Link, redirect } from 'react-router'
import type { Route } from './+types/analysis-day.waitlist-place'
import { AuthCard } from '~/components/form-controls'
import { KeepWaitlistPlace } from '~/components/keep-waitlist-place'
import { DetailRow } from '~/components/payment-status-card'
import { config } from '~/config.server'
import { analysisDayLink, analysisDayWaitlistPlaceLink } from '~/lib/links'
import { formatLabDateTime } from '~/lib/lab-time'
import { ANALYSIS_DAY_WAITLIST_LINK, INVALID_LINK, PRIVATE_FORM_PAGE_HEADERS } from '~/lib/private-links.server'
import { waitlistEntryOf } from '~/web/waitlists/entry-link.server'
import { pageMeta } from '~/lib/seo'
import { confirmDayWaitlistPlace, dayWaitlistPlace } from '~/modules/booking/analysis-day-waitlist.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { notFoundUnless } from '~/web/refusals.server'

// A place on an analysis day's waitlist, opened from the e-mailed link: the parent keeps it with
// the button (a mail scanner opening the link confirms nothing), then sees their number in line.

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, { title: 'Your waitlist place', description: 'Keep a place on the waitlist of an analysis day.', path: '/analysis-days/waitlist/place' }), { name: 'robots', content: 'noindex' }]

export const headers: Route.HeadersFunction = () => PRIVATE_FORM_PAGE_HEADERS

const ENDED = 'This place on the waitlist is no longer kept: it was not confirmed in time, or it has ended.'

export async function loader({ request }: Route.LoaderArgs) {
  const entryId = await waitlistEntryOf(request, ANALYSIS_DAY_WAITLIST_LINK)
  const place = entryId === null ? null : await dayWaitlistPlace(entryId)
  notFoundUnless(place, INVALID_LINK)
  return data(
    {
      ...place,
      confirmBy: place.state === 'unconfirmed' ? formatLabDateTime(place.confirmBy) : null,
      position: place.state === 'queued' ? place.position : null,
      offerHours: config().WAITLIST_OFFER_HOURS,
    },
    { headers: PRIVATE_FORM_PAGE_HEADERS },
  )
}

/** Confirming takes a press of the button. */
export async function action({ request }: Route.ActionArgs) {
  rejectBots(await readForm(request))
  const entryId = await waitlistEntryOf(request, ANALYSIS_DAY_WAITLIST_LINK)
  notFoundUnless(entryId !== null, INVALID_LINK)
  const place = await confirmDayWaitlistPlace(entryId)
  notFoundUnless(place, INVALID_LINK)
  if (place.state === 'ended') return data({ error: ENDED }, { status: 409, headers: PRIVATE_FORM_PAGE_HEADERS })
  return redirect(analysisDayWaitlistPlaceLink(entryId, new URL(request.url).searchParams.get('key') ?? ''), { headers: PRIVATE_FORM_PAGE_HEADERS })
}

const TITLES = {
  unconfirmed: 'Keep your place on the waitlist',
  queued: "You're on the waitlist",
  offered: 'A slot is held for you',
  booked: 'Already booked',
  ended: 'No longer on the waitlist',
} as const

export default function DayWaitlistPlace({ loaderData, actionData }: Route.ComponentProps) {
  const place = loaderData
  return (
    <AuthCard title={TITLES[place.state]} wide>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <DetailRow term="Swimmer" value={place.swimmerName} />
        <DetailRow term="Analysis day" value={place.dayName} />
      </dl>
      {place.state === 'unconfirmed' && (
        <KeepWaitlistPlace explanation={`Every slot of this day is taken. Press the button by ${place.confirmBy} to keep ${place.swimmerName}'s place on its waitlist; your place in the queue counts from then.`} error={actionData?.error} />
      )}
      {place.state === 'queued' && (
        <div role="status" className="mt-6 space-y-3 text-ink">
          <p>{`${place.swimmerName} is number ${place.position} on this day's waitlist.`}</p>
          <p>{`When a slot frees up we hold it for you for up to ${place.offerHours} hours (never past its start) and e-mail ${place.email} a link to pay. There is nothing to pay until then.`}</p>
        </div>
      )}
      {place.state === 'offered' && <p className="mt-6 text-ink">{`A slot has freed up and is held for ${place.swimmerName}. We have e-mailed ${place.email} a link to pay for it.`}</p>}
      {place.state === 'booked' && <p className="mt-6 text-ink">{`${place.swimmerName} is booked on this day. The confirmation is in your e-mail.`}</p>}
      {place.state === 'ended' && (
        <div className="mt-6 space-y-4">
          <p className="text-ink">{actionData?.error ?? ENDED}</p>
          <Link to={analysisDayLink(place.dayId)} className="btn-secondary">
            See the day
          </Link>
        </div>
      )}
    </AuthCard>
  )
}
