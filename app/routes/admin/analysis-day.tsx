import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, href, Link } from 'react-router'
import type { Route } from './+types/analysis-day'
import { AnalysisDayFields } from '~/components/analysis-day-fields'
import { FormAlert, SaveButton as AnySaveButton, useValidatedForm } from '~/components/form-fields'
import { Panel } from '~/components/panel'
import { StaffTable } from '~/components/staff-table'
import { formatLabDateTime } from '~/lib/lab-time'
import { adminAnalysisDayLink, adminAvailabilityLink, adminBookingLink, adminDaySheetLink, adminVenueLink } from '~/lib/links'
import { ANALYSIS_DAY_HOST_LINK, privateLinkUrl } from '~/lib/private-links.server'
import { rowId } from '~/lib/row-id'
import { AnalysisDaySchema } from '~/modules/booking/analysis-day-schemas'
import {
  analysisDayBookings,
  analysisDayById,
  AnalysisDayNotFoundError,
  analysisDayProducts,
  analysisDayVenues,
  closeAnalysisDay,
  publishAnalysisDay,
  readinessOf,
  seatsHeld,
  updateAnalysisDay,
} from '~/modules/booking/analysis-days.server'
import { dayWaitlistForStaff } from '~/modules/booking/analysis-day-waitlist.server'
import { requireAdmin } from '~/web/auth.server'
import { analysisDayBookingRow, analysisDayDetails, analysisDayFormValues, productOptions, readinessRow, venueOptions } from '~/web/analysis-days/analysis-day-views.server'
import { readForm } from '~/web/form-data.server'
import { dispatchForm, submitButton, submitForm } from '~/web/page-forms.server'
import { notFoundUnless } from '~/web/refusals.server'
import { redirectWithToast } from '~/web/toast.server'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData ? `${loaderData.day.dates} at ${loaderData.day.venueName}` : 'Analysis day'} | Admin` }, { name: 'robots', content: 'noindex' }]

/** The analysis day of the address, or the site's 404 page. */
async function foundDay(params: Route.LoaderArgs['params']) {
  const id = rowId(params.dayId)
  const day =
    id === null
      ? null
      : await analysisDayById(id).catch((error: unknown) => {
          if (error instanceof AnalysisDayNotFoundError) return null
          throw error
        })
  notFoundUnless(day)
  return day
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const day = await foundDay(params)
  const now = new Date()
  const [readiness, bookings, held, venues, products, waitlist] = await Promise.all([readinessOf(day), analysisDayBookings(day.id), seatsHeld(day.id, now), analysisDayVenues(), analysisDayProducts(), dayWaitlistForStaff(day.id, now)])
  // The host's link books only before the release: afterwards everyone books on the public page.
  const hostLink = !day.closedAt && day.hostSeats > 0 && day.releaseAt > now ? await privateLinkUrl(ANALYSIS_DAY_HOST_LINK, day.id) : null
  return {
    day: analysisDayDetails(day, held, now),
    form: analysisDayFormValues(day),
    readiness: readiness.map((date) => ({ ...readinessRow(date, day), sheet: adminDaySheetLink(day.venueId, date.date) })),
    bookings: bookings.map(analysisDayBookingRow),
    waitlist,
    hostLink,
    venues: venueOptions(venues, day),
    products: productOptions(products),
  }
}

type Intent = 'edit' | 'publish' | 'close'

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const day = await foundDay(params)
  const actor = { id: admin.id, email: admin.email }
  const formData = await readForm(request)
  const saved = (title: string, description?: string) => redirectWithToast(adminAnalysisDayLink(day.id), { type: 'success', title, description })
  const form = (intent: Intent) => ({ intent, target: '' })
  return dispatchForm(formData, {
    edit: () =>
      submitForm(formData, form('edit'), AnalysisDaySchema, async (value) => {
        await updateAnalysisDay(actor, day.id, value)
        return saved('Saved')
      }),
    publish: () =>
      submitButton(formData, form('publish'), async () => {
        await publishAnalysisDay(actor, day.id)
        return saved('Published', `Until booking opens to everyone at ${formatLabDateTime(day.releaseAt)}, only the host’s link books.`)
      }),
    close: () =>
      submitButton(formData, form('close'), async () => {
        await closeAnalysisDay(actor, day.id)
        return saved('Analysis day closed', 'Nothing more is booked, and it is gone from the public pages.')
      }),
  })
}

const SaveButton = AnySaveButton<Intent>

type Result = SubmissionResult<string[]> | undefined
type Data = Route.ComponentProps['loaderData']

/** Every message of a button's refusal: one about a field of the day (its kits, its hours) is shown above the buttons too. */
const refusalsOf = (result: Result) => Object.values(result?.error ?? {}).flatMap((messages) => messages ?? [])

export default function AdminAnalysisDay({ loaderData, actionData }: Route.ComponentProps) {
  const { day, form, readiness, bookings, waitlist, hostLink, venues, products } = loaderData
  const resultFor = (intent: Intent) => (actionData?.intent === intent ? actionData.result : undefined)
  return (
    <section>
      <Link to={href('/admin/analysis-days')} className="link text-sm">
        All analysis days
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold break-words text-brand-900">
        {day.dates} at {day.venueName}
      </h1>
      <p className="mt-1 text-muted">
        {day.state} · {day.city}
      </p>
      <DayFacts day={day} />
      {!day.closed && (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          {!day.published && (
            <Form method="post">
              <input type="hidden" name="intent" value="publish" />
              <SaveButton intent="publish" pendingLabel="Publishing...">
                Publish
              </SaveButton>
            </Form>
          )}
          <Form method="post">
            <input type="hidden" name="intent" value="close" />
            <SaveButton intent="close" className="btn-secondary" pendingLabel="Closing...">
              Close<span className="sr-only"> this analysis day</span>
            </SaveButton>
          </Form>
        </div>
      )}
      <div className="mt-3 space-y-3">
        <FormAlert id="publish-alert" title="Not published" errors={refusalsOf(resultFor('publish'))} />
        <FormAlert id="close-alert" title="Not closed" errors={refusalsOf(resultFor('close'))} />
      </div>

      {hostLink && (
        <Panel id="host" title="Host’s link" lead={`Send it to the host: until booking opens to everyone, it books the seats kept for them${day.published ? '' : ', once the day is published'}.`} spacing="mt-8">
          <label htmlFor="host-link" className="block text-sm font-semibold text-ink">
            Host’s link: books up to {day.hostSeats} {day.hostSeats === 1 ? 'seat' : 'seats'} before {day.release}
          </label>
          <input id="host-link" type="text" readOnly value={hostLink} className="input mt-1 font-mono text-sm" />
        </Panel>
      )}

      <Panel id="readiness" title="Ready to go ahead?" lead="For each date, for all the day’s hours: the venue open, the kits placed there and a staff member there. A day is published only when every date is ready." spacing="mt-8">
        <Readiness day={day} readiness={readiness} />
      </Panel>

      <Panel id="details" title="Details" spacing="mt-8">
        {day.closed ? (
          <p className="text-muted">This day is closed: it can no longer be changed.</p>
        ) : (
          <EditForm key={JSON.stringify(form)} form={form} venues={venues} products={products} lastResult={resultFor('edit')} />
        )}
      </Panel>

      <Panel id="bookings" title={`Bookings (${bookings.length})`} spacing="mt-8">
        {bookings.length === 0 ? (
          <p className="text-muted">Nobody has booked yet.</p>
        ) : (
          <StaffTable caption="The day’s bookings, by slot" columns={['Booking', 'Swimmer', 'Slot', 'Status', 'Host’s link']} inset>
            {bookings.map((booking) => (
              <tr key={booking.reference} className="border-t border-slate-200 align-top">
                <td className="py-2 pr-3">
                  <Link to={adminBookingLink(booking.reference)} className="link font-semibold">
                    {booking.reference}
                  </Link>
                </td>
                <td className="px-3 py-2 break-words text-ink">{booking.swimmer}</td>
                <td className="px-3 py-2 text-ink">{booking.slot}</td>
                <td className="px-3 py-2 text-ink">{booking.status}</td>
                <td className="py-2 pl-3 text-ink">{booking.viaHostLink ? 'Yes' : 'No'}</td>
              </tr>
            ))}
          </StaffTable>
        )}
      </Panel>

      <Panel id="waitlist" title={`Waitlist (${waitlist.inLine.length})`} spacing="mt-8">
        {waitlist.inLine.length === 0 ? <p className="text-muted">Nobody is waiting.</p> : <ol className="list-decimal space-y-1 pl-6 text-ink">{waitlist.inLine.map((name, index) => <li key={index}>{name}</li>)}</ol>}
        {waitlist.offered.length > 0 && <p className="mt-3 text-sm text-ink">{`A slot is held for ${waitlist.offered.join(', ')} to pay.`}</p>}
        {waitlist.unconfirmed > 0 && <p className="mt-3 text-sm text-muted">{`${waitlist.unconfirmed} more joined and have not confirmed their address yet.`}</p>}
      </Panel>
    </section>
  )
}

function DayFacts({ day }: { day: Data['day'] }) {
  const facts: Array<[string, string]> = [
    ['What', `${day.productName}, ${day.price}`],
    ['Hours', day.hours],
    ['Capacity', day.capacity],
    ['Seats held', day.seats],
    ['Kept for the host', `${day.hostSeats} ${day.hostSeats === 1 ? 'seat' : 'seats'}`],
    ['Opens to everyone', day.release],
    ['What to bring', day.whatToBring || 'Nothing said'],
  ]
  return (
    <dl className="mt-4 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
      {facts.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-semibold text-ink">{term}</dt>
          <dd className="break-words whitespace-pre-line text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

function Readiness({ day, readiness }: { day: Data['day']; readiness: Data['readiness'] }) {
  return (
    <>
      <ul className="divide-y divide-slate-200">
        {readiness.map((date) => (
          <li key={date.date} className="py-3">
            <h3 className="font-bold text-ink">
              {date.date}: <span className={date.ready ? 'text-green-800' : 'text-red-800'}>{date.ready ? 'ready' : 'not ready'}</span>
            </h3>
            <ul className="mt-1 space-y-1 text-sm text-ink">
              {date.checks.map((check) => (
                <li key={check.label}>
                  <strong className={check.ok ? 'text-green-800' : 'text-red-800'}>{check.ok ? 'Yes' : 'No'}</strong> · {check.label}: {check.text}
                </li>
              ))}
            </ul>
            <Link to={date.sheet} className="link mt-1 inline-block text-sm">
              Day sheet<span className="sr-only"> for {date.date}</span>
            </Link>
          </li>
        ))}
      </ul>
      <ul className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm">
        <li>
          <Link to={adminAvailabilityLink({ venue: day.venueId, month: day.firstMonth })} className="link">
            Opening hours at {day.venueName}
          </Link>
        </li>
        <li>
          <Link to={href('/admin/kits')} className="link">
            Place a kit on the Kits page
          </Link>
        </li>
        <li>
          <Link to={adminVenueLink(day.venueId)} className="link">
            Send staff from {day.venueName}’s page
          </Link>
        </li>
      </ul>
    </>
  )
}

function EditForm({ form: values, venues, products, lastResult }: { form: Data['form']; venues: Data['venues']; products: Data['products']; lastResult: Result }) {
  const [form, fields] = useValidatedForm(AnalysisDaySchema, { id: 'analysis-day-edit', lastResult, defaultValue: values })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value="edit" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <AnalysisDayFields fields={fields} venues={venues} products={products} />
      <SaveButton intent="edit">Save the details</SaveButton>
    </Form>
  )
}
