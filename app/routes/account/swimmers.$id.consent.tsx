import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/swimmers.$id.consent'
import { ConsentNotice } from '~/components/consent-notice'
import { ConsentStatusNote } from '~/components/consent-status'
import { ConsentWithdrawalForm } from '~/components/consent-withdrawal-form'
import { DeclarationField } from '~/components/declaration-field'
import { AuthCard, FormAlert, HoneypotField, PendingButton, TextField, useLazyValidatedForm, type FieldConstraints } from '~/components/form-controls'
import { callerOf, requireUser } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { formIntent } from '~/web/intent'
import { formErrorsOf, notFoundUnless, refusalOf } from '~/web/refusals.server'
import { PRODUCT_NAME } from '~/lib/seo'
import { redirectWithToast } from '~/web/toast.server'
import { sendConsentRequestAgain } from '~/modules/swimmers/consent-requests.server'
import { ConsentGiveSchema, ConsentResendSchema } from '~/modules/swimmers/consent-schemas'
import { consentIsTheAccounts, consentStatusOf, giveConsentAgain, onlyAddressToAsk, PRIVACY_NOTICE_VERSION } from '~/modules/swimmers/consent.server'
import { withdrawConsent } from '~/modules/future-bookings/consent-withdrawal.server'
import { futureBookingsOf, futureBookingView } from '~/modules/future-bookings/future-bookings.server'
import { swimmerOf } from '~/modules/swimmers/swimmers.server'
import { swimmerConsentLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.swimmer.name ?? 'Swimmer'}: parent's consent | ${PRODUCT_NAME}` }, { name: 'robots', content: 'noindex' }]

/** The account's own swimmer the address names; another account's (or none) is a 404. */
async function ownSwimmer(request: Request, id: string) {
  const user = await requireUser(request)
  const swimmer = /^\d{1,9}$/.test(id) ? await swimmerOf(user.id, Number(id)) : null
  notFoundUnless(swimmer)
  return { user, swimmer }
}

/** The attributes of the two forms' fields, worked out once: each form shows with them and loads its schema afterwards. */
const CONSTRAINTS = { resend: getZodConstraint(ConsentResendSchema), give: getZodConstraint(ConsentGiveSchema) }

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user, swimmer } = await ownSwimmer(request, params.id)
  const now = new Date()
  const status = await consentStatusOf(swimmer, now)
  const accountsConsent = consentIsTheAccounts(swimmer)
  const future = accountsConsent && status.state === 'given' ? await futureBookingsOf({ accountId: user.id, email: user.email, swimmerId: swimmer.id }, now) : []
  return {
    swimmer: { id: swimmer.id, name: swimmer.name, self: swimmer.isAccountHolder },
    status,
    /** After a withdrawal, the only address a new link may go to. */
    onlyAddress: swimmer.isAccountHolder ? await onlyAddressToAsk(swimmer.id) : null,
    accountsConsent,
    noticeVersion: PRIVACY_NOTICE_VERSION,
    future: future.map(futureBookingView),
    constraints: CONSTRAINTS,
  }
}

const INTENTS = ['resend', 'withdraw', 'give'] as const

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, swimmer } = await ownSwimmer(request, params.id)
  const formData = await readForm(request)
  rejectBots(formData)
  const intent = formIntent(formData, INTENTS)
  notFoundUnless(intent)
  const here = swimmerConsentLink(swimmer.id)
  const account = { id: user.id, name: user.name, email: user.email }
  if (intent === 'withdraw') {
    try {
      const cancelled = await withdrawConsent({ account, swimmer })
      const description = cancelled.length > 0 ? `${cancelled.length} ${cancelled.length === 1 ? 'booking was' : 'bookings were'} cancelled. We have e-mailed you the details.` : 'We have e-mailed you to confirm.'
      return redirectWithToast(here, { type: 'success', title: `Consent for ${swimmer.name} withdrawn`, description })
    } catch (error) {
      const refusal = refusalOf(error)
      return data({ intent, withdrawError: refusal.message }, { status: refusal.status })
    }
  }
  const submission = parseWithZod(formData, { schema: intent === 'resend' ? ConsentResendSchema : ConsentGiveSchema })
  if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
  try {
    if (intent === 'resend') {
      const { parentEmail } = submission.value as { parentEmail: string }
      await sendConsentRequestAgain({ account, swimmer, parentEmail, ip: callerOf(request, context).ip })
      return redirectWithToast(here, { type: 'success', title: 'Link sent', description: `We have e-mailed ${parentEmail.toLowerCase()} a new link. Earlier links no longer work.` })
    }
    await giveConsentAgain({ account, swimmer })
    return redirectWithToast(here, { type: 'success', title: 'Consent given', description: `${swimmer.name} can be booked again.` })
  } catch (error) {
    const refusal = refusalOf(error)
    return data({ intent, result: submission.reply(formErrorsOf(refusal)) }, { status: refusal.status })
  }
}

export default function SwimmerConsent({ loaderData, actionData }: Route.ComponentProps) {
  const { swimmer, status, accountsConsent, future, noticeVersion, onlyAddress, constraints } = loaderData
  const last = (intent: (typeof INTENTS)[number]) => (actionData?.intent === intent && 'result' in actionData ? actionData.result : undefined)
  return (
    <AuthCard title={swimmer.self ? "Your parent's consent" : `Parent's consent for ${swimmer.name}`} wide>
      <div className="space-y-6">
        {status.state === 'not_needed' ? (
          <p className="text-ink">{swimmer.self ? 'You are 18 or older, so no parent needs to agree.' : `${swimmer.name} is 18 or older, so no parent's consent is needed.`}</p>
        ) : (
          <ConsentStatusNote status={status} swimmerName={swimmer.name} self={swimmer.self} />
        )}
        {swimmer.self && (status.state === 'not_asked' || status.state === 'waiting' || status.state === 'missing') && (
          <ResendForm constraint={constraints.resend} lastResult={last('resend')} parentEmail={onlyAddress ?? (status.state === 'missing' ? '' : status.parentEmail)} onlyAddress={onlyAddress} />
        )}
        {swimmer.self && status.state === 'given' && <p className="text-ink">Your parent or guardian can withdraw their consent at any time through the link in the e-mail that confirmed it.</p>}
        {accountsConsent && status.state === 'given' && <ConsentWithdrawalForm swimmer={swimmer.name} afterwards={`${swimmer.name} cannot be booked until you give it again here.`} future={future} error={actionData && 'withdrawError' in actionData ? actionData.withdrawError : undefined} />}
        {accountsConsent && status.state === 'missing' && <GiveAgainForm swimmer={swimmer.name} noticeVersion={noticeVersion} constraint={constraints.give} lastResult={last('give')} />}
        <Link to={href('/swimmers')} className="btn-secondary">
          Back to swimmers
        </Link>
      </div>
    </AuthCard>
  )
}

function ResendForm({ parentEmail, onlyAddress, constraint, lastResult }: { parentEmail: string; onlyAddress: string | null; constraint: FieldConstraints; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/swimmers/consent-schemas').then((schemas) => schemas.ConsentResendSchema), {
    id: 'consent-resend',
    constraint,
    lastResult,
    defaultValue: { parentEmail },
  })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4 border-t border-slate-200 pt-6">
      <HoneypotField />
      <h2 className="text-lg font-bold text-brand-900">Send the link again</h2>
      <p className="text-ink">
        {onlyAddress
          ? `Your parent or guardian at ${onlyAddress} withdrew their consent, so a new link can go only to them. It replaces the earlier ones; you can send one every few minutes.`
          : 'Correct the address if it was wrong. The new link replaces the earlier ones; you can send one every few minutes.'}
      </p>
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextField field={fields.parentEmail} label="Your parent's or guardian's e-mail address" type="email" autoComplete="off" />
      <PendingButton name="intent" value="resend" when={{ fields: { intent: 'resend' }, untilLoaded: true }} pendingLabel="Sending..." className="btn-primary w-full sm:w-auto">
        Send the link
      </PendingButton>
    </Form>
  )
}

function GiveAgainForm({ swimmer, noticeVersion, constraint, lastResult }: { swimmer: string; noticeVersion: string; constraint: FieldConstraints; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/swimmers/consent-schemas').then((schemas) => schemas.ConsentGiveSchema), { id: 'consent-give', constraint, lastResult })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4 border-t border-slate-200 pt-6">
      <HoneypotField />
      <ConsentNotice swimmer={swimmer} version={noticeVersion} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <DeclarationField field={fields.declaration}>{`I am ${swimmer}'s parent or legal guardian, and I agree that the lab keeps and uses ${swimmer}'s data as described above and in the Privacy Policy.`}</DeclarationField>
      <PendingButton name="intent" value="give" when={{ fields: { intent: 'give' }, untilLoaded: true }} pendingLabel="Sending..." className="btn-primary w-full sm:w-auto">
        Give consent
      </PendingButton>
    </Form>
  )
}
