import { getFormProps } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/login'
import { AuthCard, FormAlert, HoneypotField, PasswordField, PendingButton, TextField, useLazyValidatedForm } from '~/components/form-controls'
import { callerOf, homeFor, knownBrowser, pendingAccountHeader, rememberBrowserHeader, requireGuest, safeRedirect, sessionHeader, sessionToken } from '~/web/auth.server'
import { rejectBots } from '~/web/honeypot'
import { pageMeta } from '~/lib/seo'
import { redirectWithToast } from '~/web/toast.server'
import { LoginSchema } from '~/modules/accounts/schemas'
import { signIn } from '~/modules/accounts/sign-in.server'
import { readForm } from '~/web/form-data.server'
import { refusalOf } from '~/web/refusals.server'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: 'Login', description: 'Sign in to book your swimming analysis session and see your bookings.', path: href('/login') })

export async function loader({ request }: Route.LoaderArgs) {
  await requireGuest(request)
  return { redirectTo: safeRedirect(new URL(request.url).searchParams.get('redirectTo'), ''), constraint: getZodConstraint(LoginSchema) }
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireGuest(request)
  const formData = await readForm(request)
  rejectBots(formData)
  const submission = parseWithZod(formData, { schema: LoginSchema })
  if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: ['password'] }), unverifiedEmail: null, title: null }, { status: 400 })

  const { email, password, redirectTo } = submission.value
  const refuse = (message: string, status: number, { unverifiedEmail = null, title = null, headers = {} }: { unverifiedEmail?: string | null; title?: string | null; headers?: HeadersInit } = {}) =>
    data({ result: submission.reply({ formErrors: [message], hideFields: ['password'] }), unverifiedEmail, title }, { status, headers })
  try {
    const result = await signIn({ email, password, ...callerOf(request, context), previousSessionToken: await sessionToken(request), browser: await knownBrowser(request) })
    // The right password: this browser may finish verifying and is then signed in.
    if (!result.ok && result.reason === 'unverified') return refuse('Please verify your account before logging in', 403, { unverifiedEmail: email, headers: { 'Set-Cookie': await pendingAccountHeader(result.userId) } })
    if (!result.ok) return refuse('Invalid email or password. Please try again.', 401, { title: 'Login failed' })
    const headers = new Headers({ 'Set-Cookie': await sessionHeader(result.session) })
    headers.append('Set-Cookie', await rememberBrowserHeader(request, result.user.id))
    return redirectWithToast(safeRedirect(redirectTo, homeFor(result.user)), { type: 'success', title: 'Login successful!', description: `Welcome back, ${result.user.name}!` }, headers)
  } catch (error) {
    const refusal = refusalOf(error)
    return refuse(refusal.message, refusal.status)
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/accounts/schemas').then((schemas) => schemas.LoginSchema), {
    constraint: loaderData.constraint,
    lastResult: actionData?.result,
    defaultValue: { redirectTo: loaderData.redirectTo },
  })
  const registrationHref = href('/registration')
  return (
    <AuthCard title="Welcome Back" lead="Sign in to book your analysis session and see your bookings.">
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormAlert id={form.errorId} errors={form.errors} title={actionData?.title} />
        <HoneypotField />
        <input type="hidden" name={fields.redirectTo.name} value={loaderData.redirectTo} />
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
        <PasswordField field={fields.password} label="Password" autoComplete="current-password" />
        <div className="text-right text-sm">
          <Link to={href('/forgot-password')} className="link">
            Forgot password?
          </Link>
        </div>
        <PendingButton when={{ action: href('/login'), untilLoaded: true }} pendingLabel="Signing In..." className="btn-primary w-full">
          Sign In
        </PendingButton>
      </Form>
      {actionData?.unverifiedEmail && (
        <Form method="post" action={href('/verify-email')} className="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm">
          <HoneypotField />
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="email" value={actionData.unverifiedEmail} />
          <p className="text-muted">We can e-mail you a new verification code.</p>
          <button type="submit" className="btn-secondary mt-3 w-full">
            Send me a new code
          </button>
        </Form>
      )}
      <p className="mt-6 text-center text-sm text-muted">
        Don't have an account?{' '}
        <Link to={registrationHref} className="link">
          Register here
        </Link>
      </p>
    </AuthCard>
  )
}
