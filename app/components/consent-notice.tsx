import { href, Link } from 'react-router'

/**
 * What the lab keeps about a swimmer under 18 and why, as a parent reads it before agreeing: short,
 * with the full privacy policy a link away. `version` is the notice's version, kept with the consent.
 */
export function ConsentNotice({ swimmer, version, headingLevel = 2 }: { swimmer: string; version: string; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const
  return (
    <section aria-labelledby="consent-notice-heading" className="space-y-3 text-ink">
      <Heading id="consent-notice-heading" className="text-lg font-bold text-brand-900">
        What we keep about {swimmer}, and why
      </Heading>
      <ul className="list-disc space-y-2 pl-5">
        <li>
          <strong>The swimmer&apos;s profile:</strong> name, age or date of birth, gender, swimming experience, academy and coach,
          stroke and best time. We use it to plan and carry out the analysis.
        </li>
        <li>
          <strong>Bookings and payments:</strong> the sessions and camps booked, and the payments and refunds for them, kept as
          Indian tax and accounting law requires.
        </li>
        <li>
          <strong>Analysis videos and reports:</strong> the footage we film in the pool and the report we write from it, so the
          swimmer and you can watch and read them.
        </li>
      </ul>
      <p>
        <strong>Who sees them:</strong> the swimmer&apos;s account, and the lab&apos;s staff who need them for their work. Our
        payment gateway sees the payments; nobody else sees anything unless you ask us to share a report with a coach. We do not
        sell data, advertise to children or track them online.
      </p>
      <p>
        <strong>How long:</strong> while the account is open. Videos and reports can be deleted sooner on request; payment records
        stay as long as the law requires.
      </p>
      <p>
        <strong>Your rights:</strong> you can see the data, have it corrected or erased, and withdraw this consent at any time by
        writing to us; withdrawing stops any further booking and cancels what is still to come.
      </p>
      <p>
        Read the full{' '}
        <Link to={href('/privacy-policy')} className="font-semibold text-brand-700 underline">
          Privacy Policy
        </Link>
        . Privacy notice version {version}.
      </p>
    </section>
  )
}
