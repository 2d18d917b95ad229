/*
 * Decorative drawings for the marketing pages. The lab has no photographs yet, so these stand in
 * for them; each is hidden from assistive technology because the text beside it says the same.
 * Colours come from theme classes (no style attributes: the CSP allows only our stylesheet).
 * One file per page, so a page's script carries only its own drawings: the services page.
 */

type IllustrationProps = { className?: string }

/** Race analysis: a lane seen from above with split markers, and a strip of video frames. */
export function RaceAnalysisIllustration({ className }: IllustrationProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 320 220" className={className} fill="none">
      <rect width="320" height="220" rx="20" className="fill-brand-50" />
      <rect x="20" y="24" width="280" height="96" rx="10" className="fill-brand-100" />
      <path d="M20 56h280M20 88h280" className="stroke-white" strokeWidth="3" strokeDasharray="6 6" />
      <path d="M90 24v96M160 24v96M230 24v96" className="stroke-brand-600/40" strokeWidth="2" />
      {/* swimmer in the middle lane */}
      <g className="stroke-brand-700" strokeWidth="7" strokeLinecap="round">
        <path d="M168 72h-44M176 68l22-6M176 76l18 8" />
      </g>
      <circle cx="180" cy="72" r="8" className="fill-brand-700" />
      <path d="M118 72h-40" className="stroke-accent-500" strokeWidth="3" strokeDasharray="3 6" strokeLinecap="round" />
      {/* frame strip */}
      <g>
        {[20, 92, 164, 236].map((x, index) => (
          <g key={x}>
            <rect x={x} y="140" width="64" height="48" rx="6" className={index === 2 ? 'fill-brand-700' : 'fill-brand-600/20'} />
            <path
              d={`M${x + 10} ${index % 2 ? 170 : 166}h${index === 2 ? 26 : 22}`}
              className={index === 2 ? 'stroke-white' : 'stroke-brand-700/60'}
              strokeWidth="6"
              strokeLinecap="round"
            />
            <circle cx={x + 44} cy={index % 2 ? 168 : 164} r="5" className={index === 2 ? 'fill-white' : 'fill-brand-700/60'} />
          </g>
        ))}
      </g>
      <path d="M20 204h280" className="stroke-brand-600/30" strokeWidth="3" strokeLinecap="round" />
      <path d="M20 204h176" className="stroke-accent-500" strokeWidth="3" strokeLinecap="round" />
      <circle cx="196" cy="204" r="6" className="fill-accent-500" />
    </svg>
  )
}

/** Biomechanical analysis: a stick-figure swimmer with joint angles marked. */
export function BiomechanicsIllustration({ className }: IllustrationProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 320 220" className={className} fill="none">
      <rect width="320" height="220" rx="20" className="fill-brand-50" />
      <path d="M20 60c16 8 32 8 48 0s32-8 48 0 32 8 48 0 32-8 48 0 32 8 48 0 32-8 48 0" className="stroke-brand-600/40" strokeWidth="3" />
      <g className="stroke-brand-700" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round">
        <path d="M218 104l-92 10" />
        <path d="M126 114l-46-6-34 10M126 114l-42 22-30 4" />
        <path d="M214 100l30-26 44 4" />
        <path d="M216 108l8 44-34 22" />
      </g>
      <circle cx="236" cy="102" r="13" className="fill-brand-700" />
      {[
        [126, 114],
        [80, 108],
        [84, 136],
        [244, 74],
        [224, 152],
        [190, 174],
      ].map(([cx, cy]) => (
        <circle key={`${cx}-${cy}`} cx={cx} cy={cy} r="6" className="fill-white stroke-accent-600" strokeWidth="3" />
      ))}
      <path d="M222 136a16 16 0 0 1-14 22" className="stroke-accent-600" strokeWidth="3" strokeLinecap="round" />
      <path d="M98 110a28 28 0 0 1 6 16" className="stroke-accent-600" strokeWidth="3" strokeLinecap="round" />
      <rect x="236" y="160" width="64" height="36" rx="8" className="fill-white stroke-brand-600/30" strokeWidth="2" />
      <path d="M246 172h32M246 184h44" className="stroke-brand-600/60" strokeWidth="4" strokeLinecap="round" />
    </svg>
  )
}

/** Underwater camera technology: a camera housing below the surface, filming across the pool. */
export function UnderwaterCameraIllustration({ className }: IllustrationProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 320 220" className={className} fill="none">
      <rect width="320" height="220" rx="20" className="fill-brand-50" />
      <path d="M0 56h320v144a20 20 0 0 1-20 20H20a20 20 0 0 1-20-20z" className="fill-brand-100" />
      <path d="M0 56c20 8 40 8 60 0s40-8 60 0 40 8 60 0 40-8 60 0 40 8 60 0 40-8 60 0" className="stroke-brand-600" strokeWidth="3" />
      <path d="M74 140L300 80v130z" className="fill-white/70" />
      <path d="M40 100v84" className="stroke-brand-700" strokeWidth="6" strokeLinecap="round" />
      <rect x="34" y="118" width="52" height="44" rx="10" className="fill-brand-800" />
      <circle cx="70" cy="140" r="12" className="fill-brand-600 stroke-white" strokeWidth="4" />
      <circle cx="70" cy="140" r="4" className="fill-white" />
      <circle cx="46" cy="128" r="3" className="fill-accent-500" />
      <g className="stroke-brand-700" strokeWidth="6" strokeLinecap="round">
        <path d="M262 132h-64M270 128l20-12M266 138l14 16" />
      </g>
      <circle cx="272" cy="132" r="9" className="fill-brand-700" />
      <path d="M24 24h44M24 36h28" className="stroke-brand-600/50" strokeWidth="5" strokeLinecap="round" />
      <rect x="236" y="16" width="64" height="28" rx="8" className="fill-brand-700" />
      <path d="M252 24v12M252 30h8M260 24v12M268 24v12h4a6 6 0 0 0 0-12z" className="stroke-white" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

/** Personalized reports: a report page with charts and highlighted notes. */
export function ReportIllustration({ className }: IllustrationProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 320 220" className={className} fill="none">
      <rect width="320" height="220" rx="20" className="fill-brand-50" />
      <rect x="70" y="18" width="180" height="190" rx="12" className="fill-white stroke-brand-600/30" strokeWidth="2" />
      <path d="M90 42h90M90 56h60" className="stroke-brand-700" strokeWidth="6" strokeLinecap="round" />
      <rect x="90" y="74" width="140" height="64" rx="8" className="fill-brand-50" />
      <path d="M102 124l24-22 20 12 26-28 20 16 26-18" className="stroke-brand-600" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M90 156h140M90 170h110M90 184h124" className="stroke-brand-600/30" strokeWidth="5" strokeLinecap="round" />
      <path d="M90 170h46" className="stroke-accent-500" strokeWidth="5" strokeLinecap="round" />
      <circle cx="250" cy="176" r="26" className="fill-brand-700" />
      <path d="M238 176l8 8 16-16" className="stroke-white" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}
