import type { ReactNode } from 'react'
import { href, Link } from 'react-router'
import { SwimmerIcon } from './line-icons'

/**
 * A call-to-action section with an h2. `dark` is a full-width band on brand-700 (use .btn-light
 * and .btn-on-dark inside); `light` is a tinted panel on white (use .btn-primary and .btn-secondary).
 */
export function CallToAction({
  id,
  title,
  children,
  actions,
  tone,
}: {
  id: string
  title: string
  children: ReactNode
  actions: ReactNode
  tone: 'dark' | 'light'
}) {
  if (tone === 'dark') {
    return (
      <section aria-labelledby={id} className="relative overflow-hidden bg-brand-700 text-white">
        <svg aria-hidden="true" viewBox="0 0 1440 120" preserveAspectRatio="none" className="pointer-events-none absolute inset-x-0 bottom-0 h-24 w-full text-white/5">
          <path fill="currentColor" d="M0 60c120-30 240-30 360 0s240 30 360 0 240-30 360 0 240 30 360 0v60H0z" />
        </svg>
        <div className="container-page relative py-16 text-center sm:py-20">
          <h2 id={id} className="mx-auto max-w-3xl text-2xl font-extrabold tracking-tight text-balance sm:text-4xl">
            {title}
          </h2>
          <div className="mx-auto mt-4 max-w-2xl text-lg leading-relaxed text-brand-100">{children}</div>
          <div className="mt-8 flex flex-wrap justify-center gap-3">{actions}</div>
        </div>
      </section>
    )
  }
  return (
    <section aria-labelledby={id} className="py-16 sm:py-20">
      <div className="container-page">
        <div className="relative overflow-hidden rounded-3xl border border-brand-100 bg-brand-50 px-6 py-10 sm:px-12 sm:py-14">
          <SwimmerIcon className="pointer-events-none absolute -right-6 -bottom-8 h-48 w-48 text-brand-100" />
          <div className="relative max-w-2xl">
            <h2 id={id} className="text-2xl font-extrabold tracking-tight text-balance text-ink sm:text-4xl">
              {title}
            </h2>
            <div className="mt-4 leading-relaxed text-muted sm:text-lg">{children}</div>
            <div className="mt-8 flex flex-wrap gap-3">{actions}</div>
          </div>
        </div>
      </div>
    </section>
  )
}

/**
 * The panel that closes the home, about and sample analysis pages: book a session or get in touch. Each page says
 * in its own words why.
 */
export function JoinTheMovement({ children }: { children: ReactNode }) {
  return (
    <CallToAction
      id="join-heading"
      tone="light"
      title="Join the Movement"
      actions={
        <>
          <Link to={href('/book')} className="btn-primary">
            Book a Session
          </Link>
          <Link to={href('/contact')} className="btn-secondary">
            Contact Us
          </Link>
        </>
      }
    >
      {children}
    </CallToAction>
  )
}
