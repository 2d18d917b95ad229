import { getFormProps } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import type { Route } from './+types/registration'
import { AuthCard, FormAlert, HoneypotField, PasswordField, PendingButton, RadioGroupField, SelectField, TextField, useLazyValidatedForm } from '~/components/form-controls'
import { callerOf, pendingAccountHeader, requireGuest } from '~/lib/auth.server'
import { rejectBots } from '~/lib/honeypot'
import { pageMeta } from '~/lib/seo'
import { registerCustomer } from '~/modules/accounts/registration.server'
import { GENDERS, HOW_DID_YOU_KNOW, PARTICIPATE_IN_EVENTS, REGISTRATION_DEFAULTS, SPECIALIZATIONS, SWIMMING_EXPERIENCE } from '~/modules/accounts/fields'
import { registrationSchema } from '~/modules/accounts/schemas'
import { labToday } from '~/lib/lab-time'
import { readForm } from '~/lib/form-data.server'
import { formErrorsOf, refusalOf } from '~/lib/refusals.server'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Swimmer Registration',
    description: 'Create your swimmer account to book race and biomechanical analysis sessions at our Bangalore lab.',
    path: '/registration',
  })

export async function loader({ request }: Route.LoaderArgs) {
  await requireGuest(request)
  return { constraint: getZodConstraint(registrationSchema(labToday())) }
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireGuest(request)
  const formData = await readForm(request)
  rejectBots(formData)
  const submission = parseWithZod(formData, { schema: registrationSchema(labToday()) })
  if (submission.status !== 'success') return data(submission.reply({ hideFields: ['password'] }), { status: 400 })
  try {
    const user = await registerCustomer(submission.value, { ip: callerOf(request, context).ip })
    // Only this browser is signed in when the address is verified, whoever opens the e-mailed link.
    return redirect(`/verify-email?${new URLSearchParams({ email: user.email })}`, { headers: { 'Set-Cookie': await pendingAccountHeader(user.id) } })
  } catch (error) {
    const refusal = refusalOf(error)
    return data(submission.reply({ ...formErrorsOf(refusal), hideFields: ['password'] }), { status: refusal.status })
  }
}

export default function Registration({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/accounts/schemas').then((schemas) => schemas.registrationSchema(labToday())), {
    constraint: loaderData.constraint,
    lastResult: actionData,
    defaultValue: REGISTRATION_DEFAULTS,
  })
  return (
    <AuthCard
      wide
      title="Swimmer Registration"
      lead="Create your account to book an analysis session. We will e-mail you a code to verify your address."
    >
      <Form method="post" {...getFormProps(form)} className="space-y-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <HoneypotField />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField field={fields.name} label="Full Name" autoComplete="name" />
          <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
          <PasswordField field={fields.password} label="Password" autoComplete="new-password" />
          <TextField field={fields.phone} label="WhatsApp Number" type="tel" autoComplete="tel" inputMode="tel" />
          <TextField field={fields.age} label="Age" inputMode="numeric" />
          <TextField field={fields.currentLocation} label="Current Location" autoComplete="address-level2" />
        </div>
        <RadioGroupField field={fields.gender} legend="Gender" options={GENDERS} />
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField field={fields.swimmingExperience} label="Swimming Experience" options={SWIMMING_EXPERIENCE} />
          <SelectField field={fields.specialization} label="Specialization" options={SPECIALIZATIONS} />
          <TextField field={fields.academyName} label="Academy Name" hint="Enter NA if not applicable" />
          <TextField field={fields.coachName} label="Coach Name" hint="Enter NA if not applicable" />
          <TextField field={fields.otherSpecialization} label="Other Specialization" optional />
          <TextField field={fields.strokeBestTime} label="Stroke Best Time" optional placeholder="mm:ss.ms" hint="For example 01:05.32" />
        </div>
        <RadioGroupField field={fields.participateInEvents} legend="Do you participate in events?" options={PARTICIPATE_IN_EVENTS} />
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField field={fields.howDidYouKnow} label="How did you get to know about us?" options={HOW_DID_YOU_KNOW} />
          <TextField field={fields.otherSource} label="Other Source" optional />
        </div>
        <PendingButton when={{ action: '/registration', untilLoaded: true }} pendingLabel="Registering..." className="btn-primary w-full">
          Register
        </PendingButton>
      </Form>
      <p className="mt-6 text-center text-sm text-muted">
        Already have an account?{' '}
        <Link to="/login" className="font-semibold text-brand-700 underline underline-offset-2">
          Sign in
        </Link>
      </p>
    </AuthCard>
  )
}
