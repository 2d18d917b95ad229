import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, href, Link } from 'react-router'
import type { Route } from './+types/camp'
import { BatchDetailsFields, CampDetailsFields } from '~/components/camp-form-fields'
import { FormAlert, PendingButton, RadioGroupField, SelectField, useValidatedForm } from '~/components/form-fields'
import { CreditNoteLinks } from '~/components/credit-note-links'
import { StaffTable } from '~/components/staff-table'
import type { RefundState } from '~/db/schema'
import { requireAdmin } from '~/web/auth.server'
import { basisPointsToPercentInput, formatRupees, paiseToRupeesInput } from '~/lib/money'
import { formatLabDate, formatLabDateTime, formatLongDate, labDateParts } from '~/lib/lab-time'
import { redirectWithToast } from '~/web/toast.server'
import { BOOKING_STATUS_LABELS } from '~/modules/booking/texts'
import { addBatch, updateBatch } from '~/modules/camps/batch-editing.server'
import { updateCamp } from '~/modules/camps/camp-editing.server'
import { registrationOpen } from '~/modules/camps/camps.server'
import { batchTimes } from '~/modules/camps/fulfilment.server'
import { batchDetails, BatchSchema, campDetails, CampSchema, CancelRegistrationSchema, EditBatchSchema, MoveRegistrationSchema } from '~/modules/camps/staff-schemas'
import { cancelRegistration, moveRegistration } from '~/modules/camps/staff-registrations.server'
import { findCamp, staffCamp } from '~/modules/camps/staff-views.server'
import { creditNotesOfCamp } from '~/modules/receipts/credit-notes.server'
import { readForm } from '~/web/form-data.server'
import { dispatchForm, submitForm, type FormAnswer } from '~/web/page-forms.server'
import { refuseNul } from '~/web/nul.server'
import { notFoundUnless } from '~/web/refusals.server'
import { formatPhone } from '~/lib/phone'
import { adminCampLink, adminCampRegistrationsCsvLink, creditNoteLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.camp.name ?? 'Camp'} | Admin` }, { name: 'robots', content: 'noindex' }]

function registrationStatus(status: keyof typeof BOOKING_STATUS_LABELS, latestRefund: RefundState | null) {
  if (status === 'cancelled' && latestRefund === 'pending') return 'Cancelled, refund in progress'
  if (status === 'cancelled' && latestRefund === 'failed') return 'Cancelled, refund failed'
  return BOOKING_STATUS_LABELS[status]
}

export async function loader({ request, params }: Route.LoaderArgs) {
  refuseNul(request, params)
  await requireAdmin(request)
  const now = new Date()
  const found = await staffCamp(params.code, now)
  notFoundUnless(found)
  const { camp, batches } = found
  const credits = await creditNotesOfCamp(camp.id)
  return {
    camp: {
      code: camp.code,
      name: camp.name,
      summary: `${formatLongDate(camp.startsOn)} to ${formatLongDate(camp.endsOn)}, ${camp.venue}. Registration ${registrationOpen(camp, now) ? 'open' : camp.isOpen ? 'closed: the camp has started' : 'closed'}.`,
      form: {
        name: camp.name,
        startsOn: camp.startsOn,
        endsOn: camp.endsOn,
        venue: camp.venue,
        earlyBirdPrice: paiseToRupeesInput(camp.earlyBirdPricePaise),
        regularPrice: paiseToRupeesInput(camp.regularPricePaise),
        earlyBirdDeadline: labDateParts(camp.earlyBirdEndsAt).date,
        registration: camp.isOpen ? 'open' : 'closed',
        siblingPrice: camp.siblingDiscountKind ?? 'none',
        siblingPercent: camp.siblingDiscountKind === 'percent' ? basisPointsToPercentInput(camp.siblingDiscountValue) : '',
        siblingAmount: camp.siblingDiscountKind === 'amount' ? paiseToRupeesInput(camp.siblingDiscountValue) : '',
      },
    },
    batches: batches.map((batch) => ({
      id: batch.id,
      code: batch.code,
      name: batch.name,
      summary: `${batchTimes(batch.timeRanges)}. ${batch.taken} of ${batch.capacity} seats taken${batch.waiting ? `, ${batch.waiting} waiting` : ''}.`,
      taken: batch.taken,
      seatsLeft: Math.max(0, batch.capacity - batch.taken),
      form: {
        batchId: String(batch.id),
        name: batch.name,
        code: batch.code,
        start1: batch.timeRanges[0]?.start,
        end1: batch.timeRanges[0]?.end,
        start2: batch.timeRanges[1]?.start,
        end2: batch.timeRanges[1]?.end,
        capacity: String(batch.capacity),
      },
      registrations: batch.registrations.map((registration) => ({
        reference: registration.reference,
        swimmerName: registration.swimmerName,
        contact: `${registration.email} · ${formatPhone(registration.phone)}`,
        status: registrationStatus(registration.status, registration.latestRefund),
        amount: formatRupees(registration.amountPaise),
        // What came off the fee, each discount as its own line.
        discounts: [
          ...(registration.siblingDiscountPaise ? [`Sibling price −${formatRupees(registration.siblingDiscountPaise)}`] : []),
          ...(registration.promoDiscountPaise ? [`Promo code −${formatRupees(registration.promoDiscountPaise)}`] : []),
        ],
        registeredAt: formatLabDateTime(registration.createdAt),
        declaration: registration.declaredAt ? "Declared: 18 or older, or registered by the parent or guardian" : null,
        confirmed: registration.status === 'confirmed',
        refundable: registration.refundable,
        creditNotes: (credits.get(registration.reference) ?? []).map((note) => ({ number: note.number, date: formatLabDate(note.issuedAt), amount: formatRupees(note.amountPaise), url: creditNoteLink(note.refundId) })),
      })),
      waitlist: batch.waitlist.map((entry) => ({
        id: entry.id,
        swimmerName: entry.swimmerName,
        contact: `${entry.email} · ${formatPhone(entry.phone)}`,
        since: formatLabDateTime(entry.createdAt),
        confirmed: entry.confirmedAt !== null,
        status:
          entry.status === 'offered' && entry.offerExpiresAt
            ? `Seat offered; to pay by ${formatLabDateTime(entry.offerExpiresAt)}`
            : entry.confirmedAt
              ? `Waiting; address confirmed ${formatLabDateTime(entry.confirmedAt)}`
              : 'Address not confirmed yet: not in the queue until the parent opens the e-mailed link; lapses after a day',
      })),
    })),
  }
}

type Intent = 'update-camp' | 'update-batch' | 'add-batch' | 'move' | 'cancel'

export async function action({ request, params }: Route.ActionArgs) {
  refuseNul(request, params)
  const admin = await requireAdmin(request)
  const camp = await findCamp(params.code)
  notFoundUnless(camp)
  const { code } = camp
  const actor = { id: admin.id, email: admin.email }
  const here = adminCampLink(code)
  const formData = await readForm(request)
  // Which of the page's forms an answer belongs to; a batch's and a registration's forms are one each.
  const form = (name: string) => ({ form: name })
  return dispatchForm(formData, {
    'update-camp': () =>
      submitForm(formData, form('camp'), CampSchema, async (value) => {
        const { changed } = await updateCamp(actor, code, campDetails(value))
        return redirectWithToast(here, changed.length ? { type: 'success', title: 'Camp saved' } : { type: 'info', title: 'Nothing changed' })
      }),
    'update-batch': () =>
      submitForm(formData, form(`batch-${String(formData.get('batchId'))}`), EditBatchSchema, async (value) => {
        const { changed } = await updateBatch(actor, { campCode: code, batchId: value.batchId, batch: batchDetails(value) })
        return redirectWithToast(here, changed.length ? { type: 'success', title: 'Batch saved', description: `${value.name} is saved.` } : { type: 'info', title: 'Nothing changed' })
      }),
    'add-batch': () =>
      submitForm(formData, form('new-batch'), BatchSchema, async (value) => {
        await addBatch(actor, code, batchDetails(value))
        return redirectWithToast(here, { type: 'success', title: 'Batch added', description: `${value.name} is added to ${camp.name}.` })
      }),
    move: () =>
      submitForm(formData, form(`move-${String(formData.get('reference'))}`), MoveRegistrationSchema, async (value) => {
        const moved = await moveRegistration(actor, { campCode: code, reference: value.reference, toBatchCode: value.toBatch })
        return redirectWithToast(here, { type: 'success', title: 'Registration moved', description: `${moved.swimmerName} is now in ${moved.to}; the parent has been e-mailed.` })
      }),
    cancel: () =>
      submitForm(formData, form(`cancel-${String(formData.get('reference'))}`), CancelRegistrationSchema, async (value) => {
        const cancelled = await cancelRegistration(actor, { campCode: code, reference: value.reference, refund: value.refund === 'yes' })
        const refund = cancelled.refundPaise === null ? 'No refund.' : `A refund of ${formatRupees(cancelled.refundPaise)} is on its way.`
        return redirectWithToast(here, { type: 'success', title: 'Registration cancelled', description: `${cancelled.swimmerName}: ${refund}` })
      }),
  })
}

type ActionResult = FormAnswer<{ form: string }>

type LoaderData = Route.ComponentProps['loaderData']
type Batch = LoaderData['batches'][number]
type Registration = Batch['registrations'][number]

/** The result of the last action, for the one form that sent it. */
function resultFor(actionData: ActionResult | undefined, form: string) {
  return actionData?.form === form ? actionData.result : undefined
}

export default function AdminCamp({ loaderData, actionData }: Route.ComponentProps) {
  const { camp, batches } = loaderData
  return (
    <section>
      <Link to={href('/admin/camps')} className="link text-sm">
        All camps
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold text-brand-900">{camp.name}</h1>
      <p className="mt-1 text-muted">{camp.summary}</p>
      <a href={adminCampRegistrationsCsvLink(camp.code)} download className="btn-secondary mt-4">
        Download registrations (CSV)
      </a>

      <CampForm key={JSON.stringify(camp.form)} defaults={camp.form} lastResult={resultFor(actionData, 'camp')} />

      {batches.map((batch) => (
        <BatchSection key={batch.id} batch={batch} batches={batches} actionData={actionData} />
      ))}

      <section aria-labelledby="add-batch" className="card mt-8 p-6">
        <h2 id="add-batch" className="text-xl font-bold text-ink">
          Add a batch
        </h2>
        <NewBatchForm key={batches.length} lastResult={resultFor(actionData, 'new-batch')} />
      </section>
    </section>
  )
}

/** The submit button of one form of the page: busy while that form (matched by its fields) is on its way. */
function Pending({ label, busyLabel, intent, match = {} }: { label: string; busyLabel: string; intent: Intent; match?: Record<string, string> }) {
  return (
    <PendingButton name="intent" value={intent} when={{ fields: { intent, ...match } }} pendingLabel={busyLabel}>
      {label}
    </PendingButton>
  )
}

function CampForm({ defaults, lastResult }: { defaults: LoaderData['camp']['form']; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useValidatedForm(CampSchema, { lastResult, defaultValue: defaults })
  return (
    <section aria-labelledby="camp-details" className="card mt-8 p-6">
      <h2 id="camp-details" className="text-xl font-bold text-ink">
        Camp details
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <CampDetailsFields fields={fields} />
        <Pending intent="update-camp" label="Save camp details" busyLabel="Saving..." />
      </Form>
    </section>
  )
}

function BatchSection({ batch, batches, actionData }: { batch: Batch; batches: Batch[]; actionData: ActionResult | undefined }) {
  const headingId = `batch-${batch.id}-heading`
  const editResult = resultFor(actionData, `batch-${batch.id}`)
  const queue = batch.waitlist.filter((entry) => entry.confirmed)
  const unconfirmed = batch.waitlist.filter((entry) => !entry.confirmed)
  return (
    <section aria-labelledby={headingId} className="card mt-8 p-6">
      <h2 id={headingId} className="text-xl font-bold text-ink">
        {batch.name}
      </h2>
      <p className="mt-1 text-muted">{batch.summary}</p>
      <details open={Boolean(editResult)} className="mt-4">
        <summary className="cursor-pointer font-semibold text-brand-700">{`Edit ${batch.name}`}</summary>
        <BatchForm key={JSON.stringify(batch.form)} batch={batch} lastResult={editResult} />
      </details>

      <h3 className="mt-6 font-bold text-ink">{`Registrations (${batch.registrations.length})`}</h3>
      {batch.registrations.length === 0 ? (
        <p className="mt-1 text-sm text-muted">No registrations yet.</p>
      ) : (
        <StaffTable caption={<>Registrations of {batch.name}</>} columns={['Swimmer', 'Status', { label: 'Amount', align: 'right' }, 'Registered', 'Actions']} className="mt-2">
          {batch.registrations.map((registration) => (
            <tr key={registration.reference} className="border-t border-slate-200 align-top">
              <td className="px-3 py-2">
                <span className="block font-medium text-ink">{registration.swimmerName}</span>
                <span className="block text-muted [overflow-wrap:anywhere]">{registration.contact}</span>
                <span className="block text-muted">{registration.reference}</span>
                {registration.declaration && <span className="block text-muted">{registration.declaration}</span>}
              </td>
              <td className="px-3 py-2 text-ink">{registration.status}</td>
              <td className="px-3 py-2 text-right text-ink">
                {registration.amount}
                {registration.discounts.map((discount) => (
                  <span key={discount} className="block text-sm text-muted">
                    {discount}
                  </span>
                ))}
                <CreditNoteLinks notes={registration.creditNotes} className="mt-1 text-left" />
              </td>
              <td className="px-3 py-2 text-ink">{registration.registeredAt}</td>
              <td className="px-3 py-2">
                {registration.confirmed && (
                  <div className="space-y-2">
                    <MoveForm registration={registration} from={batch} batches={batches} lastResult={resultFor(actionData, `move-${registration.reference}`)} />
                    <CancelForm registration={registration} lastResult={resultFor(actionData, `cancel-${registration.reference}`)} />
                  </div>
                )}
              </td>
            </tr>
          ))}
        </StaffTable>
      )}

      <h3 className="mt-6 font-bold text-ink">{`Waitlist (${queue.length})`}</h3>
      {queue.length === 0 ? (
        <p className="mt-1 text-sm text-muted">No one is waiting.</p>
      ) : (
        <ol className="mt-2 list-decimal space-y-2 pl-6 text-sm">
          {queue.map((entry) => (
            <WaitlistEntry key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
      {unconfirmed.length > 0 && (
        <>
          <h4 className="mt-4 font-semibold text-ink">{`Not confirmed yet (${unconfirmed.length})`}</h4>
          <ul className="mt-2 list-disc space-y-2 pl-6 text-sm">
            {unconfirmed.map((entry) => (
              <WaitlistEntry key={entry.id} entry={entry} />
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

function WaitlistEntry({ entry }: { entry: Batch['waitlist'][number] }) {
  return (
    <li>
      <span className="block font-medium text-ink">{entry.swimmerName}</span>
      <span className="block text-muted [overflow-wrap:anywhere]">{entry.contact}</span>
      <span className="block text-muted">{`${entry.status}. Joined ${entry.since}.`}</span>
    </li>
  )
}

function BatchForm({ batch, lastResult }: { batch: Batch; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useValidatedForm(EditBatchSchema, { lastResult, defaultValue: batch.form })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
      <FormAlert id={form.errorId} errors={form.errors} />
      <input type="hidden" name="batchId" value={batch.id} />
      <BatchDetailsFields fields={fields} seatsHint={`${batch.taken} taken now: the capacity cannot be lower.`} />
      <Pending intent="update-batch" match={{ batchId: String(batch.id) }} label={`Save ${batch.name}`} busyLabel="Saving..." />
    </Form>
  )
}

function NewBatchForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useValidatedForm(BatchSchema, { lastResult })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
      <FormAlert id={form.errorId} errors={form.errors} />
      <BatchDetailsFields fields={fields} />
      <Pending intent="add-batch" label="Add batch" busyLabel="Adding..." />
    </Form>
  )
}

function MoveForm({ registration, from, batches, lastResult }: { registration: Registration; from: Batch; batches: Batch[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useValidatedForm(MoveRegistrationSchema, { lastResult, defaultValue: { reference: registration.reference } })
  const targets = batches.filter((batch) => batch.id !== from.id)
  if (targets.length === 0) return null
  return (
    <details open={Boolean(lastResult)}>
      <summary className="cursor-pointer font-semibold text-brand-700">
        Move<span className="sr-only"> {registration.swimmerName}</span>
      </summary>
      <Form method="post" {...getFormProps(form)} className="mt-2 space-y-2">
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="reference" value={registration.reference} />
        <SelectField
          field={fields.toBatch}
          label="To batch"
          options={[{ value: '', label: 'Choose a batch' }, ...targets.map((batch) => ({ value: batch.code, label: `${batch.name} (${batch.seatsLeft === 0 ? 'full' : `${batch.seatsLeft} seats left`})` }))]}
        />
        <Pending intent="move" match={{ reference: registration.reference }} label="Move" busyLabel="Moving..." />
      </Form>
    </details>
  )
}

function CancelForm({ registration, lastResult }: { registration: Registration; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useValidatedForm(CancelRegistrationSchema, { lastResult, defaultValue: { reference: registration.reference } })
  const options = [...(registration.refundable ? [{ value: 'yes', label: `Refund ${registration.amount}` }] : []), { value: 'no', label: 'No refund' }]
  return (
    <details open={Boolean(lastResult)}>
      <summary className="cursor-pointer font-semibold text-red-800">
        Cancel<span className="sr-only"> {registration.swimmerName}</span>
      </summary>
      <Form method="post" {...getFormProps(form)} className="mt-2 space-y-2">
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="reference" value={registration.reference} />
        <RadioGroupField field={fields.refund} legend="Cancel this registration:" options={options} />
        <Pending intent="cancel" match={{ reference: registration.reference }} label="Cancel registration" busyLabel="Cancelling..." />
      </Form>
    </details>
  )
}
