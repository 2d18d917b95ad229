import { data, href, Link } from 'react-router'
import type { Route } from './+types/analyses'
import { requireUser } from '~/web/auth.server'
import { RESULTS_HEADERS } from '~/web/analyses/analysis-pages.server'
import { formatLongDate } from '~/lib/lab-time'
import { RESULTS_META } from '~/web/analyses/results-meta'
import { pageMeta } from '~/lib/seo'
import { accountAnalyses } from '~/modules/analyses/views.server'
import { analysisLink, swimmerProgressLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, { title: 'My Analyses', description: 'The results of your swimmers’ analyses.', path: href('/analyses') }), ...RESULTS_META]

export const headers: Route.HeadersFunction = () => RESULTS_HEADERS

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const groups = await accountAnalyses(user.id, user.email.toLowerCase())
  return data(
    {
      swimmers: groups.map((group) => ({
        swimmerId: group.swimmerId,
        name: group.name,
        analyses: group.analyses.map((analysis) => ({ id: analysis.id, date: analysis.sessionDate ? formatLongDate(analysis.sessionDate) : '', place: analysis.place, events: analysis.events.join(', ') })),
      })),
    },
    { headers: RESULTS_HEADERS },
  )
}

export default function MyAnalyses({ loaderData }: Route.ComponentProps) {
  const { swimmers } = loaderData
  return (
    <section className="container-page py-10 sm:py-14">
      <h1 className="text-3xl font-extrabold text-brand-900 sm:text-4xl">My Analyses</h1>
      <p className="mt-3 max-w-2xl text-muted">The results of every analysis the lab has published for your swimmers, newest first.</p>
      {swimmers.length === 0 ? (
        <div className="card mt-8 p-8 text-center shadow-sm">
          <h2 className="text-xl font-bold text-ink">No results yet</h2>
          <p className="mt-2 text-muted">After an analysis session, the lab publishes the results here.</p>
        </div>
      ) : (
        <div className="mt-8 space-y-8">
          {swimmers.map((swimmer, index) => (
            <section key={`${swimmer.swimmerId ?? swimmer.name}`} aria-labelledby={`swimmer-${index}`} className="card p-5 shadow-sm sm:p-6" data-testid="swimmer-analyses">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <h2 id={`swimmer-${index}`} className="text-xl font-bold text-ink">
                  {swimmer.name}
                </h2>
                {swimmer.swimmerId !== null && (
                  <Link to={swimmerProgressLink(swimmer.swimmerId)} className="btn-secondary min-h-11 px-4 py-2">
                    Progress<span className="sr-only"> of {swimmer.name}</span>
                  </Link>
                )}
              </div>
              <ol className="mt-3 divide-y divide-slate-200">
                {swimmer.analyses.map((analysis) => (
                  <li key={analysis.id} className="py-3">
                    <Link to={analysisLink(analysis.id)} className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-4">
                      Analysis of {analysis.date}
                    </Link>
                    {analysis.place && <p className="text-sm text-muted">Recorded at {analysis.place}</p>}
                    {analysis.events && <p className="text-sm text-muted">{analysis.events}</p>}
                  </li>
                ))}
              </ol>
            </section>
          ))}
        </div>
      )}
    </section>
  )
}
