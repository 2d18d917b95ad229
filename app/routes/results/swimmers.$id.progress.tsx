import { data, href, Link } from 'react-router'
import type { Route } from './+types/swimmers.$id.progress'
import { ProgressView } from '~/components/analysis-progress'
import { LINK_GONE_TITLE, LinkGone } from '~/components/link-gone'
import { ShareForm, ShareLinksList } from '~/components/share-links'
import { linkGone, progressPageOf, RESULTS_HEADERS, SHARE_FORM_CONSTRAINT, shareFormsAction, shareLinksView, swimmerPageOf } from '~/web/analyses/analysis-pages.server'
import { requireUser } from '~/web/auth.server'
import { notFoundUnless } from '~/web/refusals.server'
import { rowId } from '~/lib/row-id'
import { RESULTS_META } from '~/web/analyses/results-meta'
import { PRODUCT_NAME } from '~/lib/seo'
import { swimmerHeading, swimmerHistory } from '~/modules/analyses/views.server'
import { analysisLink, bookSlotLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${!loaderData ? 'Progress' : 'name' in loaderData ? `${loaderData.name}’s progress` : LINK_GONE_TITLE} | ${PRODUCT_NAME}` }, ...RESULTS_META]

export const headers: Route.HeadersFunction = () => RESULTS_HEADERS

export async function loader({ request, params }: Route.LoaderArgs) {
  const page = await swimmerPageOf(request, params.id)
  if (!page) return linkGone()
  const { swimmerId, swimmer, name, share, familyAccountId } = page
  const family = familyAccountId !== null
  const history = await swimmerHistory(swimmerId)
  return data(
    {
      swimmerId,
      name,
      firstName: swimmer.firstName,
      share,
      shareConstraint: family ? SHARE_FORM_CONSTRAINT : null,
      progress: progressPageOf(history, new URL(request.url).searchParams.get('event')),
      bookHref: family ? bookSlotLink({ swimmer: String(swimmerId) }) : null,
      links: family ? await shareLinksView(familyAccountId, swimmerId) : [],
    },
    { headers: RESULTS_HEADERS },
  )
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request)
  const swimmerId = rowId(params.id)
  const swimmer = swimmerId ? await swimmerHeading(swimmerId) : null
  notFoundUnless(swimmer && swimmer.accountId === user.id && !user.isAdmin)
  return shareFormsAction(request, { swimmerId: swimmer.id, swimmerFirstName: swimmer.firstName, analysisId: null })
}

export default function Progress({ loaderData, actionData }: Route.ComponentProps) {
  if ('gone' in loaderData) return <LinkGone />
  const { swimmerId, name, firstName, share, shareConstraint, progress, bookHref, links } = loaderData
  const query = share ? `?${new URLSearchParams({ share })}` : ''
  return (
    <section className="container-page py-10 sm:py-14">
      {!share && (
        <Link to={href('/analyses')} className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 underline underline-offset-4">
          My Analyses
        </Link>
      )}
      <h1 className="mt-2 text-3xl font-extrabold text-brand-900 sm:text-4xl">{name}’s progress</h1>
      <div className="mt-8">
        <ProgressView name={firstName} progress={progress} base={`/swimmers/${swimmerId}`} analysisHref={(id) => analysisLink(id, query)} bookHref={bookHref} share={share} />
      </div>
      {shareConstraint && (
        <div className="mt-10 grid gap-6 lg:grid-cols-2">
          <ShareForm swimmerFirstName={firstName} analysisPage={false} actionData={actionData} constraint={shareConstraint} />
          <ShareLinksList links={links} />
        </div>
      )}
    </section>
  )
}
