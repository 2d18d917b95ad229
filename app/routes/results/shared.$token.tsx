import { data, Link } from 'react-router'
import type { Route } from './+types/shared.$token'
import { AnalysisPage } from '~/components/analysis-results'
import { LINK_GONE_TITLE, LinkGone } from '~/components/link-gone'
import { formatLongDate } from '~/lib/lab-time'
import { PRODUCT_NAME } from '~/lib/seo'
import { maySeeAnalysis } from '~/modules/analyses/access.server'
import { analysisView, swimmerHeading, swimmerHistory } from '~/modules/analyses/views.server'
import { analysisPageOf, linkGone, RESULTS_HEADERS, sharedViewer, shareQuery } from '~/web/analyses/analysis-pages.server'
import { RESULTS_META } from '~/web/analyses/results-meta'
import { notFoundUnless } from '~/web/refusals.server'
import { sharedAnalysisLink, sharedProgressLink } from '~/lib/links'

// A coach's link: a swimmer's published results (all of them, or one analysis) and nothing else of
// the family's account. Whoever has the link sees them until it expires or the family revokes it.

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${!loaderData || 'gone' in loaderData ? LINK_GONE_TITLE : `${loaderData.firstName}’s swimming results`} | ${PRODUCT_NAME}` }, ...RESULTS_META]

export const headers: Route.HeadersFunction = () => RESULTS_HEADERS

export async function loader({ params }: Route.LoaderArgs) {
  const viewer = await sharedViewer(params.token)
  if (!viewer) return linkGone()
  const swimmer = await swimmerHeading(viewer.swimmerId)
  notFoundUnless(swimmer)
  if (viewer.analysisId !== null) {
    notFoundUnless(await maySeeAnalysis(viewer, viewer.analysisId))
    const view = await analysisView(viewer.analysisId)
    notFoundUnless(view)
    return data({ firstName: swimmer.firstName, query: shareQuery(params.token), analysis: { ...analysisPageOf(view, { query: shareQuery(params.token), family: false }), swimmerName: swimmer.firstName }, analyses: [] }, { headers: RESULTS_HEADERS })
  }
  const history = await swimmerHistory(viewer.swimmerId)
  return data(
    { firstName: swimmer.firstName, query: '', analysis: null, analyses: [...history].reverse().map((entry) => ({ id: entry.id, date: formatLongDate(entry.sessionDate), events: entry.events.map((event) => event.label).join(', ') })) },
    { headers: RESULTS_HEADERS },
  )
}

export default function Shared({ loaderData, params }: Route.ComponentProps) {
  if ('gone' in loaderData) return <LinkGone />
  const { firstName, query, analysis, analyses } = loaderData
  if (analysis) return <AnalysisPage page={analysis} query={query} back={null} progressHref={null} />
  return (
    <section className="container-page py-10 sm:py-14">
      <h1 className="text-3xl font-extrabold text-brand-900 sm:text-4xl">{firstName}’s swimming results</h1>
      <p className="mt-3 max-w-2xl text-muted">Shared with you by {firstName}’s family. Please keep this link to yourself.</p>
      <Link to={sharedProgressLink(params.token)} className="btn-primary mt-6">
        Progress over time
      </Link>
      <section aria-labelledby="shared-analyses" className="card mt-8 p-5 shadow-sm sm:p-6">
        <h2 id="shared-analyses" className="text-xl font-bold text-ink">
          Analyses
        </h2>
        {analyses.length === 0 ? (
          <p className="mt-2 text-muted">No published analyses yet.</p>
        ) : (
          <ol className="mt-3 divide-y divide-slate-200">
            {analyses.map((entry) => (
              <li key={entry.id} className="py-3">
                <Link to={sharedAnalysisLink(params.token, entry.id)} className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-4">
                  Analysis of {entry.date}
                </Link>
                {entry.events && <p className="text-sm text-muted">{entry.events}</p>}
              </li>
            ))}
          </ol>
        )}
      </section>
    </section>
  )
}
