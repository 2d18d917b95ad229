import { data, Form } from 'react-router'
import { BookingChangeHeading } from '~/components/booking-change-heading'
import type { Route } from './+types/bookings.$reference.reschedule'
import { FormAlert, HoneypotField, PendingButton } from '~/components/form-controls'
import { callerOf } from '~/web/auth.server'
import { MonthCalendarCard } from '~/components/month-calendar'
import { TimeSlotPicker } from '~/components/time-slot-picker'
import { bookingForChange } from '~/web/booking/booking-access.server'
import { formatLabDateTime, formatTimeRange, formatWeekdayDate, labToday } from '~/lib/lab-time'
import { bookingDayLines } from '~/modules/booking/texts'
import { rejectBots } from '~/web/honeypot'
import { pageMeta } from '~/lib/seo'
import { redirectWithToast } from '~/web/toast.server'
import { daySchedule, monthCalendar } from '~/modules/booking/availability.server'
import { changeAllowed, changeDeadline, rescheduleBooking } from '~/modules/booking/changes.server'
import { CONFIRMATION_LINK_MINUTES, rescheduleLinkOf, rescheduleLinkValid, rescheduleThroughLink, sendRescheduleLink } from '~/modules/booking/guest-links.server'
import { bookableMonth } from '~/modules/booking/holds.server'
import { BookableDateSchema, HoldSlotSchema, isClockTime } from '~/modules/booking/schemas'
import { readForm } from '~/web/form-data.server'
import { refusalOf } from '~/web/refusals.server'
import { rescheduleLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Reschedule your booking', description: 'Move your analysis session to another date and time.', path: '/bookings' }),
  { name: 'robots', content: 'noindex' },
]

/**
 * Through a guest's private link, moving the booking takes the booking's mailbox too: the page first
 * e-mails a short-lived link for the chosen time, and only that link's page moves the booking there.
 * Signed-in owners and staff move it straight away.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { booking, backTo, linkQuery, viaLink, staff } = await bookingForChange(request, params.reference)
  const now = new Date()
  const firstDay = booking.days[0]
  const allowed = staff && booking.status === 'confirmed' ? ({ allowed: true } as const) : changeAllowed(booking.status, firstDay, now)
  const url = new URL(request.url)
  const today = labToday(now)
  const dateParam = url.searchParams.get('date')
  const date = allowed.allowed && BookableDateSchema.safeParse(dateParam).success ? dateParam! : null
  const { month, previousMonth, nextMonth } = bookableMonth(url.searchParams.get('month'), date, today)
  const days = booking.days.length
  // The booking's own time is where it is already, not somewhere to move it to; a time is Booked
  // when its swimmer has another seat there (a brother or sister's seat does not count).
  const isCurrent = (start: string) => date === firstDay?.date && start === firstDay.start
  const schedule = date ? (await daySchedule({ date, userId: booking.userId, days, now, exceptBookingId: booking.id, swimmer: booking })).map((slot) => (isCurrent(slot.start) ? { ...slot, state: 'booked' as const } : slot)) : []
  const time = url.searchParams.get('time')
  const chosen = isClockTime(time) ? (schedule.find((slot) => slot.start === time && slot.state === 'available') ?? null) : null
  const link = viaLink ? rescheduleLinkOf(url.searchParams) : null
  const confirmation = !viaLink ? 'not needed' : !link ? 'none' : (await rescheduleLinkValid(booking, link, now)) ? 'valid' : 'invalid'
  const deadline = firstDay ? changeDeadline(firstDay.date, firstDay.start) : null
  const here = rescheduleLink(booking.reference)
  const chosenQuery = chosen && date ? `${linkQuery ? '&' : '?'}${new URLSearchParams({ month, date, time: chosen.start })}` : ''
  return {
    reference: booking.reference,
    title: booking.productName,
    current: bookingDayLines(booking.days),
    allowed: allowed.allowed,
    reason: allowed.allowed ? null : allowed.reason,
    deadline: deadline ? formatLabDateTime(deadline) : null,
    backTo,
    linkQuery,
    today,
    month,
    previousMonth,
    nextMonth,
    calendar: allowed.allowed ? await monthCalendar(month, now, { days }) : [],
    date,
    schedule,
    chosen: chosen ? { start: chosen.start, end: chosen.end, dates: chosen.sessionDates.map(formatWeekdayDate) } : null,
    confirmation,
    confirmationMinutes: CONFIRMATION_LINK_MINUTES,
    // Moving posts the chosen time (with the e-mailed link's own parameters, through a link); asking for a link posts the private link and the chosen time.
    moveAction: link ? `${here}${linkQuery}&${new URLSearchParams({ date: link.date, time: link.time, until: String(link.until), confirm: link.confirm })}` : `${here}${linkQuery}${chosenQuery}`,
    askAction: `${here}${linkQuery}${chosenQuery}`,
  } as const
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { booking, backTo, viaLink, staff } = await bookingForChange(request, params.reference)
  const formData = await readForm(request)
  rejectBots(formData)
  const here = new URL(request.url)
  const again = `${here.pathname}${here.search}`
  const link = viaLink ? rescheduleLinkOf(here.searchParams) : null
  const moved = () => redirectWithToast(backTo, { type: 'success', title: 'Booking rescheduled', description: 'Your new dates are confirmed. We have e-mailed you an updated calendar invitation.' })
  if (link) {
    // The e-mailed link moves the booking to the time it names, whatever the form says.
    try {
      await rescheduleThroughLink({ bookingId: booking.id, link })
    } catch (error) {
      const refusal = refusalOf(error)
      // A link that no longer works is said on this page, which offers to send a new one.
      if (refusal.error.kind === 'invalid') return data({ sent: false, error: refusal.message }, { status: refusal.status })
      return redirectWithToast(again, { type: 'error', title: 'Could not reschedule', description: refusal.message })
    }
    return moved()
  }
  const submission = HoldSlotSchema.safeParse(Object.fromEntries(formData))
  if (!submission.success) return redirectWithToast(again, { type: 'error', title: 'No time slot selected', description: 'Please select a time slot to continue.' })
  if (viaLink) {
    try {
      await sendRescheduleLink({ bookingId: booking.id, date: submission.data.date, start: submission.data.time, ip: callerOf(request, context).ip })
    } catch (error) {
      const refusal = refusalOf(error)
      // A time the booking cannot move to gets no link: asking for one is a bad request.
      return data({ sent: false, error: refusal.message }, { status: refusal.error.kind === 'rate_limited' ? refusal.status : 400 })
    }
    return { sent: true, error: null }
  }
  try {
    await rescheduleBooking({ bookingId: booking.id, date: submission.data.date, start: submission.data.time, enforceDeadline: !staff, actor: staff ?? undefined })
  } catch (error) {
    return redirectWithToast(again, { type: 'error', title: 'Could not reschedule', description: refusalOf(error).message })
  }
  return moved()
}

export default function Reschedule({ loaderData, actionData }: Route.ComponentProps) {
  const { reference, title, current, allowed, reason, deadline, backTo, linkQuery, today, month, previousMonth, nextMonth, calendar, date, schedule, chosen, confirmation, confirmationMinutes, moveAction, askAction } = loaderData
  const base = rescheduleLink(reference)
  const query = (values: Record<string, string | null | undefined>) => {
    const params = new URLSearchParams(linkQuery.slice(1))
    for (const [key, value] of Object.entries(values)) if (value) params.set(key, value)
    return `${base}?${params}`
  }
  return (
    <section className="container-page py-10 sm:py-14">
      <BookingChangeHeading heading="Reschedule your booking" backTo={backTo} title={title} reference={reference} days={current} listClassName="max-w-xl" />
      {!allowed ? (
        <p role="alert" className="mt-6 max-w-xl rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
          {reason}
        </p>
      ) : (
        <>
          <p className="mt-4 text-sm text-muted">You can reschedule until {deadline}. Pick a new date and time: there is nothing more to pay.</p>
          {/* Said above the calendar, where a page sent without JavaScript opens. */}
          {confirmation === 'invalid' && !actionData && (
            <p role="alert" className="mt-4 max-w-xl rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
              This confirmation link has expired or has already been used. You can ask for a new one below.
            </p>
          )}
          {actionData?.sent && (
            <p role="status" className="mt-4 max-w-xl rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950">
              We have e-mailed a confirmation link to the booking's e-mail address. It works for {confirmationMinutes} minutes; your booking is not moved until you use it.
            </p>
          )}
          {actionData?.error && (
            <div className="mt-4 max-w-xl">
              <FormAlert id="reschedule-error" errors={[actionData.error]} />
            </div>
          )}
          <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
            <MonthCalendarCard month={month} previousMonth={previousMonth} nextMonth={nextMonth} days={calendar} selected={date} today={today} query={query} />
            <section aria-labelledby="new-time" className="card p-6 shadow-sm">
              <h2 id="new-time" className="text-lg font-bold text-ink">
                {date ? `New time on ${formatWeekdayDate(date)}` : 'Choose a new date'}
              </h2>
              {date && schedule.length === 0 && <p className="mt-2 text-muted">There are no time slots on this date.</p>}
              {date && <TimeSlotPicker slots={schedule} chosen={chosen?.start ?? null} choose={{ hrefFor: (start) => query({ month, date, time: start }) }} />}
              {chosen && date && (
                <Form method="post" action={confirmation === 'none' || confirmation === 'invalid' ? askAction : moveAction} className="mt-6 space-y-3">
                  <HoneypotField />
                  <input type="hidden" name="date" value={date} />
                  <input type="hidden" name="time" value={chosen.start} />
                  <ol className="space-y-1 text-sm text-ink">
                    {chosen.dates.map((day, index) => (
                      <li key={day}>{chosen.dates.length > 1 ? `Day ${index + 1}: ${day}` : day}</li>
                    ))}
                  </ol>
                  {confirmation === 'none' || confirmation === 'invalid' ? (
                    <>
                      <p className="text-sm text-ink">
                        To keep your booking safe, we first e-mail a link to the address this booking was made with. Open it within {confirmationMinutes} minutes to confirm the new time.
                      </p>
                      <PendingButton pendingLabel="Sending..." className="btn-primary w-full">
                        E-mail me a link to confirm the new time
                      </PendingButton>
                    </>
                  ) : (
                    <PendingButton pendingLabel="Rescheduling..." className="btn-primary w-full">
                      {`Move my booking to ${formatTimeRange(chosen.start, chosen.end)}`}
                    </PendingButton>
                  )}
                </Form>
              )}
            </section>
          </div>
        </>
      )}
    </section>
  )
}
