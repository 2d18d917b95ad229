import { data, Form, href } from 'react-router'
import type { Route } from './+types/testimonials.$token'
import { AuthCard, HoneypotField, PendingButton } from '~/components/form-controls'
import { TestimonialFigure } from '~/components/testimonials'
import { PRODUCT_NAME } from '~/lib/seo'
import { testimonialAnswerLimit } from '~/modules/rate-limit/limits.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { answerTestimonialLink, testimonialLinkView } from '~/modules/testimonials/testimonials.server'
import { callerOf } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { formIntent } from '~/web/intent'
import { notFoundUnless, refusalOf } from '~/web/refusals.server'
import { redirectWithToast } from '~/web/toast.server'

// The link's token is the key: whoever holds the e-mail may answer, once. A link that cannot be
// answered (unknown, used, replaced, expired) is the site's one 404 page, whichever it is. The page
// is personal and its address a secret, so it is never cached and never sends its address on.
export const meta: Route.MetaFunction = () => [
  { title: `May we show your words? | ${PRODUCT_NAME}` },
  { name: 'robots', content: 'noindex' },
]

const PRIVATE = { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' }

export const headers: Route.HeadersFunction = () => PRIVATE

export async function loader({ params }: Route.LoaderArgs) {
  const view = await testimonialLinkView(params.token)
  notFoundUnless(view)
  return data({ testimonial: { quote: view.quote, name: view.name, role: view.role, picture: view.picture }, aboutMinor: view.aboutMinor }, { headers: PRIVATE })
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  rejectBots(formData)
  const intent = formIntent(formData, ['agree', 'decline'])
  notFoundUnless(intent)
  try {
    await enforce([testimonialAnswerLimit(callerOf(request, context).ip)])
  } catch (error) {
    return data({ error: refusalOf(error).message }, { status: refusalOf(error).status, headers: PRIVATE })
  }
  const answered = await answerTestimonialLink(params.token, intent === 'agree')
  notFoundUnless(answered)
  // The link is used now, so this page would be the 404: the answer is confirmed on the home page.
  return redirectWithToast(href('/'), answered.outcome === 'agreed' ? AGREED : DECLINED, PRIVATE)
}

const AGREED = { type: 'success', title: 'Thank you', description: 'Your agreement is recorded and the words are now on our website. We have e-mailed you a link to take them off again at any time.' } as const
const DECLINED = { type: 'success', title: 'Thank you for answering', description: 'Nothing will be shown on our website.' } as const

export default function TestimonialAgreement({ loaderData, actionData }: Route.ComponentProps) {
  const { testimonial, aboutMinor } = loaderData
  const whose = aboutMinor ? `${testimonial.name}'s` : 'your'
  return (
    <AuthCard
      title={aboutMinor ? `May we show ${testimonial.name}'s words?` : 'May we show your words?'}
      lead={<p>{`We would like to show ${whose} words on our website, with ${aboutMinor ? 'their' : 'your'} name and role, exactly as below. Nothing is shown unless you agree.`}</p>}
      wide
    >
      <div className="space-y-6">
        <div>
          <h2 className="text-lg font-bold text-brand-900">What would appear</h2>
          <div className="mt-3">
            <TestimonialFigure {...testimonial} />
          </div>
        </div>
        {aboutMinor && (
          <p className="rounded-lg bg-brand-50 p-4 text-ink">{`${testimonial.name} is under 18, so we ask you as their parent or guardian. By agreeing, you agree on ${testimonial.name}'s behalf, as their parent or guardian.`}</p>
        )}
        <p className="text-ink">
          {`If you agree, we record the time and exactly these words, name, role and photo, and e-mail you a link to take ${aboutMinor ? 'them' : 'it'} off the website at any time. If anything here should change, we will ask you again.`}
        </p>
        {actionData?.error && (
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            {actionData.error}
          </p>
        )}
        <Form method="post" className="flex flex-col gap-3 border-t border-slate-200 pt-6 sm:flex-row">
          <HoneypotField />
          <PendingButton name="intent" value="agree" when={{ fields: { intent: 'agree' }, untilLoaded: true }} pendingLabel="Sending..." className="btn-primary w-full sm:w-auto">
            Yes, show it
          </PendingButton>
          <PendingButton name="intent" value="decline" when={{ fields: { intent: 'decline' }, untilLoaded: true }} pendingLabel="Sending..." className="btn-secondary w-full sm:w-auto">
            No, thanks
          </PendingButton>
        </Form>
      </div>
    </AuthCard>
  )
}
