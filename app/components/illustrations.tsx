/*
 * Decorative drawings for the marketing pages. The lab has no photographs yet, so these stand in
 * for them; each is hidden from assistive technology because the text beside it says the same.
 * Colours come from theme classes (no style attributes: the CSP allows only our stylesheet).
 */

type IllustrationProps = { className?: string }

/** A swimmer filmed from under the water, with the measurements the lab takes drawn over the stroke. */
export function UnderwaterAnalysisIllustration({ className }: IllustrationProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 480 360" className={className} fill="none">
      <rect width="480" height="360" rx="28" className="fill-white/5" />
      {/* light falling through the surface */}
      <path d="M120 40l-50 320h60l40-320zM260 40l-30 320h50l25-320zM380 40l10 320h40l-20-320z" className="fill-white/5" />
      {/* the surface */}
      <path
        d="M0 52c20 10 40 10 60 0s40-10 60 0 40 10 60 0 40-10 60 0 40 10 60 0 40-10 60 0 40 10 60 0 40-10 60 0"
        className="stroke-brand-100/70"
        strokeWidth="3"
      />
      {/* bubbles */}
      <circle cx="372" cy="112" r="4" className="stroke-white/50" strokeWidth="2" />
      <circle cx="386" cy="92" r="3" className="stroke-white/40" strokeWidth="2" />
      <circle cx="380" cy="72" r="2" className="stroke-white/30" strokeWidth="2" />
      {/* pool floor and lane marking */}
      <path d="M0 330h480" className="stroke-white/15" strokeWidth="2" />
      <path d="M60 316h330M390 304v24" className="stroke-white/25" strokeWidth="8" strokeLinecap="round" />

      {/* the camera on the pool wall and its field of view */}
      <path d="M58 268L300 120v160z" className="fill-brand-100/10" />
      <rect x="24" y="252" width="40" height="32" rx="6" className="fill-brand-900 stroke-brand-100" strokeWidth="3" />
      <circle cx="50" cy="268" r="8" className="fill-brand-700 stroke-brand-100" strokeWidth="3" />
      <path d="M20 248v40" className="stroke-white/40" strokeWidth="4" strokeLinecap="round" />

      {/* the swimmer: legs, body, recovering arm, head, pulling arm */}
      <g strokeLinecap="round" strokeLinejoin="round" className="stroke-white">
        <path d="M212 160l-84-8M212 164l-78 26" strokeWidth="13" />
        <path d="M296 150l-86 12" strokeWidth="26" />
        <path d="M300 146l28-22 52 8" strokeWidth="11" />
        <path d="M298 156l6 52-38 20" strokeWidth="11" />
      </g>
      <circle cx="322" cy="150" r="15" className="fill-white" />
      <path d="M312 141a15 15 0 0 1 22 1" className="stroke-accent-500" strokeWidth="6" strokeLinecap="round" />

      {/* joint-angle overlay at the elbow */}
      <g className="stroke-accent-500" strokeWidth="2.5" strokeLinecap="round">
        <path d="M298 156l6 52M304 208l-38 20" strokeDasharray="5 6" />
        <path d="M302 190a18 18 0 0 1-14 22" />
      </g>
      <circle cx="304" cy="208" r="6" className="fill-accent-500" />
      <circle cx="298" cy="156" r="5" className="fill-accent-500" />
      <circle cx="266" cy="228" r="5" className="fill-accent-500" />

      {/* tracked path of the hand */}
      <path d="M380 132c-20 40-60 80-116 96-30 8-60 4-84-8" className="stroke-brand-100/60" strokeWidth="2" strokeDasharray="2 7" strokeLinecap="round" />

      {/* data panel */}
      <g>
        <rect x="332" y="196" width="124" height="92" rx="14" className="fill-brand-900/80 stroke-white/20" strokeWidth="2" />
        <path d="M348 268l18-20 16 10 18-26 20 14 16-20" className="stroke-accent-500" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M348 214h40M348 226h64" className="stroke-white/50" strokeWidth="4" strokeLinecap="round" />
      </g>
      {/* frame markers along the top, as in frame-by-frame review */}
      <g className="fill-white/20">
        <rect x="150" y="76" width="22" height="14" rx="3" />
        <rect x="180" y="76" width="22" height="14" rx="3" />
        <rect x="210" y="76" width="22" height="14" rx="3" className="fill-accent-500" />
        <rect x="240" y="76" width="22" height="14" rx="3" />
        <rect x="270" y="76" width="22" height="14" rx="3" />
      </g>
    </svg>
  )
}

/** The curved lower edge of a dark page hero, filled with the colour of the section below. */
export function WaveEdge({ className = 'text-white' }: IllustrationProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 1440 48" preserveAspectRatio="none" className={`block h-6 w-full sm:h-10 ${className}`}>
      <path fill="currentColor" d="M0 24c120 16 240 24 360 16S600 8 720 8s240 24 360 28 240-8 360-20v32H0z" />
    </svg>
  )
}

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
