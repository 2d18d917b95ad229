import type { ReactNode } from 'react'
import { IconBadge } from './feature-card'
import { CheckIcon } from './control-icons'

type ServiceFeature = { title: string; text: ReactNode }

/**
 * One service explained: heading, intro and what it covers, beside a drawing. `id` is the anchor
 * other pages link to (/services#race-analysis); `reverse` puts the drawing first on wide screens.
 */
export function ServiceDetail({
  id,
  icon,
  title,
  intro,
  features,
  illustration,
  reverse = false,
  children,
}: {
  id: string
  icon: ReactNode
  title: string
  intro: ReactNode
  features: ServiceFeature[]
  illustration: ReactNode
  reverse?: boolean
  children?: ReactNode
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24 py-14 sm:py-20">
      <div className="container-page grid items-center gap-10 lg:grid-cols-2 lg:gap-16">
        <div className={reverse ? 'lg:order-2' : undefined}>
          <div className="flex items-center gap-4">
            <IconBadge tone="solid">{icon}</IconBadge>
            <h2 id={`${id}-heading`} className="text-2xl font-extrabold tracking-tight text-ink sm:text-4xl">
              {title}
            </h2>
          </div>
          <p className="mt-5 text-lg leading-relaxed text-muted">{intro}</p>
          <ul className="mt-8 space-y-5">
            {features.map((feature) => (
              <li key={feature.title} className="flex gap-3">
                <span className="mt-0.5 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-brand-700 text-white">
                  <CheckIcon className="h-4 w-4" />
                </span>
                <div>
                  <h3 className="font-bold text-ink">{feature.title}</h3>
                  <p className="mt-1 leading-relaxed text-muted">{feature.text}</p>
                </div>
              </li>
            ))}
          </ul>
          {children}
        </div>
        <div className={reverse ? 'lg:order-1' : undefined}>{illustration}</div>
      </div>
    </section>
  )
}
