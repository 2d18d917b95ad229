import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/sample-analysis'
import { FormAlert, PendingButton, SaveButton as AnySaveButton, TextAreaField, TextField, useValidatedForm } from '~/components/form-fields'
import { DetailRow } from '~/components/payment-status-card'
import { Panel } from '~/components/panel'
import { RemoveForm } from '~/components/remove-form'
import { formatLabDateTime } from '~/lib/lab-time'
import { rowId } from '~/lib/row-id'
import { priorityLabel } from '~/modules/analyses/catalog'
import { deleteSample, publishSample, removeSampleFinding, samplesForStaff, setSampleDetails, setSampleDrill, setSampleFinding, withdrawSample } from '~/modules/analyses/samples.server'
import { RemoveSampleFindingSchema, SAMPLE_LIMITS, SAMPLE_SOURCES, SampleDetailsSchema, SampleDrillSchema, SampleFindingSchema } from '~/modules/analyses/sample-schemas'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { dispatchForm, submitForm } from '~/web/page-forms.server'
import { notFoundUnless } from '~/web/refusals.server'
import { redirectWithToast } from '~/web/toast.server'

// The public sample analysis: the copies staff made of published analyses ("Copy as a public
// sample…" on an analysis), their texts to check for names and change, and which one the public
// page shows.

export const meta: Route.MetaFunction = () => [{ title: 'Sample analysis | Admin' }, { name: 'robots', content: 'noindex' }]

const STATUS_LABELS = { draft: 'Draft: not on the public page', published: 'Published: on the public page', withdrawn: 'Withdrawn: not on the public page' } as const

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const samples = await samplesForStaff()
  return {
    samples: samples.map((sample) => ({
      id: sample.id,
      status: sample.status,
      statusLabel: STATUS_LABELS[sample.status],
      source: SAMPLE_SOURCES.find((source) => source.value === sample.source)?.label ?? sample.source,
      familyShared: sample.source === 'family_shared',
      agreementNote: sample.agreementNote,
      copied: `${formatLabDateTime(sample.createdAt)} by ${sample.createdByEmail}`,
      publishedAt: sample.publishedAt ? formatLabDateTime(sample.publishedAt) : null,
      details: { swimmerDescription: sample.swimmerDescription, summary: sample.summary },
      events: sample.events.map((event) => `${event.label} (${event.metrics.length} ${event.metrics.length === 1 ? 'figure' : 'figures'})`),
      findings: sample.findings.map((finding) => ({ ...finding, priorityLabel: priorityLabel(finding.priority) })),
    })),
  }
}

type Intent = 'details' | 'finding' | 'drill' | 'remove-finding' | 'publish' | 'withdraw' | 'delete'

/** The answer of one of the page's forms: its result, or the question a deletion asks first. */
type ActionResult = { intent: Intent; target: string; result?: SubmissionResult<string[]>; confirm?: boolean }

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  const formData = await readForm(request)
  const sampleId = rowId(String(formData.get('sampleId') ?? ''))
  // A form of a sample that is not there (deleted meanwhile, or never was) has nowhere to show a message.
  notFoundUnless(sampleId && (await samplesForStaff()).some((sample) => sample.id === sampleId))
  const target = [sampleId, formData.get('finding'), formData.get('drill')].filter((part) => part !== null).join('-')
  const form = (intent: Intent) => ({ intent, target })
  const back = (title: string, description?: string) => redirectWithToast(`${href('/admin/sample-analysis')}#sample-${sampleId}`, { type: 'success', title, ...(description ? { description } : {}) })
  return dispatchForm(formData, {
    details: () =>
      submitForm(formData, form('details'), SampleDetailsSchema, async (value) => {
        await setSampleDetails(sampleId, value)
        return back('Swimmer and summary saved')
      }),
    finding: () =>
      submitForm(formData, form('finding'), SampleFindingSchema, async ({ finding, title, whyItMatters }) => {
        await setSampleFinding(sampleId, finding, { title, whyItMatters })
        return back('Finding saved')
      }),
    drill: () =>
      submitForm(formData, form('drill'), SampleDrillSchema, async ({ finding, drill, name, instructions }) => {
        await setSampleDrill(sampleId, finding, drill, { name, instructions })
        return back('Drill saved')
      }),
    'remove-finding': () =>
      submitForm(formData, form('remove-finding'), RemoveSampleFindingSchema, async ({ finding }) => {
        await removeSampleFinding(sampleId, finding)
        return back('Finding left out of the sample')
      }),
    publish: async () => ((await publishSample(actor, sampleId)) ? back('Sample published', 'The public page shows it now; any sample shown before is withdrawn.') : back('Already published')),
    withdraw: async () => ((await withdrawSample(actor, sampleId)) ? back('Sample withdrawn', 'The public page and its links are gone until you publish a sample again.') : back('Not published')),
    delete: async () => {
      if (formData.get('confirm') !== 'yes') return data<ActionResult>({ intent: 'delete', target, confirm: true })
      await deleteSample(actor, sampleId)
      return redirectWithToast(href('/admin/sample-analysis'), { type: 'success', title: 'Sample deleted' })
    },
  })
}

type Sample = Route.ComponentProps['loaderData']['samples'][number]
type Last = SubmissionResult<string[]> | undefined
type ResultFor = (intent: Intent, target: string) => Last

const SaveButton = AnySaveButton<Intent>

export default function AdminSampleAnalysis({ loaderData, actionData }: Route.ComponentProps) {
  const { samples } = loaderData
  const answer = actionData as ActionResult | undefined
  const resultFor: ResultFor = (intent, target) => (answer?.intent === intent && answer.target === target ? answer.result : undefined)
  const published = samples.some((sample) => sample.status === 'published')
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Sample analysis</h1>
      <p className="mt-3 max-w-3xl text-muted">
        The public “sample analysis” page shows one results page as every family gets it, marked “Sample”, and the services, pricing and booking pages link to it while one is published. Each
        sample is a separate copy of a published analysis: open the analysis from its booking and use “Copy as a public sample…”.
      </p>
      <p className="mt-2">
        {published ? (
          <Link to={href('/sample-analysis')} className="link">
            See the public page
          </Link>
        ) : (
          <span className="text-muted">No sample is published: the public page is not found and nothing links to it.</span>
        )}
      </p>
      {samples.length === 0 ? (
        <Panel id="samples" title="Samples" spacing="mt-8">
          <p className="text-muted">No samples yet.</p>
        </Panel>
      ) : (
        samples.map((sample) => <SamplePanel key={`${sample.id}-${JSON.stringify(sample.details)}-${JSON.stringify(sample.findings)}`} sample={sample} resultFor={resultFor} confirmingDelete={answer?.intent === 'delete' && answer.target === String(sample.id) && answer.confirm === true} />)
      )}
    </section>
  )
}

function SamplePanel({ sample, resultFor, confirmingDelete }: { sample: Sample; resultFor: ResultFor; confirmingDelete: boolean }) {
  const id = String(sample.id)
  return (
    <Panel id={`sample-${id}`} title={`Sample ${id}: ${sample.details.swimmerDescription}`} spacing="mt-8">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <DetailRow term="Status" value={sample.statusLabel} />
        {sample.publishedAt && <DetailRow term="Last published" value={sample.publishedAt} />}
        <DetailRow term="Source" value={sample.source} />
        <DetailRow term="Copied" value={sample.copied} />
        {sample.familyShared && <DetailRow term="Family’s agreement" value={`In writing: ${sample.agreementNote}`} />}
        <DetailRow term="Figures" value={sample.events.length ? sample.events.join(', ') : 'None'} />
      </dl>
      <p className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
        The summary, findings and drills were copied as written. Before publishing, check that none of them names the swimmer, the family, their coach or club, and change them below.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        {/* Keyed by what it does: the button is replaced, not faded from one style into the other. */}
        {sample.status === 'published' ? (
          <StatusForm key="withdraw" sampleId={id} intent="withdraw" label="Withdraw from the public page" />
        ) : (
          <StatusForm key="publish" sampleId={id} intent="publish" label="Publish on the public page" primary />
        )}
      </div>

      <h3 className="mt-6 text-lg font-semibold text-ink">Swimmer and summary</h3>
      <DetailsForm sampleId={id} defaults={sample.details} lastResult={resultFor('details', id)} />

      <h3 className="mt-6 text-lg font-semibold text-ink">Findings and drills</h3>
      {sample.findings.length === 0 && <p className="mt-1 text-sm text-muted">No findings.</p>}
      <ol className="mt-2 space-y-4">
        {sample.findings.map((finding, index) => (
          <li key={index} className="rounded-xl border border-slate-200 p-4">
            <h4 className="font-semibold text-ink">
              {finding.title} <span className="text-sm font-normal text-muted">({finding.priorityLabel} priority)</span>
            </h4>
            <FindingForm sampleId={id} index={index} finding={finding} lastResult={resultFor('finding', `${id}-${index}`)} />
            {finding.drills.map((drill, place) => (
              <DrillForm key={place} sampleId={id} finding={index} index={place} drill={drill} lastResult={resultFor('drill', `${id}-${index}-${place}`)} />
            ))}
            <Form method="post" className="mt-3">
              <input type="hidden" name="sampleId" value={id} />
              <input type="hidden" name="finding" value={index} />
              <PendingButton name="intent" value="remove-finding" when={{ fields: { intent: 'remove-finding', sampleId: id, finding: String(index) } }} pendingLabel="Leaving out..." className="btn-secondary">
                Leave this finding out of the sample<span className="sr-only">: {finding.title}</span>
              </PendingButton>
            </Form>
          </li>
        ))}
      </ol>

      <RemoveForm intent="delete" name="sampleId" id={id} verb="delete" what={`sample ${id}`} question={`Delete sample ${id}? If it is on the public page, the page goes too.`} confirming={confirmingDelete} />
    </Panel>
  )
}

function StatusForm({ sampleId, intent, label, primary = false }: { sampleId: string; intent: 'publish' | 'withdraw'; label: string; primary?: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="sampleId" value={sampleId} />
      <PendingButton name="intent" value={intent} when={{ fields: { intent, sampleId } }} pendingLabel={intent === 'publish' ? 'Publishing...' : 'Withdrawing...'} className={primary ? 'btn-primary' : 'btn-secondary'}>
        {label}
        <span className="sr-only"> (sample {sampleId})</span>
      </PendingButton>
    </Form>
  )
}

function DetailsForm({ sampleId, defaults, lastResult }: { sampleId: string; defaults: Sample['details']; lastResult: Last }) {
  const [form, fields] = useValidatedForm(SampleDetailsSchema, { id: `sample-details-${sampleId}`, lastResult, defaultValue: { ...defaults, sampleId } })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-2 space-y-4">
      <input type="hidden" name="intent" value="details" />
      <input type="hidden" name="sampleId" value={sampleId} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextField field={fields.swimmerDescription} label="Who swam, without a name" hint={`for example “Sample swimmer, 13, competitive”, up to ${SAMPLE_LIMITS.description} characters`} />
      <TextAreaField field={fields.summary} label="Summary" note="optional" />
      <SaveButton intent="details" target={{ sampleId }}>
        Save the swimmer and summary<span className="sr-only"> of sample {sampleId}</span>
      </SaveButton>
    </Form>
  )
}

function FindingForm({ sampleId, index, finding, lastResult }: { sampleId: string; index: number; finding: Sample['findings'][number]; lastResult: Last }) {
  const [form, fields] = useValidatedForm(SampleFindingSchema, { id: `sample-finding-${sampleId}-${index}`, lastResult, defaultValue: { sampleId, finding: String(index), title: finding.title, whyItMatters: finding.whyItMatters } })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4">
      <input type="hidden" name="intent" value="finding" />
      <input type="hidden" name="sampleId" value={sampleId} />
      <input type="hidden" name="finding" value={index} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextField field={fields.title} label="What was found" />
      <TextAreaField field={fields.whyItMatters} label="Why it matters" note="optional" />
      <SaveButton intent="finding" target={{ sampleId, finding: String(index) }}>
        Save the finding<span className="sr-only"> {finding.title}</span>
      </SaveButton>
    </Form>
  )
}

function DrillForm({ sampleId, finding, index, drill, lastResult }: { sampleId: string; finding: number; index: number; drill: Sample['findings'][number]['drills'][number]; lastResult: Last }) {
  const [form, fields] = useValidatedForm(SampleDrillSchema, { id: `sample-drill-${sampleId}-${finding}-${index}`, lastResult, defaultValue: { sampleId, finding: String(finding), drill: String(index), name: drill.name, instructions: drill.instructions } })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4 rounded-lg bg-slate-50 p-3">
      <input type="hidden" name="intent" value="drill" />
      <input type="hidden" name="sampleId" value={sampleId} />
      <input type="hidden" name="finding" value={finding} />
      <input type="hidden" name="drill" value={index} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextField field={fields.name} label="Drill" />
      <TextAreaField field={fields.instructions} label="How to do it" note="optional" />
      <SaveButton intent="drill" target={{ sampleId, finding: String(finding), drill: String(index) }}>
        Save the drill<span className="sr-only"> {drill.name}</span>
      </SaveButton>
    </Form>
  )
}
