import { data, href, redirect } from 'react-router'
import type { Route } from './+types/camp-registration.line'
import { BatchFull, RegistrationRefused } from '~/components/camp-answers'
import { PlaceInLine } from '~/components/place-in-line'
import { afterTheLine } from '~/web/camps/after-the-camp-line.server'
import { callerOf } from '~/web/auth.server'
import { clientNetwork } from '~/modules/rate-limit/client-network'
import { CAMP_LINE_LINK, INVALID_LINK, isLinkKey } from '~/lib/private-links.server'
import { notFoundUnless } from '~/web/refusals.server'
import { pageMeta } from '~/lib/seo'
import { placesAhead, settledArrival } from '~/modules/camps/line.server'
import { listCamps } from '~/modules/site/site.server'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Your place in line', description: 'Your camp registration, in the order parents registered.', path: href('/onboarding/line') }),
  { name: 'robots', content: 'noindex' },
]

/**
 * How long the page waits for the parent's turn before it shows their place in line: in a rush,
 * a page that shows the outcome once costs the site far less than one shown again and again.
 */
const WAIT_MS = 20_000

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const place = params.get('place') ?? ''
  const key = params.get('key') ?? ''
  notFoundUnless(/^\d{1,9}$/.test(place) && (await isLinkKey(CAMP_LINE_LINK, place, key)), INVALID_LINK)
  const arrival = await settledArrival(Number(place), WAIT_MS)
  // Settled places are forgotten after a day: the form is where to start again.
  if (!arrival) return redirect(href('/onboarding'))
  if (arrival.outcome) {
    const next = await afterTheLine(arrival, { network: clientNetwork(callerOf(request, context).ip) })
    if ('go' in next) return redirect(next.go)
    return data(next.answer, { status: next.status })
  }
  const camp = (await listCamps()).find((candidate) => candidate.code === arrival.campCode)
  const batch = camp?.batches.find((candidate) => candidate.code === arrival.batchCode)
  return {
    kind: 'waiting' as const,
    position: (await placesAhead(arrival.id)) + 1,
    choice: camp && batch ? `${batch.name} of ${camp.name}` : 'the camp',
    link: { place, key },
  }
}

export default function CampPlaceInLine({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'full') return <BatchFull message={loaderData.message} applicant={loaderData.applicant} />
  if (loaderData.kind === 'refused') return <RegistrationRefused message={loaderData.message} applicant={loaderData.applicant} />
  return <PlaceInLine {...loaderData} explanation="Many parents are registering right now. Seats are given in the order parents registered, and this page shows your turn as soon as it comes: a seat to pay for, or a place on the waitlist if the batch is full." />
}

