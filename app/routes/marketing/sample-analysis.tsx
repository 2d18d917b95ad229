import { href } from 'react-router'
import type { Route } from './+types/sample-analysis'
import { AnalysisResults } from '~/components/analysis-results'
import { JoinTheMovement } from '~/components/call-to-action'
import { pageMeta, PRODUCT_NAME } from '~/lib/seo'
import { publishedSample } from '~/modules/analyses/samples.server'
import { samplePageOf } from '~/web/analyses/sample-page.server'
import { notFoundUnless } from '~/web/refusals.server'

// "See what you get": the results page every family receives, filled with the sample the lab
// publishes. Not found while none is published (and no page links here then).

export async function loader() {
  const sample = await publishedSample()
  notFoundUnless(sample)
  return { source: sample.source, page: samplePageOf(sample) }
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData
    ? pageMeta(matches, {
        title: 'Sample Analysis',
        description: 'A sample of the results page every family receives after an analysis at our Bangalore lab: figures against reference levels, what to work on and the drills for it.',
        path: href('/sample-analysis'),
      })
    : [{ title: `Oops! Page not found | ${PRODUCT_NAME}` }, { name: 'robots', content: 'noindex' }]

const WHOSE = {
  family_shared: 'This is a sample of the results page every family receives, shared with the family’s agreement and without their name.',
  lab_recorded: 'This is a sample of the results page every family receives, recorded by the lab.',
} as const

export default function SampleAnalysis({ loaderData }: Route.ComponentProps) {
  const { source, page } = loaderData
  return (
    <>
      <section className="container-page py-10 sm:py-14">
        <p>
          <span className="inline-flex items-center rounded-full bg-amber-100 px-3 py-1 text-sm font-bold tracking-wide text-amber-950 uppercase">Sample</span>
        </p>
        <h1 className="mt-3 text-3xl font-extrabold text-brand-900 sm:text-4xl">Sample analysis</h1>
        <p className="mt-3 max-w-3xl text-lg text-ink">{WHOSE[source]}</p>
        <p className="mt-2 text-muted">{page.swimmerName}</p>
        <div className="mt-6 rounded-xl border border-brand-100 bg-brand-50 p-5">
          <h2 className="text-lg font-bold text-brand-900">Video</h2>
          <p className="mt-1 text-ink">
            Footage is part of every real analysis: your swimmer’s clips, with the start, turns and finish marked, on the same page. They are private to your family and
            anyone you share them with, so this sample shows none.
          </p>
        </div>
        <div className="mt-8">
          <AnalysisResults page={page} query="" />
        </div>
      </section>
      <JoinTheMovement>
        <p>Your swimmer’s own figures, what to work on and the drills for it, with the footage, on a page of your own.</p>
      </JoinTheMovement>
    </>
  )
}
