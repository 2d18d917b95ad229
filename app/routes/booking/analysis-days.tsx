import { getZodConstraint } from '@conform-to/zod/v4'
import { data, href, Link } from 'react-router'
import type { Route } from './+types/analysis-days'
import { CityAlertForm } from '~/components/city-alert-form'
import { analysisDayLink } from '~/lib/links'
import { formatLabDateTime, formatTimeRange } from '~/lib/lab-time'
import { formatPhone } from '~/lib/phone'
import { pageMeta } from '~/lib/seo'
import { describeDates, publicAnalysisDays } from '~/modules/booking/analysis-days.server'
import { CityAlertSchema } from '~/modules/booking/city-alert-schemas'
import { CITY_ALERT_CONFIRM_DAYS, cityAlertCities, cityName, mayAddWhatsApp, requestCityAlert } from '~/modules/booking/city-alerts.server'
import { seatsLeftText } from '~/modules/booking/texts'
import { accountNumber } from '~/modules/whatsapp/account.server'
import { callerOf, getUser } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { submitOnlyForm } from '~/web/page-forms.server'

// Every analysis day to come away from the lab, by city: where the lab takes its kit, when, what a
// slot costs and how many are left, each leading to its page where a slot is booked. Below them, the
// form that asks to be told when the lab comes to a city.

/** The attributes of the alert form's fields, worked out once: the form shows with them and loads its schema afterwards. */
const CITY_ALERT_CONSTRAINT = getZodConstraint(CityAlertSchema)

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Analysis Days Near You',
    description: 'The lab takes its underwater cameras to pools away from Bangalore for a day or two: the dates, venues, prices and slots left in each city, booked online.',
    path: href('/analysis-days'),
  })

export async function loader({ request }: Route.LoaderArgs) {
  const [days, alertCities, whatsapp] = await Promise.all([publicAnalysisDays(new Date()), cityAlertCities(), whatsAppOf(request)])
  const cities: Array<{ city: string; days: Array<ReturnType<typeof cardOf>> }> = []
  // The days come by city: one heading for each.
  for (const day of days) {
    const last = cities.at(-1)
    if (last?.city === day.city) last.days.push(cardOf(day))
    else cities.push({ city: day.city, days: [cardOf(day)] })
  }
  return { cities, alerts: { cities: alertCities, whatsapp, constraint: CITY_ALERT_CONSTRAINT, days: CITY_ALERT_CONFIRM_DAYS } }
}

/** The number a signed-in customer may also be told on: proven and opted in to WhatsApp; otherwise null. */
async function whatsAppOf(request: Request) {
  const user = await getUser(request)
  if (!user || !(await mayAddWhatsApp(user.id))) return null
  const { phone } = await accountNumber(user.id)
  return phone ? { phone: formatPhone(phone) } : null
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  rejectBots(formData)
  const user = await getUser(request)
  const { ip } = callerOf(request, context)
  return submitOnlyForm(formData, CityAlertSchema, async (value) => {
    await requestCityAlert(value, { ip, account: user })
    // The same answer whatever the address asked before.
    return data({ asked: { city: cityName(value.city) } })
  })
}

function cardOf(day: Awaited<ReturnType<typeof publicAnalysisDays>>[number]) {
  return {
    id: day.id,
    url: analysisDayLink(day.id),
    productName: day.productName,
    venueName: day.venueName,
    address: day.address,
    dates: describeDates(day),
    hours: formatTimeRange(day.startTime, day.endTime),
    price: day.price,
    seats: seatsLeftText(day.seatsLeft),
    opens: day.opensLater ? `Opens to everyone at ${formatLabDateTime(day.releaseAt)}` : null,
  }
}

export default function AnalysisDays({ loaderData, actionData }: Route.ComponentProps) {
  const { cities, alerts } = loaderData
  return (
    <section aria-labelledby="page-title" className="container-page py-10 sm:py-14">
      <h1 id="page-title" className="text-3xl font-extrabold text-brand-900 sm:text-4xl">
        Analysis days near you
      </h1>
      <p className="mt-3 max-w-3xl text-lg text-muted">
        For a day or two the lab brings its underwater cameras to a pool away from Bangalore, and films swimmers there one slot at a time. Every price is in Indian rupees and includes GST.
      </p>

      {cities.length === 0 ? (
        <div className="card mt-8 max-w-3xl p-6 shadow-sm">
          <h2 className="text-xl font-bold text-ink">No analysis day planned yet</h2>
          <p className="mt-2 text-muted">The lab has no analysis day away from Bangalore planned yet. Sessions at the lab in Bangalore can be booked at any time.</p>
          <Link to={href('/booking')} className="btn-primary mt-5">
            Book a session in Bangalore
          </Link>
        </div>
      ) : (
        cities.map((city, index) => (
          <section key={city.city} aria-labelledby={`city-${index}`} className="mt-10">
            <h2 id={`city-${index}`} className="text-2xl font-bold text-brand-900">
              {city.city}
            </h2>
            <ul className="mt-4 grid gap-6 md:grid-cols-2">
              {city.days.map((day) => (
                <li key={day.id} className="card flex flex-col p-6 shadow-sm">
                  <h3 className="text-xl font-bold text-brand-900">
                    {`${day.productName} at ${day.venueName}`}
                  </h3>
                  <dl className="mt-3 mb-5 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                    <dt className="font-semibold text-ink">Dates</dt>
                    <dd className="min-w-0 text-ink">{day.dates}</dd>
                    <dt className="font-semibold text-ink">Hours</dt>
                    <dd className="min-w-0 text-ink">{day.hours}</dd>
                    <dt className="font-semibold text-ink">Venue</dt>
                    <dd className="min-w-0 text-ink [overflow-wrap:anywhere]">
                      {day.venueName}, {day.address}
                    </dd>
                    <dt className="font-semibold text-ink">Price</dt>
                    <dd className="min-w-0 text-ink">{day.price}</dd>
                    <dt className="font-semibold text-ink">Seats</dt>
                    <dd className="min-w-0 font-semibold text-ink">{day.seats}</dd>
                  </dl>
                  {day.opens && <p className="-mt-2 mb-5 text-sm font-semibold text-amber-900">{day.opens}</p>}
                  <Link to={day.url} className="btn-secondary mt-auto w-full">
                    See the slots and book
                    <span className="sr-only">
                      : {day.productName} at {day.venueName}, {day.dates}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
      <CityAlertForm cities={alerts.cities} whatsapp={alerts.whatsapp} constraint={alerts.constraint} days={alerts.days} answer={actionData && 'asked' in actionData ? actionData : actionData ? { result: actionData } : undefined} />
    </section>
  )
}
