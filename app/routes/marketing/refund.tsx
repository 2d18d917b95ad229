import { href, Link } from 'react-router'
import type { Route } from './+types/refund'
import { LegalContactDetails, legalContactOf, LegalPage, type LegalSection } from '~/components/legal-page'
import { SettingText } from '~/components/contact-value'
import { pageMeta, PRODUCT_NAME } from '~/lib/seo'
import { getSiteSettings } from '~/modules/site/site.server'

const LAST_UPDATED = '2026-11-22'

export async function loader() {
  const settings = await getSiteSettings()
  return {
    refundPolicy: settings.refundPolicy,
    contact: legalContactOf(settings),
  }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Refund Policy',
    description:
      'How cancellations, rescheduling and refunds work for swimming analysis sessions and camps: cancel or reschedule 24 hours ahead, refunds to the original payment method.',
    path: href('/refund'),
  })

export default function Refund({ loaderData }: Route.ComponentProps) {
  const { refundPolicy, contact } = loaderData
  const sections: LegalSection[] = [
    {
      id: 'cancellations',
      title: 'Cancellations',
      body: (
        <>
          <p>
            Cancellations must be made at least <strong>24 hours in advance</strong>. If you cancel an analysis session at least
            24 hours before it starts, you receive a full refund of the amount you paid. You can cancel from{' '}
            <Link to={href('/my-bookings')}>My Bookings</Link> or by writing to us.
          </p>
          <p>The same applies to a camp registration: cancel at least 24 hours before your first batch of the camp begins.</p>
          <p>
            Bookings cancelled less than 24 hours before the session or camp, and sessions missed without notice, are not
            refundable, because the slot and the lab's staff were reserved for you.
          </p>
        </>
      ),
    },
    {
      id: 'rescheduling',
      title: 'Rescheduling',
      body: (
        <>
          <p>
            You can reschedule a session free of charge up to 24 hours ahead, to any date and time that still has free places.
            Your payment moves with the booking, so no refund or new payment is needed.
          </p>
          <p>
            Less than 24 hours before a session it can no longer be rescheduled online. If something unexpected happens, contact
            us and we will help where we can.
          </p>
        </>
      ),
    },
    {
      id: 'refunds',
      title: 'How Refunds Are Paid',
      body: (
        <>
          <p>
            Refunds are credited <strong>{refundPolicy}</strong>. We issue them through the same payment gateway you paid with;
            we do not refund in cash or to a different account.
          </p>
          <p>
            We e-mail you when the refund has been issued. Depending on your bank or card issuer, it can take a few more days
            before it shows on your statement.
          </p>
        </>
      ),
    },
    {
      id: 'when-we-cancel',
      title: 'When We Cancel',
      body: (
        <p>
          If we have to cancel a session or a camp, for example because the pool is closed, we tell you as soon as we know and you
          choose between a free reschedule and a full refund.
        </p>
      ),
    },
    {
      id: 'payment-problems',
      title: 'Payments That Did Not Complete a Booking',
      body: (
        <>
          <p>
            While you pay, your place is held for a limited time. If your payment reaches us after the hold has expired and the
            place has been taken in the meantime, we refund the full amount automatically and let you know by e-mail.
          </p>
          <p>
            If money has left your account but your booking does not show as confirmed, do not pay again: we keep checking the
            payment with the gateway and e-mail you the result. If it is still unresolved after a day, contact us with the
            transaction ID from your bank or payment app.
          </p>
        </>
      ),
    },
    {
      id: 'race-analysis-travel',
      title: 'Race Analysis Travel Costs',
      body: (
        <p>
          For a Race Analysis at a competition, travel and accommodation are charged in addition to the analysis. If you cancel
          after we have booked them, we refund the analysis fee under this policy and the travel and accommodation costs as far
          as we can recover them.
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Contact Us',
      body: (
        <>
          <p>For a cancellation, a reschedule or a question about a refund, contact us:</p>
          <LegalContactDetails contact={contact} />
        </>
      ),
    },
  ]

  return (
    <LegalPage
      title="Refund Policy"
      lastUpdated={LAST_UPDATED}
      intro={
        <p>
          This policy explains how cancellations, rescheduling and refunds work for analysis sessions and camps booked with{' '}
          {PRODUCT_NAME}, run by <SettingText value={contact.legalName} />. All payments and refunds are in Indian rupees (INR).
        </p>
      }
      sections={sections}
    />
  )
}
