import { getFormProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { Form, href } from 'react-router'
import type { Route } from './+types/testimonials'
import { DeclarationField } from '~/components/declaration-field'
import { FormAlert, TextAreaField, TextField, useValidatedForm } from '~/components/form-fields'
import { Panel } from '~/components/panel'
import { PortraitField, type PhotoOption } from '~/components/portrait-field'
import type { TestimonialStatus } from '~/db/schema'
import { formatLabDateTime } from '~/lib/lab-time'
import { usablePhotos } from '~/modules/media/media.server'
import { EditTestimonialSchema, QUOTE_MAX, ROLE_MAX, TestimonialIdSchema, TestimonialSchema } from '~/modules/testimonials/schemas'
import { MAX_SHOWN, TESTIMONIAL_REQUEST_DAYS } from '~/modules/testimonials/limits'
import { askForTestimonial, deleteTestimonial, editTestimonial, resendTestimonialRequest, testimonialsForStaff, withdrawTestimonialByStaff } from '~/modules/testimonials/testimonials.server'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { dispatchForm, NOTHING_TO_SAVE, submitForm } from '~/web/page-forms.server'
import { redirectWithToast } from '~/web/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Testimonials | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const now = new Date()
  const [rows, portraits] = await Promise.all([testimonialsForStaff(now), usablePhotos('portrait')])
  return {
    testimonials: rows.map((row) => ({
      id: row.id,
      quote: row.quote,
      name: row.name,
      role: row.role,
      email: row.email,
      aboutMinor: row.aboutMinor,
      status: row.status,
      since: formatLabDateTime(row.since),
      withdrawnBy: row.withdrawnBy,
      linkUntil: row.status === 'waiting' ? formatLabDateTime(row.expiresAt) : null,
      defaults: { id: String(row.id), quote: row.quote, name: row.name, role: row.role, photoId: row.photoId ? String(row.photoId) : '', email: row.email, aboutMinor: row.aboutMinor ? 'on' : '' },
    })),
    portraits: portraits.map((photo) => ({ value: String(photo.id), label: photo.title })),
  }
}

type Intent = 'ask' | 'edit' | 'resend' | 'withdraw' | 'delete'

const backToList = (title: string, description?: string) => redirectWithToast(href('/admin/testimonials'), { type: 'success', title, description })

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  const formData = await readForm(request)
  const form = (intent: Intent) => ({ intent, target: String(formData.get('id') ?? '') })
  return dispatchForm(formData, {
    ask: () =>
      submitForm(formData, form('ask'), TestimonialSchema, async (value) => {
        await askForTestimonial(actor, value)
        return backToList('Asked', `We have e-mailed ${value.email} a link to see it and answer. It is shown once they agree.`)
      }),
    edit: () =>
      submitForm(formData, form('edit'), EditTestimonialSchema, async ({ id, ...value }) => {
        if ((await editTestimonial(actor, id, value)) === 'unchanged') return redirectWithToast(href('/admin/testimonials'), NOTHING_TO_SAVE)
        return backToList('Saved and asked again', `It is off the website until ${value.email} agrees to the new version.`)
      }),
    resend: () =>
      submitForm(formData, form('resend'), TestimonialIdSchema, async ({ id }) => {
        await resendTestimonialRequest(actor, id)
        return backToList('Sent again', 'The earlier link no longer works.')
      }),
    withdraw: () =>
      submitForm(formData, form('withdraw'), TestimonialIdSchema, async ({ id }) => {
        await withdrawTestimonialByStaff(actor, id)
        return backToList('Withdrawn', 'It is off the website, and its link no longer works.')
      }),
    delete: () =>
      submitForm(formData, form('delete'), TestimonialIdSchema, async ({ id }) => {
        await deleteTestimonial(actor, id)
        return backToList('Deleted')
      }),
  })
}

type Result = SubmissionResult<string[]> | undefined
type Row = Route.ComponentProps['loaderData']['testimonials'][number]

export default function AdminTestimonials({ loaderData, actionData }: Route.ComponentProps) {
  const { testimonials, portraits } = loaderData
  const resultFor = (intent: Intent, target = '') => (actionData?.intent === intent && actionData.target === target ? actionData.result : undefined)
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Testimonials</h1>
      <p className="mt-3 max-w-3xl text-muted">
        {`The words of swimmers, parents and coaches for the home and About pages (the newest ${MAX_SHOWN}). Each is e-mailed to the person, or to their parent or guardian when they are under 18, with a link to see exactly what would appear; it is shown only once they agree there, and they can take it off again at any time. The link works for ${TESTIMONIAL_REQUEST_DAYS} days.`}
      </p>
      <Panel id="ask" title="Ask for a testimonial" spacing="mt-8">
        <TestimonialForm id="testimonial-ask" intent="ask" portraits={portraits} lastResult={resultFor('ask')} />
      </Panel>
      <Panel id="list" title={`Testimonials (${testimonials.length})`} spacing="mt-8">
        {testimonials.length === 0 ? (
          <p className="text-muted">None yet. Those you ask for appear here with their answer.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {testimonials.map((testimonial) => (
              <TestimonialRow key={`${testimonial.id}-${JSON.stringify(testimonial.defaults)}-${testimonial.status}`} testimonial={testimonial} portraits={portraits} resultFor={resultFor} />
            ))}
          </ul>
        )}
      </Panel>
    </section>
  )
}

const STATUS_TEXT: Record<TestimonialStatus, string> = {
  waiting: 'Waiting for an answer, asked',
  agreed: 'Shown on the website, agreed',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
  expired: 'Not answered; the link expired',
}

function statusLine(testimonial: Row) {
  const by = testimonial.status === 'withdrawn' ? (testimonial.withdrawnBy === 'staff' ? ' by staff' : ' by the person') : ''
  const until = testimonial.linkUntil ? ` (link open until ${testimonial.linkUntil})` : ''
  return `${STATUS_TEXT[testimonial.status]}${by} ${testimonial.since}${until}`
}

function TestimonialRow({ testimonial, portraits, resultFor }: { testimonial: Row; portraits: PhotoOption[]; resultFor: (intent: Intent, target?: string) => Result }) {
  const target = String(testimonial.id)
  const canResend = testimonial.status === 'waiting' || testimonial.status === 'expired'
  const canWithdraw = testimonial.status === 'waiting' || testimonial.status === 'agreed'
  return (
    <li className="space-y-3 py-6" aria-labelledby={`testimonial-${testimonial.id}-name`}>
      <div>
        <h3 id={`testimonial-${testimonial.id}-name`} className="font-bold text-ink">
          {testimonial.name}, <span className="font-semibold text-brand-700">{testimonial.role}</span>
        </h3>
        <blockquote className="mt-1 text-ink">{`“${testimonial.quote}”`}</blockquote>
        <p className="mt-1 text-sm text-muted">{`Asked: ${testimonial.email}${testimonial.aboutMinor ? ' (parent or guardian: the speaker is under 18)' : ''}`}</p>
        <p className="mt-1 text-sm" role="status">
          <strong className={testimonial.status === 'agreed' ? 'text-green-800' : testimonial.status === 'waiting' ? 'text-amber-800' : 'text-ink'}>{statusLine(testimonial)}</strong>
        </p>
      </div>
      <div className="flex flex-wrap gap-3">
        {canResend && <ActionForm testimonial={testimonial} intent="resend" label="Send again" lastResult={resultFor('resend', target)} />}
        {canWithdraw && <ActionForm testimonial={testimonial} intent="withdraw" label={testimonial.status === 'agreed' ? 'Take off the website' : 'Withdraw the request'} lastResult={resultFor('withdraw', target)} />}
      </div>
      <EditDetails testimonial={testimonial} portraits={portraits} lastResult={resultFor('edit', target)} />
      <DeleteDetails testimonial={testimonial} lastResult={resultFor('delete', target)} />
    </li>
  )
}

/** One button acting on a testimonial, with the message above it when it is refused. */
function ActionForm({ testimonial, intent, label, lastResult }: { testimonial: Row; intent: 'resend' | 'withdraw' | 'delete'; label: string; lastResult: Result }) {
  const [form] = useValidatedForm(TestimonialIdSchema, { id: `testimonial-${testimonial.id}-${intent}`, lastResult, defaultValue: { id: String(testimonial.id) } })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-2">
      <input type="hidden" name="id" value={testimonial.id} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <button type="submit" name="intent" value={intent} className="btn-secondary">
        {label}
        <span className="sr-only">{`: ${testimonial.name}`}</span>
      </button>
    </Form>
  )
}

function EditDetails({ testimonial, portraits, lastResult }: { testimonial: Row; portraits: PhotoOption[]; lastResult: Result }) {
  return (
    <details className="text-sm" open={Boolean(lastResult)}>
      <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-brand-700">
        Change…<span className="sr-only">{` ${testimonial.name}`}</span>
      </summary>
      <p className="mt-2 text-ink">{testimonial.status === 'agreed' ? 'Saving a change takes it off the website and e-mails a new link: it is shown again once they agree to the new version.' : 'Saving a change e-mails a new link; the earlier one stops working.'}</p>
      <div className="mt-3">
        <TestimonialForm id={`testimonial-${testimonial.id}-edit`} intent="edit" testimonial={testimonial} portraits={portraits} lastResult={lastResult} />
      </div>
    </details>
  )
}

function DeleteDetails({ testimonial, lastResult }: { testimonial: Row; lastResult: Result }) {
  return (
    <details className="text-sm" open={Boolean(lastResult)}>
      <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-red-700">
        Delete…<span className="sr-only">{` ${testimonial.name}`}</span>
      </summary>
      <p className="mt-2 text-ink">It goes from the website and from this list, with the record of their answer. Do this when the person asks for it to be deleted.</p>
      <div className="mt-2">
        <ActionForm testimonial={testimonial} intent="delete" label="Delete" lastResult={lastResult} />
      </div>
    </details>
  )
}

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

function TestimonialForm({ id, intent, testimonial, portraits, lastResult }: { id: string; intent: 'ask' | 'edit'; testimonial?: Row; portraits: PhotoOption[]; lastResult: Result }) {
  const [form, fields] = useValidatedForm(intent === 'edit' ? EditTestimonialSchema : TestimonialSchema, { id, lastResult, defaultValue: testimonial?.defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      {testimonial && <input type="hidden" name="id" value={testimonial.id} />}
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextAreaField field={fields.quote} label="Their words" note={`Up to ${QUOTE_MAX} characters, as they said or wrote them; shown as one paragraph.`} />
      <div className="grid gap-5 md:grid-cols-2">
        <TextField field={fields.name} label="Name to show" autoComplete="off" />
        <TextField field={fields.role} label="Role" hint={`Such as "parent of a 12-year-old", "national-level swimmer" or "coach, <academy>": up to ${ROLE_MAX} characters.`} />
      </div>
      <PortraitField field={fields.photoId as Field} portraits={portraits} label="Photo (optional)" hint="Portraits from the media library (Team and coach portraits, with alt text); the person sees the photo before agreeing." />
      <TextField field={fields.email} label="E-mail address to ask" type="email" autoComplete="off" hint="The person's own address, or their parent's or guardian's when they are under 18." />
      <DeclarationField field={fields.aboutMinor as Field}>The speaker is under 18: ask their parent or guardian</DeclarationField>
      <button type="submit" name="intent" value={intent} className="btn-primary">
        {intent === 'ask' ? 'Save and e-mail the request' : 'Save and ask again'}
        {testimonial && <span className="sr-only">{`: ${testimonial.name}`}</span>}
      </button>
    </Form>
  )
}
