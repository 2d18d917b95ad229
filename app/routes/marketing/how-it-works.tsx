import { href, Link } from 'react-router'
import type { Route } from './+types/how-it-works'
import { ArrowLink } from '~/components/arrow-link'
import { CallToAction } from '~/components/call-to-action'
import { Faq } from '~/components/faq'
import { DataChartIcon, ReportIcon } from '~/components/feature-icons'
import { CalendarIcon, TargetIcon } from '~/components/inner-page-feature-icons'
import { SwimmerIcon } from '~/components/line-icons'
import { PageHero } from '~/components/page-hero'
import { SectionHeading } from '~/components/section-heading'
import { StepTimeline } from '~/components/step-timeline'
import { whatsappChatLink } from '~/lib/phone'
import { pageMeta } from '~/lib/seo'
import { singleServicePrices, singleSessionLength } from '~/modules/booking/public-booking.server'
import { SESSION_PRODUCT_CODE } from '~/modules/booking/texts'
import { getCatalogue, getSiteSettings, requireItem } from '~/modules/site/site.server'

export async function loader() {
  const [{ reportDelivery, whatsappNumber }, catalogue, singleSessions] = await Promise.all([getSiteSettings(), getCatalogue(), singleServicePrices()])
  const sessionPackage = requireItem(catalogue, SESSION_PRODUCT_CODE)
  return {
    reportDelivery,
    /** The chat with the lab on WhatsApp, opened with a first line; none until the lab's number is set. */
    whatsappLink: whatsappChatLink(whatsappNumber, 'Hello, I would like to book a swimming analysis session.'),
    sessionLength: `A single session takes about ${singleSessionLength(singleSessions)}; the ${sessionPackage.name} runs over ${sessionPackage.duration}, at the same time each day.`,
  }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'How It Works',
    description:
      'How a swimming analysis session works: book online, swim as you normally do, we analyse the footage, and you receive a personalized report to act on.',
    path: href('/how-it-works'),
  })

export default function HowItWorks({ loaderData }: Route.ComponentProps) {
  const { reportDelivery, whatsappLink, sessionLength } = loaderData
  const whatsapp = whatsappLink ? (
    <a href={whatsappLink} rel="noopener noreferrer" className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800">
      message us on WhatsApp
    </a>
  ) : (
    'message us on WhatsApp'
  )

  const steps = [
    {
      title: 'Book Session',
      icon: <CalendarIcon className="h-7 w-7" />,
      text: <>Choose a date and time with our online booking, or {whatsapp} and we will find a slot that suits you.</>,
    },
    {
      title: 'Swim Normally',
      icon: <SwimmerIcon className="h-7 w-7" />,
      text: 'Arrive 15 minutes early, warm up and swim as you would in training or a race. Our cameras record you above and below the surface; you just swim.',
    },
    {
      title: 'Data Analysis',
      icon: <DataChartIcon className="h-7 w-7" />,
      text: 'We review your footage frame by frame, measure stroke count, tempo, joint angles, starts and turns, and compare them with elite benchmarks.',
    },
    {
      title: 'Receive Personalized Report',
      icon: <ReportIcon className="h-7 w-7" />,
      text: (
        <>
          Your personalized report arrives <strong className="font-semibold text-ink">{reportDelivery}</strong>: annotated
          footage, key numbers and clear priorities, written so you and your coach can use them straight away.
        </>
      ),
    },
    {
      title: 'Take Action',
      icon: <TargetIcon className="h-7 w-7" />,
      text: 'Work the recommended drills into training with your coach, then come back in 3-6 months to measure your progress.',
    },
  ]

  return (
    <>
      <PageHero eyebrow="From booking to better swimming" title="How It Works">
        <p>Five simple steps from booking to a clear plan for faster, more efficient swimming. You swim; we do the measuring.</p>
      </PageHero>

      <section aria-labelledby="steps-heading" className="py-16 sm:py-20">
        <div className="container-page grid gap-10 lg:grid-cols-[1fr_1.6fr] lg:gap-16">
          <div className="lg:sticky lg:top-24 lg:self-start">
            <SectionHeading id="steps-heading" eyebrow="The process" title="Five Steps to Better Swimming">
              No special preparation and no change to how you swim. Bring your usual kit, and your coach if you like.
            </SectionHeading>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to={href('/book')} className="btn-primary">
                Book Now
              </Link>
              {whatsappLink && (
                <a href={whatsappLink} rel="noopener noreferrer" className="btn-secondary">
                  Book on WhatsApp
                </a>
              )}
            </div>
          </div>
          <StepTimeline steps={steps} />
        </div>
      </section>

      <section aria-labelledby="faq-heading" className="bg-brand-50 py-16 sm:py-20">
        <div className="container-page max-w-3xl">
          <SectionHeading id="faq-heading" eyebrow="Questions" title="Frequently Asked Questions" align="center" />
          <div className="mt-10">
            <Faq
              name="faq"
              items={[
                {
                  question: 'How long does a session take?',
                  answer: `${sessionLength} Please arrive 15 minutes early so we can get you set up before you get in the water.`,
                },
                {
                  question: 'Do I need to be an elite swimmer?',
                  answer:
                    'Not at all. Analysis helps anyone who wants to swim better, from age-group swimmers and triathletes to masters. The earlier a technique issue is spotted, the easier it is to fix.',
                },
                {
                  question: 'Can my coach attend the session?',
                  answer:
                    'Yes, coaches are welcome and encouraged to attend. Our reports are written to be coach-friendly, so your coach can build the recommendations straight into your training.',
                },
                {
                  question: 'How often should I get re-analysed?',
                  answer:
                    'We recommend a re-analysis every 3-6 months, so you can measure your progress and adjust your training as your technique changes.',
                },
              ]}
            />
          </div>
          <p className="mt-8 text-center text-muted">
            Still have a question?{' '}
            <ArrowLink to={href('/contact')} className="ml-1">
              Contact Us
            </ArrowLink>
          </p>
        </div>
      </section>

      <CallToAction
        id="book-now-heading"
        tone="dark"
        title="Ready When You Are"
        actions={
          <>
            <Link to={href('/book')} className="btn-light">
              Book Now
            </Link>
            {whatsappLink && (
              <a href={whatsappLink} rel="noopener noreferrer" className="btn-on-dark">
                Book on WhatsApp
              </a>
            )}
            <Link to={href('/services')} className="btn-on-dark">
              Explore Our Services
            </Link>
          </>
        }
      >
        <p>Book your session, swim as you normally do, and your personalized report follows {reportDelivery}.</p>
      </CallToAction>
    </>
  )
}
