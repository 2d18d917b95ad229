/**
 * Small line icons (24×24, stroke = currentColor). All decorative: a text label always accompanies them.
 * These are the ones the home page draws (its links and calls to action); control-icons.tsx and
 * contact-icons.tsx hold the rest, so the home page's script does not carry icons it never shows.
 */
type IconProps = { className?: string }

export function LineIcon({ className, children }: IconProps & { children: React.ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  )
}

/** Swimming analysis: a swimmer over water. */
export function SwimmerIcon({ className }: IconProps) {
  return (
    <LineIcon className={className}>
      <circle cx="16.5" cy="6" r="2" />
      <path d="M4 12l5-3 4 4" />
      <path d="M2 17c1.7 1.3 3.3 1.3 5 0s3.3-1.3 5 0 3.3 1.3 5 0 3.3-1.3 5 0" />
    </LineIcon>
  )
}

export function ArrowRightIcon({ className }: IconProps) {
  return (
    <LineIcon className={className}>
      <path d="M5 12h14M13 6l6 6-6 6" />
    </LineIcon>
  )
}
