import { href } from 'react-router'
import { PRODUCT_NAME, PRODUCT_TAGLINE } from '~/lib/seo'
import { LogoMark } from './icons'
import { SiteLink, useFollowSiteLinks } from './site-links'

export type FooterContact = {
  phone: string
  phoneHours: string
  supportEmail: string
  postalAddress: string
  socialLinks: { linkedin: string; instagram: string; twitter: string }
}

const QUICK_LINKS = [
  { to: href('/services'), label: 'Services' },
  { to: href('/pricing'), label: 'Pricing' },
  { to: href('/analysis-days'), label: 'Analysis Days' },
  { to: href('/about'), label: 'About Us' },
  { to: href('/how-it-works'), label: 'How It Works' },
  { to: href('/contact'), label: 'Contact Us' },
]

const LEGAL_LINKS = [
  { to: href('/terms'), label: 'Terms & Conditions' },
  { to: href('/privacy-policy'), label: 'Privacy Policy' },
  { to: href('/refund'), label: 'Refund Policy' },
  { to: href('/account/data'), label: 'Your data' },
]

/**
 * The site footer; `year` is the lab's current year (from the server, which keeps the lab's calendar),
 * `testPayments` adds the notice shown on every page while the sandbox gateway is active, and a
 * visitor who is not `signedIn` is offered to sign in.
 */
export function Footer({ contact, year, testPayments, signedIn }: { contact: FooterContact | null; year: string | null; testPayments: boolean; signedIn: boolean }) {
  // Social links are optional: one the lab has not given is left out, not shown as missing.
  const social = contact
    ? [
        { href: contact.socialLinks.linkedin, label: 'LinkedIn' },
        { href: contact.socialLinks.instagram, label: 'Instagram' },
        { href: contact.socialLinks.twitter, label: 'X (Twitter)' },
      ].filter((link) => link.href !== '')
    : []
  const followLink = useFollowSiteLinks()
  return (
    <footer onClick={followLink} className="bg-brand-900 text-slate-100 print-alone:hidden">
      <div className="container-page grid gap-10 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="flex items-center gap-2 text-lg font-bold text-white">
            <LogoMark className="h-8 w-8" />
            {PRODUCT_NAME}
          </p>
          <p className="mt-3 text-sm text-slate-300">{PRODUCT_TAGLINE}.</p>
          <SiteLink to={href('/book')} className="btn-on-dark mt-5">
            Book Now
          </SiteLink>
          {!signedIn && (
            <p className="mt-4 text-sm text-slate-300">
              Already a customer?{' '}
              <SiteLink to={href('/login')} className="font-semibold text-white underline underline-offset-4">
                Sign in
              </SiteLink>
            </p>
          )}
        </div>
        <FooterLinks label="Quick links" heading="Quick Links" links={QUICK_LINKS} />
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Contact</h2>
          {contact ? (
            <ul className="mt-4 space-y-2 text-sm text-slate-300">
              <li>{contact.postalAddress}</li>
              <li>{contact.phone}</li>
              <li>{contact.phoneHours}</li>
              <li>{contact.supportEmail}</li>
            </ul>
          ) : (
            <p className="mt-4 text-sm text-slate-300">
              See <SiteLink to={href('/contact')} className="underline">Contact Us</SiteLink>.
            </p>
          )}
          {social.length > 0 && (
            <ul className="mt-4 flex flex-col gap-2 text-sm" aria-label="Social links">
              {social.map((link) => (
                <li key={link.label}>
                  <a href={link.href} rel="noopener noreferrer" className="text-slate-300 underline hover:text-white">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
        <FooterLinks label="Legal" heading="Legal" links={LEGAL_LINKS} />
      </div>
      <p className="border-t border-white/10 py-5 text-center text-xs text-slate-300">
        © {year ? `${year} ` : ''}{PRODUCT_NAME}. All rights reserved.
      </p>
      {testPayments && (
        <p className="bg-amber-300 px-4 py-2 text-center text-sm font-semibold text-amber-950">
          Test payments: this site uses a sandbox payment gateway. No real money is taken.
        </p>
      )}
    </footer>
  )
}

/** A titled column of site links. */
function FooterLinks({ label, heading, links }: { label: string; heading: string; links: ReadonlyArray<{ to: string; label: string }> }) {
  return (
    <nav aria-label={label}>
      <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{heading}</h2>
      <ul className="mt-4 space-y-2 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <SiteLink to={link.to} className="text-slate-300 underline-offset-4 hover:text-white hover:underline">
              {link.label}
            </SiteLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
