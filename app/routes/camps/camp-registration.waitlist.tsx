import { data, href, Link, redirect } from 'react-router'
import type { Route } from './+types/camp-registration.waitlist'
import { AuthCard } from '~/components/form-controls'
import { KeepWaitlistPlace } from '~/components/keep-waitlist-place'
import { DetailRow } from '~/components/payment-status-card'
import { config } from '~/config.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { INVALID_LINK, WAITLIST_CONFIRMATION_LINK } from '~/lib/private-links.server'
import { waitlistEntryOf } from '~/web/waitlists/entry-link.server'
import { notFoundUnless } from '~/web/refusals.server'
import { pageMeta } from '~/lib/seo'
import { formatLabDateTime } from '~/lib/lab-time'
import { confirmWaitlistPlace, waitlistPlace } from '~/modules/camps/waitlist.server'
import { waitlistConfirmationLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Your waitlist place', description: 'Confirm a place on a camp waitlist.', path: href('/onboarding/waitlist') }),
  { name: 'robots', content: 'noindex' },
]

const ENDED = 'This place on the waitlist is no longer kept: it was not confirmed in time, or it has ended.'

export async function loader({ request }: Route.LoaderArgs) {
  const entryId = await waitlistEntryOf(request, WAITLIST_CONFIRMATION_LINK)
  const place = entryId === null ? null : await waitlistPlace(entryId)
  notFoundUnless(place, INVALID_LINK)
  return {
    ...place,
    confirmBy: place.state === 'unconfirmed' ? formatLabDateTime(place.confirmBy) : null,
    position: place.state === 'queued' ? place.position : null,
    offerHours: config().WAITLIST_OFFER_HOURS,
  }
}

/** Confirming takes a press of the button: mail scanners that open links confirm nothing. */
export async function action({ request }: Route.ActionArgs) {
  rejectBots(await readForm(request))
  const entryId = await waitlistEntryOf(request, WAITLIST_CONFIRMATION_LINK)
  notFoundUnless(entryId !== null, INVALID_LINK)
  const place = await confirmWaitlistPlace(entryId)
  notFoundUnless(place, INVALID_LINK)
  if (place.state === 'ended') return data({ error: ENDED }, { status: 409 })
  return redirect(waitlistConfirmationLink(entryId, new URL(request.url).searchParams.get('key') ?? ''))
}

const TITLES = {
  unconfirmed: 'Keep your place on the waitlist',
  queued: "You're on the waitlist",
  offered: 'A camp seat is held for you',
  registered: 'Already registered',
  ended: 'No longer on the waitlist',
} as const

export default function WaitlistPlace({ loaderData, actionData }: Route.ComponentProps) {
  const place = loaderData
  return (
    <AuthCard title={TITLES[place.state]} wide>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <DetailRow term="Swimmer" value={place.swimmerName} />
        <DetailRow term="Camp" value={place.campName} />
        <DetailRow term="Batch" value={place.batchName} />
      </dl>
      {place.state === 'unconfirmed' && (
        <KeepWaitlistPlace explanation={`${place.batchName} of ${place.campName} is full. Press the button by ${place.confirmBy} to keep ${place.swimmerName}'s place on its waitlist; your place in the queue counts from then.`} error={actionData?.error} />
      )}
      {place.state === 'queued' && (
        <div role="status" className="mt-6 space-y-3 text-ink">
          <p>{`${place.swimmerName} is number ${place.position} on the waitlist of ${place.batchName}.`}</p>
          <p>{`When a seat frees up we hold it for you for ${place.offerHours} hours and e-mail ${place.email} a link to pay. There is nothing to pay until then.`}</p>
        </div>
      )}
      {place.state === 'offered' && <p className="mt-6 text-ink">{`A seat has freed up and is held for ${place.swimmerName}. We have e-mailed ${place.email} a link to pay for it.`}</p>}
      {place.state === 'registered' && <p className="mt-6 text-ink">{`${place.swimmerName} is registered for the camp. The confirmation is in your e-mail.`}</p>}
      {place.state === 'ended' && (
        <div className="mt-6 space-y-4">
          <p className="text-ink">{actionData?.error ?? ENDED}</p>
          <Link to={href('/onboarding')} className="btn-secondary">
            Go to camp registration
          </Link>
        </div>
      )}
    </AuthCard>
  )
}
