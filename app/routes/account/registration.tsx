import { getFormProps } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link, redirect } from 'react-router'
import type { Route } from './+types/registration'
import { AuthCard, FormAlert, HoneypotField, PasswordField, PendingButton, RadioGroupField, TextField, useLazyValidatedForm } from '~/components/form-controls'
import { ScriptedWords, WhenApplies, WithoutScript } from '~/components/scripting'
import { describesMinor, GuardianDeclarationField, HeardAboutFields, SwimmerAgeFields, SwimmerProfileFields } from '~/components/swimmer-fields'
import { callerOf, pendingAccountHeader, requireGuest } from '~/web/auth.server'
import { rejectBots } from '~/web/honeypot'
import { pageMeta } from '~/lib/seo'
import { registerCustomer } from '~/modules/accounts/registration.server'
import { REGISTRATION_DEFAULTS, WHO_SWIMS } from '~/modules/forms/choices'
import { registrationSchema } from '~/modules/accounts/schemas'
import { labToday } from '~/lib/lab-time'
import { readForm } from '~/web/form-data.server'
import { WhatsAppOptInField } from '~/components/whatsapp-opt-in'
import { whatsappEnabled } from '~/modules/whatsapp/config.server'
import { WHATSAPP_OPT_IN_WORDING } from '~/modules/whatsapp/consent.server'
import { formErrorsOf, refusalOf } from '~/web/refusals.server'
import { verifyEmailLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Swimmer Registration',
    description: 'Create your swimmer account to book race and biomechanical analysis sessions at our Bangalore lab.',
    path: href('/registration'),
  })

export async function loader({ request }: Route.LoaderArgs) {
  await requireGuest(request)
  // The WhatsApp box shows only while the site sends WhatsApp messages, with the words its opt-in records.
  return { constraint: getZodConstraint(registrationSchema(labToday())), whatsappOptIn: whatsappEnabled() ? WHATSAPP_OPT_IN_WORDING : null }
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
    return redirect(verifyEmailLink({ email: user.email }), { headers: { 'Set-Cookie': await pendingAccountHeader(user.id) } })
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
  // With JavaScript only the fields that apply to the choice show; without it, all of them, each with a hint saying when it applies.
  const forChild = fields.whoSwims.value === 'child'
  const age = describesMinor(fields.age.value, fields.birthDate.value)
  const minor = age === true
  return (
    <AuthCard
      wide
      title="Swimmer Registration"
      lead="Create your account to book an analysis session. We will e-mail you a code to verify your address."
    >
      <Form method="post" {...getFormProps(form)} className="space-y-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <HoneypotField />
        <RadioGroupField field={fields.whoSwims} legend="Who will swim?" options={WHO_SWIMS} />
        <fieldset className="space-y-5">
          <legend className="text-lg font-bold text-brand-900">
            <ScriptedWords scripted={forChild ? 'About you, the parent or guardian' : 'About you'} without="About you" />
          </legend>
          <p className={`text-sm text-muted ${forChild ? '' : 'hidden noscript:block'}`}>
            <ScriptedWords scripted="You hold the account: your name, e-mail, password and WhatsApp number." without="When you register your child, these are your own details as their parent or guardian." />
          </p>
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField field={fields.name} label="Full Name" autoComplete="name" />
            <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
            <PasswordField field={fields.password} label="Password" autoComplete="new-password" />
            <TextField field={fields.phone} label="WhatsApp Number" type="tel" autoComplete="tel" inputMode="tel" />
            <TextField field={fields.currentLocation} label="Current Location" autoComplete="address-level2" />
          </div>
          {loaderData.whatsappOptIn && <WhatsAppOptInField field={fields.whatsappOptIn} wording={loaderData.whatsappOptIn} />}
        </fieldset>
        <fieldset className="space-y-5">
          <legend className="text-lg font-bold text-brand-900">
            <ScriptedWords scripted={forChild ? 'About the swimmer' : 'About you as a swimmer'} without="About the swimmer" />
          </legend>
          <div className="grid gap-5 sm:grid-cols-2">
            <WhenApplies applies={forChild} errors={fields.swimmerName.errors} inGrid>
              <TextField field={fields.swimmerName} label="Swimmer's name" hint={<WithoutScript>Only when you register your child or a swimmer you look after.</WithoutScript>} />
            </WhenApplies>
            <SwimmerAgeFields fields={fields} />
          </div>
          {/* Shown as soon as a child is chosen, until the age says 18 or over: the parent sees what they declare before filling in the rest. */}
          <WhenApplies applies={forChild && age !== false} errors={fields.guardianDeclaration.errors}>
            <GuardianDeclarationField field={fields.guardianDeclaration} hint={<WithoutScript>Needed when you register your child or a swimmer you look after who is under 18.</WithoutScript>} />
          </WhenApplies>
          <SwimmerProfileFields fields={fields} aboutSomeoneElse={forChild} />
          <WhenApplies applies={!forChild && minor} errors={fields.parentEmail.errors}>
            <TextField
              field={fields.parentEmail}
              label="Parent's or guardian's e-mail"
              type="email"
              hint="Swimmers under 18 who register themselves need it: we e-mail your parent or guardian to ask for their consent, and you can book once they agree."
            />
          </WhenApplies>
        </fieldset>
        <HeardAboutFields fields={fields} />
        <PendingButton when={{ action: href('/registration'), untilLoaded: true }} pendingLabel="Registering..." className="btn-primary w-full">
          Register
        </PendingButton>
      </Form>
      <p className="mt-6 text-center text-sm text-muted">
        Already have an account?{' '}
        <Link to={href('/login')} className="link">
          Sign in
        </Link>
      </p>
    </AuthCard>
  )
}
