import { href, Link } from 'react-router'
import type { Route } from './+types/services'
import { ArrowLink } from '~/components/arrow-link'
import { CallToAction } from '~/components/call-to-action'
import { FeatureCard } from '~/components/feature-card'
import { JointAngleIcon, ReportIcon, StopwatchIcon, UnderwaterCameraIcon } from '~/components/feature-icons'
import { CoachWhistleIcon, FamilyIcon, MedalIcon, TriathlonIcon } from '~/components/inner-page-feature-icons'
import {
  BiomechanicsIllustration,
  RaceAnalysisIllustration,
  ReportIllustration,
  UnderwaterCameraIllustration,
} from '~/components/illustrations/service-drawings'
import { SwimmerIcon } from '~/components/line-icons'
import { PageHero } from '~/components/page-hero'
import { SampleAnalysisLink } from '~/components/sample-analysis-link'
import { SectionHeading } from '~/components/section-heading'
import { ServiceDetail } from '~/components/service-detail'
import { pageMeta } from '~/lib/seo'
import { hasPublishedSample } from '~/modules/analyses/samples.server'
import { getSiteSettings } from '~/modules/site/site.server'

export async function loader() {
  const [{ reportDelivery }, sampleAnalysis] = await Promise.all([getSiteSettings(), hasPublishedSample()])
  return { reportDelivery, sampleAnalysis }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Services',
    description:
      'Race analysis, biomechanical analysis, underwater camera technology and coach-friendly personalized reports for competitive swimmers, coaches and masters.',
    path: href('/services'),
  })

const SECTIONS = [
  { id: 'race-analysis', label: 'Race Analysis' },
  { id: 'biomechanical-analysis', label: 'Biomechanical Analysis' },
  { id: 'underwater-camera', label: 'Underwater Camera Technology' },
  { id: 'personalized-reports', label: 'Personalized Reports' },
]

const illustrationClass = 'mx-auto w-full max-w-md lg:max-w-lg'

export default function Services({ loaderData }: Route.ComponentProps) {
  const { reportDelivery, sampleAnalysis } = loaderData
  return (
    <>
      <PageHero eyebrow="Analysis built for swimming" title="Our Services">
        <p>
          From the start signal to the final touch, we measure your swimming above and below the surface and turn it
          into clear, practical feedback for you and your coach.
        </p>
      </PageHero>

      <nav aria-label="Services on this page" className="container-page pt-8">
        <ul className="flex flex-wrap gap-2">
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                className="inline-flex min-h-11 items-center rounded-full border border-brand-100 bg-brand-50 px-4 text-sm font-semibold text-brand-800 hover:border-brand-600 hover:bg-white"
              >
                {section.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <div className="divide-y divide-slate-200">
        <ServiceDetail
          id="race-analysis"
          icon={<StopwatchIcon />}
          title="Race Analysis"
          intro="See your race the way a coach wishes they could: every stroke, every wall and every tenth of a second, measured."
          features={[
            { title: 'Frame-by-frame video analysis', text: 'Your start, each stroke cycle and every turn, reviewed frame by frame.' },
            {
              title: 'Stroke count, tempo and efficiency',
              text: 'How many strokes you take per length, at what rate, and how far each one carries you.',
            },
            {
              title: 'Turn time and start reaction',
              text: 'Your reaction off the blocks and your time into and out of every wall, where races are often won and lost.',
            },
            { title: 'Comparison with elite benchmarks', text: 'Your numbers set against elite reference values for your event.' },
          ]}
          illustration={<RaceAnalysisIllustration className={illustrationClass} />}
        />

        <ServiceDetail
          id="biomechanical-analysis"
          reverse
          icon={<JointAngleIcon />}
          title="Biomechanical Analysis"
          intro="A detailed look at how your body moves through the water, and why some movements cost you speed."
          features={[
            {
              title: 'Joint angle measurement',
              text: 'Elbow, shoulder, hip and knee angles measured through each phase of the stroke.',
            },
            { title: 'Multi-angle footage', text: 'Your stroke filmed from several angles, above and below the surface.' },
            {
              title: 'Injury risk identification',
              text: 'Movement patterns that overload shoulders, knees or back, found before they turn into injuries.',
            },
            { title: 'Custom drills', text: 'Drills chosen for your stroke, to fix exactly what the analysis finds.' },
          ]}
          illustration={<BiomechanicsIllustration className={illustrationClass} />}
        />

        <ServiceDetail
          id="underwater-camera"
          icon={<UnderwaterCameraIcon />}
          title="Underwater Camera Technology"
          intro="Most of swimming happens where nobody on the pool deck can see it. Our cameras go there."
          features={[
            { title: 'HD video', text: 'Sharp underwater footage that shows hand entry, catch and kick clearly.' },
            { title: 'Slow motion', text: 'The stroke slowed down, so you can see what happens in a fraction of a second.' },
            {
              title: 'Measurable data',
              text: 'Footage turned into numbers: angles, timings and distances you can track over time.',
            },
          ]}
          illustration={<UnderwaterCameraIllustration className={illustrationClass} />}
        >
          <p className="mt-8 rounded-2xl bg-brand-50 p-5 leading-relaxed text-muted ring-1 ring-brand-100">
            <span className="font-semibold text-ink">On the road, too.</span> Portable setups bring the same cameras to
            competitions and camps.
          </p>
        </ServiceDetail>

        <ServiceDetail
          id="personalized-reports"
          reverse
          icon={<ReportIcon />}
          title="Personalized Reports"
          intro="Everything we measure comes back to you as one clear, coach-friendly report about your swimming."
          features={[
            {
              title: 'Coach-friendly',
              text: 'Clear findings and priorities in the language coaches use on deck, ready to build into training.',
            },
            { title: 'Footage and numbers together', text: 'Annotated video alongside the measurements from your session.' },
            { title: 'Ready to share', text: <>Your report is delivered {reportDelivery}, ready to share with your coach.</> },
          ]}
          illustration={<ReportIllustration className={illustrationClass} />}
        />
      </div>
      <SampleAnalysisLink shown={sampleAnalysis} className="container-page pb-12 text-center" />
      <p className="container-page pb-12 text-center text-muted">
        Away from Bangalore? The lab also films at pools in other cities for a day or two:{' '}
        <Link to={href('/analysis-days')} className="link">
          analysis days near you
        </Link>
        .
      </p>

      <section aria-labelledby="audience-heading" className="bg-brand-50 py-16 sm:py-20">
        <div className="container-page">
          <SectionHeading id="audience-heading" eyebrow="Who we work with" title="Who This Is For" align="center">
            Anyone who wants to understand their swimming and improve it, whatever their level.
          </SectionHeading>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            <li>
              <FeatureCard icon={<SwimmerIcon className="h-7 w-7" />} title="Competitive Swimmers">
                Age-group, national and open-water racers looking for the details that turn into faster times.
              </FeatureCard>
            </li>
            <li>
              <FeatureCard icon={<CoachWhistleIcon />} title="Coaches">
                Objective footage and data to back up what you see on deck and to plan each swimmer&apos;s training.
              </FeatureCard>
            </li>
            <li>
              <FeatureCard icon={<FamilyIcon />} title="Parents">
                A clear, expert picture of your child&apos;s technique, and a safe, structured path to improvement.
              </FeatureCard>
            </li>
            <li>
              <FeatureCard icon={<TriathlonIcon />} title="Triathletes">
                A more efficient swim leg, so you leave the water with more energy for the bike and the run.
              </FeatureCard>
            </li>
            <li>
              <FeatureCard icon={<MedalIcon />} title="Masters Swimmers">
                Refine your technique, swim more economically and keep enjoying the water for years to come.
              </FeatureCard>
            </li>
            <li className="flex flex-col justify-center rounded-2xl border border-dashed border-brand-600/40 p-6">
              <p className="text-lg font-bold text-ink">Not sure which service fits?</p>
              <p className="mt-2 leading-relaxed text-muted">Tell us about your swimming and we will suggest where to start.</p>
              <ArrowLink to={href('/contact')} className="mt-2">
                Contact Us
              </ArrowLink>
            </li>
          </ul>
        </div>
      </section>

      <CallToAction
        id="book-heading"
        tone="dark"
        title="See Your Swimming Clearly"
        actions={
          <>
            <Link to={href('/book')} className="btn-light">
              Book Your Session Today
            </Link>
            <Link to={href('/pricing')} className="btn-on-dark">
              View Pricing
            </Link>
          </>
        }
      >
        <p>One session gives you the footage, the numbers and a plan. Your personalized report follows {reportDelivery}.</p>
      </CallToAction>
    </>
  )
}
