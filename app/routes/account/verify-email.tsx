import { getFormProps } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link, redirect } from 'react-router'
import type { Route } from './+types/verify-email'
import { AuthCard, FormAlert, HoneypotField, PasswordField, PendingButton, ResendCodeForm, TextField, useLazyValidatedForm } from '~/components/form-controls'
import { callerOf, clearPendingAccountHeader, homeFor, pendingAccount, rememberBrowserHeader, requireGuest, sessionHeader } from '~/web/auth.server'
import { rejectBots } from '~/web/honeypot'
import { pageMeta, PRODUCT_NAME } from '~/lib/seo'
import { redirectWithToast } from '~/web/toast.server'
import { CODE_REFUSED } from '~/modules/accounts/codes.server'
import { registeredInThisBrowser, resendVerificationCode, verifyEmail } from '~/modules/accounts/registration.server'
import { codeField, EmailOnlySchema, VerifyEmailSchema } from '~/modules/accounts/schemas'
import { hiddenFieldMessages, readForm } from '~/web/form-data.server'
import { formIntent } from '~/web/intent'
import { formErrorsOf, refusalOf } from '~/web/refusals.server'
import { verifyEmailLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Verify your e-mail', description: 'Enter the 6-digit code we e-mailed you to finish registering.', path: href('/verify-email') }),
  { name: 'robots', content: 'noindex' },
]

/**
 * The page, also as the link from the e-mail (…?email=…&code=…), which fills in the code: opening
 * a link changes nothing (mail scanners open links too), the person's press of the button does.
 * Any browser but the one that registered the account also chooses the account's password here.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireGuest(request)
  const params = new URL(request.url).searchParams
  const parsedEmail = EmailOnlySchema.safeParse({ email: params.get('email') ?? '' })
  if (!parsedEmail.success) throw redirect(href('/registration'))
  const code = codeField.safeParse(params.get('code') ?? '')
  const choosesPassword = !(await registeredInThisBrowser(parsedEmail.data.email, await pendingAccount(request)))
  return { email: parsedEmail.data.email, code: code.success ? code.data : '', choosesPassword, constraint: getZodConstraint(VerifyEmailSchema) }
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireGuest(request)
  const formData = await readForm(request)
  rejectBots(formData)
  const caller = callerOf(request, context)

  // The code form, the page's main one, sends no intent.
  if (formIntent(formData, ['resend']) === 'resend') {
    const submission = parseWithZod(formData, { schema: EmailOnlySchema })
    if (submission.status !== 'success') throw redirect(href('/registration'))
    try {
      await resendVerificationCode({ email: submission.value.email, ip: caller.ip })
    } catch (error) {
      return redirectWithToast(verifyEmailLink({ email: submission.value.email }), { type: 'error', title: refusalOf(error).message })
    }
    return redirectWithToast(verifyEmailLink({ email: submission.value.email }), {
      type: 'info',
      title: 'New code sent',
      description: 'Check your inbox for a new 6-digit code. It is valid for 30 minutes.',
    })
  }

  const submission = parseWithZod(formData, { schema: VerifyEmailSchema })
  const hidePassword = { hideFields: ['password'] }
  if (submission.status !== 'success') return data(submission.reply({ formErrors: hiddenFieldMessages(submission, ['email']), ...hidePassword }), { status: 400 })
  try {
    const { email, code, password } = submission.value
    const result = await verifyEmail({ email, code, newPassword: password ?? null, ...caller, pendingAccountId: await pendingAccount(request) })
    if (!result.ok) return data(submission.reply({ fieldErrors: { code: [CODE_REFUSED] }, resetForm: false, ...hidePassword }), { status: 400 })
    const headers = new Headers({ 'Set-Cookie': await sessionHeader(result.session) })
    headers.append('Set-Cookie', await rememberBrowserHeader(request, result.user.id))
    headers.append('Set-Cookie', await clearPendingAccountHeader())
    return redirectWithToast(homeFor(result.user), { type: 'success', title: 'Registration successful!', description: `Welcome to ${PRODUCT_NAME}, ${result.user.name}!` }, headers)
  } catch (error) {
    const refusal = refusalOf(error)
    return data(submission.reply({ ...formErrorsOf(refusal), ...hidePassword }), { status: refusal.status })
  }
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { email, code, choosesPassword } = loaderData
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/accounts/schemas').then((schemas) => schemas.VerifyEmailSchema), {
    constraint: loaderData.constraint,
    lastResult: actionData,
    defaultValue: { email, code },
  })
  return (
    <AuthCard
      title="Verify your e-mail"
      lead={
        <p>
          We sent a 6-digit code to <strong className="[overflow-wrap:anywhere] text-ink">{email}</strong>. Enter it below to finish registering. The code is valid for 30
          minutes.
        </p>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormAlert id={form.errorId} errors={form.errors} />
        <HoneypotField />
        <input type="hidden" name={fields.email.name} value={email} />
        <TextField field={fields.code} label="Verification code" inputMode="numeric" autoComplete="one-time-code" autoFocus />
        {choosesPassword && (
          <div className="space-y-2">
            <p className="text-sm text-muted">
              {`Choose a password for ${email}, only if this address is yours. This browser did not register the account, so its password is set here (you may type the one you chose when registering); any other password of the account stops working.`}
            </p>
            <PasswordField field={fields.password} label="Choose a password" autoComplete="new-password" />
          </div>
        )}
        <PendingButton when={{ action: href('/verify-email'), fields: { intent: null }, untilLoaded: true }} pendingLabel="Verifying..." className="btn-primary w-full">
          Verify and continue
        </PendingButton>
      </Form>
      <ResendCodeForm intent="resend" email={email}>
        <p className="text-muted">Didn't get the code? Check your spam folder, or ask for a new one.</p>
      </ResendCodeForm>
      <p className="mt-6 text-center text-sm text-muted">
        Wrong address?{' '}
        <Link to={href('/registration')} className="link">
          Register again
        </Link>{' '}
        or{' '}
        <Link to={href('/login')} className="link">
          sign in
        </Link>
        .
      </p>
    </AuthCard>
  )
}
