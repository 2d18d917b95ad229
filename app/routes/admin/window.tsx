import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/window'
import { FormAlert, PendingButton, useValidatedForm } from '~/components/form-fields'
import { StrandedBookingsAlert } from '~/components/stranded-bookings'
import { HoursFields } from '~/components/window-fields'
import { requireAdmin } from '~/web/auth.server'
import { formatTimeRange, formatWeekdayDate, toHourMinute } from '~/lib/lab-time'
import { redirectWithToast } from '~/web/toast.server'
import { closeTimeSlot, deleteWindow, reopenTimeSlot, strandedBy, updateWindow, windowById, type StrandedBooking } from '~/modules/booking/availability-staff.server'
import { isClockTime } from '~/modules/booking/schemas'
import { WindowHoursSchema } from '~/modules/booking/staff-schemas'
import { readForm } from '~/web/form-data.server'
import { formIntent } from '~/web/intent'
import { formErrorsOf, notFoundUnless, refusalOf } from '~/web/refusals.server'
import { rowId } from '~/lib/row-id'
import { adminAvailabilityLink, adminWindowLink } from '~/lib/links'

export const meta: Route.MetaFunction = () => [{ title: 'Opening hours | Admin' }, { name: 'robots', content: 'noindex' }]

async function windowOf(windowId: string) {
  const id = rowId(windowId)
  const window = id ? await windowById(id) : null
  notFoundUnless(window && !window.isHoliday)
  return window
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const window = await windowOf(params.windowId)
  return {
    id: window.id,
    date: window.date,
    venueId: window.atHome ? null : window.venueId,
    label: formatWeekdayDate(window.date),
    hours: { startTime: toHourMinute(window.startTime) ?? '', endTime: toHourMinute(window.endTime) ?? '', slotDurationMinutes: String(window.slotDurationMinutes ?? ''), capacity: String(window.capacity) },
    timeSlots: window.timeSlots.map((slot) => ({ start: slot.start, label: formatTimeRange(slot.start, slot.end), taken: slot.taken, closed: slot.closed, kitAway: slot.kitAway })),
    capacity: window.capacity,
  }
}

type ActionResult = { result?: SubmissionResult<string[]>; error?: string; stranded?: StrandedBooking[] }

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  const window = await windowOf(params.windowId)
  const formData = await readForm(request)
  const here = adminWindowLink(window.id)
  const start = String(formData.get('start') ?? '')
  // The hours form is the page's main one: a post without a known intent has always meant it.
  const intent = formIntent(formData, ['update', 'close', 'reopen', 'delete']) ?? 'update'
  try {
    switch (intent) {
      case 'close':
      case 'reopen': {
        if (!isClockTime(start)) return data<ActionResult>({ error: 'Choose a time slot.' }, { status: 400 })
        await (intent === 'close' ? closeTimeSlot : reopenTimeSlot)(actor, window.id, start)
        return redirectWithToast(here, { type: 'success', title: intent === 'close' ? `${start} closed` : `${start} reopened` })
      }
      case 'delete':
        await deleteWindow(actor, window.id)
        return redirectWithToast(adminAvailabilityLink({ month: window.date.slice(0, 7), venue: window.atHome ? null : window.venueId }), { type: 'success', title: 'Opening hours removed' })
      case 'update': {
        const submission = parseWithZod(formData, { schema: WindowHoursSchema })
        if (submission.status !== 'success') return data<ActionResult>({ result: submission.reply() }, { status: 400 })
        try {
          await updateWindow(actor, window.id, submission.value)
        } catch (error) {
          const refusal = refusalOf(error)
          return data<ActionResult>({ result: submission.reply(formErrorsOf(refusal)), ...strandedBy(refusal.error) }, { status: refusal.status })
        }
        return redirectWithToast(here, { type: 'success', title: 'Opening hours changed' })
      }
    }
  } catch (error) {
    const refusal = refusalOf(error)
    return data<ActionResult>({ error: refusal.message, ...strandedBy(refusal.error) }, { status: refusal.status })
  }
}

export default function AdminWindow({ loaderData, actionData }: Route.ComponentProps) {
  const { id, date, venueId, label, hours, timeSlots, capacity } = loaderData
  const [form, fields] = useValidatedForm(WindowHoursSchema, { lastResult: actionData?.result, defaultValue: hours })
  return (
    <section>
      <Link to={adminAvailabilityLink({ month: date.slice(0, 7), venue: venueId })} className="link text-sm">
        Availability
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold text-brand-900">Opening hours on {label}</h1>
      {actionData?.error && (
        <div className="mt-4 space-y-2">
          <FormAlert id="window-error" errors={[actionData.error]} />
          {actionData.stranded && !actionData.result && <StrandedBookingsAlert bookings={actionData.stranded} />}
        </div>
      )}
      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <Form method="post" {...getFormProps(form)} className="card space-y-4 p-6">
          <h2 className="text-lg font-bold text-ink">Hours</h2>
          <FormAlert id={form.errorId} errors={form.errors} />
          {actionData?.result && actionData.stranded && <StrandedBookingsAlert bookings={actionData.stranded} />}
          <HoursFields fields={fields} />
          <PendingButton name="intent" value="update">
            Save hours
          </PendingButton>
        </Form>

        <section aria-labelledby="slots-heading" className="card p-6">
          <h2 id="slots-heading" className="text-lg font-bold text-ink">
            Time slots
          </h2>
          <ul className="mt-3 space-y-2">
            {timeSlots.map((slot) => (
              <li key={slot.start} className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2">
                <span className="text-ink">
                  <span className="font-semibold">{slot.label}</span>{' '}
                  <span className="text-sm text-muted">{slot.closed ? 'Closed' : slot.kitAway ? `No kit at the lab; ${slot.taken} of ${capacity} taken` : `${slot.taken} of ${capacity} taken`}</span>
                </span>
                <Form method="post">
                  <input type="hidden" name="start" value={slot.start} />
                  <button type="submit" name="intent" value={slot.closed ? 'reopen' : 'close'} className="link text-sm">
                    {slot.closed ? `Reopen ${slot.label}` : `Close ${slot.label}`}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
          <Form method="post" className="mt-6 border-t border-slate-200 pt-4">
            <input type="hidden" name="window" value={id} />
            <button type="submit" name="intent" value="delete" className="text-sm font-semibold text-red-800 underline underline-offset-2">
              Remove these opening hours
            </button>
          </Form>
        </section>
      </div>
    </section>
  )
}
