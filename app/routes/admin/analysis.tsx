import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { useMemo } from 'react'
import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/analysis'
import { FieldError, FormAlert, PendingButton, RadioGroupField, SaveButton as AnySaveButton, SelectField, TextAreaField, TextField, useValidatedForm } from '~/components/form-fields'
import { Panel } from '~/components/panel'
import { RemoveForm } from '~/components/remove-form'
import { MetricsCsvImport } from '~/components/metrics-csv-import'
import { DetailRow } from '~/components/payment-status-card'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { dispatchForm, submitForm } from '~/web/page-forms.server'
import { formatLabDate, formatLabDateTime, formatLongDate } from '~/lib/lab-time'
import { refuseNul } from '~/web/nul.server'
import { notFoundUnless, refusalOf } from '~/web/refusals.server'
import { formatFileSize } from '~/web/file-size'
import { redirectWithToast } from '~/web/toast.server'
import { GENDERS, optionLabel } from '~/modules/forms/choices'
import { DISTANCES_METRES, FINDING_PRIORITIES, formatMetricValue, metricDefinition, POOL_LENGTHS_METRES, priorityLabel, STROKES } from '~/modules/analyses/catalog'
import { addCustomMetric, addDrill, addEvent, changeDrill, analysisForStaff, bookingForAnalysis, namesPartsOf, removeDrill, removeEvent, removeFinding, saveFinding, saveMetrics, setDetails, startAnalysis, type AnalysisPart } from '~/modules/analyses/editing.server'
import { importMetrics, importPreview, MAX_CSV_BYTES, MAX_CSV_ROWS, previewImport, readCsvFile, type ImportPreview } from '~/modules/analyses/metrics-import.server'
import { publishAnalysis, SessionNotHeldYetError } from '~/modules/analyses/publishing.server'
import { copyAsSample } from '~/modules/analyses/samples.server'
import { CopySampleSchema, SAMPLE_LIMITS, SAMPLE_SOURCES } from '~/modules/analyses/sample-schemas'
import { CustomMetricSchema, DetailsSchema, DrillSchema, EventSchema, FindingSchema, LIMITS, metricsSchema, PublishSchema, RemoveDrillSchema, RemoveEventSchema, RemoveFindingSchema, valueFieldName } from '~/modules/analyses/schemas'
import { bookingDaysOf } from '~/modules/booking/bookings.server'
import { BOOKING_STATUS_LABELS, bookingDayLines } from '~/modules/booking/texts'
import { reportsOf } from '~/modules/reports/reports.server'
import { adminAnalysisLink, adminBookingLink, adminClipsLink, reportFileLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ params }) => [{ title: `Analysis of ${params.reference} | Admin` }, { name: 'robots', content: 'noindex' }]

async function bookingOf(request: Request, reference: string) {
  refuseNul(request, { reference })
  const booking = await bookingForAnalysis(reference)
  notFoundUnless(booking)
  return booking
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const booking = await bookingOf(request, params.reference)
  const [view, days, reports] = await Promise.all([analysisForStaff(booking.id), bookingDaysOf(booking.id), reportsOf([booking.id])])
  notFoundUnless(view)
  const report = reports.get(booking.id)
  const analysis = view.analysis
  return {
    booking: {
      reference: booking.reference,
      product: booking.productName,
      status: BOOKING_STATUS_LABELS[booking.status],
      confirmed: booking.status === 'confirmed',
      customer: `${booking.customerName} (${booking.customerEmail})${booking.userId ? '' : ', booked as a guest'}`,
      days: bookingDayLines(days),
    },
    swimmer: {
      name: view.swimmer.name,
      age: view.swimmer.age === null ? 'Not known (no swimmer profile)' : `${view.swimmer.age} years`,
      gender: view.swimmer.gender ? (optionLabel(GENDERS, view.swimmer.gender) ?? view.swimmer.gender) : 'Not known (no swimmer profile)',
    },
    report: report?.deliveredAt
      ? {
          deliveredAt: formatLabDateTime(report.deliveredAt),
          files: report.files.map((file) => ({ filename: file.filename, url: reportFileLink(file.id), size: formatFileSize(file.sizeBytes) })),
          videoLinks: report.videoLinks,
        }
      : null,
    analysis: analysis
      ? {
          state: analysis.publishedAt ? `Published on ${formatLabDate(analysis.publishedAt)}` : 'Draft: the family does not see it yet',
          published: analysis.publishedAt !== null,
          nextAnalysisOn: analysis.nextAnalysisOn ? formatLongDate(analysis.nextAnalysisOn) : null,
          lastChange: formatLabDateTime(analysis.updatedAt),
          clipsCount: analysis.clipsCount,
          details: { poolLength: String(analysis.poolLengthMetres), summary: analysis.summary },
          events: analysis.events.map((event) => {
            const stored = new Map(event.metrics.map((metric) => [metric.key, metric]))
            return {
              id: event.id,
              label: event.label,
              count: event.metrics.length,
              fields: event.keys.map((key) => {
                const metric = stored.get(key)
                const definition = metricDefinition(key)
                return {
                  key,
                  label: definition?.label ?? metric?.label ?? key,
                  unit: definition?.unit ?? metric?.unit ?? '',
                  group: key.startsWith('split_') ? 'splits' : key.startsWith('velocity_') ? 'velocities' : definition ? 'list' : 'own',
                  better: (definition?.betterWhen ?? metric?.betterWhen) === 'higher' ? 'higher is better' : 'lower is better',
                }
              }),
              defaults: Object.fromEntries([['eventId', String(event.id)], ...event.metrics.map((metric) => [valueFieldName(metric.key), formatMetricValue(metric.value)])]) as Record<string, string>,
            }
          }),
          findings: analysis.findings.map((finding) => ({ ...finding, priorityLabel: priorityLabel(finding.priority) })),
        }
      : null,
    limits: { events: LIMITS.events, findings: LIMITS.findings, drills: LIMITS.drillsPerFinding, csvMegabytes: MAX_CSV_BYTES / 1024 / 1024, csvRows: MAX_CSV_ROWS },
  }
}

/** Where each of the page's forms sits, so the browser comes back to it after saving. */
const ANCHORS = {
  start: 'analysis-heading',
  details: 'details',
  'add-event': 'events',
  'remove-event': 'events',
  metrics: 'events',
  'custom-metric': 'events',
  finding: 'findings',
  'remove-finding': 'findings',
  drill: 'findings',
  'remove-drill': 'findings',
  'csv-preview': 'import',
  'csv-import': 'import',
  publish: 'publish',
  'copy-sample': 'sample',
} as const
type Intent = keyof typeof ANCHORS

/** The answer of one of the page's forms: its result (errors, values) or a refusal, or a step to confirm. */
type ActionResult = { intent: Intent; target: string; result?: SubmissionResult<string[]>; error?: string; confirm?: boolean; preview?: ImportPreview; tellFamily?: boolean }

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  const booking = await bookingOf(request, params.reference)
  // A CSV file is sent once to preview it and once more to confirm: room for one, with the form's other fields.
  const formData = await readForm(request, { maxBytes: MAX_CSV_BYTES + 64 * 1024 })
  const here = adminAnalysisLink(booking.reference)
  const saved = (intent: Intent, title: string, description?: string) => redirectWithToast(`${here}#${ANCHORS[intent]}`, { type: 'success', title, ...(description ? { description } : {}) })
  // Which of the repeated forms was sent: an event's, a finding's, or a drill's (`d` and its id).
  const target = formData.get('drillId') !== null ? `d${String(formData.get('drillId'))}` : String(formData.get('eventId') ?? formData.get('findingId') ?? '')
  const form = (intent: Intent) => ({ intent, target })
  /** A removal asks first: the first press returns the question, the second (confirm=yes) removes. */
  const confirmed = formData.get('confirm') === 'yes'
  /**
   * The booking's analysis, once started. An event, finding or drill not of this analysis has no form
   * on the page to show a message in, whatever else was sent: not found.
   */
  async function startedAnalysis(...about: Array<{ part: AnalysisPart; optional?: boolean }>) {
    const analysis = (await analysisForStaff(booking.id))?.analysis
    notFoundUnless(analysis)
    notFoundUnless(namesPartsOf(analysis, about.map(({ part, optional }) => ({ part, id: formData.get(part), optional }))))
    return analysis
  }

  return dispatchForm(formData, {
    start: async () => {
      try {
        await startAnalysis(actor, booking.id)
      } catch (error) {
        return data<ActionResult>({ intent: 'start', target: '', error: refusalOf(error).message }, { status: refusalOf(error).status })
      }
      return saved('start', 'Analysis started', 'Everything you enter is saved as a draft until you publish it.')
    },
    details: async () => {
      const { id } = await startedAnalysis()
      return submitForm(formData, form('details'), DetailsSchema, async (value) =>
        (await setDetails(actor, id, value)) ? saved('details', 'Pool and summary saved') : saved('details', 'Nothing to save', 'Those were already the values.'),
      )
    },
    'add-event': async () => {
      const { id } = await startedAnalysis()
      return submitForm(formData, form('add-event'), EventSchema, async (value) => {
        await addEvent(actor, id, value)
        return saved('add-event', 'Event added', 'Enter its metrics below.')
      })
    },
    'remove-event': async () => {
      const { id } = await startedAnalysis({ part: 'eventId' })
      return submitForm(formData, form('remove-event'), RemoveEventSchema, async ({ eventId }) => {
        if (!confirmed) return data<ActionResult>({ intent: 'remove-event', target, confirm: true })
        await removeEvent(actor, id, eventId)
        return saved('remove-event', 'Event removed')
      })
    },
    metrics: async () => {
      const { id, events } = await startedAnalysis({ part: 'eventId' })
      const event = events.find((item) => String(item.id) === target)
      notFoundUnless(event)
      return submitForm(formData, form('metrics'), metricsSchema(event.keys), async (value) => {
        const values = new Map(event.keys.map((key) => [key, (value as Record<string, number | null>)[valueFieldName(key)] ?? null]))
        return (await saveMetrics(actor, id, event.id, values)) ? saved('metrics', 'Metrics saved', `The ${event.label}.`) : saved('metrics', 'Nothing to save', 'Those were already the values.')
      })
    },
    'custom-metric': async () => {
      const { id } = await startedAnalysis({ part: 'eventId' })
      return submitForm(formData, form('custom-metric'), CustomMetricSchema, async (value) => {
        await addCustomMetric(actor, id, { ...value, better: value.better })
        return saved('custom-metric', 'Metric added')
      })
    },
    finding: async () => {
      const { id } = await startedAnalysis({ part: 'findingId', optional: true })
      return submitForm(formData, form('finding'), FindingSchema, async (value) => {
        await saveFinding(actor, id, value)
        return saved('finding', value.findingId ? 'Finding saved' : 'Finding added', value.findingId ? undefined : 'Add drills that work on it below.')
      })
    },
    'remove-finding': async () => {
      const { id } = await startedAnalysis({ part: 'findingId' })
      return submitForm(formData, form('remove-finding'), RemoveFindingSchema, async ({ findingId }) => {
        if (!confirmed) return data<ActionResult>({ intent: 'remove-finding', target, confirm: true })
        await removeFinding(actor, id, findingId)
        return saved('remove-finding', 'Finding removed')
      })
    },
    drill: async () => {
      const { id } = await startedAnalysis({ part: 'findingId' }, { part: 'drillId', optional: true })
      return submitForm(formData, form('drill'), DrillSchema, async ({ drillId, ...drill }) => {
        if (drillId) await changeDrill(actor, id, drillId, drill)
        else await addDrill(actor, id, drill)
        return saved('drill', drillId ? 'Drill saved' : 'Drill added')
      })
    },
    'remove-drill': async () => {
      const { id } = await startedAnalysis({ part: 'drillId' })
      return submitForm(formData, form('remove-drill'), RemoveDrillSchema, async ({ drillId }) => {
        await removeDrill(actor, id, drillId)
        return saved('remove-drill', 'Drill removed')
      })
    },
    'csv-preview': async () => {
      const { id } = await startedAnalysis()
      const read = await readCsvFile(formData.get('file'))
      if ('problem' in read) return data<ActionResult>({ intent: 'csv-preview', target: '', error: read.problem }, { status: 400 })
      const plan = await previewImport(id, read.csv)
      return data<ActionResult>({ intent: 'csv-preview', target: '', preview: importPreview(plan, read.csv, read.fileName.slice(0, 120)) }, { status: plan.problems.length ? 400 : 200 })
    },
    'csv-import': async () => {
      const { id } = await startedAnalysis()
      const csv = String(formData.get('csv') ?? '')
      const fileName = String(formData.get('fileName') ?? '').slice(0, 120)
      try {
        const plan = await importMetrics(actor, id, csv)
        return saved('csv-import', 'Metrics imported', `${plan.changes.length} ${plan.changes.length === 1 ? 'value' : 'values'} from ${fileName || 'the file'}.`)
      } catch (error) {
        const refusal = refusalOf(error)
        const plan = await previewImport(id, csv)
        return data<ActionResult>({ intent: 'csv-preview', target: '', error: refusal.message, preview: importPreview(plan, csv, fileName) }, { status: refusal.status })
      }
    },
    publish: async () => {
      const { id } = await startedAnalysis()
      return submitForm(formData, form('publish'), PublishSchema, async ({ tellFamily }) => {
        let first: boolean
        try {
          first = await publishAnalysis({ actor, analysisId: id, tellFamily: tellFamily === 'on', beforeSession: confirmed })
        } catch (error) {
          // The question and the button that answers it, with the box as it was ticked.
          if (error instanceof SessionNotHeldYetError) return data<ActionResult>({ intent: 'publish', target, confirm: true, error: error.message, tellFamily: tellFamily === 'on' })
          throw error
        }
        return saved('publish', first ? 'Analysis published' : 'Analysis published again', first || tellFamily ? `${booking.customerName} has been e-mailed.` : 'The family was not e-mailed.')
      })
    },
    'copy-sample': async () => {
      const { id } = await startedAnalysis()
      return submitForm(formData, form('copy-sample'), CopySampleSchema, async ({ source, agreementNote }) => {
        const { namedIn } = await copyAsSample(actor, id, { source, agreementNote })
        return redirectWithToast(href('/admin/sample-analysis'), {
          type: 'success',
          title: 'Copied as a draft sample',
          description: namedIn.length ? `The family’s name is still in ${namedIn.join(' and ')}: change it before publishing.` : 'Check the summary, findings and drills for names before publishing.',
        })
      })
    },
  })
}

type LoaderData = Route.ComponentProps['loaderData']
type Analysis = NonNullable<LoaderData['analysis']>

export default function AdminAnalysis({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, swimmer, analysis, report, limits } = loaderData
  const answer = actionData as ActionResult | undefined
  const resultFor = (intent: Intent, target = '') => (answer?.intent === intent && answer.target === target ? answer.result : undefined)
  const clipsHref = adminClipsLink(booking.reference)
  return (
    <section>
      <Link to={adminBookingLink(booking.reference)} className="link inline-flex min-h-11 items-center text-sm">
        Booking {booking.reference}
      </Link>
      <h1 id="analysis-heading" className="mt-2 text-3xl font-extrabold text-brand-900">
        Analysis of {swimmer.name}
      </h1>
      <p className="mt-1 text-muted" role="status">
        {analysis ? analysis.state : 'Not started'}
      </p>

      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <section aria-labelledby="booking-heading" className="card p-4 sm:p-6">
          <h2 id="booking-heading" className="text-lg font-bold text-ink">
            Swimmer and booking
          </h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <DetailRow term="Swimmer" value={swimmer.name} />
            <DetailRow term="Age" value={swimmer.age} />
            <DetailRow term="Gender" value={swimmer.gender} />
            <DetailRow term="Booking" value={`${booking.product}, ${booking.status}`} />
            {booking.days.map((day) => (
              <DetailRow key={day.label} term={day.label} value={day.value} />
            ))}
            <DetailRow term="Booked by" value={booking.customer} />
            {analysis?.nextAnalysisOn && <DetailRow term="Next analysis" value={`From ${analysis.nextAnalysisOn}`} />}
          </dl>
        </section>

        <section aria-labelledby="report-heading" className="card p-4 sm:p-6">
          <h2 id="report-heading" className="text-lg font-bold text-ink">
            Report attached to the analysis
          </h2>
          {report ? (
            <>
              <p className="mt-1 text-sm text-muted">Delivered {report.deliveredAt}. The family sees it with the analysis.</p>
              <ul className="mt-2 space-y-1 text-sm">
                {report.files.map((file) => (
                  <li key={file.url}>
                    <a href={file.url} className="link">
                      {file.filename}
                    </a>{' '}
                    <span className="text-muted">(PDF, {file.size})</span>
                  </li>
                ))}
                {report.videoLinks.map((link) => (
                  <li key={link.url}>
                    <a href={link.url} rel="noopener noreferrer" target="_blank" className="link">
                      {link.label || link.url}
                      <span className="sr-only"> (opens in a new tab)</span>
                    </a>
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="mt-1 text-sm text-muted">No report delivered.</p>
          )}
          <p className="mt-3 text-sm">
            <Link to={`${adminBookingLink(booking.reference)}#report-heading`} className="link">
              Deliver or add to the report on the booking's page
            </Link>
          </p>
        </section>
      </div>

      {analysis ? (
        <Editor analysis={analysis} answer={answer} resultFor={resultFor} limits={limits} clipsHref={clipsHref} />
      ) : (
        <section aria-labelledby="start-heading" className="card mt-6 p-4 sm:p-6">
          <h2 id="start-heading" className="text-lg font-bold text-ink">
            Start the analysis
          </h2>
          {booking.confirmed ? (
            <Form method="post" className="mt-3">
              <p className="text-sm text-muted">The analysis is a draft until you publish it: enter the events and their metrics, what you found and drills to work on it, and the clips.</p>
              <FormAlert id="start-error" errors={answer?.intent === 'start' && answer.error ? [answer.error] : undefined} />
              <PendingButton name="intent" value="start" when={{ fields: { intent: 'start' } }} pendingLabel="Starting..." className="btn-primary mt-3">
                Start the analysis
              </PendingButton>
            </Form>
          ) : (
            <p className="mt-1 text-sm text-muted">Only a confirmed booking can be analysed.</p>
          )}
        </section>
      )}
    </section>
  )
}

type ResultFor = (intent: Intent, target?: string) => SubmissionResult<string[]> | undefined

function Editor({ analysis, answer, resultFor, limits, clipsHref }: { analysis: Analysis; answer: ActionResult | undefined; resultFor: ResultFor; limits: LoaderData['limits']; clipsHref: string }) {
  const confirming = (intent: Intent, target: string) => answer?.intent === intent && answer.target === target && answer.confirm === true
  return (
    <>
      <Panel id="details" title="Pool and summary">
        <DetailsForm key={JSON.stringify(analysis.details)} defaults={analysis.details} lastResult={resultFor('details')} />
      </Panel>

      <Panel id="events" title={`Events and metrics (${analysis.events.length} of at most ${limits.events})`} lead="Each event is a stroke over a distance. Enter the figures you measured; leave a field empty for no value. Times may be typed as 1:05.32.">
        {analysis.events.length === 0 && <p className="text-sm text-muted">No events yet: add the first one below, or import a CSV file.</p>}
        <ul className="space-y-6">
          {analysis.events.map((event) => (
            <li key={event.id} className="rounded-xl border border-slate-200 p-4">
              <h3 className="text-lg font-semibold text-ink">
                {event.label} <span className="text-sm font-normal text-muted">({event.count} {event.count === 1 ? 'value' : 'values'})</span>
              </h3>
              <MetricsForm key={JSON.stringify(event.defaults)} event={event} lastResult={resultFor('metrics', String(event.id))} />
              <details className="mt-4" open={resultFor('custom-metric', String(event.id)) !== undefined}>
                <summary className="cursor-pointer font-semibold text-brand-700">Add a metric that is not in the list</summary>
                <CustomMetricForm eventId={event.id} eventLabel={event.label} lastResult={resultFor('custom-metric', String(event.id))} />
              </details>
              <RemoveForm intent="remove-event" name="eventId" id={event.id} what={`the ${event.label}`} question={`Remove the ${event.label} and its ${event.count} ${event.count === 1 ? 'value' : 'values'}?`} confirming={confirming('remove-event', String(event.id))} />
            </li>
          ))}
        </ul>
        <div className="mt-6 border-t border-slate-200 pt-6">
          <h3 className="font-semibold text-ink">Add an event</h3>
          <EventForm lastResult={resultFor('add-event')} />
        </div>
      </Panel>

      <Panel id="import" title="Import metrics from a CSV file" lead={`The analysis software's export: one metric a row, columns stroke, distance_m, metric, value, and for a metric of your own unit and better (higher or lower). Up to ${limits.csvMegabytes} MB and ${limits.csvRows} rows. You see what it adds and overwrites before anything is saved.`}>
        <MetricsCsvImport preview={answer?.intent === 'csv-preview' ? answer.preview : undefined} error={answer?.intent === 'csv-preview' && answer.error ? answer.error : undefined} />
      </Panel>

      <Panel id="findings" title={`Findings and drills (${analysis.findings.length} of at most ${limits.findings})`} lead="What you found, why it matters, how urgent it is, and drills that work on it.">
        {analysis.findings.length === 0 && <p className="text-sm text-muted">No findings yet.</p>}
        <ul className="space-y-6">
          {analysis.findings.map((finding) => (
            <li key={finding.id} className="rounded-xl border border-slate-200 p-4">
              <h3 className="text-lg font-semibold text-ink">
                {finding.title} <span className="text-sm font-normal text-muted">({finding.priorityLabel} priority)</span>
              </h3>
              {finding.whyItMatters && <p className="mt-1 whitespace-pre-line text-sm text-ink">{finding.whyItMatters}</p>}
              <h4 className="mt-3 text-sm font-semibold text-ink">Drills</h4>
              {finding.drills.length === 0 ? (
                <p className="text-sm text-muted">No drills yet.</p>
              ) : (
                <ul className="mt-1 space-y-2 text-sm">
                  {finding.drills.map((drill) => (
                    <li key={drill.id} className="rounded-lg bg-slate-50 p-3">
                      <p className="font-semibold text-ink">{drill.name}</p>
                      {drill.instructions && <p className="whitespace-pre-line text-ink">{drill.instructions}</p>}
                      {drill.videoUrl && (
                        <a href={drill.videoUrl} rel="noopener noreferrer" target="_blank" className="font-semibold text-brand-700 underline underline-offset-2 [overflow-wrap:anywhere]">
                          Video of {drill.name}
                          <span className="sr-only"> (opens in a new tab)</span>
                        </a>
                      )}
                      <details className="mt-2" open={resultFor('drill', `d${drill.id}`) !== undefined}>
                        <summary className="cursor-pointer font-semibold text-brand-700">
                          Change<span className="sr-only"> the drill {drill.name}</span>
                        </summary>
                        <DrillForm key={JSON.stringify(drill)} findingId={finding.id} drill={drill} lastResult={resultFor('drill', `d${drill.id}`)} />
                      </details>
                      <Form method="post" className="mt-2">
                        <input type="hidden" name="drillId" value={drill.id} />
                        <PendingButton name="intent" value="remove-drill" when={{ fields: { intent: 'remove-drill', drillId: String(drill.id) } }} pendingLabel="Removing..." className="btn-secondary">
                          Remove<span className="sr-only"> the drill {drill.name}</span>
                        </PendingButton>
                      </Form>
                    </li>
                  ))}
                </ul>
              )}
              {finding.drills.length < limits.drills && (
                <details className="mt-3" open={resultFor('drill', String(finding.id)) !== undefined}>
                  <summary className="cursor-pointer font-semibold text-brand-700">
                    Add a drill<span className="sr-only"> to {finding.title}</span>
                  </summary>
                  <DrillForm findingId={finding.id} lastResult={resultFor('drill', String(finding.id))} />
                </details>
              )}
              <details className="mt-3" open={resultFor('finding', String(finding.id)) !== undefined}>
                <summary className="cursor-pointer font-semibold text-brand-700">
                  Change<span className="sr-only"> the finding {finding.title}</span>
                </summary>
                <FindingForm key={JSON.stringify(finding)} finding={finding} lastResult={resultFor('finding', String(finding.id))} />
              </details>
              <RemoveForm intent="remove-finding" name="findingId" id={finding.id} what={`the finding ${finding.title}`} question={`Remove the finding “${finding.title}” and its ${finding.drills.length} ${finding.drills.length === 1 ? 'drill' : 'drills'}?`} confirming={confirming('remove-finding', String(finding.id))} />
            </li>
          ))}
        </ul>
        <div className="mt-6 border-t border-slate-200 pt-6">
          <h3 className="font-semibold text-ink">Add a finding</h3>
          <FindingForm lastResult={resultFor('finding')} />
        </div>
      </Panel>

      <Panel id="clips" title="Clips">
        <p className="text-sm text-ink">
          {analysis.clipsCount} {analysis.clipsCount === 1 ? 'clip' : 'clips'}.{' '}
          <Link to={clipsHref} className="link">
            Upload and arrange the clips
          </Link>
        </p>
      </Panel>

      <Panel id="publish" title="Publish">
        {answer?.intent === 'publish' && answer.confirm ? (
          <ConfirmPublish question={answer.error ?? ''} published={analysis.published} tellFamily={answer.tellFamily === true} />
        ) : (
          <PublishForm published={analysis.published} state={analysis.state} lastChange={analysis.lastChange} lastResult={resultFor('publish')} />
        )}
      </Panel>

      {analysis.published && (
        <Panel id="sample" title="Public sample" lead="The lab may show one analysis on its public “sample analysis” page. The sample is a separate copy: changing or deleting this analysis later does not change it.">
          <details open={resultFor('copy-sample') !== undefined}>
            <summary className="cursor-pointer font-semibold text-brand-700">Copy as a public sample…</summary>
            <CopySampleForm lastResult={resultFor('copy-sample')} />
          </details>
        </Panel>
      )}
    </>
  )
}

const SaveButton = AnySaveButton<Intent>

type Last = SubmissionResult<string[]> | undefined

function DetailsForm({ defaults, lastResult }: { defaults: { poolLength: string; summary: string }; lastResult: Last }) {
  const [form, fields] = useValidatedForm(DetailsSchema, { id: 'details-form', lastResult, defaultValue: defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value="details" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <RadioGroupField field={fields.poolLength} legend="Pool length" options={POOL_LENGTHS_METRES.map((length) => ({ value: String(length), label: `${length} m` }))} />
      <TextAreaField field={fields.summary} label="Summary for the family" note={`a few sentences at the top of their page, up to ${LIMITS.summary} characters`} />
      <SaveButton intent="details">Save the pool and summary</SaveButton>
    </Form>
  )
}

function EventForm({ lastResult }: { lastResult: Last }) {
  const [form, fields] = useValidatedForm(EventSchema, { id: 'event-form', lastResult, defaultValue: { stroke: 'freestyle', distance: '50' } })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4">
      <input type="hidden" name="intent" value="add-event" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField field={fields.stroke} label="Stroke" options={STROKES} />
        <SelectField field={fields.distance} label="Distance" options={DISTANCES_METRES.map((distance) => ({ value: String(distance), label: `${distance} m` }))} />
      </div>
      <SaveButton intent="add-event" pendingLabel="Adding...">
        Add the event
      </SaveButton>
    </Form>
  )
}

type EventView = Analysis['events'][number]

const GROUPS = [
  { group: 'list', title: 'Metrics' },
  { group: 'splits', title: 'Splits' },
  { group: 'velocities', title: 'Velocity per segment' },
  { group: 'own', title: 'Metrics of your own' },
] as const

function MetricsForm({ event, lastResult }: { event: EventView; lastResult: Last }) {
  const schema = useMemo(() => metricsSchema(event.fields.map((field) => field.key)), [event.fields])
  const [form, fields] = useValidatedForm(schema, { id: `metrics-${event.id}`, lastResult, defaultValue: event.defaults })
  const all = fields as unknown as Record<string, Parameters<typeof TextField>[0]['field']>
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4">
      <input type="hidden" name="intent" value="metrics" />
      <input type="hidden" name="eventId" value={event.id} />
      <FormAlert id={form.errorId} errors={form.errors} />
      {GROUPS.map(({ group, title }) => {
        const shown = event.fields.filter((field) => field.group === group)
        if (shown.length === 0) return null
        return (
          <fieldset key={group}>
            <legend className="font-semibold text-ink">{title}</legend>
            <div className="mt-2 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {shown.map((field) => (
                <TextField key={field.key} field={all[valueFieldName(field.key)]!} label={`${field.label}${field.unit ? ` (${field.unit})` : ''}`} inputMode="text" optional hint={field.better} />
              ))}
            </div>
          </fieldset>
        )
      })}
      <SaveButton intent="metrics" target={{ eventId: String(event.id) }}>
        Save the metrics<span className="sr-only"> of the {event.label}</span>
      </SaveButton>
    </Form>
  )
}

const BETTER = [
  { value: 'higher', label: 'Higher is better' },
  { value: 'lower', label: 'Lower is better' },
]

function CustomMetricForm({ eventId, eventLabel, lastResult }: { eventId: number; eventLabel: string; lastResult: Last }) {
  const [form, fields] = useValidatedForm(CustomMetricSchema, { id: `custom-${eventId}`, lastResult, defaultValue: { eventId: String(eventId) } })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4">
      <input type="hidden" name="intent" value="custom-metric" />
      <input type="hidden" name="eventId" value={eventId} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField field={fields.label} label="Name" placeholder="Dolphin kick frequency" />
        <TextField field={fields.unit} label="Unit" placeholder="Hz" />
        <TextField field={fields.value} label="Value" />
      </div>
      <RadioGroupField field={fields.better} legend="Which way is better" options={BETTER} />
      <SaveButton intent="custom-metric" target={{ eventId: String(eventId) }} pendingLabel="Adding...">
        Add the metric<span className="sr-only"> to the {eventLabel}</span>
      </SaveButton>
    </Form>
  )
}

function FindingForm({ finding, lastResult }: { finding?: { id: number; title: string; whyItMatters: string; priority: string }; lastResult: Last }) {
  const defaults = finding ? { findingId: String(finding.id), title: finding.title, whyItMatters: finding.whyItMatters, priority: finding.priority } : { priority: 'medium' }
  const [form, fields] = useValidatedForm(FindingSchema, { id: finding ? `finding-${finding.id}` : 'finding-new', lastResult, defaultValue: defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4">
      <input type="hidden" name="intent" value="finding" />
      {finding && <input type="hidden" name="findingId" value={finding.id} />}
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextField field={fields.title} label="What you found" placeholder="Early breathing on the turn" />
      <TextAreaField field={fields.whyItMatters} label="Why it matters" note="optional" />
      <RadioGroupField field={fields.priority} legend="Priority" options={FINDING_PRIORITIES} />
      <SaveButton intent="finding" target={{ findingId: finding ? String(finding.id) : null }} pendingLabel={finding ? 'Saving...' : 'Adding...'}>
        {finding ? (
          <>
            Save the finding<span className="sr-only"> {finding.title}</span>
          </>
        ) : (
          'Add the finding'
        )}
      </SaveButton>
    </Form>
  )
}

function DrillForm({ findingId, drill, lastResult }: { findingId: number; drill?: { id: number; name: string; instructions: string; videoUrl: string | null }; lastResult: Last }) {
  const defaults = drill ? { findingId: String(findingId), drillId: String(drill.id), name: drill.name, instructions: drill.instructions, videoUrl: drill.videoUrl ?? '' } : { findingId: String(findingId) }
  const [form, fields] = useValidatedForm(DrillSchema, { id: drill ? `drill-change-${drill.id}` : `drill-${findingId}`, lastResult, defaultValue: defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4">
      <input type="hidden" name="intent" value="drill" />
      <input type="hidden" name="findingId" value={findingId} />
      {drill && <input type="hidden" name="drillId" value={drill.id} />}
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextField field={fields.name} label="Drill" placeholder="Catch-up freestyle" />
      <TextAreaField field={fields.instructions} label="How to do it" note="optional" />
      <TextField field={fields.videoUrl} label="Video link" optional placeholder="https://" />
      <SaveButton intent="drill" target={{ findingId: String(findingId), drillId: drill ? String(drill.id) : null }} pendingLabel={drill ? 'Saving...' : 'Adding...'}>
        {drill ? (
          <>
            Save the drill<span className="sr-only"> {drill.name}</span>
          </>
        ) : (
          'Add the drill'
        )}
      </SaveButton>
    </Form>
  )
}

function PublishForm({ published, state, lastChange, lastResult }: { published: boolean; state: string; lastChange: string; lastResult: Last }) {
  const [form, fields] = useValidatedForm(PublishSchema, { id: 'publish-form', lastResult })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="publish" />
      <p className="text-sm text-ink">
        {state}. Last change {lastChange}.
      </p>
      {published ? (
        <>
          <p className="text-sm text-muted">The family sees changes you save at once. Publish again once you have gone over them; tick the box to e-mail the family that the analysis was updated.</p>
          <div>
            <label className="inline-flex min-h-11 items-center gap-2 text-base">
              <input
                type="checkbox"
                name={fields.tellFamily.name}
                id={fields.tellFamily.id}
                value="on"
                aria-invalid={fields.tellFamily.errors?.length ? true : undefined}
                aria-describedby={fields.tellFamily.errors?.length ? fields.tellFamily.errorId : undefined}
                className="h-5 w-5 accent-brand-700"
              />
              Tell the family
            </label>
            <FieldError field={fields.tellFamily} />
          </div>
        </>
      ) : (
        <p className="text-sm text-muted">Publishing shows the analysis to the family and e-mails them a link to it. It needs an event with at least one metric, or a finding.</p>
      )}
      <FormAlert id={form.errorId} errors={form.errors} />
      <SaveButton intent="publish" pendingLabel="Publishing...">
        {published ? 'Publish again' : 'Publish'}
      </SaveButton>
    </Form>
  )
}

/**
 * Copying the analysis as a draft sample: whose it is, and for a family's, the staff's record that
 * the family agreed in writing.
 */
function CopySampleForm({ lastResult }: { lastResult: Last }) {
  const [form, fields] = useValidatedForm(CopySampleSchema, { id: 'copy-sample-form', lastResult, defaultValue: { source: 'family_shared' } })
  const { key, ...agreed } = getInputProps(fields.agreed, { type: 'checkbox' })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3 space-y-5">
      <input type="hidden" name="intent" value="copy-sample" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <p className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
        The copy leaves out the swimmer’s name, date of birth, the session dates, the booking, the clips and the report. The summary, findings and drills are copied as
        written: check them for names on the sample’s page, and change them there, before you publish it.
      </p>
      <RadioGroupField field={fields.source} legend="Whose analysis is it?" options={SAMPLE_SOURCES} />
      <div>
        <label className="inline-flex min-h-11 items-center gap-3 text-ink">
          <input key={key} {...agreed} className="h-5 w-5 accent-brand-700" />
          The family agreed in writing to share this analysis anonymised
        </label>
        <FieldError field={fields.agreed} />
      </div>
      <TextAreaField field={fields.agreementNote} label="How and when the family agreed" note={`for example “By e-mail on 3 May 2026”, without their names; needed for a family’s analysis, up to ${SAMPLE_LIMITS.agreementNote} characters`} />
      <SaveButton intent="copy-sample" pendingLabel="Copying...">
        Copy as a draft sample
      </SaveButton>
    </Form>
  )
}

/** Publishing before the session asks first: the answer carries the form's choices on, and confirm=yes. */
function ConfirmPublish({ question, published, tellFamily }: { question: string; published: boolean; tellFamily: boolean }) {
  return (
    <div role="group" aria-labelledby="publish-question" tabIndex={-1} ref={(element) => element?.focus()} className="rounded-xl border border-amber-300 bg-amber-50 p-4">
      <p id="publish-question" className="font-semibold text-ink">
        {question}
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        <Form method="post">
          <input type="hidden" name="intent" value="publish" />
          {tellFamily && <input type="hidden" name="tellFamily" value="on" />}
          <PendingButton name="confirm" value="yes" when={{ fields: { intent: 'publish', confirm: 'yes' } }} pendingLabel="Publishing..." className="btn-primary">
            {published ? 'Publish again anyway' : 'Publish anyway'}
          </PendingButton>
        </Form>
        <Link to="." preventScrollReset className="btn-secondary">
          Not yet
        </Link>
      </div>
    </div>
  )
}
