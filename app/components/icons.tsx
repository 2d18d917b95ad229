/** The lab's mark: a swimmer's wave. Decorative wherever a text label accompanies it. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={className} fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
      <circle cx="21" cy="8" r="3" fill="currentColor" stroke="none" />
      <path d="M6 15l7-4 5 5" />
      <path d="M3 21c2.5 2 5 2 7.5 0s5-2 7.5 0 5 2 7.5 0 3.5-1.5 3.5-1.5" />
      <path d="M3 27c2.5 2 5 2 7.5 0s5-2 7.5 0 5 2 7.5 0 3.5-1.5 3.5-1.5" />
    </svg>
  )
}

/** A neutral portrait placeholder, used until the lab supplies a real photo. */
export function PortraitPlaceholder({ className, label }: { className?: string; label: string }) {
  return (
    <svg role="img" aria-label={label} viewBox="0 0 96 96" className={className}>
      <rect width="96" height="96" rx="48" fill="#cffafe" />
      <circle cx="48" cy="38" r="16" fill="#0e7490" />
      <path d="M18 84c4-18 16-26 30-26s26 8 30 26" fill="#0e7490" />
    </svg>
  )
}
