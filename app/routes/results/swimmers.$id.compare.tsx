import { data, Link } from 'react-router'
import type { Route } from './+types/swimmers.$id.compare'
import { BeforeTwoAnalyses, CompareChooser, CompareView } from '~/components/analysis-progress'
import { LINK_GONE_TITLE, LinkGone } from '~/components/link-gone'
import { compareChoiceOf, linkGone, RESULTS_HEADERS, shareQuery, swimmerPageOf } from '~/web/analyses/analysis-pages.server'
import { RESULTS_META } from '~/web/analyses/results-meta'
import { PRODUCT_NAME } from '~/lib/seo'
import { analysisLink, bookSlotLink, swimmerProgressLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${!loaderData ? 'Compare' : 'name' in loaderData ? `${loaderData.name}: two analyses compared` : LINK_GONE_TITLE} | ${PRODUCT_NAME}` }, ...RESULTS_META]

export const headers: Route.HeadersFunction = () => RESULTS_HEADERS

export async function loader({ request, params }: Route.LoaderArgs) {
  const page = await swimmerPageOf(request, params.id)
  if (!page) return linkGone()
  const { swimmerId, swimmer, name, share, familyAccountId } = page
  return data(
    {
      swimmerId,
      name,
      firstName: swimmer.firstName,
      bookHref: familyAccountId !== null ? bookSlotLink({ swimmer: String(swimmerId) }) : null,
      share,
      query: shareQuery(share),
      ...(await compareChoiceOf(swimmerId, new URL(request.url).searchParams)),
    },
    { headers: RESULTS_HEADERS },
  )
}

export default function Compare({ loaderData }: Route.ComponentProps) {
  if ('gone' in loaderData) return <LinkGone />
  const { swimmerId, name, firstName, bookHref, share, query, analyses, chosen, compare } = loaderData
  return (
    <section className="container-page py-10 sm:py-14">
      <Link to={swimmerProgressLink(swimmerId, query)} className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 underline underline-offset-4">
        Progress
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold text-brand-900 sm:text-4xl">{name}: two analyses compared</h1>
      {analyses.length < 2 ? (
        <div className="mt-6">
          <BeforeTwoAnalyses page="compare" name={firstName} analyses={analyses} analysisHref={(id) => analysisLink(id, query)} bookHref={bookHref} />
        </div>
      ) : (
        <>
          <div className="mt-6">
            <CompareChooser base={`/swimmers/${swimmerId}`} analyses={analyses} chosen={chosen} share={share} />
          </div>
          <div className="mt-8">{compare ? <CompareView compare={compare} query={query} /> : <p className="text-ink">{chosen ? 'Please choose two different analyses of this swimmer.' : 'Choose two analyses to compare.'}</p>}</div>
        </>
      )}
    </section>
  )
}
