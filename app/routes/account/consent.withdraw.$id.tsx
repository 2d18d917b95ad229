import { data, href, Link } from 'react-router'
import type { Route } from './+types/consent.withdraw.$id'
import { ConsentWithdrawalForm } from '~/components/consent-withdrawal-form'
import { AuthCard } from '~/components/form-controls'
import { formatLabDateTime } from '~/lib/lab-time'
import { PRIVATE_FORM_PAGE_HEADERS } from '~/lib/private-links.server'
import { PRODUCT_NAME } from '~/lib/seo'
import { consentAnswerLimit } from '~/modules/rate-limit/limits.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { consentWithdrawalView, withdrawConsentByLink } from '~/modules/future-bookings/consent-withdrawal.server'
import { futureBookingView } from '~/modules/future-bookings/future-bookings.server'
import { callerOf } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { formIntent } from '~/web/intent'
import { notFoundUnless, refusalOf } from '~/web/refusals.server'

// The parent of a swimmer under 18 who holds their own account gave consent through an e-mailed
// link, and withdraws it through the link in the e-mail that confirmed it: the key is the only
// proof, so the page is personal, never cached, and does not pass its address on.
export const meta: Route.MetaFunction = () => [
  { title: `Withdraw a parent's consent | ${PRODUCT_NAME}` },
  { name: 'robots', content: 'noindex' },
]


export const headers: Route.HeadersFunction = () => PRIVATE_FORM_PAGE_HEADERS

export async function loader({ request, params }: Route.LoaderArgs) {
  const now = new Date()
  const view = await consentWithdrawalView(params.id, new URL(request.url).searchParams.get('key'), now)
  notFoundUnless(view)
  return data(
    {
      swimmer: view.swimmerFirstName,
      givenAt: formatLabDateTime(view.givenAt),
      withdrawnAt: view.withdrawnAt ? formatLabDateTime(view.withdrawnAt) : null,
      future: view.future.map(futureBookingView),
    },
    { headers: PRIVATE_FORM_PAGE_HEADERS },
  )
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  rejectBots(formData)
  notFoundUnless(formIntent(formData, ['withdraw']))
  try {
    await enforce([consentAnswerLimit(callerOf(request, context).ip)])
    const outcome = await withdrawConsentByLink(params.id, new URL(request.url).searchParams.get('key'))
    notFoundUnless(outcome)
    return data({ done: outcome }, { headers: PRIVATE_FORM_PAGE_HEADERS })
  } catch (error) {
    if (error instanceof Response) throw error
    const refusal = refusalOf(error)
    return data({ withdrawError: refusal.message }, { status: refusal.status, headers: PRIVATE_FORM_PAGE_HEADERS })
  }
}

export default function ParentConsentWithdrawal({ loaderData, actionData }: Route.ComponentProps) {
  const { swimmer, givenAt, withdrawnAt, future } = loaderData
  const done = actionData && 'done' in actionData ? actionData.done : withdrawnAt ? 'already' : null
  if (done) {
    return (
      <AuthCard title={done === 'withdrawn' ? 'Consent withdrawn' : 'Already withdrawn'}>
        <p role="status" className="text-ink">
          {done === 'withdrawn'
            ? `Your consent is withdrawn. We will not book anything more for ${swimmer}, and we have e-mailed you and ${swimmer} what was cancelled.`
            : `Your consent for ${swimmer} was withdrawn${withdrawnAt ? ` on ${withdrawnAt}` : ''}, so nothing has changed.`}
        </p>
        <p className="mt-4 text-ink">{`To have ${swimmer}'s data erased as well, ${swimmer} can delete their account under Your data, or you can write to us.`}</p>
        <Link to={href('/privacy-policy')} className="btn-secondary mt-6">
          Read our Privacy Policy
        </Link>
      </AuthCard>
    )
  }
  return (
    <AuthCard title={`Your consent for ${swimmer}`} lead={<p>{`You gave your consent on ${givenAt}, so ${swimmer} can book sessions and camps with us. You can withdraw it here at any time.`}</p>} wide>
      <ConsentWithdrawalForm
        swimmer={swimmer}
        afterwards={`we will not book anything more for ${swimmer}. ${swimmer} can ask you for your consent again from their account.`}
        future={future}
        error={actionData && 'withdrawError' in actionData ? actionData.withdrawError : undefined}
      />
    </AuthCard>
  )
}
