import { href, Link } from 'react-router'
import type { Route } from './+types/pricing'
import { Faq, type FaqItem } from '~/components/faq'
import { PageHero } from '~/components/page-hero'
import { PlanCard } from '~/components/plan-card'
import { SampleAnalysisLink } from '~/components/sample-analysis-link'
import { formatWholeRupees } from '~/lib/money'
import { pageMeta } from '~/lib/seo'
import { hasPublishedSample } from '~/modules/analyses/samples.server'
import { singleServicePrices, singleSessionLength } from '~/modules/booking/public-booking.server'
import { getCatalogue, getSiteSettings, requireItem } from '~/modules/site/site.server'
import { publicBookingLink } from '~/lib/links'

export async function loader() {
  const [catalogue, settings, singleSessions, sampleAnalysis] = await Promise.all([getCatalogue(), getSiteSettings(), singleServicePrices(), hasPublishedSample()])
  return {
    biomechanical: requireItem(catalogue, 'biomechanical_package'),
    race: requireItem(catalogue, 'race_analysis'),
    singleSessions,
    singleSessionTime: singleSessionLength(singleSessions),
    reportDelivery: settings.reportDelivery,
    refundPolicy: settings.refundPolicy,
    sessionLocation: settings.sessionLocation,
    sampleAnalysis,
  }
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: 'Pricing',
    description: loaderData
      ? `${loaderData.biomechanical.name} ${formatWholeRupees(loaderData.biomechanical.pricePaise)} and ${loaderData.race.name} ${formatWholeRupees(loaderData.race.pricePaise)}, inclusive of GST: prices and FAQ of India's first sport science lab for swimming, Bangalore.`
      : "Prices for biomechanical and race analysis at India's first sport science lab for swimming in Bangalore, inclusive of GST.",
    path: href('/pricing'),
  })

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { biomechanical, race, singleSessions, singleSessionTime, reportDelivery, refundPolicy, sessionLocation, sampleAnalysis } = loaderData
  const regular = biomechanical.regularPricePaise
  const introPrice =
    regular !== null && regular > biomechanical.pricePaise
      ? `${formatWholeRupees(biomechanical.pricePaise)} at the introductory price (regular price ${formatWholeRupees(regular)})`
      : formatWholeRupees(biomechanical.pricePaise)

  const faq: FaqItem[] = [
    {
      question: `What is included in the ${biomechanical.name} package?`,
      answer: (
        <>
          <p>
            The package costs {introPrice}, inclusive of GST. It covers your analysis session at {sessionLocation}, multi-angle
            underwater and above-water footage, joint-angle measurements, identification of injury risks and custom drills to
            work on.
          </p>
          <p>
            You also get a personalised, coach-friendly report, lifetime access to your videos and a 1:1 feedback session with a
            sports scientist who walks you through the findings.
          </p>
        </>
      ),
    },
    {
      question: 'How long does a session take?',
      answer: (
        <>
          <p>
            The {biomechanical.name} runs over {biomechanical.duration}, at the same time each day. A single session takes{' '}
            {singleSessionTime}.
          </p>
          <p>
            A {race.name} is filmed at your competition with our portable set-up, so it needs no time beyond your races.
          </p>
        </>
      ),
    },
    {
      question: 'When will I receive my report?',
      answer: (
        <p>
          Your personalised report is delivered {reportDelivery} after your session. We e-mail you as soon as it is ready, and
          you will always find it, with your videos, under My Bookings.
        </p>
      ),
    },
    {
      question: 'Can I cancel or get a refund?',
      answer: (
        <p>
          Yes. Cancel at least 24 hours before your session for a full refund, or reschedule up to 24 hours ahead. Refunds are
          credited {refundPolicy}. The details are in our{' '}
          <Link to={href('/refund')} className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800">
            Refund Policy
          </Link>
          .
        </p>
      ),
    },
    {
      question: 'Can my coach attend the session?',
      answer: (
        <p>
          Yes, and we encourage it. Coaches are welcome on the pool deck during the analysis, and our reports are written to be
          coach-friendly, so you can share the findings and the drills with the person who trains you every day.
        </p>
      ),
    },
    {
      question: 'How do I pay, and is GST included?',
      answer: (
        <p>
          Every price on this page is in Indian rupees and includes GST. You pay online through our secure payment gateway by
          UPI, card or net banking, and you receive a receipt by e-mail. For a {race.name} at a competition away from Bangalore,
          our travel and accommodation are charged in addition and agreed with you before you book.
        </p>
      ),
    },
  ]

  return (
    <>
      <PageHero eyebrow="Pricing" title="Simple, Transparent Pricing">
        <p>
          Two ways to see your swimming the way the data does: an in-depth biomechanical analysis at our lab, or race analysis at
          your competition. All prices include GST.
        </p>
      </PageHero>

      <section aria-labelledby="plans-heading" className="pt-14 pb-16 sm:pt-16 sm:pb-20">
        <div className="container-page">
          <h2 id="plans-heading" className="sr-only">
            Plans
          </h2>
          <div className="mx-auto grid max-w-5xl gap-10 md:grid-cols-2 md:gap-8">
            <PlanCard
              plan={biomechanical}
              headingId="plan-biomechanical"
              badge="MOST POPULAR"
              featured
              priceNotes={['inclusive of GST']}
              features={[
                `Analysis session at ${sessionLocation}`,
                'Multi-angle underwater and above-water footage',
                'Joint-angle analysis and injury-risk identification',
                'Custom drills for what the data shows',
                `Personalised, coach-friendly report ${reportDelivery}`,
                'Lifetime video access',
                '1:1 feedback with a sports scientist',
              ]}
              bookHref={href('/book-slot')}
            />
            <PlanCard
              plan={race}
              headingId="plan-race"
              priceNotes={['inclusive of GST', 'Travel and accommodation additional']}
              features={[
                'Filmed at your competition with our portable set-up',
                'Frame-by-frame video analysis of your races',
                'Stroke count, tempo and efficiency',
                'Turn times and start reaction',
                'Comparison with elite benchmarks',
                `Personalised, coach-friendly report ${reportDelivery}`,
              ]}
              // Filmed at the swimmer's competition: dates, place and travel are agreed first.
              bookHref={href('/contact')}
              bookLabel="Contact Us to Book"
            />
          </div>
          <p className="mx-auto mt-10 max-w-2xl text-center text-sm text-muted">
            Prices in Indian rupees (INR). Pay securely online by UPI, card or net banking; your card details go straight to the
            payment gateway and never reach our servers.
          </p>
          <SampleAnalysisLink shown={sampleAnalysis} className="mt-4 text-center" />
        </div>
      </section>

      <section aria-labelledby="single-sessions-heading" className="pb-16 sm:pb-20">
        <div className="container-page">
          <div className="mx-auto max-w-5xl">
            <h2 id="single-sessions-heading" className="text-2xl font-bold tracking-tight text-brand-900">
              Single Sessions
            </h2>
            <p className="mt-2 text-muted">One session at {sessionLocation}, on the day and hour you choose. No account needed.</p>
            <ul className="mt-6 grid gap-4 sm:grid-cols-3">
              {singleSessions.map((session) => (
                <li key={session.value} className="card flex flex-col p-5 shadow-sm">
                  <h3 className="text-lg font-bold text-ink">{session.label}</h3>
                  <p className="mt-2 text-sm text-muted">{session.description}</p>
                  <p className="mt-2 text-sm font-semibold text-ink">Duration: {session.duration}</p>
                  <p className="mt-3 text-2xl font-extrabold text-ink">{formatWholeRupees(session.pricePaise)}</p>
                  <p className="mb-4 text-sm text-muted">inclusive of GST</p>
                  <Link to={publicBookingLink({ service: session.value })} className="btn-secondary mt-auto w-full">
                    Book This Session
                    <span className="sr-only">: {session.label}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <section aria-labelledby="faq-heading" className="border-t border-slate-200 bg-slate-50 py-16 sm:py-20">
        <div className="container-page grid gap-10 lg:grid-cols-[1fr_2fr] lg:gap-16">
          <div>
            <h2 id="faq-heading" className="text-3xl font-bold tracking-tight text-brand-900">
              Frequently Asked Questions
            </h2>
            <p className="mt-4 text-muted">
              Anything else you would like to know? Our team is happy to help you choose the right analysis.
            </p>
            <Link to={href('/contact')} className="btn-secondary mt-6">
              Contact Us
            </Link>
          </div>
          <Faq name="pricing-faq" items={faq} />
        </div>
      </section>
    </>
  )
}
