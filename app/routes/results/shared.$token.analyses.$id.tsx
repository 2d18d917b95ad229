import { data } from 'react-router'
import type { Route } from './+types/shared.$token.analyses.$id'
import { AnalysisPage } from '~/components/analysis-results'
import { LINK_GONE_TITLE, LinkGone } from '~/components/link-gone'
import { analysisPageOf, linkGone, RESULTS_HEADERS, sharedViewer, shareQuery } from '~/web/analyses/analysis-pages.server'
import { notFoundUnless } from '~/web/refusals.server'
import { rowId } from '~/lib/row-id'
import { RESULTS_META } from '~/web/analyses/results-meta'
import { PRODUCT_NAME } from '~/lib/seo'
import { maySeeAnalysis } from '~/modules/analyses/access.server'
import { analysisView } from '~/modules/analyses/views.server'
import { sharedLink, sharedProgressLink } from '~/lib/links'

// One analysis through a coach's link: only one the link covers.

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${!loaderData || 'gone' in loaderData ? LINK_GONE_TITLE : `Analysis of ${loaderData.page.swimmerName}`} | ${PRODUCT_NAME}` }, ...RESULTS_META]

export const headers: Route.HeadersFunction = () => RESULTS_HEADERS

export async function loader({ params }: Route.LoaderArgs) {
  const viewer = await sharedViewer(params.token)
  if (!viewer) return linkGone()
  const id = rowId(params.id)
  notFoundUnless(id && (await maySeeAnalysis(viewer, id)))
  const view = await analysisView(id)
  notFoundUnless(view)
  const query = shareQuery(params.token)
  const page = { ...analysisPageOf(view, { query, family: false }), swimmerName: view.swimmer?.firstName ?? view.swimmerName }
  return data({ page, query, back: viewer.analysisId === null ? { href: sharedLink(params.token), label: 'All analyses' } : null, progressHref: viewer.analysisId === null ? sharedProgressLink(params.token) : null }, { headers: RESULTS_HEADERS })
}

export default function SharedAnalysis({ loaderData }: Route.ComponentProps) {
  if ('gone' in loaderData) return <LinkGone />
  return <AnalysisPage page={loaderData.page} query={loaderData.query} back={loaderData.back} progressHref={loaderData.progressHref} />
}
