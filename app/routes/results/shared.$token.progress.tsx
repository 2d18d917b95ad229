import { data, Link } from 'react-router'
import type { Route } from './+types/shared.$token.progress'
import { ProgressView } from '~/components/analysis-progress'
import { LINK_GONE_TITLE, LinkGone } from '~/components/link-gone'
import { PRODUCT_NAME } from '~/lib/seo'
import { swimmerHistory } from '~/modules/analyses/views.server'
import { linkGone, progressPageOf, RESULTS_HEADERS, sharedSwimmerOf } from '~/web/analyses/analysis-pages.server'
import { RESULTS_META } from '~/web/analyses/results-meta'
import { sharedAnalysisLink, sharedLink } from '~/lib/links'

// A swimmer's progress through a coach's link for all their results (not one for a single analysis).

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${!loaderData || 'gone' in loaderData ? LINK_GONE_TITLE : `${loaderData.firstName}’s progress`} | ${PRODUCT_NAME}` }, ...RESULTS_META]

export const headers: Route.HeadersFunction = () => RESULTS_HEADERS

export async function loader({ request, params }: Route.LoaderArgs) {
  const swimmer = await sharedSwimmerOf(params.token)
  if (!swimmer) return linkGone()
  const history = await swimmerHistory(swimmer.id)
  return data({ firstName: swimmer.firstName, base: sharedLink(params.token), progress: progressPageOf(history, new URL(request.url).searchParams.get('event')) }, { headers: RESULTS_HEADERS })
}

export default function SharedProgress({ loaderData, params }: Route.ComponentProps) {
  if ('gone' in loaderData) return <LinkGone />
  const { firstName, base, progress } = loaderData
  return (
    <section className="container-page py-10 sm:py-14">
      <Link to={base} className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 underline underline-offset-4">
        All analyses
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold text-brand-900 sm:text-4xl">{firstName}’s progress</h1>
      <div className="mt-8">
        <ProgressView name={firstName} progress={progress} base={base} analysisHref={(id) => sharedAnalysisLink(params.token, id)} bookHref={null} />
      </div>
    </section>
  )
}
