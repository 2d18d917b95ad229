import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import { data, Form, href, Link, redirect, useNavigate } from 'react-router'
import type { Route } from './+types/forgot-password'
import { AuthCard, FormAlert, HoneypotField, PasswordField, PendingButton, ResendCodeForm, TextField, useLazyValidatedForm, type FieldConstraints } from '~/components/form-controls'
import { callerOf, rememberBrowserHeader, requireGuest } from '~/web/auth.server'
import { rejectBots } from '~/web/honeypot'
import { pageMeta } from '~/lib/seo'
import { CODE_REFUSED } from '~/modules/accounts/codes.server'
import { requestPasswordReset, resetPassword } from '~/modules/accounts/password-reset.server'
import { codeField, EmailOnlySchema, ResetPasswordSchema } from '~/modules/accounts/schemas'
import { hiddenFieldMessages, readForm } from '~/web/form-data.server'
import { formIntent } from '~/web/intent'
import { durationMs } from '~/lib/lab-time'
import { formErrorsOf, refusalOf } from '~/web/refusals.server'
import { forgotPasswordLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: 'Forgot Password', description: 'Reset the password of your swimmer account with a code sent to your e-mail.', path: href('/forgot-password') })

/** After a successful reset the page shows its success panel, then goes to /login. */
const REDIRECT_SECONDS = 2

type Step = { step: 'request'; constraint: FieldConstraints } | { step: 'reset'; email: string; code: string; constraint: FieldConstraints } | { step: 'done' }

export async function loader({ request }: Route.LoaderArgs) {
  await requireGuest(request)
  const params = new URL(request.url).searchParams
  // Without JavaScript, the browser follows the Refresh header to /login after the success panel.
  if (params.get('done') === '1') return data<Step>({ step: 'done' }, { headers: { Refresh: `${REDIRECT_SECONDS};url=/login` } })
  const email = EmailOnlySchema.safeParse({ email: params.get('email') ?? '' })
  if (!email.success) return data<Step>({ step: 'request', constraint: getZodConstraint(EmailOnlySchema) })
  const code = codeField.safeParse(params.get('code') ?? '')
  return data<Step>({ step: 'reset', email: email.data.email, code: code.success ? code.data : '', constraint: getZodConstraint(ResetPasswordSchema) })
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

const stepTwo = (email: string) => forgotPasswordLink({ email })

export async function action({ request, context }: Route.ActionArgs) {
  await requireGuest(request)
  const formData = await readForm(request)
  rejectBots(formData)
  const { ip } = callerOf(request, context)

  // The reset form, step two, sends no intent.
  if (formIntent(formData, ['request']) === 'request') {
    const submission = parseWithZod(formData, { schema: EmailOnlySchema })
    if (submission.status !== 'success') return data({ request: submission.reply(), reset: null }, { status: 400 })
    try {
      await requestPasswordReset({ email: submission.value.email, ip })
    } catch (error) {
      const refusal = refusalOf(error)
      return data({ request: submission.reply(formErrorsOf(refusal)), reset: null }, { status: refusal.status })
    }
    // The same answer whether or not the address has an account.
    return redirect(stepTwo(submission.value.email))
  }

  const submission = parseWithZod(formData, { schema: ResetPasswordSchema })
  const hidePasswords = { hideFields: ['password', 'confirmPassword'] }
  if (submission.status !== 'success') return data({ request: null, reset: submission.reply({ ...hidePasswords, formErrors: hiddenFieldMessages(submission, ['email']) }) }, { status: 400 })
  try {
    const result = await resetPassword({ ...submission.value, ip })
    // The code proved the mailbox is this person's: sign-in from this browser gets past strangers' guessing.
    if (result.ok) return redirect(forgotPasswordLink({ done: '1' }), { headers: { 'Set-Cookie': await rememberBrowserHeader(request, result.userId) } })
    return data({ request: null, reset: submission.reply({ fieldErrors: { code: [CODE_REFUSED] }, ...hidePasswords }) }, { status: 400 })
  } catch (error) {
    const refusal = refusalOf(error)
    return data({ request: null, reset: submission.reply({ ...formErrorsOf(refusal), ...hidePasswords }) }, { status: refusal.status })
  }
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.step === 'done') return <ResetDone />
  if (loaderData.step === 'reset') {
    const resendErrors = actionData?.request?.error?.['']
    return (
      <ResetStep
        key={loaderData.email}
        email={loaderData.email}
        code={loaderData.code}
        constraint={loaderData.constraint}
        lastResult={actionData?.reset}
        resendErrors={resendErrors ?? undefined}
      />
    )
  }
  return <RequestStep constraint={loaderData.constraint} lastResult={actionData?.request} />
}

function BackToLogin() {
  return (
    <p className="mt-6 text-center text-sm">
      <Link to={href('/login')} className="link">
        Back to Login
      </Link>
    </p>
  )
}

type LastResult = SubmissionResult<string[]> | null | undefined

function RequestStep({ constraint, lastResult }: { constraint: FieldConstraints; lastResult: LastResult }) {
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/accounts/schemas').then((schemas) => schemas.EmailOnlySchema), { constraint, lastResult })
  return (
    <AuthCard title="Forgot Password" lead="Enter the e-mail address of your account. We will send you a code to choose a new password.">
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormAlert id={form.errorId} errors={form.errors} />
        <HoneypotField />
        <input type="hidden" name="intent" value="request" />
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
        <PendingButton when={{ action: href('/forgot-password'), untilLoaded: true }} pendingLabel="Sending..." className="btn-primary w-full">
          Send Reset Code
        </PendingButton>
      </Form>
      <BackToLogin />
    </AuthCard>
  )
}

function ResetStep({ email, code, constraint, lastResult, resendErrors }: { email: string; code: string; constraint: FieldConstraints; lastResult: LastResult; resendErrors?: string[] }) {
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/accounts/schemas').then((schemas) => schemas.ResetPasswordSchema), {
    constraint,
    lastResult,
    defaultValue: { email, code },
  })
  return (
    <AuthCard
      title="Reset Password"
      lead={
        <p>
          If an account exists for <strong className="[overflow-wrap:anywhere] text-ink">{email}</strong>, we have e-mailed it a 6-digit code. It is valid for 30 minutes.
        </p>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormAlert id={form.errorId} errors={form.errors} />
        <HoneypotField />
        <input type="hidden" name={fields.email.name} value={email} />
        <TextField field={fields.code} label="Reset code" inputMode="numeric" autoComplete="one-time-code" />
        <PasswordField field={fields.password} label="New Password" autoComplete="new-password" />
        <PasswordField field={fields.confirmPassword} label="Confirm Password" autoComplete="new-password" />
        <PendingButton when={{ action: href('/forgot-password'), fields: { intent: null }, untilLoaded: true }} pendingLabel="Resetting..." className="btn-primary w-full">
          Reset Password
        </PendingButton>
      </Form>
      <ResendCodeForm intent="request" email={email}>
        <FormAlert id="resend-errors" errors={resendErrors} />
        <p className="mt-2 text-muted">
          Didn't get a code? Check your spam folder, ask for a new one, or{' '}
          <Link to={href('/forgot-password')} className="link">
            use a different e-mail
          </Link>
          .
        </p>
      </ResendCodeForm>
      <BackToLogin />
    </AuthCard>
  )
}

function ResetDone() {
  const navigate = useNavigate()
  useEffect(() => {
    const timer = setTimeout(() => navigate(href('/login')), durationMs({ seconds: REDIRECT_SECONDS }))
    return () => clearTimeout(timer)
  }, [navigate])
  return (
    <AuthCard title="Password reset successful!">
      <div role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-4 text-emerald-900">
        <p className="font-semibold">Your password has been updated successfully.</p>
        <p className="mt-1 text-sm">Taking you to the login page…</p>
      </div>
      <BackToLogin />
    </AuthCard>
  )
}
