import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/reference-bands'
import { FormAlert, PendingButton, RadioGroupField, SelectField, TextField, useValidatedForm } from '~/components/form-fields'
import { StaffTable } from '~/components/staff-table'
import { rowId } from '~/lib/row-id'
import { addBand, bandById, bandLabel, deleteBand, listBands, updateBand } from '~/modules/analyses/bands.server'
import { DISTANCES_METRES, eventLabel, METRICS, metricDefinition, STROKES } from '~/modules/analyses/catalog'
import { BAND_GENDERS, BandSchema, RemoveBandSchema } from '~/modules/analyses/schemas'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { formIntent, unknownForm } from '~/web/intent'
import { formErrorsOf, notFoundUnless, refusalOf } from '~/web/refusals.server'
import { redirectWithToast } from '~/web/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Reference bands | Admin' }, { name: 'robots', content: 'noindex' }]

const HERE = href('/admin/reference-bands')

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const editId = rowId(new URL(request.url).searchParams.get('edit'))
  const [bands, editing] = await Promise.all([listBands(), editId ? bandById(editId) : null])
  const genderLabel = (gender: string) => BAND_GENDERS.find((item) => item.value === gender)?.label ?? gender
  return {
    bands: bands.map((band) => {
      const metric = metricDefinition(band.metricKey)
      return {
        id: band.id,
        event: eventLabel(band),
        metric: metric?.label ?? band.metricKey,
        ages: band.ageMin === band.ageMax ? String(band.ageMin) : `${band.ageMin}-${band.ageMax}`,
        gender: genderLabel(band.gender),
        level: band.level,
        value: `${band.value} ${metric?.unit ?? ''}`.trim(),
        label: bandLabel(band),
      }
    }),
    editing: editing
      ? {
          bandId: String(editing.id),
          stroke: editing.stroke,
          distance: String(editing.distanceMetres),
          metric: editing.metricKey,
          ageMin: String(editing.ageMin),
          ageMax: String(editing.ageMax),
          gender: editing.gender,
          level: editing.level,
          value: String(editing.value),
        }
      : null,
  }
}

type ActionResult = { intent: 'band' | 'delete'; target: string; result?: SubmissionResult<string[]>; confirm?: boolean }

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  const formData = await readForm(request)
  switch (formIntent(formData, ['band', 'delete'])) {
    case 'band': {
      const target = String(formData.get('bandId') ?? '')
      // A band that does not exist has no form on the page to show a message in: not found.
      if (target) {
        const bandId = rowId(target)
        notFoundUnless(bandId && (await bandById(bandId)))
      }
      const submission = parseWithZod(formData, { schema: BandSchema })
      if (submission.status !== 'success') return data<ActionResult>({ intent: 'band', target, result: submission.reply() }, { status: 400 })
      const { bandId, ...band } = submission.value
      try {
        if (bandId) await updateBand(actor, bandId, band)
        else await addBand(actor, band)
      } catch (error) {
        const refusal = refusalOf(error)
        return data<ActionResult>({ intent: 'band', target, result: submission.reply(formErrorsOf(refusal)) }, { status: refusal.status })
      }
      return redirectWithToast(`${HERE}#bands-heading`, { type: 'success', title: bandId ? 'Band saved' : 'Band added' })
    }
    case 'delete': {
      const submission = parseWithZod(formData, { schema: RemoveBandSchema })
      notFoundUnless(submission.status === 'success')
      const { bandId } = submission.value
      // Deleting asks first: the first press returns the question, the second (confirm=yes) deletes.
      if (formData.get('confirm') !== 'yes') {
        notFoundUnless(await bandById(bandId))
        return data<ActionResult>({ intent: 'delete', target: String(bandId), confirm: true })
      }
      try {
        await deleteBand(actor, bandId)
      } catch (error) {
        refusalOf(error)
      }
      return redirectWithToast(`${HERE}#bands-heading`, { type: 'success', title: 'Band deleted' })
    }
    default:
      return unknownForm()
  }
}

export default function ReferenceBands({ loaderData, actionData }: Route.ComponentProps) {
  const { bands, editing } = loaderData
  const answer = actionData as ActionResult | undefined
  const resultFor = (target: string) => (answer?.intent === 'band' && answer.target === target ? answer.result : undefined)
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Reference bands</h1>
      <p className="mt-3 text-muted">What swimmers of a level reach, by event, metric, age and gender. The family's pages show a swimmer's figure against the bands of their age and gender (and those for any gender).</p>

      <section aria-labelledby="bands-heading" className="card mt-8 p-4 sm:p-6">
        <h2 id="bands-heading" className="text-xl font-bold text-ink">
          Bands ({bands.length})
        </h2>
        {bands.length === 0 ? (
          <p className="mt-2 text-sm text-muted">No bands yet: add the first one below.</p>
        ) : (
          <StaffTable caption="Reference bands" columns={['Event', 'Metric', 'Ages', 'Gender', 'Level', 'Value', { label: 'Actions', hidden: true }]} inset className="mt-3">
            {bands.map((band) => (
              <tr key={band.id} className="border-t border-slate-200 align-top">
                <td className="py-2 pr-3">{band.event}</td>
                <td className="px-3 py-2">{band.metric}</td>
                <td className="px-3 py-2">{band.ages}</td>
                <td className="px-3 py-2">{band.gender}</td>
                <td className="px-3 py-2">{band.level}</td>
                <td className="px-3 py-2">{band.value}</td>
                <td className="py-2 pl-3">
                  {answer?.intent === 'delete' && answer.target === String(band.id) ? (
                    <div role="group" aria-labelledby={`delete-${band.id}`} tabIndex={-1} ref={(element) => element?.focus()} className="rounded-lg border border-amber-300 bg-amber-50 p-2">
                      <p id={`delete-${band.id}`} className="font-semibold text-ink">
                        Delete this band?
                      </p>
                      <Form method="post" className="mt-2 flex flex-wrap gap-2">
                        <input type="hidden" name="intent" value="delete" />
                        <input type="hidden" name="bandId" value={band.id} />
                        <button type="submit" name="confirm" value="yes" className="btn-primary bg-red-700 hover:bg-red-800">
                          Yes, delete<span className="sr-only"> {band.label}</span>
                        </button>
                        <Link to={HERE} preventScrollReset className="btn-secondary">
                          Keep it
                        </Link>
                      </Form>
                    </div>
                  ) : (
                    <div className="flex flex-wrap gap-2">
                      <Link to={`${HERE}?edit=${band.id}#band-form-heading`} className="btn-secondary">
                        Edit<span className="sr-only"> {band.label}</span>
                      </Link>
                      <Form method="post">
                        <input type="hidden" name="intent" value="delete" />
                        <input type="hidden" name="bandId" value={band.id} />
                        <button type="submit" className="btn-secondary">
                          Delete<span className="sr-only"> {band.label}</span>…
                        </button>
                      </Form>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </StaffTable>
        )}
      </section>

      <section aria-labelledby="band-form-heading" className="card mt-8 p-4 sm:p-6">
        <h2 id="band-form-heading" className="text-xl font-bold text-ink">
          {editing ? 'Edit the band' : 'Add a band'}
        </h2>
        <BandForm key={JSON.stringify(editing)} defaults={editing} lastResult={resultFor(editing?.bandId ?? '')} />
      </section>
    </section>
  )
}

function BandForm({ defaults, lastResult }: { defaults: Record<string, string> | null; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useValidatedForm(BandSchema, { id: 'band-form', lastResult, defaultValue: defaults ?? { stroke: 'freestyle', distance: '50', metric: 'final_time', gender: 'any' } })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 space-y-5">
      <input type="hidden" name="intent" value="band" />
      {defaults && <input type="hidden" name="bandId" value={defaults.bandId} />}
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 md:grid-cols-3">
        <SelectField field={fields.stroke} label="Stroke" options={STROKES} />
        <SelectField field={fields.distance} label="Distance" options={DISTANCES_METRES.map((distance) => ({ value: String(distance), label: `${distance} m` }))} />
        <SelectField field={fields.metric} label="Metric" options={METRICS.map((metric) => ({ value: metric.key, label: `${metric.label} (${metric.unit})` }))} />
        <TextField field={fields.ageMin} label="Youngest age" inputMode="numeric" />
        <TextField field={fields.ageMax} label="Oldest age" inputMode="numeric" />
        <TextField field={fields.value} label="Value" hint="In the metric's unit; times may be typed as 1:05.32." />
      </div>
      <RadioGroupField field={fields.gender} legend="Gender" options={BAND_GENDERS} />
      <TextField field={fields.level} label="Level" placeholder="State finalist" />
      <div className="flex flex-wrap gap-3">
        <PendingButton when={{ fields: { intent: 'band' } }} pendingLabel="Saving...">
          {defaults ? 'Save the band' : 'Add the band'}
        </PendingButton>
        {defaults && (
          <Link to={HERE} className="btn-secondary">
            Cancel
          </Link>
        )}
      </div>
    </Form>
  )
}
