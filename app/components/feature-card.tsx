import type { ReactNode } from 'react'

/** A rounded tile holding a line icon, on the light brand tint. */
export function IconBadge({ children, tone = 'light' }: { children: ReactNode; tone?: 'light' | 'solid' }) {
  return (
    <span
      className={`inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-xl ${
        tone === 'solid' ? 'bg-brand-700 text-white' : 'bg-brand-50 text-brand-700 ring-1 ring-brand-100'
      }`}
    >
      {children}
    </span>
  )
}

/** A card with an icon, an h3 title, a short text and an optional link at the bottom. */
export function FeatureCard({
  icon,
  title,
  children,
  footer,
}: {
  icon: ReactNode
  title: string
  children: ReactNode
  footer?: ReactNode
}) {
  return (
    <div className="card flex h-full flex-col p-6 shadow-sm">
      <IconBadge>{icon}</IconBadge>
      <h3 className="mt-5 text-xl font-bold text-ink">{title}</h3>
      <div className="mt-2 leading-relaxed text-muted">{children}</div>
      {footer && <div className="mt-auto pt-4">{footer}</div>}
    </div>
  )
}
