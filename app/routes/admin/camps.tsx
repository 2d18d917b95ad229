import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/camps'
import { BatchDetailsFields, CampDetailsFields } from '~/components/camp-form-fields'
import { FormAlert, PendingButton, TextField, useValidatedForm } from '~/components/form-fields'
import { StaffTable } from '~/components/staff-table'
import { requireAdmin } from '~/web/auth.server'
import { formatRupees, type Discount } from '~/lib/money'
import { formatLabDate, formatLongDate } from '~/lib/lab-time'
import { redirectWithToast } from '~/web/toast.server'
import { createCamp } from '~/modules/camps/camp-editing.server'
import { registrationOpen } from '~/modules/camps/camps.server'
import { batchTimes } from '~/modules/camps/fulfilment.server'
import { siblingDiscountOf, siblingPriceSummary } from '~/modules/camps/sibling-price'
import { batchDetails, campDetails, NewCampSchema } from '~/modules/camps/staff-schemas'
import { staffCampOverview } from '~/modules/camps/staff-views.server'
import { readForm } from '~/web/form-data.server'
import { formErrorsOf, refusalOf } from '~/web/refusals.server'
import { adminCampLink } from '~/lib/links'

export const meta: Route.MetaFunction = () => [{ title: 'Camps | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const now = new Date()
  const camps = await staffCampOverview(now)
  return {
    camps: camps.map((camp) => ({
      code: camp.code,
      name: camp.name,
      dates: `${formatLongDate(camp.startsOn)} to ${formatLongDate(camp.endsOn)}`,
      venue: camp.venue,
      fee: `${formatRupees(camp.earlyBirdPricePaise)} until ${formatLabDate(camp.earlyBirdEndsAt)}, then ${formatRupees(camp.regularPricePaise)}`,
      siblingPrice: siblingPriceOnList(siblingDiscountOf(camp)),
      registration: registrationOpen(camp, now) ? 'Open' : camp.isOpen ? 'Closed: the camp has started' : 'Closed',
      batches: camp.batches.map((batch) => ({
        code: batch.code,
        label: `${batch.name} (${batchTimes(batch.timeRanges)})`,
        seats: `${batch.taken} of ${batch.capacity} seats taken${batch.waiting ? `, ${batch.waiting} waiting` : ''}`,
      })),
    })),
  }
}

/** The sibling price under the fee, when the camp has one. */
function siblingPriceOnList(sibling: Discount | null) {
  return sibling ? `Sibling price: ${siblingPriceSummary(sibling)}` : null
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const submission = parseWithZod(await readForm(request), { schema: NewCampSchema })
  // Adding or removing a batch row (without JavaScript, a round trip) is not an error.
  if (submission.status !== 'success') return data(submission.reply(), { status: submission.status === 'error' ? 400 : 200 })
  const camp = submission.value
  try {
    await createCamp({ id: admin.id, email: admin.email }, { code: camp.code, ...campDetails(camp), batches: camp.batches.map(batchDetails) })
  } catch (error) {
    const refusal = refusalOf(error)
    return data(submission.reply(formErrorsOf(refusal)), { status: refusal.status })
  }
  return redirectWithToast(adminCampLink(camp.code), { type: 'success', title: 'Camp created', description: `${camp.name} is ${camp.registration === 'open' ? 'open for registration' : 'closed for now'}.` })
}

export default function AdminCamps({ loaderData, actionData }: Route.ComponentProps) {
  const { camps } = loaderData
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Camps</h1>
      {camps.length === 0 ? (
        <p className="mt-6 text-muted">No camps yet.</p>
      ) : (
        <StaffTable caption="Camps, their batches and seats" columns={['Camp', 'Fee', 'Registration', 'Batches']} className="card mt-6">
          {camps.map((camp) => (
            <tr key={camp.code} className="border-t border-slate-200 align-top">
              <td className="px-3 py-2">
                <Link to={adminCampLink(camp.code)} className="link">
                  {camp.name}
                </Link>
                <span className="block text-muted">{camp.dates}</span>
                <span className="block text-muted">{camp.venue}</span>
              </td>
              <td className="px-3 py-2 text-ink">
                <span className="block">{camp.fee}</span>
                {camp.siblingPrice && <span className="block text-muted">{camp.siblingPrice}</span>}
              </td>
              <td className="px-3 py-2 text-ink">{camp.registration}</td>
              <td className="px-3 py-2">
                <ul className="space-y-1">
                  {camp.batches.map((batch) => (
                    <li key={batch.code}>
                      <span className="block text-ink">{batch.label}</span>
                      <span className="block text-muted">{batch.seats}</span>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </StaffTable>
      )}
      <NewCampForm lastResult={actionData} />
    </section>
  )
}

function NewCampForm({ lastResult }: { lastResult: Route.ComponentProps['actionData'] }) {
  const [form, fields] = useValidatedForm(NewCampSchema, {
    lastResult,
    // One empty batch to fill in; useValidatedForm's type only describes flat forms.
    defaultValue: { registration: 'open', siblingPrice: 'none', batches: [{}] } as unknown as Record<string, string>,
  })
  const batches = fields.batches.getFieldList()
  return (
    <section aria-labelledby="new-camp" className="card mt-10 p-6">
      <h2 id="new-camp" className="text-xl font-bold text-ink">
        New camp
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.code} label="Code" hint="Used in links and the registration form; it cannot be changed later. Such as camp3." />
        </div>
        <CampDetailsFields fields={fields} />
        <FormAlert id={fields.batches.errorId} errors={fields.batches.errors} />
        {batches.map((batch, index) => (
          <fieldset key={batch.key} className="rounded-xl border border-slate-300 p-4">
            <legend className="px-1 font-semibold text-ink">Batch {index + 1}</legend>
            <BatchDetailsFields fields={batch.getFieldset()} />
          </fieldset>
        ))}
        {/* Create comes first: Enter in a field presses the form's first button. */}
        <div className="flex flex-wrap gap-3">
          <PendingButton when={{ action: href('/admin/camps') }} pendingLabel="Creating...">
            Create camp
          </PendingButton>
          <button {...form.insert.getButtonProps({ name: fields.batches.name })} className="btn-secondary">
            Add another batch
          </button>
          {batches.length > 1 && (
            <button {...form.remove.getButtonProps({ name: fields.batches.name, index: batches.length - 1 })} className="btn-secondary">
              Remove batch {batches.length}
            </button>
          )}
        </div>
      </Form>
    </section>
  )
}
