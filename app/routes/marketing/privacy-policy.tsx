import { href, Link } from 'react-router'
import type { Route } from './+types/privacy-policy'
import { EmailValue, SettingText } from '~/components/contact-value'
import { LegalContactDetails, legalContactOf, LegalPage, type LegalSection } from '~/components/legal-page'
import { pageMeta, PRODUCT_NAME } from '~/lib/seo'
import { getSiteSettings } from '~/modules/site/site.server'

const LAST_UPDATED = '2026-11-29'

/** Shown until staff name the grievance officer in the settings. */
const OFFICER_PLACEHOLDER = '[Grievance officer — to be supplied by the lab]'
const OFFICER_EMAIL_PLACEHOLDER = "[Grievance officer's e-mail — to be supplied by the lab]"

export async function loader() {
  const settings = await getSiteSettings()
  return {
    contact: legalContactOf(settings),
    officer: {
      name: settings.grievanceOfficerName.trim() || OFFICER_PLACEHOLDER,
      email: settings.grievanceOfficerEmail.trim() || OFFICER_EMAIL_PLACEHOLDER,
    },
  }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Privacy Policy',
    description:
      'What personal data the swimming sport science lab collects for accounts, bookings, camps and payments, how we protect it, and your rights under the DPDP Act, 2023.',
    path: href('/privacy-policy'),
  })

/** How long each kind of data is kept; the retention job (app/modules/privacy/retention.server.ts) applies the short periods. */
const RETENTION_ROWS: Array<[string, string]> = [
  ['Your account and swimmer profiles', 'Until you delete them, or delete your account'],
  ['Analysis videos, reports and their files', 'With the account: deleted when it is deleted'],
  ['An account whose e-mail address was never verified', '7 days'],
  ["A minor's account whose parent has not agreed (no answer to the consent request)", '7 days'],
  ['One-time codes sent by e-mail', '30 minutes, or until used'],
  ['Sign-in sessions', 'Their lifetime (7 days), or until you sign out'],
  ['A request to be told when the lab comes to a city, not confirmed', '7 days'],
  ['A confirmed request to be told when the lab comes to a city (the address, the city, and which days it was told of)', 'Until you stop it with the link in any of its e-mails, or delete your account'],
  ['What you typed on a camp or analysis day form sent in a rush, kept with your place in line', 'A day after your turn came'],
  ['The text of e-mails we sent', '90 days'],
  ['Whether your WhatsApp number asked for our messages (when, and the words agreed to)', 'Until you delete your account, so that we can show when you agreed or said stop'],
  ['Invoices and the payments they record', '8 years, as Indian tax law (GST) requires'],
  ['Server logs', 'A limited period, for security'],
]

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  const { contact, officer } = loaderData
  const business = <SettingText value={contact.legalName} />
  const email = <EmailValue email={contact.supportEmail} className="" />
  const officerName = <SettingText value={officer.name} />
  const officerEmail = <EmailValue email={officer.email} className="" />
  const link = 'font-semibold text-brand-700 underline underline-offset-4'

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
              <strong>Your account:</strong> your name, e-mail address, WhatsApp number and current location. Your password is
              stored only as a one-way hash that nobody, including us, can read back.
            </li>
            <li>
              <strong>Swimmers:</strong> for you or each swimmer you look after: name, age or date of birth, gender, swimming
              experience, specialisation, academy and coach, whether they take part in events, best times and how you heard about
              us; for a swimmer under 18, the parent&apos;s or guardian&apos;s consent (who gave it, how, and when).
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
              <strong>Analysis day alerts:</strong> the e-mail address and city you give when you ask to be told when the lab comes
              to your city, whether you asked for WhatsApp too, when you confirmed it, and which analysis days we told you of.
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
            <li>
              send you the same updates on WhatsApp (confirmations, reminders, payment and refund updates and analysis results),
              but only to a number whose owner asked for them by ticking the WhatsApp box next to it, or by turning WhatsApp
              messages on in their account. We keep when and on which form you asked, and the words you agreed to. Reply STOP to
              any of our WhatsApp messages, or turn them off in your account, and we send none after the one confirming it;
            </li>
            <li>
              tell you when the lab plans an analysis day in a city you asked about, only once you have confirmed the request
              through the link we e-mail you; every such e-mail has a link to stop them;
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
              <strong>Meta (WhatsApp)</strong>, whose WhatsApp Business platform carries our WhatsApp messages to the numbers that
              asked for them: it receives the number and the message, and tells us whether it was delivered;
            </li>
            <li>
              <strong>your coach or academy</strong>, only when you ask us to or share your results with them yourself: a link you
              make on the site shows that coach the swimmer&apos;s results only (no bookings, payments or contact details), ends
              after the time you choose, and stops working the moment you revoke it; you can see when it was last opened;
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
      title: 'How Long We Keep Your Data',
      body: (
        <>
          <p>We keep personal data only as long as we need it for the purpose it was collected for, and then erase it:</p>
          <div className="relative overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">How long each kind of data is kept</caption>
              <thead>
                <tr className="border-b border-slate-300">
                  <th scope="col" className="py-2 pr-4 font-semibold text-ink">
                    Data
                  </th>
                  <th scope="col" className="py-2 font-semibold text-ink">
                    Kept
                  </th>
                </tr>
              </thead>
              <tbody className="text-muted">
                {RETENTION_ROWS.map(([what, kept]) => (
                  <tr key={what} className="border-b border-slate-200 align-top">
                    <th scope="row" className="py-2 pr-4 font-normal">
                      {what}
                    </th>
                    <td className="py-2">{kept}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="mt-3">
            When an account is deleted, the invoices of its payments stay as Indian tax law requires, without the buyer&apos;s name,
            e-mail address or phone number (an invoice of ₹50,000 or more keeps the name, which the GST rules ask for).
          </p>
        </>
      ),
    },
    {
      id: 'children',
      title: "Children and Parents' Consent",
      body: (
        <>
          <p>
            Many of the swimmers we work with are under 18. Before we process a child&apos;s data we ask for the consent of a
            parent or lawful guardian. What we record is the parent&apos;s or guardian&apos;s declaration, made in one of three
            ways:
          </p>
          <ul>
            <li>
              <strong>A parent or guardian registers the child</strong>: in the registration form they declare that they are the
              child&apos;s parent or guardian and agree to this policy; their e-mail address is verified with a one-time code before
              the account can be used.
            </li>
            <li>
              <strong>A swimmer under 18 registers alone</strong>: they give a parent&apos;s or guardian&apos;s e-mail address, and
              once the swimmer has verified their own address, we e-mail the parent a link to read this policy and agree or refuse.
              Until the parent agrees, nothing can be booked. If the address that agrees may be the swimmer&apos;s own (an account
              with it was registered the same day, or it has answered for other swimmers), we check with the family before anything
              is booked. If the parent refuses, or nobody answers within 7 days, we erase the account and everything in it and tell
              the swimmer why.
            </li>
            <li>
              <strong>A camp registration</strong>: the parent or guardian filling in the camp form declares that they are and agrees
              to this policy for that registration.
            </li>
          </ul>
          <p>
            A parent or guardian can withdraw their consent at any time from the swimmer&apos;s page under{' '}
            <Link to={href('/swimmers')} className={link}>
              Swimmers
            </Link>{' '}
            or, for a swimmer who holds their own account, through the link in the e-mail that confirmed the consent. We then book
            nothing more for the swimmer, and their future sessions and camp places are cancelled under our{' '}
            <Link to={href('/refund')} className={link}>
              refund policy
            </Link>
            . Deleting the swimmer or the account (under Your data), or asking us, erases their data, except invoices the law requires
            us to keep. We do not track children&apos;s behaviour online or target advertising at them.
          </p>
        </>
      ),
    },
    {
      id: 'testimonials',
      title: 'Testimonials',
      body: (
        <>
          <p>
            We show a swimmer&apos;s, parent&apos;s or coach&apos;s words on this website only after that person agrees (for a
            swimmer under 18, their parent or guardian) through a link we e-mail them, which shows exactly the words, name, role
            and photo that would appear. We keep the time of the agreement and exactly what was agreed to, and the address we
            asked.
          </p>
          <p>
            You can take your words off the website at any time, at once, with the link in the e-mail confirming your agreement,
            or by asking us; we then delete them and the address on request. If anything we show would change, we ask again first.
          </p>
        </>
      ),
    },
    {
      id: 'rights',
      title: 'Your Rights and How to Use Them',
      body: (
        <>
          <p>Under the Digital Personal Data Protection Act, 2023 and the DPDP Rules, 2025 you have the right to:</p>
          <ul>
            <li>
              <strong>see your data</strong>: a summary of what we hold about you, how we process it and with whom we have shared it.
              Download everything we hold about your account and its swimmers on{' '}
              <Link to={href('/account/data')} className={link}>
                Your data
              </Link>
              ;
            </li>
            <li>
              <strong>correct it</strong>: your own details on{' '}
              <Link to={href('/account/data')} className={link}>
                Your data
              </Link>
              , a swimmer&apos;s on their page under{' '}
              <Link to={href('/swimmers')} className={link}>
                Swimmers
              </Link>
              ; to change your e-mail address, write to us;
            </li>
            <li>
              <strong>erase it</strong>: delete a swimmer or your whole account on{' '}
              <Link to={href('/account/data')} className={link}>
                Your data
              </Link>
              , after seeing what will be cancelled and refunded; we keep only what the law requires (invoices);
            </li>
            <li>
              <strong>withdraw consent</strong> at any time, including a parent&apos;s consent for a child (see above); this does not
              affect processing that took place before;
            </li>
            <li>
              <strong>have your grievances addressed</strong> by our grievance officer, below;
            </li>
            <li>
              <strong>nominate</strong> another person to exercise these rights for you in the event of your death or incapacity: write
              to our grievance officer with their name and e-mail address.
            </li>
          </ul>
          <p>
            For anything you cannot do on the site, write to us at {email}. We may ask you to confirm your identity first.
          </p>
        </>
      ),
    },
    {
      id: 'grievances',
      title: 'Grievance Officer',
      body: (
        <>
          <p>
            Questions and complaints about how we handle your personal data go to our grievance officer, {officerName}, at {officerEmail}.
            We answer as soon as we can, and within 90 days at the latest.
          </p>
          <p>If you are not satisfied with our answer, you may complain to the Data Protection Board of India.</p>
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
            for the purposes in this policy (for a swimmer under 18, their parent or guardian consents, as described above). You can
            withdraw your consent at any time by deleting your account or by writing to us; this does not affect processing that
            took place before, but we may then no longer be able to provide the service.
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
          Please also read our <Link to={href('/terms')}>Terms &amp; Conditions</Link>.
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
