import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/consent.$token'
import { ConsentNotice } from '~/components/consent-notice'
import { DeclarationField } from '~/components/declaration-field'
import { AuthCard, FormAlert, HoneypotField, PendingButton, TextField, useLazyValidatedForm, type FieldConstraints } from '~/components/form-controls'
import { callerOf } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { formIntent } from '~/web/intent'
import { formatLabDateTime } from '~/lib/lab-time'
import { PRIVATE_FORM_PAGE_HEADERS } from '~/lib/private-links.server'
import { PRODUCT_NAME } from '~/lib/seo'
import { formErrorsOf, notFoundUnless, refusalOf } from '~/web/refusals.server'
import { consentAnswerLimit } from '~/modules/rate-limit/limits.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { answerConsentLink, consentLinkView } from '~/modules/swimmers/consent-requests.server'
import { ConsentAgreeSchema } from '~/modules/swimmers/consent-schemas'
import { PRIVACY_NOTICE_VERSION } from '~/modules/swimmers/consent.server'

// The link's token is the key: whoever holds the e-mail may answer, once. The page is personal and
// its address a secret, so it is never cached and never sends its address on to other pages.
export const meta: Route.MetaFunction = () => [
  { title: `A parent's consent | ${PRODUCT_NAME}` },
  { name: 'robots', content: 'noindex' },
]


export const headers: Route.HeadersFunction = () => PRIVATE_FORM_PAGE_HEADERS

/** The attributes of the agreement's fields, worked out once: the form shows with them and loads its schema afterwards. */
const AGREE_CONSTRAINT = getZodConstraint(ConsentAgreeSchema)

export async function loader({ params }: Route.LoaderArgs) {
  const view = await consentLinkView(params.token)
  notFoundUnless(view)
  return data({ state: view.state, swimmer: view.swimmerFirstName, expiresAt: formatLabDateTime(view.expiresAt), noticeVersion: PRIVACY_NOTICE_VERSION, constraint: AGREE_CONSTRAINT }, { headers: PRIVATE_FORM_PAGE_HEADERS })
}

type Answered = { done: 'agreed' | 'refused' | 'already_answered' | 'expired' }

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  rejectBots(formData)
  const intent = formIntent(formData, ['agree', 'refuse'])
  const submission = parseWithZod(formData, { schema: ConsentAgreeSchema })
  try {
    await enforce([consentAnswerLimit(callerOf(request, context).ip)])
    if (intent === 'agree' && submission.status !== 'success') {
      const view = await consentLinkView(params.token)
      notFoundUnless(view)
      // An answered or expired link says so, whatever the form lacks.
      if (view.state !== 'open') return data<Answered>({ done: view.state === 'answered' ? 'already_answered' : 'expired' }, { headers: PRIVATE_FORM_PAGE_HEADERS })
      return data({ result: submission.reply() }, { status: 400, headers: PRIVATE_FORM_PAGE_HEADERS })
    }
    notFoundUnless(intent)
    const answer = intent === 'agree' && submission.status === 'success' ? { agree: true as const, guardianName: submission.value.guardianName } : { agree: false as const }
    const answered = await answerConsentLink(params.token, answer)
    notFoundUnless(answered)
    return data<Answered>({ done: answered.outcome }, { headers: PRIVATE_FORM_PAGE_HEADERS })
  } catch (error) {
    const refusal = refusalOf(error)
    return data({ result: submission.reply(formErrorsOf(refusal)) }, { status: refusal.status, headers: PRIVATE_FORM_PAGE_HEADERS })
  }
}

const DONE = {
  agreed: { title: 'Thank you', text: (swimmer: string) => `Your consent is recorded. ${swimmer} can now book sessions and camps, and we have e-mailed them to say so.` },
  refused: { title: 'You did not agree', text: (swimmer: string) => `We have recorded your answer. We will not book anything for ${swimmer}, and we will erase their account and everything in it.` },
  already_answered: { title: 'Already answered', text: () => 'This link has already been answered, so nothing has changed. Each link can be used once.' },
  expired: { title: 'This link has expired', text: (swimmer: string) => `This link has expired or a newer one has been sent. If ${swimmer} still wants to swim with us, they can send you a new link from their account.` },
} as const

export default function ParentConsent({ loaderData, actionData }: Route.ComponentProps) {
  const { swimmer, noticeVersion } = loaderData
  const done = actionData && 'done' in actionData ? actionData.done : loaderData.state === 'answered' ? 'already_answered' : loaderData.state === 'expired' ? 'expired' : null
  if (done) {
    return (
      <AuthCard title={DONE[done].title}>
        <p role="status" className="text-ink">
          {DONE[done].text(swimmer)}
        </p>
        <Link to={href('/privacy-policy')} className="btn-secondary mt-6">
          Read our Privacy Policy
        </Link>
      </AuthCard>
    )
  }
  return (
    <AuthCard title={`Consent for ${swimmer}`} lead={<p>{`${swimmer} is under 18 and has asked to swim with us. Before we keep their details or book anything, we need a parent's or guardian's consent. Please answer by ${loaderData.expiresAt}.`}</p>} wide>
      <div className="space-y-8">
        <ConsentNotice swimmer={swimmer} version={noticeVersion} />
        <AgreeForm swimmer={swimmer} constraint={loaderData.constraint} lastResult={actionData && 'result' in actionData ? actionData.result : undefined} />
        <Form method="post" className="space-y-3 border-t border-slate-200 pt-6">
          <HoneypotField />
          <h2 className="text-lg font-bold text-brand-900">If you do not agree</h2>
          <p className="text-ink">{`We will not book anything for ${swimmer}, and we will erase their account and everything in it.`}</p>
          <PendingButton name="intent" value="refuse" when={{ fields: { intent: 'refuse' }, untilLoaded: true }} pendingLabel="Sending..." className="btn-secondary w-full sm:w-auto">
            I do not agree
          </PendingButton>
        </Form>
      </div>
    </AuthCard>
  )
}

function AgreeForm({ swimmer, constraint, lastResult }: { swimmer: string; constraint: FieldConstraints; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/swimmers/consent-schemas').then((schemas) => schemas.ConsentAgreeSchema), { id: 'consent-agree', constraint, lastResult })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4 border-t border-slate-200 pt-6">
      <HoneypotField />
      <h2 className="text-lg font-bold text-brand-900">If you agree</h2>
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextField field={fields.guardianName} label="Your full name" autoComplete="name" />
      <DeclarationField field={fields.declaration}>{`I am ${swimmer}'s parent or legal guardian, and I agree that the lab keeps and uses ${swimmer}'s data as described above.`}</DeclarationField>
      <PendingButton name="intent" value="agree" when={{ fields: { intent: 'agree' }, untilLoaded: true }} pendingLabel="Sending..." className="btn-primary w-full sm:w-auto">
        I agree
      </PendingButton>
    </Form>
  )
}
