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
import { formErrorsOf, notFoundUnless, refusalOf } from '~/web/refusals.server'
import { adminAvailabilityLink, adminDaySheetLink, adminWindowLink } from '~/lib/links'
import { rowId } from '~/lib/row-id'
import { listVenues } from '~/modules/venues/venues.server'

export const meta: Route.MetaFunction = () => [{ title: 'Availability | Admin' }, { name: 'robots', content: 'noindex' }]

/**
 * The venue whose opening hours are shown or changed: the one named (`?venue=` or the forms' hidden
 * field), which must exist, or the lab's home.
 */
async function chosenVenue(named: FormDataEntryValue | null) {
  const venues = await listVenues()
  const venue = named === null || named === '' ? venues.find((candidate) => candidate.isHome) : venues.find((candidate) => candidate.id === rowId(String(named)))
  notFoundUnless(venue)
  return { venue, venues }
}

/** The calendar at a month, of the venue unless it is the lab's home. */
const calendarOf = (month: string, venue: { id: number; isHome: boolean }) => adminAvailabilityLink({ month, venue: venue.isHome ? null : venue.id })

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const query = new URL(request.url).searchParams
  const param = query.get('month')
  const month = isMonth(param) ? param : labToday().slice(0, 7)
  const { venue, venues } = await chosenVenue(query.get('venue'))
  const windows = await staffMonth(month, { venueId: venue.id })
  return {
    month,
    venue: { id: venue.id, name: venue.name, isHome: venue.isHome },
    venues: venues.map((candidate) => ({ value: String(candidate.id), label: `${candidate.name}, ${candidate.city}${candidate.isHome ? ' (the lab)' : candidate.closedAt ? ' (closed)' : ''}` })),
    previous: calendarOf(addMonths(month, -1), venue),
    next: calendarOf(addMonths(month, 1), venue),
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
          seats: window.timeSlots.filter((slot) => !slot.closed && !slot.kitAway).length * window.capacity,
          closed: window.timeSlots.filter((slot) => slot.closed).length,
          kitAway: window.timeSlots.filter((slot) => slot.kitAway && !slot.closed).length,
        })),
    })),
  }
}

type ActionResult = { form: 'create' | 'holiday'; result: SubmissionResult<string[]>; stranded?: StrandedBooking[] }

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  const formData = await readForm(request)
  const { venue } = await chosenVenue(formData.get('venue'))
  const venueId = venue.id
  const back = new URL(request.url)
  // The opening-hours form is the page's main one: a post without a known intent has always meant it.
  switch (formIntent(formData, ['create', 'holiday', 'unholiday']) ?? 'create') {
    case 'unholiday': {
      const date = String(formData.get('date') ?? '')
      // The button sends a holiday's own date; anything else would reach the database as a date and fail there.
      if (!DateSchema.safeParse(date).success) return redirectWithToast(`${back.pathname}${back.search}`, { type: 'error', title: 'That is not a holiday on the calendar' })
      await removeHoliday(actor, date, { venueId })
      return redirectWithToast(`${back.pathname}${back.search}`, { type: 'success', title: 'Holiday removed', description: `${date} is open again.` })
    }
    case 'holiday': {
      const submission = parseWithZod(formData, { schema: HolidaysSchema })
      if (submission.status !== 'success') return data<ActionResult>({ form: 'holiday', result: submission.reply() }, { status: 400 })
      const { from, to, weekdays } = submission.value
      try {
        const { marked } = await markHolidays(actor, { from, to: to || from, weekdays: weekdays.map(Number), venueId })
        return redirectWithToast(calendarOf(from.slice(0, 7), venue), { type: 'success', title: 'Holidays marked', description: `${marked} ${marked === 1 ? 'date' : 'dates'} closed.` })
      } catch (error) {
        return refused('holiday', submission, error)
      }
    }
    case 'create': {
      const submission = parseWithZod(formData, { schema: CreateWindowsSchema })
      if (submission.status !== 'success') return data<ActionResult>({ form: 'create', result: submission.reply() }, { status: 400 })
      const { from, to, weekdays, startTime, endTime, slotDurationMinutes, capacity } = submission.value
      try {
        const { created } = await createWindows(actor, { from, to: to || from, weekdays: weekdays.map(Number), hours: { startTime, endTime, slotDurationMinutes, capacity }, venueId })
        return redirectWithToast(calendarOf(from.slice(0, 7), venue), { type: 'success', title: 'Opening hours added', description: `${created} ${created === 1 ? 'date' : 'dates'} opened.` })
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
  const { month, venue, venues, previous, next, days } = loaderData
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Availability</h1>
      <VenueChoice venue={venue} venues={venues} month={month} />
      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <OpenHoursForm venueId={venue.id} lastResult={actionData?.form === 'create' ? actionData : undefined} />
        <HolidaysForm venueId={venue.id} lastResult={actionData?.form === 'holiday' ? actionData : undefined} />
      </div>

      <section aria-labelledby="month-heading" className="mt-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="month-heading" className="text-xl font-bold text-ink">
            Opening hours {venue.isHome ? '' : `at ${venue.name} `}in {formatMonthTitle(month)}
          </h2>
          <div className="flex gap-2">
            <Link to={previous} className="btn-secondary">
              Previous month
            </Link>
            <Link to={next} className="btn-secondary">
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
                  <span className="font-semibold text-ink">
                    {day.label}{' '}
                    <Link to={adminDaySheetLink(venue.id, day.date)} className="link ml-2 text-sm">
                      Day sheet<span className="sr-only"> for {day.label}</span>
                    </Link>
                  </span>
                  {day.holiday && (
                    <Form method="post" className="flex items-center gap-3">
                      <span className="text-sm font-semibold text-amber-900">Holiday</span>
                      <input type="hidden" name="date" value={day.date} />
                      <input type="hidden" name="venue" value={venue.id} />
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
                    {window.kitAway > 0 && (
                      <span className="ml-1 inline-block rounded bg-amber-100 px-2 text-sm font-semibold text-amber-900">
                        No kit at the lab: {window.kitAway} {window.kitAway === 1 ? 'time slot' : 'time slots'} closed
                      </span>
                    )}
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

/** Which venue's opening hours the page shows and changes: a plain form, so it works without JavaScript. */
function VenueChoice({ venue, venues, month }: { venue: { id: number }; venues: Array<{ value: string; label: string }>; month: string }) {
  return (
    <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
      <input type="hidden" name="month" value={month} />
      <div>
        <label htmlFor="venue-choice" className="block text-sm font-semibold text-ink">
          Venue
        </label>
        <select id="venue-choice" name="venue" defaultValue={String(venue.id)} className="input mt-1">
          {venues.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn-secondary">
        Show its hours
      </button>
    </Form>
  )
}

function OpenHoursForm({ venueId, lastResult }: { venueId: number; lastResult?: ActionResult }) {
  const [form, fields] = useValidatedForm(CreateWindowsSchema, { lastResult: lastResult?.result, defaultValue: { startTime: '09:00', endTime: '18:00', slotDurationMinutes: '60', capacity: '2', weekdays: ALL_WEEKDAYS.slice(0, 6) } as never })
  return (
    <Form method="post" {...getFormProps(form)} className="card space-y-4 p-6">
      <h2 className="text-lg font-bold text-ink">Open hours</h2>
      <FormAlert id={form.errorId} errors={form.errors} />
      {lastResult?.stranded && <StrandedBookingsAlert bookings={lastResult.stranded} />}
      <input type="hidden" name="venue" value={venueId} />
      <DateRangeFields fields={fields} />
      <HoursFields fields={fields} />
      <PendingButton name="intent" value="create">
        Open these hours
      </PendingButton>
    </Form>
  )
}

function HolidaysForm({ venueId, lastResult }: { venueId: number; lastResult?: ActionResult }) {
  const [form, fields] = useValidatedForm(HolidaysSchema, { lastResult: lastResult?.result, defaultValue: { weekdays: ALL_WEEKDAYS } as never })
  return (
    <Form method="post" {...getFormProps(form)} className="card space-y-4 p-6">
      <h2 className="text-lg font-bold text-ink">Mark holidays</h2>
      <p className="text-sm text-muted">The lab is closed all day on these dates; any opening hours are kept for when the holiday is removed.</p>
      <FormAlert id={form.errorId} errors={form.errors} />
      {lastResult?.stranded && <StrandedBookingsAlert bookings={lastResult.stranded} />}
      <input type="hidden" name="venue" value={venueId} />
      <DateRangeFields fields={fields} />
      <PendingButton name="intent" value="holiday" className="btn-secondary">
        Mark as holidays
      </PendingButton>
    </Form>
  )
}
