/*
 * Decorative drawings for the marketing pages. The lab has no photographs yet, so these stand in
 * for them; each is hidden from assistive technology because the text beside it says the same.
 * Colours come from theme classes (no style attributes: the CSP allows only our stylesheet).
 * One file per page, so a page's script carries only its own drawings: the about page.
 */

type IllustrationProps = { className?: string }

/** Our location: a pool seen from above, with a pin on it. */
export function PoolLocationIllustration({ className }: IllustrationProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 320 220" className={className} fill="none">
      <rect width="320" height="220" rx="20" className="fill-brand-50" />
      <path d="M0 170c40-20 80-20 120 0s80 20 120 0 60-14 80-6" className="stroke-brand-600/20" strokeWidth="10" />
      <rect x="40" y="40" width="240" height="120" rx="10" className="fill-brand-100 stroke-brand-600" strokeWidth="3" />
      {[64, 88, 112, 136].map((y) => (
        <path key={y} d={`M52 ${y}h216`} className="stroke-white" strokeWidth="3" strokeDasharray="2 7" strokeLinecap="round" />
      ))}
      <path d="M60 52v96M260 52v96" className="stroke-brand-600/40" strokeWidth="3" />
      <path d="M160 116s-26-22-26-42a26 26 0 0 1 52 0c0 20-26 42-26 42z" className="fill-accent-500 stroke-brand-900" strokeWidth="3" />
      <circle cx="160" cy="74" r="9" className="fill-white stroke-brand-900" strokeWidth="3" />
      <ellipse cx="160" cy="122" rx="16" ry="4" className="fill-brand-900/20" />
    </svg>
  )
}
