import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/testimonials.withdraw.$id'
import { AuthCard, HoneypotField, PendingButton } from '~/components/form-controls'
import { formatLabDateTime } from '~/lib/lab-time'
import { PRODUCT_NAME } from '~/lib/seo'
import { testimonialAnswerLimit } from '~/modules/rate-limit/limits.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { testimonialWithdrawalView, withdrawTestimonialByLink } from '~/modules/testimonials/testimonials.server'
import { callerOf } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { formIntent } from '~/web/intent'
import { notFoundUnless, refusalOf } from '~/web/refusals.server'

// The person who agreed to a testimonial (or their parent) takes it off the site through the link in
// the e-mail that confirmed it: the key is the only proof, so the page is personal, never cached,
// and does not pass its address on. Opening the page changes nothing; the button does.
export const meta: Route.MetaFunction = () => [
  { title: `Take a testimonial off the website | ${PRODUCT_NAME}` },
  { name: 'robots', content: 'noindex' },
]

const PRIVATE = { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' }

export const headers: Route.HeadersFunction = () => PRIVATE

export async function loader({ request, params }: Route.LoaderArgs) {
  const view = await testimonialWithdrawalView(params.id, new URL(request.url).searchParams.get('key'))
  notFoundUnless(view)
  return data(
    { shown: view.shown, name: view.name, aboutMinor: view.aboutMinor, agreedAt: view.agreedAt ? formatLabDateTime(view.agreedAt) : null, withdrawnAt: view.withdrawnAt ? formatLabDateTime(view.withdrawnAt) : null },
    { headers: PRIVATE },
  )
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  rejectBots(formData)
  notFoundUnless(formIntent(formData, ['withdraw']))
  try {
    await enforce([testimonialAnswerLimit(callerOf(request, context).ip)])
  } catch (error) {
    return data({ error: refusalOf(error).message }, { status: refusalOf(error).status, headers: PRIVATE })
  }
  const outcome = await withdrawTestimonialByLink(params.id, new URL(request.url).searchParams.get('key'))
  notFoundUnless(outcome)
  return data({ done: outcome }, { headers: PRIVATE })
}

export default function TestimonialWithdrawal({ loaderData, actionData }: Route.ComponentProps) {
  const { shown, name, aboutMinor, agreedAt, withdrawnAt } = loaderData
  const whose = aboutMinor ? `${name}'s` : 'your'
  const done = actionData && 'done' in actionData ? actionData.done : shown ? null : 'already'
  if (done) {
    return (
      <AuthCard title={done === 'withdrawn' ? 'Taken off the website' : 'Not on the website'}>
        <p role="status" className="text-ink">
          {done === 'withdrawn'
            ? `Done: ${whose} words are no longer on our website.`
            : `${aboutMinor ? `${name}'s` : 'Your'} words are not on our website${withdrawnAt ? ` (taken off on ${withdrawnAt})` : ''}, so nothing has changed.`}
        </p>
        <p className="mt-4 text-ink">To have the testimonial deleted altogether, write to us and we will delete it.</p>
        <Link to={href('/privacy-policy')} className="btn-secondary mt-6">
          Read our Privacy Policy
        </Link>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Take it off the website" lead={<p>{`You agreed${agreedAt ? ` on ${agreedAt}` : ''} that we show ${whose} words on our website. You can take them off here; it happens at once.`}</p>}>
      {actionData && 'error' in actionData && (
        <p role="alert" className="mb-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {actionData.error}
        </p>
      )}
      <Form method="post">
        <HoneypotField />
        <PendingButton name="intent" value="withdraw" when={{ fields: { intent: 'withdraw' }, untilLoaded: true }} pendingLabel="Sending..." className="btn-primary w-full sm:w-auto">
          Take it off the website
        </PendingButton>
      </Form>
    </AuthCard>
  )
}
