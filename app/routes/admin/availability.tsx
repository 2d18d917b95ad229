import { getFormProps, type Submission, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/availability'
import { FormAlert, PendingButton, useValidatedForm } from '~/components/form-fields'
import { StrandedBookingsAlert } from '~/components/stranded-bookings'
import { DateRangeFields, HoursFields } from '~/components/window-fields'
import { requireAdmin } from '~/web/auth.server'
import { addMonths, formatMonthTitle, formatTimeRange, formatWeekdayDate, labToday } from '~/lib/lab-time'
import { redirectWithToast } from '~/web/toast.server'
import { createWindows, markHolidays, removeHoliday, staffMonth, strandedBy, type StrandedBooking } from '~/modules/booking/availability-staff.server'
import { DateSchema, isMonth } from '~/modules/booking/schemas'
import { CreateWindowsSchema, HolidaysSchema, WEEKDAYS } from '~/modules/booking/staff-schemas'
import { readForm } from '~/web/form-data.server'
import { formIntent } from '~/web/intent'
import { formErrorsOf, refusalOf } from '~/web/refusals.server'
import { adminAvailabilityLink, adminWindowLink } from '~/lib/links'

export const meta: Route.MetaFunction = () => [{ title: 'Availability | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const param = new URL(request.url).searchParams.get('month')
  const month = isMonth(param) ? param : labToday().slice(0, 7)
  const windows = await staffMonth(month)
  return {
    month,
    previous: addMonths(month, -1),
    next: addMonths(month, 1),
    days: [...new Set(windows.map((window) => window.date))].map((date) => ({
      date,
      label: formatWeekdayDate(date),
      holiday: windows.some((window) => window.date === date && window.isHoliday),
      windows: windows
        .filter((window) => window.date === date && !window.isHoliday)
        .map((window) => ({
          id: window.id,
          hours: window.startTime && window.endTime ? formatTimeRange(window.startTime, window.endTime) : 'No hours',
          detail: `${window.slotDurationMinutes ?? '?'}-minute slots, ${window.capacity} per slot`,
          taken: window.timeSlots.reduce((sum, slot) => sum + slot.taken, 0),
          seats: window.timeSlots.filter((slot) => !slot.closed).length * window.capacity,
          closed: window.timeSlots.filter((slot) => slot.closed).length,
        })),
    })),
  }
}

type ActionResult = { form: 'create' | 'holiday'; result: SubmissionResult<string[]>; stranded?: StrandedBooking[] }

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  const formData = await readForm(request)
  const back = new URL(request.url)
  // The opening-hours form is the page's main one: a post without a known intent has always meant it.
  switch (formIntent(formData, ['create', 'holiday', 'unholiday']) ?? 'create') {
    case 'unholiday': {
      const date = String(formData.get('date') ?? '')
      // The button sends a holiday's own date; anything else would reach the database as a date and fail there.
      if (!DateSchema.safeParse(date).success) return redirectWithToast(`${back.pathname}${back.search}`, { type: 'error', title: 'That is not a holiday on the calendar' })
      await removeHoliday(actor, date)
      return redirectWithToast(`${back.pathname}${back.search}`, { type: 'success', title: 'Holiday removed', description: `${date} is open again.` })
    }
    case 'holiday': {
      const submission = parseWithZod(formData, { schema: HolidaysSchema })
      if (submission.status !== 'success') return data<ActionResult>({ form: 'holiday', result: submission.reply() }, { status: 400 })
      const { from, to, weekdays } = submission.value
      try {
        const { marked } = await markHolidays(actor, { from, to: to || from, weekdays: weekdays.map(Number) })
        return redirectWithToast(adminAvailabilityLink(from.slice(0, 7)), { type: 'success', title: 'Holidays marked', description: `${marked} ${marked === 1 ? 'date' : 'dates'} closed.` })
      } catch (error) {
        return refused('holiday', submission, error)
      }
    }
    case 'create': {
      const submission = parseWithZod(formData, { schema: CreateWindowsSchema })
      if (submission.status !== 'success') return data<ActionResult>({ form: 'create', result: submission.reply() }, { status: 400 })
      const { from, to, weekdays, startTime, endTime, slotDurationMinutes, capacity } = submission.value
      try {
        const { created } = await createWindows(actor, { from, to: to || from, weekdays: weekdays.map(Number), hours: { startTime, endTime, slotDurationMinutes, capacity } })
        return redirectWithToast(adminAvailabilityLink(from.slice(0, 7)), { type: 'success', title: 'Opening hours added', description: `${created} ${created === 1 ? 'date' : 'dates'} opened.` })
      } catch (error) {
        return refused('create', submission, error)
      }
    }
  }
}

/** A change the rules refused: the form again, with why, and the bookings in the way. */
function refused(form: ActionResult['form'], submission: Submission<unknown, string[], unknown>, error: unknown) {
  const refusal = refusalOf(error)
  return data<ActionResult>({ form, result: submission.reply(formErrorsOf(refusal)), ...strandedBy(refusal.error) }, { status: refusal.status })
}

export default function AdminAvailability({ loaderData, actionData }: Route.ComponentProps) {
  const { month, previous, next, days } = loaderData
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Availability</h1>
      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <OpenHoursForm lastResult={actionData?.form === 'create' ? actionData : undefined} />
        <HolidaysForm lastResult={actionData?.form === 'holiday' ? actionData : undefined} />
      </div>

      <section aria-labelledby="month-heading" className="mt-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="month-heading" className="text-xl font-bold text-ink">
            Opening hours in {formatMonthTitle(month)}
          </h2>
          <div className="flex gap-2">
            <Link to={`?month=${previous}`} className="btn-secondary">
              Previous month
            </Link>
            <Link to={`?month=${next}`} className="btn-secondary">
              Next month
            </Link>
          </div>
        </div>
        {days.length === 0 ? (
          <p className="mt-3 text-muted">No opening hours this month.</p>
        ) : (
          <ul className="mt-3 space-y-2">
            {days.map((day) => (
              <li key={day.date} className={`rounded-xl border p-3 ${day.holiday ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white'}`}>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-semibold text-ink">{day.label}</span>
                  {day.holiday && (
                    <Form method="post" className="flex items-center gap-3">
                      <span className="text-sm font-semibold text-amber-900">Holiday</span>
                      <input type="hidden" name="date" value={day.date} />
                      <button type="submit" name="intent" value="unholiday" className="link text-sm">
                        Remove holiday
                      </button>
                    </Form>
                  )}
                </div>
                {day.windows.map((window) => (
                  <p key={window.id} className="mt-1 text-sm text-ink">
                    <Link to={adminWindowLink(window.id)} className="link">
                      {window.hours}
                    </Link>{' '}
                    <span className="text-muted">
                      {window.detail}; {window.taken} of {window.seats} seats taken{window.closed ? `; ${window.closed} closed` : ''}
                    </span>
                  </p>
                ))}
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  )
}

const ALL_WEEKDAYS = WEEKDAYS.map((day) => day.value) as string[]

function OpenHoursForm({ lastResult }: { lastResult?: ActionResult }) {
  const [form, fields] = useValidatedForm(CreateWindowsSchema, { lastResult: lastResult?.result, defaultValue: { startTime: '09:00', endTime: '18:00', slotDurationMinutes: '60', capacity: '2', weekdays: ALL_WEEKDAYS.slice(0, 6) } as never })
  return (
    <Form method="post" {...getFormProps(form)} className="card space-y-4 p-6">
      <h2 className="text-lg font-bold text-ink">Open hours</h2>
      <FormAlert id={form.errorId} errors={form.errors} />
      {lastResult?.stranded && <StrandedBookingsAlert bookings={lastResult.stranded} />}
      <DateRangeFields fields={fields} />
      <HoursFields fields={fields} />
      <PendingButton name="intent" value="create">
        Open these hours
      </PendingButton>
    </Form>
  )
}

function HolidaysForm({ lastResult }: { lastResult?: ActionResult }) {
  const [form, fields] = useValidatedForm(HolidaysSchema, { lastResult: lastResult?.result, defaultValue: { weekdays: ALL_WEEKDAYS } as never })
  return (
    <Form method="post" {...getFormProps(form)} className="card space-y-4 p-6">
      <h2 className="text-lg font-bold text-ink">Mark holidays</h2>
      <p className="text-sm text-muted">The lab is closed all day on these dates; any opening hours are kept for when the holiday is removed.</p>
      <FormAlert id={form.errorId} errors={form.errors} />
      {lastResult?.stranded && <StrandedBookingsAlert bookings={lastResult.stranded} />}
      <DateRangeFields fields={fields} />
      <PendingButton name="intent" value="holiday" className="btn-secondary">
        Mark as holidays
      </PendingButton>
    </Form>
  )
}
