import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, href, Link } from 'react-router'
import type { Route } from './+types/kits'
import { FormAlert, PendingButton, SaveButton as AnySaveButton, SelectField, TextField, useValidatedForm } from '~/components/form-fields'
import { Panel } from '~/components/panel'
import { PeriodFields } from '~/components/period-fields'
import { StaffTable } from '~/components/staff-table'
import { StrandedBookingsAlert } from '~/components/stranded-bookings'
import { adminVenueLink } from '~/lib/links'
import { rowId } from '~/lib/row-id'
import { strandedBy, type StrandedBooking } from '~/modules/booking/availability-staff.server'
import { createKit, kitsInService, listKits, placeKit, removePlacement, retireKit, reviewPlacement, updateKit } from '~/modules/booking/kits.server'
import { KitPlacementSchema, KitSchema } from '~/modules/venues/schemas'
import { openVenues } from '~/modules/venues/venues.server'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { dispatchForm, submitButton, submitForm } from '~/web/page-forms.server'
import { notFoundUnless } from '~/web/refusals.server'
import { redirectWithToast } from '~/web/toast.server'
import { placementReviewView, placementRow, type PlacementReviewView } from '~/web/venues/venue-views.server'

export const meta: Route.MetaFunction = () => [{ title: 'Kits | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const [kits, inService, venues] = await Promise.all([listKits(), kitsInService(), openVenues()])
  return {
    kits: kits.map((kit) => ({
      id: kit.id,
      name: kit.name,
      setupMinutes: kit.setupMinutes,
      retired: kit.retiredAt !== null,
      placements: kit.placements.map(placementRow),
      form: { name: kit.name, setupMinutes: String(kit.setupMinutes) },
    })),
    kitOptions: inService.map((kit) => ({ value: String(kit.id), label: kit.name })),
    // A kit is at the lab unless placed elsewhere: the home is not a place to move it to.
    venueOptions: venues.filter((venue) => !venue.isHome).map((venue) => ({ value: String(venue.id), label: `${venue.name}, ${venue.city}` })),
  }
}

type Intent = 'add' | 'edit' | 'retire' | 'review' | 'place' | 'unplace'

const backToList = (title: string, description?: string) => redirectWithToast(href('/admin/kits'), { type: 'success', title, description })

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  const formData = await readForm(request)
  const form = (intent: Intent, target = '') => ({ intent, target })
  /** The kit or placement a row's form is about: one the page does not have is not found. */
  const row = () => {
    const id = rowId(String(formData.get('id') ?? ''))
    notFoundUnless(id)
    return id
  }
  return dispatchForm(formData, {
    add: () =>
      submitForm(formData, form('add'), KitSchema, async (value) => {
        await createKit(actor, value)
        return backToList('Kit added', `${value.name} is at the lab until you move it.`)
      }),
    edit: () => {
      const id = row()
      return submitForm(formData, form('edit', String(id)), KitSchema, async (value) => {
        await updateKit(actor, id, value)
        return backToList('Saved', 'Placements already made keep the times they were given.')
      })
    },
    retire: () => {
      const id = row()
      return submitButton(formData, form('retire', String(id)), async () => {
        await retireKit(actor, id)
        return backToList('Kit retired')
      })
    },
    // The check before saving: what placing the kit would do, shown with the form as it was sent.
    review: () => submitForm(formData, form('review'), KitPlacementSchema, async (value, sent) => ({ ...form('review'), result: sent, review: placementReviewView(await reviewPlacement(value)) })),
    place: () =>
      submitForm(
        formData,
        form('place'),
        KitPlacementSchema,
        async (value) => {
          await placeKit(actor, value)
          return backToList('Kit placed', 'The lab’s time slots while no kit is there are closed to bookings.')
        },
        strandedBy,
      ),
    unplace: () => {
      const id = row()
      return submitButton(formData, form('unplace', String(id)), async () => {
        await removePlacement(actor, id)
        return backToList('Placement removed', 'The kit is back at the lab for that time.')
      })
    },
  })
}

const SaveButton = AnySaveButton<Intent>

type Result = SubmissionResult<string[]> | undefined
type Data = Route.ComponentProps['loaderData']
type Answer = { intent: Intent; target: string; result: Result; review?: PlacementReviewView; stranded?: StrandedBooking[] }

const refusalsOf = (...results: Result[]) => results.flatMap((result) => (result?.error?.[''] as string[] | undefined) ?? [])

export default function AdminKits({ loaderData, actionData }: Route.ComponentProps) {
  const { kits, kitOptions, venueOptions } = loaderData
  const answer = actionData as Answer | undefined
  const resultFor = (intent: Intent, target = '') => (answer?.intent === intent && answer.target === target ? answer.result : undefined)
  const moving = answer?.intent === 'review' || answer?.intent === 'place' ? answer : undefined
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Kits</h1>
      <p className="mt-3 max-w-3xl text-muted">
        The lab’s camera rigs. A kit is at the lab unless it is placed at another venue; while every kit in service is away, the lab’s time slots close to bookings. A kit is away for its time at the
        venue and the travel, set-up and packing around it.
      </p>

      <Panel id="list" title={`Kits (${kits.length})`} spacing="mt-8">
        <ul className="divide-y divide-slate-200">
          {kits.map((kit) => (
            <KitRow key={`${kit.id}-${JSON.stringify(kit.form)}-${kit.retired}`} kit={kit} resultFor={resultFor} />
          ))}
        </ul>
      </Panel>

      <Panel id="move" title="Move a kit" lead="Check what a move would do before you place the kit: nothing is saved until you press Place the kit." spacing="mt-8">
        {venueOptions.length === 0 ? (
          <p className="text-muted">
            There is no open venue to move a kit to.{' '}
            <Link to={href('/admin/venues')} className="link">
              Add a venue
            </Link>{' '}
            first.
          </p>
        ) : (
          // A kit placed starts the form afresh.
          <MoveForm key={kits.flatMap((kit) => kit.placements.map((placement) => placement.id)).join()} kits={kitOptions} venues={venueOptions} answer={moving} />
        )}
      </Panel>

      <Panel id="add" title="Add a kit" spacing="mt-8">
        <KitForm id="kit-new" intent="add" lastResult={resultFor('add')} />
      </Panel>
    </section>
  )
}

function KitRow({ kit, resultFor }: { kit: Data['kits'][number]; resultFor: (intent: Intent, target?: string) => Result }) {
  const target = String(kit.id)
  const editResult = resultFor('edit', target)
  const retireRefusals = refusalsOf(resultFor('retire', target))
  return (
    <li className="py-5" aria-labelledby={`kit-${kit.id}-name`}>
      <h3 id={`kit-${kit.id}-name`} className="font-bold break-words text-ink">
        {kit.name}
      </h3>
      <p className="text-sm text-muted">
        {kit.setupMinutes} minutes to set up, as long again to pack · <strong className={kit.retired ? 'text-amber-800' : 'text-green-800'}>{kit.retired ? 'Retired' : 'In service'}</strong>
      </p>
      {kit.placements.length === 0 ? (
        !kit.retired && <p className="mt-2 text-sm text-ink">At the lab: no placement to come.</p>
      ) : (
        <StaffTable caption={`Where ${kit.name} goes`} columns={['Venue', 'In use', 'Away from the lab', { label: 'Remove', hidden: true }]} inset className="mt-3">
          {kit.placements.map((placement) => (
            <tr key={placement.id} className="border-t border-slate-200 align-top">
              <td className="py-2 pr-3 text-ink">
                <Link to={adminVenueLink(placement.venueId)} className="link font-semibold">
                  {placement.venueName}
                </Link>
                <span className="block text-muted">{placement.city}</span>
                {placement.note && <span className="block text-muted">{placement.note}</span>}
              </td>
              <td className="px-3 py-2 text-ink">{placement.inUse}</td>
              <td className="px-3 py-2 text-ink">{placement.away}</td>
              <td className="py-2 pl-3">
                <Form method="post">
                  <input type="hidden" name="intent" value="unplace" />
                  <input type="hidden" name="id" value={placement.id} />
                  <SaveButton intent="unplace" target={{ id: String(placement.id) }} className="btn-secondary" pendingLabel="Removing...">
                    Remove<span className="sr-only"> {kit.name} at {placement.venueName}</span>
                  </SaveButton>
                </Form>
                <FormAlert id={`placement-${placement.id}-alert`} errors={refusalsOf(resultFor('unplace', String(placement.id)))} />
              </td>
            </tr>
          ))}
        </StaffTable>
      )}
      {!kit.retired && (
        <div className="mt-3 space-y-3">
          <FormAlert id={`kit-${kit.id}-alert`} errors={retireRefusals} />
          <details className="text-sm" open={Boolean(editResult?.error) || retireRefusals.length > 0}>
            <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-brand-700">
              Edit or retire<span className="sr-only"> {kit.name}</span>…
            </summary>
            <div className="mt-2 space-y-4">
              <KitForm id={`kit-${kit.id}`} intent="edit" kitId={target} defaults={kit.form} lastResult={editResult} name={kit.name} />
              <Form method="post" className="border-t border-slate-200 pt-4">
                <input type="hidden" name="intent" value="retire" />
                <input type="hidden" name="id" value={kit.id} />
                <p className="text-ink">A retired kit stays on record; it is no longer counted at the lab or moved.</p>
                <SaveButton intent="retire" target={{ id: target }} className="btn-secondary mt-2" pendingLabel="Retiring...">
                  Retire {kit.name}
                </SaveButton>
              </Form>
            </div>
          </details>
        </div>
      )}
    </li>
  )
}

function KitForm({ id, intent, kitId, defaults, lastResult, name }: { id: string; intent: 'add' | 'edit'; kitId?: string; defaults?: Record<string, string>; lastResult: Result; name?: string }) {
  const [form, fields] = useValidatedForm(KitSchema, { id, lastResult, defaultValue: defaults ?? { setupMinutes: '60' } })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value={intent} />
      {kitId && <input type="hidden" name="id" value={kitId} />}
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.name} label="Name" />
        <TextField field={fields.setupMinutes} label="Set-up time in minutes" inputMode="numeric" hint="Packing takes as long again." />
      </div>
      {intent === 'add' ? (
        <SaveButton intent="add">Add the kit</SaveButton>
      ) : (
        <SaveButton intent="edit" target={{ id: kitId ?? '' }}>
          Save<span className="sr-only"> {name}</span>
        </SaveButton>
      )}
    </Form>
  )
}

type Options = ReadonlyArray<{ value: string; label: string }>

function MoveForm({ kits, venues, answer }: { kits: Options; venues: Options; answer: Answer | undefined }) {
  const [form, fields] = useValidatedForm(KitPlacementSchema, { id: 'kit-move', lastResult: answer?.result, defaultValue: { kitId: kits.length === 1 ? kits[0]!.value : undefined } })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <FormAlert id={form.errorId} errors={form.errors} />
      {answer?.stranded && <StrandedBookingsAlert bookings={answer.stranded} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField field={fields.kitId} label="Kit" options={kits} />
        <SelectField field={fields.venueId} label="Venue" options={venues} />
      </div>
      <PeriodFields fields={fields} />
      <TextField field={fields.note} label="Note" optional />
      {answer?.review && <ReviewOutcome review={answer.review} />}
      <div className="flex flex-wrap gap-3">
        <PendingButton name="intent" value="review" when={{ fields: { intent: 'review' } }} pendingLabel="Checking..." className="btn-secondary">
          Check
        </PendingButton>
        <PendingButton name="intent" value="place" when={{ fields: { intent: 'place' } }} pendingLabel="Placing...">
          Place the kit
        </PendingButton>
      </div>
    </Form>
  )
}

/** What the check found: nothing here is saved. */
function ReviewOutcome({ review }: { review: PlacementReviewView }) {
  return (
    <section aria-labelledby="review-heading" aria-live="polite" className="rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-ink">
      <h3 id="review-heading" className="font-bold">
        What this move would do (not saved)
      </h3>
      <p className="mt-2">
        {review.kitName} would be in use at {review.venueName} from {review.inUse}, and away from the lab from {review.away} (travel, set-up and packing included).
      </p>
      {review.clash && (
        <p className="mt-2 font-semibold text-red-800">
          It is already away at {review.clash.venueName} from {review.clash.away}, which overlaps. Choose other times or another kit.
        </p>
      )}
      {review.closing === 0 ? (
        <p className="mt-2">No time slot at the lab would close: another kit stays there.</p>
      ) : (
        <>
          <p className="mt-2">
            {review.closing} {review.closing === 1 ? 'time slot' : 'time slots'} at the lab would close, as no kit would be there:
          </p>
          <ul className="mt-1 list-disc pl-5">
            {review.closingDates.map((day) => (
              <li key={day.date}>
                {day.date}: {day.times}
              </li>
            ))}
          </ul>
        </>
      )}
      {review.stranded.length > 0 && (
        <div className="mt-3">
          <p className="font-semibold text-red-800">The kit cannot be placed while these bookings hold their seats: reschedule or cancel them first.</p>
          <div className="mt-2">
            <StrandedBookingsAlert bookings={review.stranded} />
          </div>
        </div>
      )}
    </section>
  )
}
