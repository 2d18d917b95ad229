import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { analysisDayWaitlistLink } from '~/lib/links'
import { FormAlert, HoneypotField, PendingButton, TextField, useLazyValidatedForm, type FieldConstraints } from './form-controls'

/** The form's id, and its answer's anchor. */
export const DAY_WAITLIST_FORM_ID = 'day-waitlist'

/**
 * "Join the waitlist" of a sold-out analysis day: the swimmer's name, the address the confirmation
 * link goes to and, optionally, a phone number. It posts to the waitlist's own page, which answers
 * with the form again (its messages next to the fields) or what happens next.
 */
export function AnalysisDayWaitlistForm({ dayId, constraint, lastResult }: { dayId: number; constraint: FieldConstraints; lastResult?: SubmissionResult<string[]> | null }) {
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/booking/analysis-day-waitlist-schemas').then((schemas) => schemas.DayWaitlistSchema), { id: DAY_WAITLIST_FORM_ID, constraint, lastResult })
  const action = analysisDayWaitlistLink(dayId)
  return (
    <section aria-labelledby="day-waitlist-title" className="mt-6 text-left">
      <h3 id="day-waitlist-title" className="text-lg font-bold text-brand-900">
        Join the waitlist
      </h3>
      <p className="mt-1 text-muted">When a slot frees up, the first in line is offered it by e-mail and has a while to pay. There is nothing to pay until then.</p>
      <Form method="post" action={action} {...getFormProps(form)} className="mt-4 space-y-4">
        <HoneypotField />
        <FormAlert id={form.errorId} errors={form.errors} />
        <TextField field={fields.swimmerName} label="Swimmer's name" autoComplete="off" />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.email} label="Your e-mail address" type="email" autoComplete="email" />
          <TextField field={fields.phone} label="Phone" type="tel" autoComplete="tel" optional />
        </div>
        <PendingButton when={{ action, untilLoaded: true }} pendingLabel="Sending..." className="btn-primary w-full sm:w-auto">
          Join the waitlist
        </PendingButton>
      </Form>
    </section>
  )
}
