import { Form } from 'react-router'
import { BookingChangeHeading } from '~/components/booking-change-heading'
import type { Route } from './+types/bookings.$reference.reschedule'
import { HoneypotField, PendingButton } from '~/components/form-controls'
import { MonthCalendarCard } from '~/components/month-calendar'
import { TimeSlotPicker } from '~/components/time-slot-picker'
import { bookingForChange } from '~/lib/booking-access.server'
import { formatLabDateTime, formatTimeRange, formatWeekdayDate, labToday } from '~/lib/lab-time'
import { bookingDayLines } from '~/modules/booking/texts'
import { rejectBots } from '~/lib/honeypot'
import { pageMeta } from '~/lib/seo'
import { redirectWithToast } from '~/lib/toast.server'
import { daySchedule, monthCalendar } from '~/modules/booking/availability.server'
import { changeAllowed, changeDeadline, rescheduleBooking } from '~/modules/booking/changes.server'
import { bookableMonth, lastBookableDate, SlotUnavailableError } from '~/modules/booking/holds.server'
import { BookableDateSchema, HoldSlotSchema, isClockTime } from '~/modules/booking/schemas'
import { readForm } from '~/lib/form-data.server'
import { refusalOf } from '~/lib/refusals.server'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Reschedule your booking', description: 'Move your analysis session to another date and time.', path: '/bookings' }),
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request, params }: Route.LoaderArgs) {
  const { booking, backTo, linkQuery, staff } = await bookingForChange(request, params.reference)
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
  const deadline = firstDay ? changeDeadline(firstDay.date, firstDay.start) : null
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
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { booking, backTo, staff } = await bookingForChange(request, params.reference)
  const formData = await readForm(request)
  rejectBots(formData)
  const here = new URL(request.url)
  const submission = HoldSlotSchema.safeParse(Object.fromEntries(formData))
  if (!submission.success) return redirectWithToast(`${here.pathname}${here.search}`, { type: 'error', title: 'No time slot selected', description: 'Please select a time slot to continue.' })
  try {
    // Customers move within the window they could book in; staff may move a booking anywhere.
    if (!staff && submission.data.date > lastBookableDate(booking.days.length, labToday())) throw new SlotUnavailableError()
    const firstDay = booking.days[0]
    if (submission.data.date === firstDay?.date && submission.data.time === firstDay.start) {
      return redirectWithToast(`${here.pathname}${here.search}`, { type: 'error', title: 'Could not reschedule', description: 'Your booking is already at this time. Please choose another date or time.' })
    }
    await rescheduleBooking({ bookingId: booking.id, date: submission.data.date, start: submission.data.time, enforceDeadline: !staff, actor: staff ?? undefined })
  } catch (error) {
    return redirectWithToast(`${here.pathname}${here.search}`, { type: 'error', title: 'Could not reschedule', description: refusalOf(error).message })
  }
  return redirectWithToast(backTo, { type: 'success', title: 'Booking rescheduled', description: 'Your new dates are confirmed. We have e-mailed you an updated calendar invitation.' })
}

export default function Reschedule({ loaderData }: Route.ComponentProps) {
  const { reference, title, current, allowed, reason, deadline, backTo, linkQuery, today, month, previousMonth, nextMonth, calendar, date, schedule, chosen } = loaderData
  const base = `/bookings/${encodeURIComponent(reference)}/reschedule`
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
          <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
            <MonthCalendarCard month={month} previousMonth={previousMonth} nextMonth={nextMonth} days={calendar} selected={date} today={today} query={query} />
            <section aria-labelledby="new-time" className="card p-6 shadow-sm">
              <h2 id="new-time" className="text-lg font-bold text-ink">
                {date ? `New time on ${formatWeekdayDate(date)}` : 'Choose a new date'}
              </h2>
              {date && schedule.length === 0 && <p className="mt-2 text-muted">There are no time slots on this date.</p>}
              {date && <TimeSlotPicker slots={schedule} chosen={chosen?.start ?? null} hrefFor={(start) => query({ month, date, time: start })} />}
              {chosen && date && (
                <Form method="post" className="mt-6 space-y-3">
                  <HoneypotField />
                  <input type="hidden" name="date" value={date} />
                  <input type="hidden" name="time" value={chosen.start} />
                  <ol className="space-y-1 text-sm text-ink">
                    {chosen.dates.map((day, index) => (
                      <li key={day}>{chosen.dates.length > 1 ? `Day ${index + 1}: ${day}` : day}</li>
                    ))}
                  </ol>
                  <PendingButton pendingLabel="Rescheduling..." className="btn-primary w-full">
                    {`Move my booking to ${formatTimeRange(chosen.start, chosen.end)}`}
                  </PendingButton>
                </Form>
              )}
            </section>
          </div>
        </>
      )}
    </section>
  )
}
