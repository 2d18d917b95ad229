import { Form, href, Link, type ShouldRevalidateFunction } from 'react-router'
import { AuthCard, FormAlert, HoneypotField, PendingButton } from './form-controls'
import type { CityAlertLinkState } from '~/web/analysis-days/city-alert-links.server'

/** Once the button has acted, the link's page is not read again: it shows what was done, and the link no longer works. */
export const cityAlertLinkRevalidation: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod === 'POST' ? false : defaultShouldRevalidate)

type Words = { title: string; lead: (city: string) => string; button: string; done: { title: string; text: (city: string) => string } }

const GONE = { title: 'This link no longer works', text: 'It was used already, or it has expired. You can ask again on the list of analysis days.' }

/**
 * The page of a city alert's e-mailed link: what pressing its one button does (`loaded`, as the link
 * was opened), then what was done (`answer`).
 */
export function CityAlertLinkPage({ loaded, answer, words }: { loaded: CityAlertLinkState; answer: CityAlertLinkState | undefined; words: Words }) {
  const state = answer ?? loaded
  if (state.state === 'gone' || state.state === 'done') {
    const title = state.state === 'done' ? words.done.title : GONE.title
    return (
      <AuthCard title={title}>
        <p role="status" className="text-ink">
          {state.state === 'done' ? words.done.text(state.city) : GONE.text}
        </p>
        <Link to={href('/analysis-days')} className="btn-secondary mt-6">
          See the analysis days
        </Link>
      </AuthCard>
    )
  }
  return (
    <AuthCard title={words.title} lead={loaded.state === 'open' ? <p>{words.lead(loaded.city)}</p> : undefined}>
      <Form method="post" className="space-y-4">
        <HoneypotField />
        <FormAlert id="city-alert-link-error" errors={state.state === 'refused' ? [state.message] : undefined} />
        <PendingButton when={{ untilLoaded: true }} pendingLabel="Sending..." className="btn-primary w-full">
          {words.button}
        </PendingButton>
      </Form>
    </AuthCard>
  )
}
