import type { ReactNode } from 'react'
import { WaveEdge } from './illustrations/wave-edge'

/** The opening band of an inner marketing page: the page's only h1, a short lead and optional actions. */
export function PageHero({
  eyebrow,
  title,
  children,
  actions,
}: {
  eyebrow: string
  title: string
  children: ReactNode
  actions?: ReactNode
}) {
  return (
    <section aria-labelledby="page-title" className="relative overflow-hidden bg-linear-to-br from-brand-900 via-brand-800 to-brand-700 text-white">
      <BubblesDecoration />
      <div className="container-page relative pt-14 pb-10 sm:pt-20 sm:pb-14">
        <p className="text-sm font-semibold tracking-wide text-brand-100 uppercase">{eyebrow}</p>
        <h1 id="page-title" className="mt-3 max-w-3xl text-3xl font-extrabold tracking-tight text-balance sm:text-5xl">
          {title}
        </h1>
        <div className="mt-5 max-w-2xl text-lg leading-relaxed text-brand-100">{children}</div>
        {actions && <div className="mt-8 flex flex-wrap gap-3">{actions}</div>}
      </div>
      <WaveEdge />
    </section>
  )
}

function BubblesDecoration() {
  return (
    <svg aria-hidden="true" viewBox="0 0 400 300" className="pointer-events-none absolute -top-6 -right-24 h-72 w-96 opacity-60 sm:right-0" fill="none">
      <circle cx="300" cy="80" r="70" className="stroke-white/10" strokeWidth="2" />
      <circle cx="300" cy="80" r="110" className="stroke-white/5" strokeWidth="2" />
      <circle cx="180" cy="200" r="10" className="stroke-white/25" strokeWidth="2" />
      <circle cx="210" cy="160" r="6" className="stroke-white/20" strokeWidth="2" />
      <circle cx="230" cy="230" r="4" className="stroke-white/20" strokeWidth="2" />
      <circle cx="150" cy="120" r="5" className="stroke-white/15" strokeWidth="2" />
    </svg>
  )
}
