import type { Route } from './+types/city-alerts.stop.$token'
import { CityAlertLinkPage, cityAlertLinkRevalidation } from '~/components/city-alert-link'
import { PRODUCT_NAME } from '~/lib/seo'
import { cityAlertToStop, stopCityAlert } from '~/modules/booking/city-alerts.server'
import { cityAlertLinkAction, cityAlertLinkHeaders, cityAlertLinkLoader } from '~/web/analysis-days/city-alert-links.server'

// The link at the end of every alert e-mail: its button deletes the request, so nothing more is
// sent for that city.

export const meta: Route.MetaFunction = () => [{ title: `Stop the alerts | ${PRODUCT_NAME}` }, { name: 'robots', content: 'noindex' }]

export const headers: Route.HeadersFunction = cityAlertLinkHeaders

export const shouldRevalidate = cityAlertLinkRevalidation

export const loader = ({ params }: Route.LoaderArgs) => cityAlertLinkLoader(params.token, cityAlertToStop)

export const action = ({ request, context, params }: Route.ActionArgs) => cityAlertLinkAction(request, context, params.token, stopCityAlert)

const WORDS = {
  title: 'Stop the alerts',
  lead: (city: string) => `Press the button and we will no longer e-mail you when the lab plans an analysis day in ${city}, and forget your request.`,
  button: 'Stop the alerts',
  done: { title: 'Alerts stopped', text: (city: string) => `We will no longer tell you of analysis days in ${city}, and your request is deleted.` },
}

export default function StopCityAlert({ loaderData, actionData }: Route.ComponentProps) {
  return <CityAlertLinkPage loaded={loaderData} answer={actionData} words={WORDS} />
}
