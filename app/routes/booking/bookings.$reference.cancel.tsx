import { data, Form, Link } from 'react-router'
import { BookingChangeHeading } from '~/components/booking-change-heading'
import { CancelForm } from '~/components/cancel-form'
import type { Route } from './+types/bookings.$reference.cancel'
import { FormAlert, HoneypotField, PendingButton } from '~/components/form-controls'
import { callerOf } from '~/web/auth.server'
import { bookingForChange } from '~/web/booking/booking-access.server'
import { formatRupees } from '~/lib/money'
import { formatLabDateTime } from '~/lib/lab-time'
import { bookingDayLines } from '~/modules/booking/texts'
import { rejectBots } from '~/web/honeypot'
import { pageMeta } from '~/lib/seo'
import { redirectWithToast } from '~/web/toast.server'
import { cancelBooking, changeAllowed, changeDeadline } from '~/modules/booking/changes.server'
import { CONFIRMATION_LINK_MINUTES, cancellationLinkOf, cancellationLinkValid, cancelThroughLink, sendCancellationLink } from '~/modules/booking/guest-links.server'
import { getSiteSettings } from '~/modules/site/site.server'
import { readForm } from '~/web/form-data.server'
import { refusalOf } from '~/web/refusals.server'
import { cancelLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Cancel your booking', description: 'Cancel your analysis session and get a refund.', path: '/bookings' }),
  { name: 'robots', content: 'noindex' },
]

/**
 * Through a guest's private link, cancelling (which refunds) takes the booking's mailbox too: the
 * page first e-mails a short-lived link, and only that link's page cancels. Signed-in owners and
 * staff cancel straight away.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { booking, backTo, linkQuery, viaLink, staff } = await bookingForChange(request, params.reference)
  const here = cancelLink(booking.reference)
  const link = viaLink ? cancellationLinkOf(new URL(request.url).searchParams) : null
  const confirmation = !viaLink ? 'not needed' : !link ? 'none' : (await cancellationLinkValid(booking, link)) ? 'valid' : 'invalid'
  const firstDay = booking.days[0]
  const allowed = staff && booking.status === 'confirmed' ? ({ allowed: true } as const) : changeAllowed(booking.status, firstDay, new Date())
  const deadline = firstDay ? changeDeadline(firstDay.date, firstDay.start) : null
  return {
    reference: booking.reference,
    title: booking.productName,
    days: bookingDayLines(booking.days),
    refund: booking.paidOrderId ? formatRupees(booking.amountPaise) : null,
    refundPolicy: (await getSiteSettings()).refundPolicy,
    allowed: allowed.allowed,
    reason: allowed.allowed ? null : allowed.reason,
    deadline: deadline ? formatLabDateTime(deadline) : null,
    backTo,
    confirmation,
    confirmationMinutes: CONFIRMATION_LINK_MINUTES,
    // Asking for a link posts the private link alone; confirming posts the e-mailed link's own parameters.
    askAction: `${here}${linkQuery}`,
    confirmAction: link ? `${here}${linkQuery}&${new URLSearchParams({ until: String(link.until), confirm: link.confirm })}` : here,
  } as const
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { booking, backTo, viaLink, staff } = await bookingForChange(request, params.reference)
  rejectBots(await readForm(request))
  const link = viaLink ? cancellationLinkOf(new URL(request.url).searchParams) : null
  if (viaLink && !link) {
    try {
      await sendCancellationLink({ bookingId: booking.id, ip: callerOf(request, context).ip })
    } catch (error) {
      const refusal = refusalOf(error)
      // A booking that can no longer be cancelled gets no link: asking for one is a bad request.
      return data({ sent: false, error: refusal.message }, { status: refusal.error.kind === 'rate_limited' ? refusal.status : 400 })
    }
    return { sent: true, error: null }
  }
  try {
    if (link) await cancelThroughLink({ bookingId: booking.id, link })
    else await cancelBooking({ bookingId: booking.id, enforceDeadline: !staff, actor: staff ?? undefined })
  } catch (error) {
    const refusal = refusalOf(error)
    // A link that no longer works is said on this page, which offers to send a new one.
    if (refusal.error.kind === 'invalid') return data({ sent: false, error: refusal.message }, { status: refusal.status })
    return redirectWithToast(backTo, { type: 'error', title: 'Could not cancel', description: refusal.message })
  }
  return redirectWithToast(backTo, {
    type: 'success',
    title: 'Booking cancelled',
    description: booking.paidOrderId ? `Your refund of ${formatRupees(booking.amountPaise)} is on its way. We will e-mail you when it is complete.` : 'Your booking has been cancelled.',
  })
}

export default function Cancel({ loaderData, actionData }: Route.ComponentProps) {
  const { reference, title, days, refund, refundPolicy, allowed, reason, deadline, backTo, confirmation, confirmationMinutes, askAction, confirmAction } = loaderData
  const terms = `${refund ? `You will get your ${refund} back, ${refundPolicy}.` : 'No payment was taken for this booking, so there is nothing to refund.'} You can cancel until ${deadline}.`
  return (
    <section className="container-page max-w-2xl py-10 sm:py-14">
      <BookingChangeHeading heading="Cancel your booking" backTo={backTo} title={title} reference={reference} days={days} />
      {!allowed ? (
        <p role="alert" className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
          {reason}
        </p>
      ) : confirmation === 'none' || confirmation === 'invalid' ? (
        <Form method="post" action={askAction} className="card mt-6 space-y-4 p-6 shadow-sm">
          <HoneypotField />
          <p className="text-ink">{terms}</p>
          <p className="text-ink">
            To keep your booking safe, we first e-mail a link to the address this booking was made with. Open it within {confirmationMinutes} minutes to confirm the cancellation.
          </p>
          {confirmation === 'invalid' && !actionData && (
            <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
              This confirmation link has expired or has already been used. You can ask for a new one below.
            </p>
          )}
          {actionData?.sent && (
            <p role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950">
              We have e-mailed a confirmation link to the booking's e-mail address. It works for {confirmationMinutes} minutes; your booking is not cancelled until you use it.
            </p>
          )}
          <FormAlert id="confirmation-error" errors={actionData?.error ? [actionData.error] : undefined} />
          <PendingButton pendingLabel="Sending..." className="btn-primary w-full">
            E-mail me a link to confirm the cancellation
          </PendingButton>
          <Link to={backTo} className="btn-secondary w-full">
            Keep my booking
          </Link>
        </Form>
      ) : (
        <CancelForm action={confirmAction} terms={terms} error={actionData?.error} confirmLabel="Cancel my booking" keepLabel="Keep my booking" backTo={backTo} />
      )}
    </section>
  )
}
