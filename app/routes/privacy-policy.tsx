import { Link } from 'react-router'
import type { Route } from './+types/privacy-policy'
import { EmailValue, SettingText } from '~/components/contact-value'
import { LegalContactDetails, legalContactOf, LegalPage, type LegalSection } from '~/components/legal-page'
import { pageMeta, PRODUCT_NAME } from '~/lib/seo'
import { getSiteSettings } from '~/modules/site/site.server'

const LAST_UPDATED = '2026-11-22'

export async function loader() {
  const settings = await getSiteSettings()
  return {
    contact: legalContactOf(settings),
  }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Privacy Policy',
    description:
      'What personal data the swimming sport science lab collects for accounts, bookings, camps and payments, how we protect it, and your rights under the DPDP Act, 2023.',
    path: '/privacy-policy',
  })

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  const { contact } = loaderData
  const business = <SettingText value={contact.legalName} />
  const email = <EmailValue email={contact.supportEmail} className="" />

  const sections: LegalSection[] = [
    {
      id: 'introduction',
      title: 'Introduction',
      body: (
        <>
          <p>
            {PRODUCT_NAME} is run by {business}, a limited liability partnership registered in India (&ldquo;we&rdquo;,
            &ldquo;us&rdquo;). This policy explains what personal data we collect when you use this website and our services, why
            we collect it, how long we keep it and what your rights are.
          </p>
          <p>
            We process personal data in line with the Digital Personal Data Protection Act, 2023 and the rules made under it. For
            the data described here we are the Data Fiduciary; you are the Data Principal. If you book or register on behalf of a
            child, this policy also covers the child&apos;s data.
          </p>
        </>
      ),
    },
    {
      id: 'collection',
      title: 'Information We Collect',
      body: (
        <>
          <p>We collect only what we need to provide our services:</p>
          <ul>
            <li>
              <strong>Your account:</strong> name, e-mail address, WhatsApp or phone number, age, gender, current location,
              swimming experience, specialisation, academy and coach, whether you take part in events, your best times and how you
              heard about us. Your password is stored only as a one-way hash that nobody, including us, can read back.
            </li>
            <li>
              <strong>Bookings:</strong> the service, dates and times you book, the amount, and the status of the booking, including
              cancellations and reschedules.
            </li>
            <li>
              <strong>Camp registrations:</strong> the name, e-mail address and phone number of the person registered, and the camp
              and batch chosen.
            </li>
            <li>
              <strong>Payments:</strong> from our payment gateway we receive the order and transaction reference, the amount, the
              payment status and the type of payment method. You enter card, UPI or net-banking details on the gateway&apos;s own
              secure pages: they never touch our servers and we never see or store them.
            </li>
            <li>
              <strong>Analysis data:</strong> the video footage we record above and below the water, the measurements taken from it
              (such as stroke count, tempo, joint angles and turn times), and the reports and notes our sports scientists prepare
              for you.
            </li>
            <li>
              <strong>Messages:</strong> what you write to us by e-mail or phone when you ask for help.
            </li>
            <li>
              <strong>Technical data:</strong> the IP address, browser type and pages requested, which our servers log to keep the
              site secure and working.
            </li>
          </ul>
          <h3>Cookies</h3>
          <p>
            We use only cookies that the site needs to work: a session cookie that keeps you signed in, and a short-lived cookie
            that carries on-screen messages from one page to the next. They are session-only cookies. We use no advertising, analytics or third-party tracking cookies.
          </p>
        </>
      ),
    },
    {
      id: 'usage',
      title: 'How We Use Your Information',
      body: (
        <>
          <p>We use your personal data to:</p>
          <ul>
            <li>create and secure your account, including verifying your e-mail address with a one-time code;</li>
            <li>take bookings and camp registrations, hold your place while you pay, and confirm, reschedule or cancel them;</li>
            <li>process payments and refunds through our payment gateway, and issue receipts and tax invoices;</li>
            <li>
              send you e-mails about your bookings: verification codes, confirmations with calendar invitations, reminders,
              receipts, changes and the notice that your report is ready;
            </li>
            <li>carry out your analysis and prepare your personalised report and videos;</li>
            <li>answer your questions and handle complaints;</li>
            <li>meet our legal obligations, such as tax and accounting records, and prevent fraud and misuse of the site.</li>
          </ul>
          <p>
            We do not sell your data and we do not use it for advertising. We send marketing e-mails only if you have asked for
            them, and you can stop them at any time. Where we use measurements for sports-science research, we first anonymise
            and aggregate them so that no one can be identified.
          </p>
        </>
      ),
    },
    {
      id: 'sharing',
      title: 'Sharing Your Information',
      body: (
        <>
          <p>We share personal data only as far as needed, with:</p>
          <ul>
            <li>
              <strong>our payment gateway</strong>, to process your payments and refunds;
            </li>
            <li>
              <strong>our e-mail delivery and hosting providers</strong>, who send our e-mails and run our servers for us under
              contract, and may use the data only on our instructions;
            </li>
            <li>
              <strong>your coach or academy</strong>, only when you ask us to or share your report with them yourself;
            </li>
            <li>
              <strong>government and law-enforcement authorities</strong>, when Indian law requires it.
            </li>
          </ul>
          <p>
            Where a provider processes data outside India, we do so only as Indian law permits and with safeguards in our contract
            with them.
          </p>
        </>
      ),
    },
    {
      id: 'security',
      title: 'Data Security',
      body: (
        <>
          <p>We take reasonable security safeguards to protect your data, including:</p>
          <ul>
            <li>encrypted connections (HTTPS) for every page;</li>
            <li>passwords stored only as strong one-way hashes;</li>
            <li>sign-in sessions held on our server, which can be ended at any time, in a cookie that page scripts cannot read;</li>
            <li>payments entered only on the payment gateway&apos;s secure pages, never on ours;</li>
            <li>access to customer data and footage limited to the staff who need it for their work.</li>
          </ul>
          <p>
            No system is completely secure. If a personal data breach happens, we will inform the Data Protection Board of India
            and the people affected as the law requires.
          </p>
        </>
      ),
    },
    {
      id: 'retention',
      title: 'Data Deletion and Retention',
      body: (
        <>
          <p>We keep personal data only as long as we need it for the purpose it was collected for:</p>
          <ul>
            <li>
              <strong>Account details</strong> are kept while your account is open. When you ask us to delete your account, we
              delete or anonymise them without undue delay.
            </li>
            <li>
              <strong>Videos and reports</strong> are kept while your account is open, so that you keep access to them (the
              lifetime video access of your package). You can ask us to delete them sooner.
            </li>
            <li>
              <strong>Booking, payment and invoice records</strong> are kept for as long as Indian tax and accounting laws require,
              even after an account is deleted.
            </li>
            <li>
              <strong>Server logs</strong> are kept for a limited period for security and then deleted.
            </li>
          </ul>
          <p>To have your data deleted, write to us at {email}.</p>
        </>
      ),
    },
    {
      id: 'rights',
      title: 'Your Rights',
      body: (
        <>
          <p>Under the Digital Personal Data Protection Act, 2023 you have the right to:</p>
          <ul>
            <li>obtain a summary of the personal data we hold about you, how we process it and with whom we have shared it;</li>
            <li>have inaccurate or incomplete data corrected, completed or updated;</li>
            <li>have your data erased when it is no longer needed, unless the law requires us to keep it;</li>
            <li>withdraw your consent at any time;</li>
            <li>have your grievances about our handling of your data addressed by us;</li>
            <li>nominate another person to exercise these rights on your behalf in the event of your death or incapacity.</li>
          </ul>
          <p>
            To use any of these rights, write to us at {email}. We may ask you to confirm your identity first. If you are not
            satisfied with our response to a grievance, you may complain to the Data Protection Board of India.
          </p>
        </>
      ),
    },
    {
      id: 'consent',
      title: 'Consent',
      body: (
        <>
          <p>
            By creating an account, booking a session or registering for a camp, you consent to our processing your personal data
            for the purposes in this policy. You can withdraw your consent at any time by writing to us; this does not affect
            processing that took place before, but we may then no longer be able to provide the service.
          </p>
          <p>
            <strong>Children:</strong> many of the swimmers we work with are under 18. For a child, the account, booking or camp
            registration must be made by a parent or lawful guardian, who gives consent on the child&apos;s behalf. We do not
            track children&apos;s behaviour online or target advertising at them.
          </p>
          <p>
            We will ask for your separate, explicit consent (and a parent&apos;s or guardian&apos;s for a child) before we use any
            footage in which you can be recognised for anything other than your own analysis, such as teaching material or
            promotion.
          </p>
        </>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to This Policy',
      body: (
        <p>
          We may update this policy when our services or the law change. The date at the top of this page shows when it was last
          changed. If we make a significant change, we will tell you by e-mail or with a notice on the site before it applies.
          Please also read our <Link to="/terms">Terms &amp; Conditions</Link>.
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Contact Us',
      body: (
        <>
          <p>For questions, requests or grievances about your personal data, contact us:</p>
          <LegalContactDetails contact={contact} />
        </>
      ),
    },
  ]

  return (
    <LegalPage
      title="Privacy Policy"
      lastUpdated={LAST_UPDATED}
      intro={
        <p>
          Your privacy matters to us. This policy describes how {business} handles the personal data of everyone who uses{' '}
          {PRODUCT_NAME}.
        </p>
      }
      sections={sections}
    />
  )
}
