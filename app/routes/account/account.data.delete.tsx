import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/account.data.delete'
import { FormAlert, PasswordField, PendingButton, TextField, useLazyValidatedForm } from '~/components/form-controls'
import { formatLabDateTime } from '~/lib/lab-time'
import { formatRupees } from '~/lib/money'
import { pageMeta } from '~/lib/seo'
import { deleteAccount, deleteSwimmer, deletionPlan, sendDeletionCode } from '~/modules/privacy/account-deletion.server'
import { deletionSchema } from '~/modules/privacy/schemas'
import { callerOf, endSession, requireUser } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { formIntent, unknownForm } from '~/web/intent'
import { formErrorsOf, notFoundUnless, refusalOf } from '~/web/refusals.server'
import { redirectWithToast } from '~/web/toast.server'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Delete your data', description: 'What deleting a swimmer or your account does, and confirming it.', path: href('/account/data/delete') }),
  { name: 'robots', content: 'noindex' },
]

/** The swimmer to delete from `?swimmer=`, null for the whole account; anything else is no page. */
function swimmerParam(request: Request) {
  const value = new URL(request.url).searchParams.get('swimmer')
  if (value === null) return null
  notFoundUnless(/^\d{1,9}$/.test(value))
  return Number(value)
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const swimmerId = swimmerParam(request)
  let plan
  try {
    plan = await deletionPlan(user, swimmerId)
  } catch (error) {
    throw refusalOf(error)
  }
  return {
    isAdmin: user.isAdmin,
    swimmerId,
    swimmerName: plan.swimmerName,
    invoices: plan.invoices,
    future: plan.future.map((booking) => ({
      key: `${booking.kind}-${booking.id}`,
      title: booking.title,
      reference: booking.reference,
      swimmerName: booking.swimmerName,
      startsAt: formatLabDateTime(booking.startsAt),
      outcome: booking.refundable ? `cancelled, and ${formatRupees(booking.amountPaise)} refunded in full` : 'cancelled without a refund: it begins in less than 24 hours',
    })),
    constraint: getZodConstraint(deletionSchema),
  }
}

const INTENTS = ['send-code', 'delete'] as const
type ActionResult = { codeSent: boolean; result?: SubmissionResult<string[]> }

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request)
  const swimmerId = swimmerParam(request)
  const { ip } = callerOf(request, context)
  const formData = await readForm(request)
  switch (formIntent(formData, INTENTS)) {
    case 'send-code': {
      try {
        await sendDeletionCode({ accountId: user.id, ip })
        return data<ActionResult>({ codeSent: true })
      } catch (error) {
        const refusal = refusalOf(error)
        return data<ActionResult>({ codeSent: false, result: { status: 'error', error: { '': [refusal.message] } } }, { status: refusal.status })
      }
    }
    case 'delete': {
      const submission = parseWithZod(formData, { schema: deletionSchema })
      const codeSent = formData.has('code')
      if (submission.status !== 'success') return data<ActionResult>({ codeSent, result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
      try {
        if (swimmerId !== null) {
          await deleteSwimmer({ accountId: user.id, swimmerId, confirmation: submission.value, ip })
          return redirectWithToast(href('/account/data'), { type: 'success', title: 'The swimmer profile is deleted', description: 'Their details are erased; the invoices of past payments are kept, as tax law requires.' })
        }
        await deleteAccount({ accountId: user.id, confirmation: submission.value, ip })
      } catch (error) {
        const refusal = refusalOf(error)
        return data<ActionResult>({ codeSent, result: submission.reply({ ...formErrorsOf(refusal), hideFields: ['password', 'code'] }) }, { status: refusal.status })
      }
      const signOut = await endSession(request)
      return redirectWithToast('/', { type: 'success', title: 'Your account is deleted', description: 'We have e-mailed you a last confirmation. Thank you for swimming with us.' }, { 'Set-Cookie': signOut })
    }
    default:
      return unknownForm()
  }
}

export default function DeleteData({ loaderData, actionData }: Route.ComponentProps) {
  const { isAdmin, swimmerName, future, invoices, constraint } = loaderData
  const whole = swimmerName === null
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/privacy/schemas').then((schemas) => schemas.deletionSchema), {
    constraint,
    lastResult: actionData?.result,
  })
  const codeSent = actionData?.codeSent ?? false
  const title = whole ? 'Delete your account' : `Delete ${swimmerName}'s profile`
  return (
    <section className="container-page max-w-3xl py-10 sm:py-14">
      <p>
        <Link to={href('/account/data')} className="font-semibold text-brand-700 underline underline-offset-4">
          Back to your data
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-extrabold text-brand-900 sm:text-4xl">{title}</h1>

      {isAdmin && whole ? (
        <p className="mt-4 text-muted">Staff accounts are removed by another administrator of the lab.</p>
      ) : (
        <>
          <section aria-labelledby="happens-heading" className="card mt-8 p-6 shadow-sm">
            <h2 id="happens-heading" className="text-xl font-bold text-ink">
              What will happen
            </h2>
            <h3 className="mt-4 font-semibold text-ink">Future sessions and camp places</h3>
            {future.length === 0 ? (
              <p className="mt-1 text-muted">There are none to cancel.</p>
            ) : (
              <ul className="mt-2 list-disc space-y-2 pl-5">
                {future.map((booking) => (
                  <li key={booking.key}>
                    <strong className="text-ink">{booking.title}</strong> for {booking.swimmerName}, {booking.startsAt} ({booking.reference}):{' '}
                    {booking.outcome}.
                  </li>
                ))}
              </ul>
            )}
            <h3 className="mt-4 font-semibold text-ink">Invoices</h3>
            <p className="mt-1 text-muted">
              {invoices === 0
                ? 'There are no invoices to keep.'
                : `${invoices === 1 ? 'The invoice' : `The ${invoices} invoices`} of past payments ${invoices === 1 ? 'is' : 'are'} kept for 8 years, as Indian tax law (GST) requires: number, date, what was bought and the amount, without ${whole ? 'your' : 'the swimmer’s'} name, e-mail address or phone number.`}
            </p>
            <h3 className="mt-4 font-semibold text-ink">Everything else is erased</h3>
            <p className="mt-1 text-muted">
              {whole
                ? 'Your account, every swimmer profile in it, parents’ consents, analysis reports and their files, camp registrations and waitlist places, the e-mails we sent you and the browsers signed in. Our records of changes keep only an anonymous number in place of your details. You will be signed out and get one last e-mail saying it is done. This cannot be undone.'
                : `${swimmerName}'s profile, consents, analysis reports and files, and their name on bookings and camp places. This cannot be undone.`}
            </p>
          </section>

          <section aria-labelledby="confirm-heading" className="card mt-8 p-6 shadow-sm">
            <h2 id="confirm-heading" className="text-xl font-bold text-ink">
              Confirm
            </h2>
            <Form method="post" {...getFormProps(form)} className="mt-4 space-y-5">
              <input type="hidden" name="intent" value="delete" />
              <FormAlert id={form.errorId} errors={form.errors} />
              {codeSent ? (
                <TextField field={fields.code} label="The code we e-mailed you" inputMode="numeric" autoComplete="one-time-code" hint="Six digits, valid for 30 minutes." />
              ) : (
                <PasswordField field={fields.password} label="Your password" autoComplete="current-password" />
              )}
              <PendingButton when={{ fields: { intent: 'delete' } }} pendingLabel="Deleting..." className="btn-primary bg-red-700 hover:bg-red-800">
                {whole ? 'Delete my account for good' : `Delete ${swimmerName}'s profile for good`}
              </PendingButton>
            </Form>
            {!codeSent && (
              <Form method="post" className="mt-6 border-t border-slate-200 pt-6 text-sm">
                <input type="hidden" name="intent" value="send-code" />
                <p className="text-muted">Forgotten your password? We can e-mail you a code instead.</p>
                <PendingButton when={{ fields: { intent: 'send-code' } }} pendingLabel="Sending..." className="btn-secondary mt-3">
                  E-mail me a code
                </PendingButton>
              </Form>
            )}
          </section>
        </>
      )}
    </section>
  )
}
