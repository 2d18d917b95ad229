import type { SubmissionResult } from '@conform-to/react'
import type { ReactNode } from 'react'
import { Form, Link, redirect, useFetcher } from 'react-router'
import type { Route } from './+types/day-sheet'
import { FormAlert } from '~/components/form-fields'
import { addDays, formatWeekdayDate, labToday } from '~/lib/lab-time'
import { adminDaySheetLink, adminVenueLink } from '~/lib/links'
import { rowId } from '~/lib/row-id'
import { daySheet, markOnSheet } from '~/modules/booking/day-sheet.server'
import { SheetAttendanceSchema } from '~/modules/booking/staff-schemas'
import { requireAdmin } from '~/web/auth.server'
import { daySheetRow, isSheetDate, sheetDate, type DaySheetRow } from '~/web/booking/day-sheet.server'
import { readForm } from '~/web/form-data.server'
import { refuseNul } from '~/web/nul.server'
import { dispatchForm, submitForm } from '~/web/page-forms.server'
import { notFoundUnless } from '~/web/refusals.server'
import { redirectWithToast } from '~/web/toast.server'
import { foundVenue } from '~/web/venues/venue-views.server'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData ? `Day sheet: ${loaderData.venue.name}, ${loaderData.title}` : 'Day sheet'} | Admin` }, { name: 'robots', content: 'noindex' }]

/** The venue and date of the address, or the site's 404 page. */
async function sheetOf(request: Request, params: Route.LoaderArgs['params']) {
  refuseNul(request, params)
  const admin = await requireAdmin(request)
  const venue = await foundVenue(params.venueId)
  return { admin, venue, date: sheetDate(params.date) }
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { venue, date } = await sheetOf(request, params)
  // The date picker's form, a plain GET: its date goes into the address.
  const picked = new URL(request.url).searchParams.get('date')
  if (picked !== null && picked !== date) {
    notFoundUnless(isSheetDate(picked))
    throw redirect(adminDaySheetLink(venue.id, picked))
  }
  const rows = (await daySheet(venue.id, date)).map(daySheetRow)
  return {
    venue: { id: venue.id, name: venue.name, city: venue.city, href: adminVenueLink(venue.id) },
    date,
    title: formatWeekdayDate(date),
    previous: isSheetDate(addDays(date, -1)) ? adminDaySheetLink(venue.id, addDays(date, -1)) : null,
    next: isSheetDate(addDays(date, 1)) ? adminDaySheetLink(venue.id, addDays(date, 1)) : null,
    today: date === labToday() ? null : adminDaySheetLink(venue.id, labToday()),
    rows,
    counts: { all: rows.length, checkedIn: rows.filter((row) => row.attendance === 'attended').length, held: rows.filter((row) => row.held).length },
  }
}

const TOASTS = { attended: 'checked in', no_show: 'marked as a no-show', none: 'no longer marked' } as const

export async function action({ request, params }: Route.ActionArgs) {
  const { admin, venue, date } = await sheetOf(request, params)
  const formData = await readForm(request)
  return dispatchForm(formData, {
    attendance: () => {
      const bookingId = rowId(String(formData.get('booking') ?? ''))
      notFoundUnless(bookingId)
      return submitForm(formData, { intent: 'attendance' as const, target: String(bookingId) }, SheetAttendanceSchema, async ({ attendance }) => {
        const entry = await markOnSheet({ id: admin.id, email: admin.email }, { venueId: venue.id, date, bookingId, attendance })
        return redirectWithToast(adminDaySheetLink(venue.id, date), { type: 'success', title: `${entry.swimmerName} ${TOASTS[attendance ?? 'none']}` })
      })
    },
  })
}

type Answer = { intent: 'attendance'; target: string; result: SubmissionResult<string[]> }

/** The messages of a row's refused form: every field's and the form's own. */
const refusals = (answer: Answer | undefined, row: DaySheetRow) => (answer?.target === row.id ? Object.values(answer.result.error ?? {}).flatMap((messages) => messages ?? []) : [])

export default function AdminDaySheet({ loaderData, actionData }: Route.ComponentProps) {
  const { venue, date, title, previous, next, today, rows, counts } = loaderData
  return (
    <section data-print-alone>
      <Link to={venue.href} className="link text-sm print:hidden">
        {venue.name}
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold break-words text-brand-900 print:mt-0 print:text-2xl print:text-black">
        Day sheet: {venue.name}, {title}
      </h1>
      <p className="mt-1 text-muted print:text-black">
        {counts.all === 0 ? 'Nobody is booked.' : `${counts.all} booked, ${counts.checkedIn} checked in${counts.held ? `, ${counts.held} held unpaid` : ''}.`} {venue.city}.
      </p>

      <nav aria-label="Other days" className="mt-4 flex flex-wrap items-end gap-3 print:hidden">
        {previous && (
          <Link to={previous} className="btn-secondary">
            Previous day
          </Link>
        )}
        {next && (
          <Link to={next} className="btn-secondary">
            Next day
          </Link>
        )}
        {today && (
          <Link to={today} className="btn-secondary">
            Today
          </Link>
        )}
        <Form method="get" className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="sheet-date" className="block text-sm font-semibold text-ink">
              Date
            </label>
            <input id="sheet-date" name="date" type="date" required defaultValue={date} className="input mt-1" />
          </div>
          <button type="submit" className="btn-secondary">
            Show
          </button>
        </Form>
        <button type="button" onClick={() => window.print()} className="btn-secondary noscript:hidden">
          Print
        </button>
      </nav>

      {rows.length === 0 ? (
        <p className="mt-6 text-muted">Nobody is booked at {venue.name} on this date.</p>
      ) : (
        <table className="mt-6 w-full text-left text-sm narrow:block">
          <caption className="sr-only">
            Everyone booked at {venue.name} on {title}, by time
          </caption>
          <thead className="bg-slate-50 text-muted narrow:sr-only print:bg-white print:text-black">
            <tr>
              {['Time', 'Swimmer and consent', 'Booking and payment', 'Parent or booker', 'Attendance'].map((label) => (
                <th key={label} scope="col" className="px-2 py-2">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="narrow:block narrow:space-y-3">
            {rows.map((row) => (
              <SheetRow key={row.id} row={row} answer={actionData && actionData.target === row.id ? actionData : undefined} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

/** A cell: a table cell on a wide screen and on paper, a labelled line of the row's card on a narrow screen. */
function Cell({ label, className = '', children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <td className={`px-2 py-2 align-top break-words narrow:flex narrow:gap-2 narrow:px-0 narrow:py-1 ${className}`}>
      <span className="hidden w-24 shrink-0 font-semibold text-muted narrow:block">{label}</span>
      <span className="min-w-0">{children}</span>
    </td>
  )
}

function SheetRow({ row, answer }: { row: DaySheetRow; answer: Answer | undefined }) {
  const fetcher = useFetcher<Answer>()
  const errors = refusals(fetcher.data ?? answer, row)
  const pending = fetcher.state !== 'idle'
  return (
    <tr className="border-t border-slate-200 narrow:block narrow:rounded-xl narrow:border narrow:p-3 print:break-inside-avoid">
      <Cell label="Time">
        {/* Each time kept whole: a narrow column breaks the range between them. */}
        <span className="font-semibold text-ink">
          <span className="whitespace-nowrap">{row.start}</span> - <span className="whitespace-nowrap">{row.end}</span>
        </span>
        {row.day && <span className="block text-muted print:text-black">{row.day}</span>}
      </Cell>
      <Cell label="Swimmer">
        <span className="font-semibold text-ink">{row.swimmer}</span>
        <span className="block text-muted print:text-black">{row.age}</span>
        <span className={`block ${row.consentOk ? 'text-ink' : 'font-semibold text-red-800 print:text-black'}`}>{row.consent}</span>
      </Cell>
      <Cell label="Booking">
        <Link to={row.href} className="link whitespace-nowrap print:text-black print:no-underline">
          {row.reference}
        </Link>
        <span className={`block ${row.held ? 'font-semibold text-amber-900 print:text-black' : 'text-ink'}`}>{row.payment}</span>
        {row.holdNote && <span className="block text-amber-900 print:text-black">{row.holdNote}</span>}
      </Cell>
      <Cell label="Parent">
        <span className="text-ink">{row.contact}</span>
        {row.phone && (
          <a href={row.phone.href} className="link block whitespace-nowrap print:text-black print:no-underline">
            {row.phone.text}
          </a>
        )}
      </Cell>
      <Cell label="Attendance">
        <span className="font-semibold text-ink">{row.attendanceText}</span>
        {!row.held && (
          <fetcher.Form method="post" preventScrollReset className="mt-1 flex flex-wrap gap-2 print:hidden">
            <input type="hidden" name="intent" value="attendance" />
            <input type="hidden" name="booking" value={row.id} />
            {row.attendance !== 'attended' && (
              <button type="submit" name="attendance" value="attended" disabled={pending} className="btn-secondary px-3 py-1 text-sm whitespace-nowrap">
                Check in<span className="sr-only"> {row.swimmer}</span>
              </button>
            )}
            {row.attendance !== 'no_show' && (
              <button type="submit" name="attendance" value="no_show" disabled={pending} className="btn-secondary px-3 py-1 text-sm whitespace-nowrap">
                No-show<span className="sr-only"> {row.swimmer}</span>
              </button>
            )}
            {row.attendance !== 'none' && (
              <button type="submit" name="attendance" value="none" disabled={pending} className="btn-secondary px-3 py-1 text-sm whitespace-nowrap">
                Not yet<span className="sr-only"> {row.swimmer}</span>
              </button>
            )}
          </fetcher.Form>
        )}
        <div className="mt-1 print:hidden">
          <FormAlert id={`booking-${row.id}-alert`} errors={errors} />
        </div>
      </Cell>
    </tr>
  )
}
