import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, href, Link } from 'react-router'
import type { Route } from './+types/analysis-day.waitlist'
import { AnalysisDayWaitlistForm } from '~/components/analysis-day-waitlist-form'
import { AuthCard } from '~/components/form-controls'
import { analysisDayLink } from '~/lib/links'
import { formatLabDateTime } from '~/lib/lab-time'
import { rowId } from '~/lib/row-id'
import { pageMeta } from '~/lib/seo'
import { DaySlotsFreeError, joinDayWaitlist } from '~/modules/booking/analysis-day-waitlist.server'
import { DayWaitlistSchema } from '~/modules/booking/analysis-day-waitlist-schemas'
import { describeDates, publicAnalysisDay } from '~/modules/booking/analysis-days.server'
import { callerOf, getUser } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { formErrorsOf, notFoundUnless, refusalOf } from '~/web/refusals.server'

// Joining the waitlist of a sold-out analysis day: the day's page shows the form and posts it here;
// this page answers with what happens next, or the form again with its messages. While a slot is
// free it says so, and leads back to the day's page to book it.

const CONSTRAINT = getZodConstraint(DayWaitlistSchema)

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  ...pageMeta(matches, { title: 'Join the waitlist', description: 'Join the waitlist of a sold-out analysis day.', path: loaderData ? `${analysisDayLink(loaderData.day.id)}/waitlist` : href('/analysis-days') }),
  { name: 'robots', content: 'noindex' },
]

async function dayOf(params: Route.LoaderArgs['params']) {
  const id = rowId(params.dayId)
  notFoundUnless(id)
  const day = await publicAnalysisDay(id)
  notFoundUnless(day)
  return day
}

/** Whether every slot not begun is taken (and some is still to come). */
function soldOut(day: NonNullable<Awaited<ReturnType<typeof publicAnalysisDay>>>) {
  const slots = day.dates.flatMap((date) => date.slots)
  return !day.opensLater && slots.some((slot) => slot.state === 'full') && !slots.some((slot) => slot.state === 'available')
}

export async function loader({ params }: Route.LoaderArgs) {
  const day = await dayOf(params)
  return { day: { id: day.id, name: `${day.productName} at ${day.venueName}`, dates: describeDates(day) }, constraint: CONSTRAINT, slotsFree: soldOut(day) ? null : new DaySlotsFreeError().message }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const day = await dayOf(params)
  const formData = await readForm(request)
  rejectBots(formData)
  const submission = parseWithZod(formData, { schema: DayWaitlistSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), joined: null }, { status: 400 })
  const user = await getUser(request)
  try {
    const joined = await joinDayWaitlist({ dayId: day.id, applicant: { ...submission.value, phone: submission.value.phone ?? null }, accountId: user?.id ?? null, ip: callerOf(request, context).ip })
    return { result: null, joined: { email: joined.email, confirmBy: formatLabDateTime(joined.confirmBy), swimmerName: submission.value.swimmerName } }
  } catch (error) {
    const refusal = refusalOf(error)
    return data({ result: submission.reply(formErrorsOf(refusal)), joined: null }, { status: refusal.status })
  }
}

export default function DayWaitlist({ loaderData, actionData }: Route.ComponentProps) {
  const { day, slotsFree } = loaderData
  const joined = actionData?.joined
  if (joined)
    return (
      <AuthCard title="Check your inbox" lead={`${day.name}, ${day.dates}`} wide>
        <div role="status" className="space-y-3 text-ink">
          <p>{`Unless ${joined.swimmerName} is already on this day's waitlist under ${joined.email}, we have e-mailed that address a link to keep the place.`}</p>
          <p>{`Open it and press its button by ${joined.confirmBy}: your place in the queue counts from then, and without it the place lapses.`}</p>
        </div>
        <Link to={analysisDayLink(day.id)} className="btn-secondary mt-6">
          Back to the day
        </Link>
      </AuthCard>
    )
  return (
    <AuthCard title="Join the waitlist" lead={`${day.name}, ${day.dates}`} wide>
      {slotsFree ? (
        <>
          <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 font-medium text-amber-950">
            {slotsFree}
          </p>
          <Link to={analysisDayLink(day.id)} className="btn-primary mt-6">
            Book a slot
          </Link>
        </>
      ) : (
        <>
          <p className="text-ink">Every slot of this day is taken.</p>
          <AnalysisDayWaitlistForm dayId={day.id} constraint={loaderData.constraint} lastResult={actionData?.result} />
        </>
      )}
    </AuthCard>
  )
}
