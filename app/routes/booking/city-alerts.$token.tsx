import type { Route } from './+types/city-alerts.$token'
import { CityAlertLinkPage, cityAlertLinkRevalidation } from '~/components/city-alert-link'
import { PRODUCT_NAME } from '~/lib/seo'
import { cityAlertToConfirm, confirmCityAlert } from '~/modules/booking/city-alerts.server'
import { cityAlertLinkAction, cityAlertLinkHeaders, cityAlertLinkLoader } from '~/web/analysis-days/city-alert-links.server'

// The e-mailed link that confirms an address asking to hear when the lab comes to a city: opening
// it confirms nothing (mail scanners open links); its button does, once.

export const meta: Route.MetaFunction = () => [{ title: `Confirm your alerts | ${PRODUCT_NAME}` }, { name: 'robots', content: 'noindex' }]

export const headers: Route.HeadersFunction = cityAlertLinkHeaders

export const shouldRevalidate = cityAlertLinkRevalidation

export const loader = ({ params }: Route.LoaderArgs) => cityAlertLinkLoader(params.token, cityAlertToConfirm)

export const action = ({ request, context, params }: Route.ActionArgs) => cityAlertLinkAction(request, context, params.token, confirmCityAlert)

const WORDS = {
  title: 'Confirm your alerts',
  lead: (city: string) => `Press the button to get an e-mail each time the lab plans an analysis day in ${city}. Every one of them has a link to stop them.`,
  button: 'Confirm the alerts',
  done: { title: 'Alerts confirmed', text: (city: string) => `Thank you. We will e-mail you when the lab plans an analysis day in ${city}.` },
}

export default function ConfirmCityAlert({ loaderData, actionData }: Route.ComponentProps) {
  return <CityAlertLinkPage loaded={loaderData} answer={actionData} words={WORDS} />
}
