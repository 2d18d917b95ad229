import type { ReactNode } from 'react'
import { href, Link } from 'react-router'
import type { Route } from './+types/home'
import { ArrowLink } from '~/components/arrow-link'
import { CallToAction, JoinTheMovement } from '~/components/call-to-action'
import { IconBadge } from '~/components/feature-card'
import { HomeHero } from '~/components/home-hero'
import { PhotoFeature } from '~/components/photo-feature'
import { FiguresStrip } from '~/components/figures-strip'
import { PartnersStrip } from '~/components/partners-strip'
import { DataChartIcon, FirstInIndiaIcon, ReportIcon, ShieldCheckIcon } from '~/components/feature-icons'
import { SectionHeading } from '~/components/section-heading'
import { Testimonials } from '~/components/testimonials'
import { config } from '~/config.server'
import { requireGuest } from '~/web/auth.server'
import { StructuredData } from '~/components/structured-data'
import { PRODUCT_NAME, pageMeta } from '~/lib/seo'
import { paiseToDecimalRupees } from '~/lib/money'
import { savesData } from '~/lib/save-data'
import { getCatalogue, getSiteSettings } from '~/modules/site/site.server'
import { shownFigures } from '~/modules/site/figures.server'
import { figureText } from '~/modules/site/figures'
import { partnersForPages } from '~/modules/partners/partners.server'
import { publicTestimonials } from '~/modules/testimonials/testimonials.server'
import { heroPictures, pagePictures } from '~/modules/site/page-pictures.server'

/** The front door: a signed-in visitor goes straight on to booking (staff to the console). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireGuest(request)
  const [settings, catalogue, figures, partners, testimonials, hero, pictures] = await Promise.all([
    getSiteSettings(),
    getCatalogue(),
    shownFigures(),
    partnersForPages(),
    publicTestimonials(),
    heroPictures(savesData(request.headers.get('Save-Data'))),
    pagePictures(['raceAnalysis', 'biomechanics', 'cameras']),
  ])
  return {
    siteUrl: config().SITE_URL,
    reportDelivery: settings.reportDelivery,
    offers: Object.values(catalogue).map(({ code, name, tagline, pricePaise }) => ({ code, name, tagline, pricePaise })),
    figures,
    partners,
    testimonials,
    hero,
    pictures,
  }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Home',
    description:
      "India's first sport science lab for swimming, in Bangalore: underwater race analysis, biomechanical analysis and personalized reports for swimmers and coaches.",
    path: '/',
  })

export default function Home({ loaderData }: Route.ComponentProps) {
  const { reportDelivery, figures, partners, pictures } = loaderData
  return (
    <>
      <LabStructuredData {...loaderData} />

      <HomeHero pictures={loaderData.hero}>
        <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-semibold text-brand-100 ring-1 ring-white/20">
          <span aria-hidden="true" className="h-2 w-2 rounded-full bg-accent-500" />
          Sport science · Bangalore
        </p>
        <h1 id="page-title" className="mt-5 text-4xl leading-tight tracking-tight text-balance sm:text-5xl lg:text-6xl lg:leading-[1.05]">
          India&apos;s First Sport Science Lab for Swimming
        </h1>
        <p className="mt-5 max-w-xl text-lg leading-relaxed text-brand-100">
          Underwater cameras, frame-by-frame video and biomechanical analysis show what really happens beneath the
          surface — so swimmers and coaches can train on evidence instead of guesswork.
        </p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <Link to={href('/book')} className="btn-light">
            Book a Session
          </Link>
          <Link to={href('/services')} className="btn-on-dark">
            Explore Our Services
          </Link>
        </div>
        <p className="mt-6 text-sm text-brand-100">For competitive swimmers, coaches, parents, triathletes and masters swimmers.</p>
      </HomeHero>

      <FiguresStrip figures={figures} />

      <section aria-labelledby="services-heading" className="py-16 sm:py-20">
        <div className="container-page">
          <SectionHeading id="services-heading" eyebrow="What we do" title="Our Services">
            Three ways to see your swimming clearly, each built for the pool rather than borrowed from another sport.
          </SectionHeading>
          <ul className="mt-12 space-y-14 sm:space-y-20">
            <PhotoFeature
              number="01"
              title="Race Analysis"
              picture={pictures.raceAnalysis}
              seed="race-analysis"
              flip={false}
              link={(
                <ArrowLink to={`${href('/services')}#race-analysis`}>
                  Learn more<span className="sr-only"> about Race Analysis</span>
                </ArrowLink>
              )}
            >
              Frame-by-frame video of your race, with stroke count, tempo, turn times and start reaction measured and
              compared against elite benchmarks.
            </PhotoFeature>
            <PhotoFeature
              number="02"
              title="Biomechanical Analysis"
              picture={pictures.biomechanics}
              seed="biomechanics"
              flip
              link={(
                <ArrowLink to={`${href('/services')}#biomechanical-analysis`}>
                  Learn more<span className="sr-only"> about Biomechanical Analysis</span>
                </ArrowLink>
              )}
            >
              Joint angles and body position measured from multi-angle footage, to refine technique, spot injury risks
              early and choose the drills that matter for you.
            </PhotoFeature>
            <PhotoFeature number="03" title="Underwater Camera System" picture={pictures.cameras} seed="cameras" flip={false} link={<ArrowLink to={href('/how-it-works')}>See How It Works</ArrowLink>}>
              HD, slow-motion footage from below the surface captures the catch, pull and kick that cannot be seen from
              the pool deck, and turns them into measurable data.
            </PhotoFeature>
          </ul>
        </div>
      </section>

      <section aria-labelledby="why-heading" className="bg-brand-50 py-16 sm:py-20">
        <div className="container-page">
          <SectionHeading id="why-heading" eyebrow="Why us" title="Why Choose Our Lab" align="center">
            Everything we do is about one sport. Here is what that means for your swimming.
          </SectionHeading>
          <ul className="mt-12 grid gap-x-10 gap-y-10 sm:grid-cols-2">
            <WhyPoint icon={<FirstInIndiaIcon />} title="First of Its Kind in India">
              We are India&apos;s first sport science lab dedicated entirely to swimming, bringing the kind of analysis used
              in leading swimming programmes to swimmers here at home.
            </WhyPoint>
            <WhyPoint icon={<DataChartIcon />} title="Sports Science & Technology Powered">
              Underwater cameras, video analysis and biomechanics replace guesswork with measurements you can track from
              one session to the next.
            </WhyPoint>
            <WhyPoint icon={<ReportIcon />} title="Personalized Reports & Insights">
              You receive a report on your own stroke, with clear findings, priorities and drills, delivered{' '}
              {reportDelivery}.
            </WhyPoint>
            {/* Said only with the lab's own count behind it (shown once it reaches its threshold). */}
            {figures.swimmersAnalysed !== undefined && (
              <WhyPoint icon={<ShieldCheckIcon />} title={`Trusted by ${figureText('swimmersAnalysed', figures.swimmersAnalysed)[0]} ${figures.swimmersAnalysed === 1 ? 'swimmer' : 'swimmers'} and their coaches`}>
                Our analysis is built around the demands of competitive swimming, and our feedback speaks the language
                coaches already use on deck.
              </WhyPoint>
            )}
          </ul>
        </div>
      </section>

      <Testimonials testimonials={loaderData.testimonials} />

      <PartnersStrip partners={partners} />

      <JoinTheMovement>
        <p>
          Sports science is changing how swimmers train. We are bringing it to Indian swimming, starting in Bangalore
          and with plans to expand across India. Whether you are chasing a qualifying time, coaching a squad or
          preparing for your first triathlon, come and see your stroke as it really is.
        </p>
      </JoinTheMovement>

      <CallToAction
        id="next-level-heading"
        tone="dark"
        title="Ready to Take Your Swimming to the Next Level?"
        actions={
          <>
            <Link to={href('/book')} className="btn-light">
              Book a Session
            </Link>
            <Link to={href('/pricing')} className="btn-on-dark">
              View Pricing
            </Link>
          </>
        }
      >
        <p>Book a session, swim as you normally do, and receive your personalized report {reportDelivery}.</p>
      </CallToAction>
    </>
  )
}

function WhyPoint({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-5">
      <IconBadge tone="solid">{icon}</IconBadge>
      <div>
        <h3 className="text-xl font-bold text-ink">{title}</h3>
        <p className="mt-2 leading-relaxed text-muted">{children}</p>
      </div>
    </li>
  )
}

type StructuredDataProps = {
  siteUrl: string
  offers: { code: string; name: string; tagline: string; pricePaise: number }[]
}

/**
 * schema.org data for search engines: the lab as a sports location whose services and prices are
 * the catalogue's, so the listing can never disagree with the pricing page.
 */
function LabStructuredData({ siteUrl, offers }: StructuredDataProps) {
  const data = {
    '@context': 'https://schema.org',
    '@type': 'SportsActivityLocation',
    '@id': `${siteUrl}/#lab`,
    name: PRODUCT_NAME,
    description:
      "India's first sport science lab for swimming: underwater race analysis, biomechanical analysis and personalized reports for swimmers and coaches.",
    url: `${siteUrl}/`,
    address: { '@type': 'PostalAddress', addressLocality: 'Bangalore', addressRegion: 'Karnataka', addressCountry: 'IN' },
    currenciesAccepted: 'INR',
    paymentAccepted: 'UPI, Credit Card, Debit Card, Net Banking',
    hasOfferCatalog: {
      '@type': 'OfferCatalog',
      name: 'Swimming analysis services',
      itemListElement: offers.map((offer) => ({
        '@type': 'Offer',
        name: `${offer.name} — ${offer.tagline}`,
        price: paiseToDecimalRupees(offer.pricePaise),
        priceCurrency: 'INR',
        url: `${siteUrl}${href('/pricing')}`,
        itemOffered: { '@type': 'Service', name: offer.name, provider: { '@id': `${siteUrl}/#lab` } },
      })),
    },
  }
  return <StructuredData data={data} />
}
