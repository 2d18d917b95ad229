import { Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/bookings.$reference.cancel'
import { HoneypotField } from '~/components/form-fields'
import { bookingForChange } from '~/lib/booking-access.server'
import { formatClockTime, formatLongDate, formatRupees, formatTimeRange, formatWeekdayDate, labDateParts } from '~/lib/format'
import { rejectBots } from '~/lib/honeypot'
import { pageMeta } from '~/lib/seo'
import { redirectWithToast } from '~/lib/toast.server'
import { cancelBooking, changeAllowed, changeDeadline, NotChangeableError, TooLateToChangeError } from '~/modules/booking/changes.server'
import { SESSION_TITLE } from '~/modules/booking/texts'
import { getSiteSettings } from '~/modules/site/site.server'
import { readForm } from '~/lib/form-data.server'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Cancel your booking', description: 'Cancel your analysis session and get a refund.', path: '/bookings' }),
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request, params }: Route.LoaderArgs) {
  const { booking, backTo, staff } = await bookingForChange(request, params.reference)
  const firstDay = booking.days[0]
  const allowed = staff && booking.status === 'confirmed' ? ({ allowed: true } as const) : changeAllowed(booking.status, firstDay, new Date())
  const deadline = firstDay ? labDateParts(changeDeadline(firstDay.date, firstDay.start)) : null
  return {
    reference: booking.reference,
    title: booking.days.length === 3 ? SESSION_TITLE : `${booking.productName} session`,
    days: booking.days.map((day) => ({ label: booking.days.length > 1 ? `Day ${day.dayNumber}` : 'Date', value: `${formatWeekdayDate(day.date)}, ${formatTimeRange(day.start, day.end)}` })),
    refund: booking.paidOrderId ? formatRupees(booking.amountPaise) : null,
    refundPolicy: (await getSiteSettings()).refundPolicy,
    allowed: allowed.allowed,
    reason: allowed.allowed ? null : allowed.reason,
    deadline: deadline ? `${formatClockTime(deadline.time)} IST on ${formatLongDate(deadline.date)}` : null,
    backTo,
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { booking, backTo, staff } = await bookingForChange(request, params.reference)
  rejectBots(await readForm(request))
  try {
    await cancelBooking({ bookingId: booking.id, enforceDeadline: !staff, actor: staff ?? undefined })
  } catch (error) {
    if (error instanceof TooLateToChangeError || error instanceof NotChangeableError) return redirectWithToast(backTo, { type: 'error', title: 'Could not cancel', description: error.message })
    throw error
  }
  return redirectWithToast(backTo, {
    type: 'success',
    title: 'Booking cancelled',
    description: booking.paidOrderId ? `Your refund of ${formatRupees(booking.amountPaise)} is on its way. We will e-mail you when it is complete.` : 'Your booking has been cancelled.',
  })
}

export default function Cancel({ loaderData }: Route.ComponentProps) {
  const { reference, title, days, refund, refundPolicy, allowed, reason, deadline, backTo } = loaderData
  const navigation = useNavigation()
  return (
    <section className="container-page max-w-2xl py-10 sm:py-14">
      <Link to={backTo} className="font-semibold text-brand-700 underline underline-offset-4">
        Back
      </Link>
      <h1 className="mt-4 text-3xl font-extrabold text-brand-900">Cancel your booking</h1>
      <p className="mt-2 text-muted">
        {title}, booking ID {reference}
      </p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {days.map((day) => (
          <div key={day.label} className="contents">
            <dt className="text-muted">{day.label}</dt>
            <dd className="font-medium text-ink">{day.value}</dd>
          </div>
        ))}
      </dl>
      {!allowed ? (
        <p role="alert" className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
          {reason}
        </p>
      ) : (
        <Form method="post" className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <HoneypotField />
          <p className="text-ink">
            {refund ? `You will get your ${refund} back, ${refundPolicy}.` : 'No payment was taken for this booking, so there is nothing to refund.'} You can cancel until {deadline}.
          </p>
          <button type="submit" className="btn-primary w-full bg-red-700 hover:bg-red-800" disabled={navigation.state === 'submitting'}>
            {navigation.state === 'submitting' ? 'Cancelling...' : 'Cancel my booking'}
          </button>
          <Link to={backTo} className="btn-secondary w-full">
            Keep my booking
          </Link>
        </Form>
      )}
    </section>
  )
}
