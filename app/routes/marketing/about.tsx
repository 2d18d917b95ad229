import { href } from 'react-router'
import type { Route } from './+types/about'
import { ArrowLink } from '~/components/arrow-link'
import { BrandPattern } from '~/components/brand-pattern'
import { JoinTheMovement } from '~/components/call-to-action'
import { FeatureCard } from '~/components/feature-card'
import { ChatFeedbackIcon, TargetIcon } from '~/components/inner-page-feature-icons'
import { PoolLocationIllustration } from '~/components/illustrations/pool-location'
import { SwimmerIcon } from '~/components/line-icons'
import { FlaskIcon, MapPinIcon } from '~/components/contact-icons'
import { PageHero } from '~/components/page-hero'
import { PartnersStrip } from '~/components/partners-strip'
import { SectionPicture } from '~/components/photo-feature'
import { SectionHeading } from '~/components/section-heading'
import { TeamMemberCard } from '~/components/team-member-card'
import { Testimonials } from '~/components/testimonials'
import { pageMeta } from '~/lib/seo'
import { publicPictures } from '~/modules/media/media.server'
import { pagePictures } from '~/modules/site/page-pictures.server'
import { isNamed, suppliedText } from '~/modules/site/people'
import { getSiteSettings } from '~/modules/site/site.server'
import { partnersForPages } from '~/modules/partners/partners.server'
import { publicTestimonials } from '~/modules/testimonials/testimonials.server'

export async function loader() {
  const [{ team, venueName, sessionLocation, postalAddress }, pictures, partners, testimonials, places] = await Promise.all([
    getSiteSettings(),
    publicPictures(),
    partnersForPages(),
    publicTestimonials(),
    pagePictures(['story', 'location']),
  ])
  const named = team.filter(isNamed)
  return {
    // The members the lab has named, each with the photo the page draws if it is ready and described
    // (not the whole library). Placeholders stay off the page and out of its data.
    team: named.map(({ name, role, bio, photoId }) => ({ name, role: suppliedText(role), bio: suppliedText(bio), picture: (photoId && pictures.get(photoId)) || null })),
    teamComplete: named.length === team.length,
    location: { venueName, sessionLocation, postalAddress },
    partners,
    testimonials,
    places,
  }
}

const TEAM_TO_COME = 'Names, photos and profiles of our team are being finalised and will appear here soon.'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'About Us',
    description:
      'Why we built a sport science lab only for swimming: our mission for Indian swimming, the team behind the lab, what makes us different and where to find us.',
    path: href('/about'),
  })

export default function About({ loaderData }: Route.ComponentProps) {
  const { team, teamComplete, location, partners, places } = loaderData
  return (
    <>
      <PageHero eyebrow="About Us" title="Bringing Sports Science to Indian Swimming">
        <p>
          We are a sport science lab built for one sport: swimming. We give Indian swimmers and their coaches a clear,
          measurable view of technique, the kind that sits behind performance in the world&apos;s leading swimming
          programmes.
        </p>
      </PageHero>

      <div className="container-page grid gap-12 py-16 sm:py-20 lg:grid-cols-2 lg:gap-16">
        <section aria-labelledby="mission-heading">
          <p className="flex items-center gap-2 text-sm font-semibold tracking-wide text-brand-700 uppercase">
            <TargetIcon className="h-5 w-5" />
            Mission
          </p>
          <h2 id="mission-heading" className="mt-2 text-2xl font-extrabold tracking-tight text-ink sm:text-4xl">
            Our Mission
          </h2>
          <div className="mt-4 space-y-4 text-lg leading-relaxed text-muted">
            <p>
              To make evidence-based swimming analysis available to every serious swimmer in India, from age-group
              racers to masters, and to put clear, practical insight in the hands of the coaches who guide them.
            </p>
            <p>
              We measure what the eye cannot catch from the pool deck, explain it in plain language, and turn it into
              a plan you can train with.
            </p>
          </div>
        </section>
        <section aria-labelledby="why-started-heading" className="rounded-3xl bg-brand-50 p-6 ring-1 ring-brand-100 sm:p-10">
          {places.story && <SectionPicture picture={places.story} seed="story" sizes="(min-width: 1152px) 480px, (min-width: 1024px) 40vw, 90vw" className="mb-6" />}
          <p className="flex items-center gap-2 text-sm font-semibold tracking-wide text-brand-700 uppercase">
            <SwimmerIcon className="h-5 w-5" />
            Our story
          </p>
          <h2 id="why-started-heading" className="mt-2 text-2xl font-extrabold tracking-tight text-ink sm:text-4xl">
            Why We Started
          </h2>
          <div className="mt-4 space-y-4 leading-relaxed text-muted">
            <p>
              Most swimmers in India train without ever seeing their own stroke from under the water. Coaches watch
              from the deck, where splash, reflections and speed hide the details that decide a race: the shape of the
              catch, the timing of the kick, the fraction of a second lost at the wall.
            </p>
            <p>
              We started the lab to change that, bringing underwater cameras, biomechanics and race analysis together
              in one place dedicated to swimming, here in India. With portable setups for competitions and camps, and
              plans to expand across India, we want every swimmer who is serious about improving to have that view.
            </p>
          </div>
        </section>
      </div>

      <section aria-labelledby="team-heading" className="border-y border-slate-200 bg-slate-50 py-16 sm:py-20">
        <div className="container-page">
          <SectionHeading id="team-heading" eyebrow="People" title="Our Team" align="center">
            The people behind the lab and behind every analysis.
          </SectionHeading>
          {team.length === 0 ? (
            <div className="mx-auto mt-10 max-w-3xl overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-brand-100">
              <BrandPattern seed="team" shape="band" className="h-28 w-full sm:h-36" />
              <p className="px-6 py-5 text-center text-muted">{TEAM_TO_COME}</p>
            </div>
          ) : (
            <>
              {!teamComplete && <p className="mx-auto mt-4 max-w-2xl text-center text-sm text-muted">{TEAM_TO_COME}</p>}
              <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
                {team.map((member, index) => (
                  <li key={`${index}-${member.name}`}>
                    <TeamMemberCard {...member} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      </section>

      <section aria-labelledby="different-heading" className="py-16 sm:py-20">
        <div className="container-page">
          <SectionHeading id="different-heading" eyebrow="Our approach" title="What Makes Us Different">
            Swimming is our only sport, and everything about the lab is shaped around it.
          </SectionHeading>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            <li>
              <FeatureCard icon={<SwimmerIcon className="h-7 w-7" />} title="Exclusive to Swimming">
                Our equipment, methods and benchmarks are built for swimming alone, not adapted from other sports.
              </FeatureCard>
            </li>
            <li>
              <FeatureCard icon={<ChatFeedbackIcon />} title="Coach-Friendly Feedback">
                Reports are written to be used on deck: clear priorities, annotated footage and drills your coach can
                put straight into training.
              </FeatureCard>
            </li>
            <li>
              <FeatureCard icon={<FlaskIcon className="h-7 w-7" />} title="Fully Equipped Lab">
                Underwater HD cameras, multi-angle filming and analysis tools in one place, with portable setups for
                competitions and camps.
              </FeatureCard>
            </li>
          </ul>
        </div>
      </section>

      <section aria-labelledby="location-heading" className="bg-brand-50 py-16 sm:py-20">
        <div className="container-page grid items-center gap-10 lg:grid-cols-2">
          <div>
            <SectionHeading id="location-heading" eyebrow="Visit us" title="Our Location">
              Our lab is based at {location.venueName}, where your analysis sessions take place.
            </SectionHeading>
            <div className="mt-8 flex gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-brand-100">
              <MapPinIcon className="h-7 w-7 shrink-0 text-brand-700" />
              <address className="leading-relaxed not-italic">
                <span className="block font-bold text-ink">{location.venueName}</span>
                <span className="block text-muted">{location.postalAddress}</span>
                <span className="mt-2 block text-sm text-muted">
                  Sessions at: <span className="font-semibold text-ink">{location.sessionLocation}</span>
                </span>
              </address>
            </div>
            <p className="mt-4 text-sm text-muted">Please arrive 15 minutes before your session.</p>
            <ArrowLink to={href('/contact')} className="mt-2">
              Contact details
            </ArrowLink>
          </div>
          {places.location ? (
            <SectionPicture picture={places.location} seed="location" sizes="(min-width: 1152px) 528px, (min-width: 1024px) 45vw, 100vw" />
          ) : (
            <PoolLocationIllustration className="mx-auto hidden w-full max-w-md sm:block" />
          )}
        </div>
      </section>

      <PartnersStrip partners={partners} />
      <Testimonials testimonials={loaderData.testimonials} />

      <JoinTheMovement>
        <p>
          Be part of a new chapter for Indian swimming. Whether you swim, coach or cheer from the stands, a session
          with us is the clearest way to see where the next improvement will come from.
        </p>
      </JoinTheMovement>
    </>
  )
}
