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
