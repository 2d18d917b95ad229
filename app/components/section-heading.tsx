import type { ReactNode } from 'react'

/** A section's h2 with an optional eyebrow and intro; `id` is what the section's aria-labelledby points at. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
  align = 'left',
}: {
  id: string
  eyebrow?: string
  title: string
  children?: ReactNode
  align?: 'left' | 'center'
}) {
  return (
    <div className={align === 'center' ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl'}>
      {eyebrow && <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{eyebrow}</p>}
      <h2 id={id} className="mt-2 text-2xl font-extrabold tracking-tight text-balance text-ink sm:text-4xl">
        {title}
      </h2>
      {children && <p className="mt-4 text-lg leading-relaxed text-muted">{children}</p>}
    </div>
  )
}
