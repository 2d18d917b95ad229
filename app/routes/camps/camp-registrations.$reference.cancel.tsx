import { data, href } from 'react-router'
import { BookingChangeHeading } from '~/components/booking-change-heading'
import { CancelForm } from '~/components/cancel-form'
import type { Route } from './+types/camp-registrations.$reference.cancel'
import { requireUser } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { formatDateRange, formatLabDateTime } from '~/lib/lab-time'
import { formatRupees } from '~/lib/money'
import { notFoundUnless, refusalOf } from '~/web/refusals.server'
import { pageMeta } from '~/lib/seo'
import { redirectWithToast } from '~/web/toast.server'
import { batchTimes } from '~/modules/camps/fulfilment.server'
import { cancelOwnPlace, ownCampPlace } from '~/modules/camps/cancellation.server'
import { getSiteSettings } from '~/modules/site/site.server'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Cancel your camp registration', description: 'Cancel a camp registration and get a refund.', path: href('/my-bookings') }),
  { name: 'robots', content: 'noindex' },
]

const BACK_TO = href('/my-bookings')

/** A family cancels a camp place registered under their account; anyone else's is a 404. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const place = await ownCampPlace(user.id, params.reference)
  notFoundUnless(place)
  return {
    reference: place.reference,
    title: place.campName,
    details: [
      { label: 'Swimmer', value: place.swimmerName },
      { label: 'Dates', value: formatDateRange(place.startsOn, place.endsOn) },
      { label: 'Batch', value: `${place.batchName}: ${batchTimes(place.timeRanges)}` },
    ],
    refund: place.refundPaise !== null ? formatRupees(place.refundPaise) : null,
    refundPolicy: (await getSiteSettings()).refundPolicy,
    options: place.options,
    deadline: formatLabDateTime(place.deadline),
  } as const
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request)
  rejectBots(await readForm(request))
  let cancelled: Awaited<ReturnType<typeof cancelOwnPlace>>
  try {
    cancelled = await cancelOwnPlace({ account: { id: user.id, email: user.email }, reference: params.reference })
  } catch (error) {
    const refusal = refusalOf(error)
    return data({ error: refusal.message }, { status: refusal.status })
  }
  return redirectWithToast(BACK_TO, {
    type: 'success',
    title: 'Registration cancelled',
    description: cancelled.refundPaise !== null ? `Your refund of ${formatRupees(cancelled.refundPaise)} is on its way. We will e-mail you when it is complete.` : 'Your camp registration has been cancelled.',
  })
}

export default function CancelCampPlace({ loaderData, actionData }: Route.ComponentProps) {
  const { reference, title, details, refund, refundPolicy, options, deadline } = loaderData
  return (
    <section className="container-page max-w-2xl py-10 sm:py-14">
      <BookingChangeHeading heading="Cancel your camp registration" backTo={BACK_TO} title={title} reference={reference} referenceLabel="registration ID" days={details} />
      {!options.allowed ? (
        <p role="alert" className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
          {options.reason}
        </p>
      ) : (
        <CancelForm
          terms={`${refund ? `You will get your ${refund} back, ${refundPolicy}.` : 'No payment was taken for this registration, so there is nothing to refund.'} You can cancel until ${deadline}.`}
          error={actionData?.error}
          confirmLabel="Cancel this registration"
          keepLabel="Keep this registration"
          backTo={BACK_TO}
        />
      )}
    </section>
  )
}
