import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/account.data'
import { FormAlert, PendingButton, TextField, useLazyValidatedForm } from '~/components/form-controls'
import { EmailValue } from '~/components/contact-value'
import { callerOf, requireUser } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { formIntent, unknownForm } from '~/web/intent'
import { formErrorsOf, refusalOf } from '~/web/refusals.server'
import { pageMeta } from '~/lib/seo'
import { redirectWithToast } from '~/web/toast.server'
import { profileOf, updateProfile } from '~/modules/privacy/account-deletion.server'
import { numberCodeSchema, profileSchema } from '~/modules/privacy/schemas'
import { proveNumber, sendNumberCode } from '~/modules/accounts/phone-proof.server'
import { getSiteSettings } from '~/modules/site/site.server'
import { swimmersOf } from '~/modules/swimmers/swimmers.server'
import { WhatsAppOptInField } from '~/components/whatsapp-opt-in'
import { whatsappEnabled } from '~/modules/whatsapp/config.server'
import { accountWhatsApp, switchAccountWhatsApp, type AccountWhatsApp } from '~/modules/whatsapp/account.server'
import { dataDeletionLink, swimmerEditLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Your data', description: 'See, download, correct and delete the data we hold about you and your swimmers.', path: href('/account/data') }),
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const [account, swimmers, settings, whatsapp] = await Promise.all([
    profileOf(user.id),
    swimmersOf(user.id),
    getSiteSettings(),
    accountWhatsApp(user.id),
  ])
  return {
    email: user.email,
    isAdmin: user.isAdmin,
    supportEmail: settings.supportEmail,
    profile: account ?? { name: user.name, phone: '', currentLocation: '' },
    swimmers: swimmers.map((swimmer) => ({ id: swimmer.id, name: swimmer.name, isAccountHolder: swimmer.isAccountHolder })),
    constraint: getZodConstraint(profileSchema),
    codeConstraint: getZodConstraint(numberCodeSchema),
    /** Null while the site sends no WhatsApp messages: no box, no switch. */
    whatsapp,
  }
}

const INTENTS = ['profile', 'whatsapp-on', 'whatsapp-off', 'whatsapp-code', 'whatsapp-prove'] as const

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request)
  const { ip } = callerOf(request, context)
  const formData = await readForm(request)
  switch (formIntent(formData, INTENTS)) {
    case 'profile': {
      const submission = parseWithZod(formData, { schema: profileSchema })
      if (submission.status !== 'success') return data({ result: submission.reply() as SubmissionResult<string[]> }, { status: 400 })
      await updateProfile(user.id, submission.value)
      return redirectWithToast(`${href('/account/data')}#details`, { type: 'success', title: 'Your details are saved' })
    }
    case 'whatsapp-on':
    case 'whatsapp-off': {
      // Only while the site sends WhatsApp messages; only the number kept on the signed-in account changes: the form names none.
      if (!whatsappEnabled()) return unknownForm()
      const on = formIntent(formData, INTENTS) === 'whatsapp-on'
      if (!(await switchAccountWhatsApp(user.id, on))) return data({ whatsappError: NO_PROVEN_NUMBER }, { status: 400 })
      return redirectWithToast(`${href('/account/data')}#whatsapp`, { type: 'success', title: on ? 'WhatsApp messages are on' : 'WhatsApp messages are off' })
    }
    case 'whatsapp-code': {
      if (!whatsappEnabled()) return unknownForm()
      try {
        if (!(await sendNumberCode({ accountId: user.id, ip }))) return data({ whatsappError: NO_NUMBER }, { status: 400 })
      } catch (error) {
        const refusal = refusalOf(error)
        return data({ whatsappError: refusal.message }, { status: refusal.status })
      }
      return redirectWithToast(`${href('/account/data')}#whatsapp`, { type: 'success', title: 'Code sent', description: 'If your number is on WhatsApp, the code is on its way there. It works for 30 minutes.' })
    }
    case 'whatsapp-prove': {
      if (!whatsappEnabled()) return unknownForm()
      const submission = parseWithZod(formData, { schema: numberCodeSchema })
      if (submission.status !== 'success') return data({ codeResult: submission.reply() as SubmissionResult<string[]> }, { status: 400 })
      try {
        await proveNumber({ accountId: user.id, code: submission.value.code, ip })
      } catch (error) {
        const refusal = refusalOf(error)
        return data({ codeResult: submission.reply({ ...formErrorsOf(refusal), hideFields: ['code'] }) as SubmissionResult<string[]> }, { status: refusal.status })
      }
      return redirectWithToast(`${href('/account/data')}#whatsapp`, { type: 'success', title: 'Your number is confirmed', description: 'WhatsApp messages are on.' })
    }
    default:
      return unknownForm()
  }
}

const NO_NUMBER = 'Add a valid WhatsApp number to your details above first.'
const NO_PROVEN_NUMBER = 'Confirm that your WhatsApp number is yours first, with the code we send to it.'

export default function AccountData({ loaderData, actionData }: Route.ComponentProps) {
  const { email, isAdmin, supportEmail, profile, swimmers, constraint, codeConstraint, whatsapp } = loaderData
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/privacy/schemas').then((schemas) => schemas.profileSchema), {
    constraint,
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    defaultValue: profile,
  })
  const others = swimmers.filter((swimmer) => !swimmer.isAccountHolder)
  return (
    <section className="container-page max-w-3xl py-10 sm:py-14">
      <h1 className="text-3xl font-extrabold text-brand-900 sm:text-4xl">Your data</h1>
      <p className="mt-3 text-muted">
        Under India&apos;s Digital Personal Data Protection Act you may see, correct and erase the data we hold about you and your swimmers.
        Read how we use it in our <Link to={href('/privacy-policy')} className="font-semibold text-brand-700 underline">Privacy Policy</Link>.
      </p>

      <section aria-labelledby="download-heading" className="card mt-8 p-6 shadow-sm">
        <h2 id="download-heading" className="text-xl font-bold text-ink">
          Download your data
        </h2>
        <p className="mt-2 text-muted">
          A ZIP file with everything we hold about your account and its swimmers in one readable file (data.json): your details and your
          swimmers&apos;, parents&apos; consents, bookings and their days, payments, refunds, camp registrations and waitlist places, the
          e-mails we sent you, {whatsapp && 'your WhatsApp consent and the WhatsApp messages we sent you, '}the browsers signed in to your account and our records of changes about you; and the receipts and report
          files themselves. It is made when you ask and is kept nowhere on our side.
        </p>
        <Form method="post" action={href('/account/data/export')} reloadDocument className="mt-4">
          <button type="submit" className="btn-primary">
            Download my data (ZIP)
          </button>
        </Form>
      </section>

      <section id="details" aria-labelledby="details-heading" className="card mt-8 p-6 shadow-sm">
        <h2 id="details-heading" className="text-xl font-bold text-ink">
          Correct your details
        </h2>
        <p className="mt-2 text-muted">
          Your e-mail address is <strong className="text-ink">{email}</strong>. To change it, please write to us at{' '}
          <EmailValue email={supportEmail} className="font-semibold text-brand-700 underline" />: we check that both addresses are yours first.
        </p>
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-5">
          <input type="hidden" name="intent" value="profile" />
          <FormAlert id={form.errorId} errors={form.errors} />
          <TextField field={fields.name} label="Your name" autoComplete="name" />
          <TextField field={fields.phone} label="WhatsApp number" type="tel" inputMode="tel" autoComplete="tel" />
          <TextField field={fields.currentLocation} label="Current location" autoComplete="address-level2" />
          {whatsapp && <WhatsAppOptInField field={fields.whatsappOptIn} wording={whatsapp.wording} />}
          <PendingButton when={{ fields: { intent: 'profile' } }} pendingLabel="Saving...">
            Save my details
          </PendingButton>
        </Form>
        {whatsapp && (
          <WhatsAppSwitch
            whatsapp={whatsapp}
            error={actionData && 'whatsappError' in actionData ? actionData.whatsappError : null}
            codeConstraint={codeConstraint}
            codeResult={actionData && 'codeResult' in actionData ? actionData.codeResult : undefined}
          />
        )}
        {swimmers.length > 0 && (
          <>
            <h3 className="mt-8 font-semibold text-ink">Swimmers</h3>
            <p className="mt-1 text-sm text-muted">Correct a swimmer&apos;s name, age and swimming details on their own page.</p>
            <ul className="mt-3 space-y-2">
              {swimmers.map((swimmer) => (
                <li key={swimmer.id}>
                  <Link to={swimmerEditLink(swimmer.id)} className="font-semibold text-brand-700 underline underline-offset-4">
                    Correct {swimmer.name}&apos;s details{swimmer.isAccountHolder ? ' (you)' : ''}
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <section aria-labelledby="delete-heading" className="card mt-8 p-6 shadow-sm">
        <h2 id="delete-heading" className="text-xl font-bold text-ink">
          Delete a swimmer or your account
        </h2>
        {isAdmin ? (
          <p className="mt-2 text-muted">Staff accounts are removed by another administrator of the lab.</p>
        ) : (
          <>
            <p className="mt-2 text-muted">
              Before anything is deleted, the next page shows what will happen to future sessions and camp places, and asks you to confirm
              with your password or a code we e-mail you.
            </p>
            <ul className="mt-4 space-y-2">
              {others.map((swimmer) => (
                <li key={swimmer.id}>
                  <Link to={dataDeletionLink(swimmer.id)} className="font-semibold text-brand-700 underline underline-offset-4">
                    Delete {swimmer.name}&apos;s profile
                  </Link>
                </li>
              ))}
              <li>
                <Link to={href('/account/data/delete')} className="font-semibold text-red-700 underline underline-offset-4">
                  Delete my account and all its data
                </Link>
              </li>
            </ul>
          </>
        )}
      </section>
    </section>
  )
}

/**
 * Whether the account's number gets WhatsApp messages, with a button to turn them on or off (plain
 * forms: no JavaScript needed). A number not proven the account holder's shows nothing of its
 * messages: only the way to prove it, a code sent to it on WhatsApp.
 */
function WhatsAppSwitch({
  whatsapp,
  error,
  codeConstraint,
  codeResult,
}: {
  whatsapp: AccountWhatsApp
  error: string | null
  codeConstraint: Route.ComponentProps['loaderData']['codeConstraint']
  codeResult: SubmissionResult<string[]> | undefined
}) {
  return (
    <div id="whatsapp" className="mt-8">
      <h3 className="font-semibold text-ink">WhatsApp messages</h3>
      {error && (
        <p role="alert" className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      {!whatsapp.phone ? (
        <p className="mt-1 text-muted">WhatsApp messages: off. To get booking confirmations, reminders and results on WhatsApp, add your WhatsApp number to your details above.</p>
      ) : !whatsapp.proven ? (
        <NumberProof whatsapp={whatsapp} codeConstraint={codeConstraint} codeResult={codeResult} />
      ) : (
        <>
          <p className="mt-1 text-ink">
            WhatsApp messages: {whatsapp.state}
            <span className="text-muted"> to {whatsapp.phone}</span>
          </p>
          <Form method="post" className="mt-3 space-y-3">
            {whatsapp.on ? (
              <PendingButton name="intent" value="whatsapp-off" when={{ fields: { intent: 'whatsapp-off' } }} pendingLabel="Turning off..." className="btn-secondary">
                Turn WhatsApp messages off
              </PendingButton>
            ) : (
              <>
                <p className="text-sm text-muted">{whatsapp.wording}</p>
                <PendingButton name="intent" value="whatsapp-on" when={{ fields: { intent: 'whatsapp-on' } }} pendingLabel="Turning on..." className="btn-secondary">
                  Turn WhatsApp messages on
                </PendingButton>
              </>
            )}
          </Form>
        </>
      )}
    </div>
  )
}

/** Proving the account's number: a code sent to it on WhatsApp, entered here (or replied from the number). */
function NumberProof({
  whatsapp,
  codeConstraint,
  codeResult,
}: {
  whatsapp: AccountWhatsApp
  codeConstraint: Route.ComponentProps['loaderData']['codeConstraint']
  codeResult: SubmissionResult<string[]> | undefined
}) {
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/privacy/schemas').then((schemas) => schemas.numberCodeSchema), {
    id: 'number-code',
    constraint: codeConstraint,
    lastResult: codeResult,
  })
  return (
    <>
      <p className="mt-1 text-ink">
        WhatsApp messages: {whatsapp.state}
        <span className="text-muted">{` (${whatsapp.phone})`}</span>
      </p>
      <p className="mt-2 text-sm text-muted">
        We send a code to this number on WhatsApp. Enter it below, or reply to our message with it, to confirm that the number is yours and turn
        WhatsApp messages on: {whatsapp.wording} No code? If you once replied STOP to our messages, reply START first.
      </p>
      <Form method="post" className="mt-3">
        <PendingButton name="intent" value="whatsapp-code" when={{ fields: { intent: 'whatsapp-code' } }} pendingLabel="Sending..." className="btn-secondary">
          Send me a code on WhatsApp
        </PendingButton>
      </Form>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-3">
        <input type="hidden" name="intent" value="whatsapp-prove" />
        <FormAlert id={form.errorId} errors={form.errors} />
        <TextField field={fields.code} label="Code from WhatsApp" inputMode="numeric" autoComplete="one-time-code" />
        <PendingButton when={{ fields: { intent: 'whatsapp-prove' } }} pendingLabel="Confirming..." className="btn-secondary">
          Confirm my number
        </PendingButton>
      </Form>
    </>
  )
}
