import { useId } from 'react'

/** A round portrait's place, a rounded tile, or a wide band or a 4:3 scene that fill whatever box they are given. */
export type BrandPatternShape = 'circle' | 'tile' | 'band' | 'scene'

/** The brand's colours in sets that go together; the seed picks one. Spelled out whole so Tailwind finds each class. */
const PALETTES = [
  { ground: 'fill-brand-700', ripple: 'stroke-brand-100/60', ring: 'stroke-brand-50/30', lane: 'stroke-white/40' },
  { ground: 'fill-brand-100', ripple: 'stroke-brand-600/50', ring: 'stroke-brand-700/30', lane: 'stroke-brand-600/40' },
  { ground: 'fill-brand-900', ripple: 'stroke-brand-600', ring: 'stroke-brand-100/30', lane: 'stroke-brand-100/30' },
  { ground: 'fill-brand-50', ripple: 'stroke-brand-600/40', ring: 'stroke-brand-700/25', lane: 'stroke-brand-700/30' },
  { ground: 'fill-brand-800', ripple: 'stroke-brand-100/50', ring: 'stroke-brand-600', lane: 'stroke-brand-100/25' },
] as const

const BOXES: Record<BrandPatternShape, { width: number; height: number }> = {
  circle: { width: 96, height: 96 },
  tile: { width: 96, height: 96 },
  band: { width: 800, height: 120 },
  scene: { width: 400, height: 300 },
}

/**
 * Numbers in [0, 1) drawn from the seed (FNV-1a over its text, then mulberry32): the same seed draws
 * the same pattern on the server and in the browser, so hydration finds nothing to change.
 */
function numbersFrom(seed: string | number) {
  let state = 2166136261
  for (const char of String(seed)) state = Math.imul(state ^ char.codePointAt(0)!, 16777619)
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), state | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const round = (value: number) => Math.round(value * 10) / 10

/** A ripple across the whole width: a sine wave of quadratic curves, starting a wavelength before the left edge. */
function ripple(width: number, y: number, wavelength: number, amplitude: number) {
  const half = round(wavelength / 2)
  const steps = Math.ceil(width / wavelength) + 2
  return `M${-round(wavelength)} ${round(y)}q${half} ${-round(amplitude)} ${round(wavelength)} 0${`t${round(wavelength)} 0`.repeat(steps)}`
}

/**
 * The brand's own image where a photo has yet to come: water seen from above, with ripples, lane
 * lines and the light's caustic rings in the brand's colours, composed from `seed` so that each card
 * differs. Decorative only (hidden from assistive technology, no people, no text), a handful of
 * elements, coloured by classes since the pages allow no inline style.
 */
export function BrandPattern({ seed, className, shape = 'circle' }: { seed: string | number; className?: string; shape?: BrandPatternShape }) {
  const clipId = useId()
  const next = numbersFrom(seed)
  const between = (low: number, high: number) => low + next() * (high - low)
  const palette = PALETTES[Math.floor(next() * PALETTES.length)]!
  const { width, height } = BOXES[shape]
  const wavelength = between(0.3, 0.5) * Math.min(width, 240)
  const lanes = [between(0.2, 0.35), between(0.65, 0.8)].map((at) => round(at * height))
  const ripples = [0.3, 0.55, 0.8].map((at, index) => ({ y: (at + between(-0.08, 0.08)) * height, amplitude: between(0.03, 0.07) * height, width: 3 - index * 0.75 }))
  const rings = [0, 1].map(() => ({ x: round(between(0.15, 0.85) * width), y: round(between(0.2, 0.8) * height), r: round(between(0.12, 0.3) * height) }))
  const glint = { x: round(between(0.2, 0.8) * width), y: round(between(0.25, 0.75) * height), r: round(between(0.03, 0.05) * height) }
  const clipped = shape === 'circle' || shape === 'tile'
  return (
    <svg aria-hidden="true" focusable="false" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio={clipped ? undefined : 'xMidYMid slice'} className={className} fill="none">
      {clipped && (
        <clipPath id={clipId}>{shape === 'circle' ? <circle cx={width / 2} cy={height / 2} r={width / 2} /> : <rect width={width} height={height} rx={16} />}</clipPath>
      )}
      <g clipPath={clipped ? `url(#${clipId})` : undefined}>
        <rect width={width} height={height} className={palette.ground} />
        {lanes.map((y) => (
          <path key={y} d={`M0 ${y}H${width}`} className={palette.lane} strokeWidth={1.5} strokeDasharray="2 6" strokeLinecap="round" />
        ))}
        {ripples.map((wave) => (
          <path key={wave.y} d={ripple(width, wave.y, wavelength, wave.amplitude)} className={palette.ripple} strokeWidth={wave.width} strokeLinecap="round" />
        ))}
        {rings.map((ring, index) => (
          <circle key={index} cx={ring.x} cy={ring.y} r={ring.r} className={palette.ring} strokeWidth={2} />
        ))}
        <circle cx={glint.x} cy={glint.y} r={glint.r} className="fill-accent-500" />
      </g>
    </svg>
  )
}
