import { href, Link } from 'react-router'
import type { Route } from './+types/terms'
import { SettingText } from '~/components/contact-value'
import { LegalContactDetails, legalContactOf, LegalPage, type LegalSection } from '~/components/legal-page'
import { pageMeta, PRODUCT_NAME } from '~/lib/seo'
import { getSiteSettings } from '~/modules/site/site.server'

const LAST_UPDATED = '2026-11-22'

export async function loader() {
  const settings = await getSiteSettings()
  return {
    refundPolicy: settings.refundPolicy,
    reportDelivery: settings.reportDelivery,
    sessionLocation: settings.sessionLocation,
    contact: legalContactOf(settings),
  }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Terms & Conditions',
    description:
      'The terms for booking swimming analysis sessions and camps with our Bangalore lab: bookings, payments in INR, cancellations, safety at the pool, video use and liability.',
    path: href('/terms'),
  })

export default function Terms({ loaderData }: Route.ComponentProps) {
  const { refundPolicy, reportDelivery, sessionLocation, contact } = loaderData
  const business = <SettingText value={contact.legalName} />

  const sections: LegalSection[] = [
    {
      id: 'about',
      title: 'About These Terms',
      body: (
        <>
          <p>
            {PRODUCT_NAME} is run by {business}, a limited liability partnership registered in India (&ldquo;we&rdquo;,
            &ldquo;us&rdquo;). These terms apply to your use of this website and to every analysis session and camp you book with
            us. By creating an account, making a booking or registering for a camp, you accept them.
          </p>
          <p>
            If you book for a child under 18, you must be their parent or lawful guardian, and you accept these terms on their
            behalf.
          </p>
        </>
      ),
    },
    {
      id: 'services',
      title: 'Our Services',
      body: (
        <p>
          We offer race analysis, biomechanical analysis with underwater cameras, personalised reports and swimming camps. Sessions
          take place at {sessionLocation} unless we agree another venue with you, such as your competition for a Race Analysis.
          What each service includes is described on our <Link to={href('/services')}>Services</Link> and{' '}
          <Link to={href('/pricing')}>Pricing</Link> pages.
        </p>
      ),
    },
    {
      id: 'accounts',
      title: 'Your Account',
      body: (
        <ul>
          <li>Give accurate, up-to-date details when you register, and keep them current.</li>
          <li>Keep your password to yourself. You are responsible for bookings made through your account.</li>
          <li>Tell us straight away if you think someone else has used your account.</li>
          <li>We may suspend an account that is used to break these terms or to misuse the site.</li>
        </ul>
      ),
    },
    {
      id: 'bookings',
      title: 'Bookings',
      body: (
        <ul>
          <li>
            A booking is confirmed only when your payment has been received and we have sent you a confirmation e-mail. While you
            pay, your place is held for a limited time; if the hold expires, the place may go to someone else.
          </li>
          <li>Session places and camp batches are limited and offered first come, first served.</li>
          <li>Please arrive 15 minutes before your session starts, ready to swim.</li>
          <li>
            If you arrive late, we may have to shorten the session so that the next swimmer can start on time; the full price
            still applies.
          </li>
          <li>We aim to deliver your personalised report {reportDelivery} after your session.</li>
        </ul>
      ),
    },
    {
      id: 'payments',
      title: 'Prices and Payment',
      body: (
        <ul>
          <li>
            All prices are in Indian rupees (INR) and include GST unless stated otherwise. For a Race Analysis at a competition,
            travel and accommodation are charged in addition.
          </li>
          <li>
            The price that applies is the one shown when you book. Early-bird camp prices apply only to registrations paid before
            the early-bird deadline.
          </li>
          <li>
            You pay online through our payment gateway by UPI, card or net banking. Your payment details are handled by the
            gateway and never reach our servers.
          </li>
          <li>We send you a receipt for every payment.</li>
        </ul>
      ),
    },
    {
      id: 'cancellations',
      title: 'Cancellation, Rescheduling and Refunds',
      body: (
        <>
          <ul>
            <li>You can cancel a booking at least 24 hours in advance for a full refund.</li>
            <li>You can reschedule a session up to 24 hours ahead, subject to availability.</li>
            <li>Refunds are credited {refundPolicy}.</li>
            <li>If we cancel a session or camp, you choose between a free reschedule and a full refund.</li>
          </ul>
          <p>
            The full rules are in our <Link to={href('/refund')}>Refund Policy</Link>, which forms part of these terms.
          </p>
        </>
      ),
    },
    {
      id: 'safety',
      title: 'Health, Safety and Conduct at the Pool',
      body: (
        <ul>
          <li>
            Our sessions are for swimmers who can swim confidently in deep water. Tell us before your session about any medical
            condition or injury that could affect you in the water.
          </li>
          <li>
            Follow the rules of the venue and the instructions of our staff and the lifeguards at all times. We may pause or stop
            a session if we believe it is unsafe to continue.
          </li>
          <li>
            Parents or guardians are responsible for children under 18 outside the time they are in the water with us, and must
            remain at the venue during the session.
          </li>
          <li>
            Treat other swimmers, coaches, staff and the venue with respect. We may refuse service, without refund, to anyone who
            behaves in an abusive or unsafe way.
          </li>
          <li>Do not film or photograph other swimmers at the venue without their permission.</li>
        </ul>
      ),
    },
    {
      id: 'video-and-data',
      title: 'Video, Data and Reports',
      body: (
        <ul>
          <li>
            We record video above and below the water during your session to carry out the analysis. Our{' '}
            <Link to={href('/privacy-policy')}>Privacy Policy</Link> explains how we handle this and all other personal data.
          </li>
          <li>
            Your report and videos are for your personal use and your coach&apos;s. You may share them with your coach, club or
            academy, but not sell or publish them commercially.
          </li>
          <li>
            The analysis methods, report formats and other material we provide remain our intellectual property.
          </li>
          <li>
            We will not publish footage in which you can be recognised without your explicit consent (or a parent&apos;s or
            guardian&apos;s for a child).
          </li>
          <li>
            Lifetime video access means you can reach your footage through your account for as long as we offer the service. If
            that ever changes, we will give you reasonable notice to download it.
          </li>
        </ul>
      ),
    },
    {
      id: 'advice',
      title: 'Our Advice',
      body: (
        <p>
          Our analysis and recommendations are sports-science guidance on swimming technique and performance. They are not
          medical advice and do not replace a doctor or physiotherapist. Discuss new drills and training changes with your coach,
          and consult a medical professional about any pain or injury.
        </p>
      ),
    },
    {
      id: 'liability',
      title: 'Liability',
      body: (
        <>
          <p>
            We provide our services with reasonable skill and care. To the extent the law allows, we are not liable for indirect
            or consequential losses, for results in competition, or for loss of or damage to personal belongings at the venue,
            and our total liability for a booking is limited to the amount you paid for it.
          </p>
          <p>
            Nothing in these terms limits liability that cannot be limited under Indian law, including for death or personal
            injury caused by our negligence, or your rights under the Consumer Protection Act, 2019.
          </p>
        </>
      ),
    },
    {
      id: 'website',
      title: 'Use of This Website',
      body: (
        <p>
          Do not misuse the site: do not try to access other people&apos;s accounts or data, interfere with its security or
          operation, or make bookings in someone else&apos;s name without their permission. The content of the site is ours and
          may not be copied for commercial use without our written permission.
        </p>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to These Terms',
      body: (
        <p>
          We may update these terms from time to time; the date at the top of this page shows the latest version. The terms that
          applied when you made a booking continue to apply to that booking.
        </p>
      ),
    },
    {
      id: 'law',
      title: 'Governing Law and Jurisdiction',
      body: (
        <p>
          These terms are governed by the laws of India. Any dispute arising from them or from our services is subject to the
          exclusive jurisdiction of the courts at Bengaluru (Bangalore), Karnataka. Before going to court, please contact us so
          that we can try to resolve the matter together.
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Contact Us',
      body: (
        <>
          <p>For questions about these terms or to raise a complaint, contact us:</p>
          <LegalContactDetails contact={contact} />
        </>
      ),
    },
  ]

  return (
    <LegalPage
      title="Terms & Conditions"
      lastUpdated={LAST_UPDATED}
      intro={
        <p>
          Please read these terms before you book an analysis session or register for a camp. They explain what you can expect
          from us and what we ask of you.
        </p>
      }
      sections={sections}
    />
  )
}
