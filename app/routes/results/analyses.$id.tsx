import { data, href } from 'react-router'
import type { Route } from './+types/analyses.$id'
import { AnalysisPage } from '~/components/analysis-results'
import { LINK_GONE_TITLE, LinkGone } from '~/components/link-gone'
import { ShareForm, SHARED_LINKS_ANCHOR } from '~/components/share-links'
import { analysisPageOf, linkGone, resultsViewer, RESULTS_HEADERS, SHARE_FORM_CONSTRAINT, shareFormsAction, shareQuery } from '~/web/analyses/analysis-pages.server'
import { requireUser } from '~/web/auth.server'
import { notFoundUnless } from '~/web/refusals.server'
import { rowId } from '~/lib/row-id'
import { RESULTS_META } from '~/web/analyses/results-meta'
import { PRODUCT_NAME } from '~/lib/seo'
import { maySeeAnalysis, viewerOfUser } from '~/modules/analyses/access.server'
import { analysisView } from '~/modules/analyses/views.server'
import { sharedProgressLink, swimmerProgressLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${!loaderData ? 'Analysis' : 'page' in loaderData ? `Analysis of ${loaderData.page.swimmerName}` : LINK_GONE_TITLE} | ${PRODUCT_NAME}` }, ...RESULTS_META]

export const headers: Route.HeadersFunction = () => RESULTS_HEADERS

export async function loader({ request, params }: Route.LoaderArgs) {
  const { viewer, share } = await resultsViewer(request)
  if (!viewer) return linkGone()
  const id = rowId(params.id)
  notFoundUnless(id && (await maySeeAnalysis(viewer, id)))
  const view = await analysisView(id)
  notFoundUnless(view)
  const query = shareQuery(share)
  // The swimmer's own account may book again and share; staff and a coach only read.
  const family = viewer.kind === 'account' && view.swimmer?.accountId === viewer.accountId
  const wholeSwimmer = viewer.kind === 'share' ? viewer.analysisId === null : true
  return data(
    {
      // A coach sees the swimmer's first name only.
      page: { ...analysisPageOf(view, { query, family }), ...(viewer.kind === 'share' && view.swimmer ? { swimmerName: view.swimmer.firstName } : {}) },
      query,
      shareConstraint: family ? SHARE_FORM_CONSTRAINT : null,
      swimmerFirstName: view.swimmer?.firstName ?? view.swimmerName,
      back: viewer.kind === 'share' ? null : { href: viewer.kind === 'staff' ? href('/admin') : href('/analyses'), label: viewer.kind === 'staff' ? 'Admin' : 'My Analyses' },
      progressHref: view.swimmer && wholeSwimmer ? (share ? sharedProgressLink(share) : swimmerProgressLink(view.swimmer.id)) : null,
    },
    { headers: RESULTS_HEADERS },
  )
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request)
  const id = rowId(params.id)
  const view = id && (await maySeeAnalysis(viewerOfUser(user), id)) ? await analysisView(id) : null
  notFoundUnless(view?.swimmer && view.swimmer.accountId === user.id && !user.isAdmin)
  return shareFormsAction(request, { swimmerId: view.swimmer.id, swimmerFirstName: view.swimmer.firstName, analysisId: view.id })
}

export default function AnalysisRoute({ loaderData, actionData }: Route.ComponentProps) {
  if ('gone' in loaderData) return <LinkGone />
  const { page, query, shareConstraint, swimmerFirstName, back, progressHref } = loaderData
  return (
    <AnalysisPage page={page} query={query} back={back} progressHref={progressHref}>
      {shareConstraint && <ShareForm swimmerFirstName={swimmerFirstName} analysisPage actionData={actionData} constraint={shareConstraint} linksHref={progressHref && `${progressHref}#${SHARED_LINKS_ANCHOR}`} />}
    </AnalysisPage>
  )
}
