type IllustrationProps = { className?: string }

/** The curved lower edge of a dark page hero, filled with the colour of the section below. */
export function WaveEdge({ className = 'text-white' }: IllustrationProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 1440 48" preserveAspectRatio="none" className={`block h-6 w-full sm:h-10 ${className}`}>
      <path fill="currentColor" d="M0 24c120 16 240 24 360 16S600 8 720 8s240 24 360 28 240-8 360-20v32H0z" />
    </svg>
  )
}
