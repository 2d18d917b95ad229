import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, href, Link } from 'react-router'
import type { Route } from './+types/venue'
import { FormAlert, SaveButton as AnySaveButton, SelectField, TextField, useValidatedForm } from '~/components/form-fields'
import { Panel } from '~/components/panel'
import { PeriodFields } from '~/components/period-fields'
import type { PhotoOption } from '~/components/portrait-field'
import { StaffTable } from '~/components/staff-table'
import { VenueFields } from '~/components/venue-fields'
import { adminAvailabilityLink, adminDaySheetLink, adminVenueLink } from '~/lib/links'
import { labToday } from '~/lib/lab-time'
import { rowId } from '~/lib/row-id'
import { assertDaysStillReady } from '~/modules/booking/analysis-days.server'
import { upcomingPlacements } from '~/modules/booking/kits.server'
import { StaffAssignmentSchema, VenueSchema } from '~/modules/venues/schemas'
import { assignableStaff, assignStaff, removeAssignment, upcomingAssignments } from '~/modules/venues/staff-assignments.server'
import { closeVenue, reopenVenue, updateVenue } from '~/modules/venues/venues.server'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { dispatchForm, submitButton, submitForm } from '~/web/page-forms.server'
import { notFoundUnless } from '~/web/refusals.server'
import { redirectWithToast } from '~/web/toast.server'
import { assignmentRow, foundVenue, placementRow, venueDetails, venueFormValues, venuePhotoOptions, venueSummary } from '~/web/venues/venue-views.server'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.venue.name ?? 'Venue'} | Admin` }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const venue = await foundVenue(params.venueId)
  const now = new Date()
  const [assignments, placements, staff, photos] = await Promise.all([upcomingAssignments(now, venue.id), upcomingPlacements(now, venue.id), assignableStaff(), venuePhotoOptions()])
  return {
    venue: { ...venueSummary(venue), ...venueDetails(venue) },
    form: venueFormValues(venue),
    sheet: adminDaySheetLink(venue.id, labToday()),
    photos,
    staff: staff.map((person) => ({ value: String(person.id), label: `${person.name} (${person.email})` })),
    assignments: assignments.map(assignmentRow),
    placements: placements.map(placementRow),
  }
}

type Intent = 'edit' | 'close' | 'reopen' | 'assign' | 'unassign'

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const venue = await foundVenue(params.venueId)
  const actor = { id: admin.id, email: admin.email }
  const formData = await readForm(request)
  const here = adminVenueLink(venue.id)
  const saved = (title: string, description?: string) => redirectWithToast(here, { type: 'success', title, description })
  const form = (intent: Intent, target = '') => ({ intent, target })
  return dispatchForm(formData, {
    edit: () =>
      submitForm(formData, form('edit'), VenueSchema, async (value) => {
        await updateVenue(actor, venue.id, value)
        return saved('Saved')
      }),
    close: () =>
      submitButton(formData, form('close'), async () => {
        await closeVenue(actor, venue.id)
        return saved('Venue closed', 'Nobody can be sent there now. What happened there stays on record.')
      }),
    reopen: () =>
      submitButton(formData, form('reopen'), async () => {
        await reopenVenue(actor, venue.id)
        return saved('Venue reopened')
      }),
    assign: () =>
      submitForm(formData, form('assign'), StaffAssignmentSchema, async (value) => {
        await assignStaff(actor, venue.id, value)
        return saved('Staff member sent', 'They are shown under Staff at this venue.')
      }),
    unassign: () => {
      const id = rowId(String(formData.get('id') ?? ''))
      notFoundUnless(id)
      return submitButton(formData, form('unassign', String(id)), async () => {
        await removeAssignment(actor, id, assertDaysStillReady)
        return saved('Taken off this venue')
      })
    },
  })
}

const SaveButton = AnySaveButton<Intent>

type Result = SubmissionResult<string[]> | undefined
type Data = Route.ComponentProps['loaderData']

export default function AdminVenue({ loaderData, actionData }: Route.ComponentProps) {
  const { venue, form, photos, staff, assignments, placements, sheet } = loaderData
  const resultFor = (intent: Intent, target = '') => (actionData?.intent === intent && actionData.target === target ? actionData.result : undefined)
  const refusals = (...results: Result[]) => results.flatMap((result) => (result?.error?.[''] as string[] | undefined) ?? [])
  return (
    <section>
      <Link to={href('/admin/venues')} className="link text-sm">
        All venues
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold break-words text-brand-900">{venue.name}</h1>
      <p className="mt-1 text-muted">
        {venue.isHome ? 'Home: the lab’s own room' : venue.closedSince ? `Closed since ${venue.closedSince}` : 'Open'} · {venue.city}, {venue.state}
      </p>
      <VenueFacts venue={venue} />
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Link to={adminAvailabilityLink({ venue: venue.id })} className="btn-secondary">
          Opening hours<span className="sr-only"> at {venue.name}</span>
        </Link>
        <Link to={sheet} className="btn-secondary">
          Today’s day sheet<span className="sr-only"> at {venue.name}</span>
        </Link>
        {!venue.isHome && (
          <Form method="post">
            <input type="hidden" name="intent" value={venue.closedSince ? 'reopen' : 'close'} />
            <SaveButton intent={venue.closedSince ? 'reopen' : 'close'} className="btn-secondary" pendingLabel={venue.closedSince ? 'Reopening...' : 'Closing...'}>
              {venue.closedSince ? 'Reopen' : 'Close'}
              <span className="sr-only"> {venue.name}</span>
            </SaveButton>
          </Form>
        )}
      </div>
      <div className="mt-3">
        <FormAlert id="venue-status-alert" errors={refusals(resultFor('close'), resultFor('reopen'))} />
      </div>

      <Panel id="details" title="Details" spacing="mt-8">
        <EditForm key={JSON.stringify(form)} form={form} photos={photos} isHome={venue.isHome} lastResult={resultFor('edit')} />
      </Panel>

      <Panel id="staff" title="Staff at this venue" lead="Who is due here, until they have finished. Each person is in one place at a time, the travel there and back included." spacing="mt-8">
        {assignments.length === 0 ? (
          <p className="text-muted">Nobody is due here.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {assignments.map((assignment) => (
              <li key={assignment.id} className="py-3">
                <p className="font-semibold break-words text-ink">
                  {assignment.name} <span className="font-normal text-muted">({assignment.email})</span>
                </p>
                <p className="text-sm text-ink">{assignment.when}</p>
                {assignment.note && <p className="text-sm text-muted">{assignment.note}</p>}
                <FormAlert id={`assignment-${assignment.id}-alert`} errors={refusals(resultFor('unassign', String(assignment.id)))} />
                <Form method="post" className="mt-2">
                  <input type="hidden" name="intent" value="unassign" />
                  <input type="hidden" name="id" value={assignment.id} />
                  <SaveButton intent="unassign" target={{ id: String(assignment.id) }} className="btn-secondary" pendingLabel="Removing...">
                    Remove<span className="sr-only"> {assignment.name}</span>
                  </SaveButton>
                </Form>
              </li>
            ))}
          </ul>
        )}
        {venue.closedSince ? (
          <p className="mt-4 text-sm text-muted">Reopen the venue to send staff here.</p>
        ) : (
          <AssignForm staff={staff} lastResult={resultFor('assign')} />
        )}
      </Panel>

      <Panel id="kits" title="Kits here" spacing="mt-8">
        {placements.length === 0 ? (
          <p className="text-muted">No kit is due here.</p>
        ) : (
          <StaffTable caption={`Kits due at ${venue.name}`} columns={['Kit', 'In use', 'Away from the lab']} inset>
            {placements.map((placement) => (
              <tr key={placement.id} className="border-t border-slate-200 align-top">
                <td className="py-2 pr-3 font-semibold text-ink">{placement.kitName}</td>
                <td className="px-3 py-2 text-ink">{placement.inUse}</td>
                <td className="py-2 pl-3 text-ink">{placement.away}</td>
              </tr>
            ))}
          </StaffTable>
        )}
        <p className="mt-4 text-sm">
          <Link to={href('/admin/kits')} className="link">
            Move a kit, or take one off a venue, on the Kits page
          </Link>
        </p>
      </Panel>
    </section>
  )
}

function VenueFacts({ venue }: { venue: Data['venue'] }) {
  return (
    <dl className="mt-4 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
      <dt className="font-semibold text-ink">Address</dt>
      <dd className="break-words whitespace-pre-line text-ink">{venue.address || 'Not given'}</dd>
      {venue.mapUrl && (
        <>
          <dt className="font-semibold text-ink">Map</dt>
          <dd className="break-all">
            <a href={venue.mapUrl} className="link" rel="noreferrer noopener" target="_blank">
              {venue.mapUrl}
            </a>
          </dd>
        </>
      )}
      {venue.travel && (
        <>
          <dt className="font-semibold text-ink">Travel</dt>
          <dd className="text-ink">{venue.travel}</dd>
        </>
      )}
      <dt className="font-semibold text-ink">Host</dt>
      <dd className="break-words text-ink">{venue.host ?? 'Not given'}</dd>
      {venue.gstRegistration && (
        <>
          <dt className="font-semibold text-ink">GST registration</dt>
          <dd className="break-words text-ink">{venue.gstRegistration}</dd>
        </>
      )}
    </dl>
  )
}

function EditForm({ form: values, photos, isHome, lastResult }: { form: Data['form']; photos: PhotoOption[]; isHome: boolean; lastResult: Result }) {
  const [form, fields] = useValidatedForm(VenueSchema, { id: 'venue-edit', lastResult, defaultValue: values })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value="edit" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <VenueFields fields={fields} photos={photos} isHome={isHome} />
      <SaveButton intent="edit">Save the details</SaveButton>
    </Form>
  )
}

function AssignForm({ staff, lastResult }: { staff: Data['staff']; lastResult: Result }) {
  const [form, fields] = useValidatedForm(StaffAssignmentSchema, { id: 'assign', lastResult })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4 border-t border-slate-200 pt-6">
      <h3 className="text-lg font-bold text-ink">Send a staff member</h3>
      <input type="hidden" name="intent" value="assign" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <SelectField field={fields.userId} label="Who" options={staff} />
      <PeriodFields fields={fields} />
      <TextField field={fields.note} label="Note" optional />
      <SaveButton intent="assign" pendingLabel="Sending...">
        Send them
      </SaveButton>
    </Form>
  )
}
