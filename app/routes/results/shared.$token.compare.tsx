import { data, Link } from 'react-router'
import type { Route } from './+types/shared.$token.compare'
import { BeforeTwoAnalyses, CompareChooser, CompareView } from '~/components/analysis-progress'
import { LINK_GONE_TITLE, LinkGone } from '~/components/link-gone'
import { PRODUCT_NAME } from '~/lib/seo'
import { compareChoiceOf, linkGone, RESULTS_HEADERS, sharedSwimmerOf, shareQuery } from '~/web/analyses/analysis-pages.server'
import { RESULTS_META } from '~/web/analyses/results-meta'
import { sharedAnalysisLink, sharedLink, sharedProgressLink } from '~/lib/links'

// Two analyses side by side through a coach's link for all of a swimmer's results.

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${!loaderData || 'gone' in loaderData ? LINK_GONE_TITLE : `${loaderData.firstName}: two analyses compared`} | ${PRODUCT_NAME}` }, ...RESULTS_META]

export const headers: Route.HeadersFunction = () => RESULTS_HEADERS

export async function loader({ request, params }: Route.LoaderArgs) {
  const swimmer = await sharedSwimmerOf(params.token)
  if (!swimmer) return linkGone()
  return data(
    {
      firstName: swimmer.firstName,
      base: sharedLink(params.token),
      query: shareQuery(params.token ?? null),
      ...(await compareChoiceOf(swimmer.id, new URL(request.url).searchParams)),
    },
    { headers: RESULTS_HEADERS },
  )
}

export default function SharedCompare({ loaderData, params }: Route.ComponentProps) {
  if ('gone' in loaderData) return <LinkGone />
  const { firstName, base, query, analyses, chosen, compare } = loaderData
  return (
    <section className="container-page py-10 sm:py-14">
      <Link to={sharedProgressLink(params.token)} className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 underline underline-offset-4">
        Progress
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold text-brand-900 sm:text-4xl">{firstName}: two analyses compared</h1>
      {analyses.length < 2 ? (
        <div className="mt-6">
          <BeforeTwoAnalyses page="compare" name={firstName} analyses={analyses} analysisHref={(id) => sharedAnalysisLink(params.token, id)} bookHref={null} />
        </div>
      ) : (
        <>
          <div className="mt-6">
            <CompareChooser base={base} analyses={analyses} chosen={chosen} />
          </div>
          <div className="mt-8">{compare ? <CompareView compare={compare} query={query} /> : <p className="text-ink">{chosen ? 'Please choose two different analyses.' : 'Choose two analyses to compare.'}</p>}</div>
        </>
      )}
    </section>
  )
}
