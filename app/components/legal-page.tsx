import type { ReactNode } from 'react'
import { formatLongDate } from '~/lib/lab-time'
import { EmailValue, PhoneValue, SettingText } from './contact-value'

export type LegalSection = { id: string; title: string; body: ReactNode }

/**
 * The frame of a legal page: title, last-updated date, an "On this page" list and numbered
 * sections, each a landmark named by its heading.
 */
export function LegalPage({
  title,
  lastUpdated,
  intro,
  sections,
}: {
  title: string
  /** yyyy-mm-dd */
  lastUpdated: string
  intro: ReactNode
  sections: LegalSection[]
}) {
  return (
    <article aria-labelledby="legal-title" className="container-page py-12 sm:py-16">
      <div className="mx-auto max-w-3xl">
        <header className="border-b border-slate-200 pb-8">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Legal</p>
          <h1 id="legal-title" className="mt-2 text-3xl font-extrabold tracking-tight text-brand-900 sm:text-4xl">
            {title}
          </h1>
          <p className="mt-3 text-sm text-muted">
            Last updated: <time dateTime={lastUpdated}>{formatLongDate(lastUpdated)}</time>
          </p>
          <div className="prose-legal mt-6">{intro}</div>
        </header>

        {sections.length > 3 && (
          <nav aria-labelledby="legal-contents" className="mt-8 rounded-2xl bg-slate-50 p-5 sm:p-6">
            <h2 id="legal-contents" className="text-sm font-semibold tracking-wide text-ink uppercase">
              On this page
            </h2>
            <ol className="mt-3 grid gap-x-6 sm:grid-cols-2">
              {sections.map((section, index) => (
                <li key={section.id}>
                  <a
                    href={`#${section.id}`}
                    className="flex min-h-11 items-center gap-2 text-brand-700 underline-offset-4 hover:text-brand-800 hover:underline"
                  >
                    <span className="w-6 shrink-0 text-right text-sm text-muted tabular-nums">{index + 1}.</span>
                    {section.title}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        )}

        <div className="prose-legal mt-4">
          {sections.map((section, index) => (
            <section key={section.id} aria-labelledby={section.id}>
              <h2 id={section.id}>
                {index + 1}. {section.title}
              </h2>
              {section.body}
            </section>
          ))}
        </div>
      </div>
    </article>
  )
}

type LegalContact = { legalName: string; postalAddress: string; supportEmail: string; phone: string }

/** The settings a legal page's contact section shows (a loader sends just these, not every setting). */
export function legalContactOf({ legalName, postalAddress, supportEmail, phone }: LegalContact): LegalContact {
  return { legalName, postalAddress, supportEmail, phone }
}

/** How to reach the business about a legal matter; placeholders stay plain text until the lab supplies them. */
export function LegalContactDetails({ contact }: { contact: LegalContact }) {
  return (
    <ul>
      <li>
        <strong>Business:</strong> <SettingText value={contact.legalName} />
      </li>
      <li>
        <strong>Address:</strong> <SettingText value={contact.postalAddress} />
      </li>
      <li>
        <strong>E-mail:</strong> <EmailValue email={contact.supportEmail} className="" />
      </li>
      <li>
        <strong>Phone:</strong> <PhoneValue phone={contact.phone} className="" />
      </li>
    </ul>
  )
}
