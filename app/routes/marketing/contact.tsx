import type { ReactNode } from 'react'
import { href, Link } from 'react-router'
import type { Route } from './+types/contact'
import { EmailValue, isRealWebsite, PhoneValue, SettingText, WebsiteValue } from '~/components/contact-value'
import { SwimmerIcon } from '~/components/line-icons'
import { FlaskIcon, GlobeIcon, MailIcon, MapPinIcon, PhoneIcon, ProgramIcon } from '~/components/contact-icons'
import { PageHero } from '~/components/page-hero'
import { pageMeta } from '~/lib/seo'
import { getSiteSettings } from '~/modules/site/site.server'

export async function loader() {
  const settings = await getSiteSettings()
  return {
    sessionLocation: settings.sessionLocation,
    postalAddress: settings.postalAddress,
    phone: settings.phone,
    phoneHours: settings.phoneHours,
    supportEmail: settings.supportEmail,
    infoEmail: settings.infoEmail,
    websiteUrl: settings.websiteUrl,
  }
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: 'Contact Us',
    description: `Contact India's first sport science lab for swimming${loaderData ? ` at ${loaderData.sessionLocation}` : ', Bangalore'}: phone, e-mail and location for analysis sessions, camps and research.`,
    path: href('/contact'),
  })

const HELP_TOPICS = [
  {
    title: 'Swimming Analysis',
    text: 'Race and biomechanical analysis with underwater cameras: HD, slow-motion footage and measurable data, turned into a report you and your coach can act on.',
    Icon: SwimmerIcon,
  },
  {
    title: 'Sports Science Research',
    text: 'Talk to us about sports-science work on swimming technique and performance with academies, clubs and institutions.',
    Icon: FlaskIcon,
  },
  {
    title: 'Custom Training Programs',
    text: 'Drills and training priorities built from your own analysis, so you know exactly what to work on next.',
    Icon: ProgramIcon,
  },
]

export default function Contact({ loaderData }: Route.ComponentProps) {
  const { sessionLocation, postalAddress, phone, phoneHours, supportEmail, infoEmail, websiteUrl } = loaderData
  const hasWebsite = isRealWebsite(websiteUrl)

  return (
    <>
      <PageHero eyebrow="We would love to hear from you" title="Contact Us">
        <p>
          Questions about an analysis session, a camp or working with us? Call or write to the lab and our team will get back to
          you.
        </p>
      </PageHero>

      <section aria-labelledby="details-heading" className="pt-14 pb-16 sm:pt-16">
        <div className="container-page">
          <h2 id="details-heading" className="sr-only">
            Contact details
          </h2>
          <div className={`grid gap-6 sm:grid-cols-2 ${hasWebsite ? 'xl:grid-cols-4' : 'lg:grid-cols-3'}`}>
            <ContactCard title="Location" icon={<MapPinIcon className="h-6 w-6" />}>
              <address className="not-italic">
                <span className="block font-semibold text-ink">{sessionLocation}</span>
                <span className="mt-1 block">
                  <SettingText value={postalAddress} />
                </span>
              </address>
            </ContactCard>

            <ContactCard title="Phone" icon={<PhoneIcon className="h-6 w-6" />}>
              <p>
                <PhoneValue phone={phone} />
              </p>
              <p className="mt-1 text-sm">{phoneHours}</p>
            </ContactCard>

            <ContactCard title="Email" icon={<MailIcon className="h-6 w-6" />}>
              <dl className="space-y-3">
                <div>
                  <dt className="text-sm font-medium text-ink">Support and bookings</dt>
                  <dd>
                    <EmailValue email={supportEmail} />
                  </dd>
                </div>
                <div>
                  <dt className="text-sm font-medium text-ink">General enquiries</dt>
                  <dd>
                    <EmailValue email={infoEmail} />
                  </dd>
                </div>
              </dl>
            </ContactCard>

            {hasWebsite && (
              <ContactCard title="Website" icon={<GlobeIcon className="h-6 w-6" />}>
                <p>
                  <WebsiteValue url={websiteUrl} />
                </p>
              </ContactCard>
            )}
          </div>
        </div>
      </section>

      <section aria-labelledby="help-heading" className="border-t border-slate-200 bg-slate-50 py-16 sm:py-20">
        <div className="container-page">
          <h2 id="help-heading" className="text-center text-3xl font-bold tracking-tight text-brand-900">
            How We Can Help You
          </h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {HELP_TOPICS.map(({ title, text, Icon }) => (
              <li key={title} className="card p-6 shadow-sm sm:p-8">
                <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-brand-700 text-white">
                  <Icon className="h-6 w-6" />
                </span>
                <h3 className="mt-5 text-xl font-bold text-brand-900">{title}</h3>
                <p className="mt-2 leading-relaxed text-muted">{text}</p>
              </li>
            ))}
          </ul>
          <div className="mt-12 flex flex-col items-stretch justify-center gap-4 sm:flex-row sm:items-center">
            <Link to={href('/book')} className="btn-primary">
              Book a Session
            </Link>
            <Link to={href('/services')} className="btn-secondary">
              Learn More
              <span className="sr-only"> about our services</span>
            </Link>
          </div>
        </div>
      </section>
    </>
  )
}

function ContactCard({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <div className="card p-6 shadow-sm">
      <span aria-hidden="true" className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
        {icon}
      </span>
      <h3 className="mt-4 text-lg font-bold text-brand-900">{title}</h3>
      <div className="mt-2 text-muted">{children}</div>
    </div>
  )
}
