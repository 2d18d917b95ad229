import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { ArrowRightIcon } from './line-icons'

/** A text link with a trailing arrow, tall enough to be an easy tap target. */
export function ArrowLink({ to, children, className = '' }: { to: string; children: ReactNode; className?: string }) {
  return (
    <Link
      to={to}
      className={`group/link inline-flex min-h-11 items-center gap-1.5 font-semibold text-brand-700 underline-offset-4 hover:text-brand-800 hover:underline ${className}`}
    >
      {children}
      <ArrowRightIcon className="h-4 w-4 transition-transform group-hover/link:translate-x-0.5 motion-reduce:transition-none" />
    </Link>
  )
}
