import { useId } from 'react'

// Small charts of an analysis's figures, drawn on the server as SVG (nothing needs JavaScript).
// Each is an image with a text equivalent; the figures themselves are always in a table or text
// next to it. Colours are attributes, not styles: the site's CSP allows no inline styles.

type BandMark = { level: string; value: number; display: string }

/**
 * Where a figure stands among the reference levels, on a line from the weakest level (left) to the
 * strongest (right), whichever way "better" runs for the figure. `standing` is what it shows, in words.
 */
export function BandBar({ value, display, betterWhen, bands, standing }: { value: number; display: string; betterWhen: 'higher' | 'lower'; bands: BandMark[]; standing: string }) {
  const width = 240
  const height = 34
  const values = [value, ...bands.map((band) => band.value)]
  const low = Math.min(...values)
  const high = Math.max(...values)
  const pad = (high - low) * 0.08 || Math.abs(high) * 0.05 || 1
  const span = high - low + 2 * pad
  // Better is to the right: for a time (lower is better) the scale runs backwards.
  const x = (figure: number) => {
    const share = (figure - (low - pad)) / span
    return 8 + (betterWhen === 'lower' ? 1 - share : share) * (width - 16)
  }
  return (
    <svg role="img" aria-label={`${display}. ${standing}`} viewBox={`0 0 ${width} ${height}`} className="h-9 w-full max-w-60" preserveAspectRatio="xMinYMid meet">
      <line x1="8" x2={width - 8} y1="14" y2="14" stroke="#94a3b8" strokeWidth="4" strokeLinecap="round" />
      {bands.map((band) => (
        <g key={band.level}>
          <line x1={x(band.value)} x2={x(band.value)} y1="6" y2="22" stroke="#334155" strokeWidth="2" />
          <text x={x(band.value)} y="32" textAnchor="middle" fontSize="8" fill="#334155">
            {band.display}
          </text>
        </g>
      ))}
      <circle cx={x(value)} cy="14" r="6" fill="#0b5f75" stroke="#ffffff" strokeWidth="2" />
    </svg>
  )
}

/** A point: its date in full (the table) and short (under the chart), and its figure. */
export type ChartPoint = { date: string; dateText: string; dateLabel: string; value: number; display: string; personalBest: boolean }

/**
 * A figure over time as a line, oldest on the left, the personal best ringed and marked "PB". It is
 * an image with a title and a description; the same figures follow as a table.
 */
export function LineChart({ title, unit, points, betterWhen }: { title: string; unit: string; points: ChartPoint[]; betterWhen: 'higher' | 'lower' }) {
  const id = useId()
  const width = 320
  const height = 170
  const left = 44
  const right = 14
  const top = 16
  const bottom = 34
  const values = points.map((point) => point.value)
  const low = Math.min(...values)
  const high = Math.max(...values)
  const pad = (high - low) * 0.1 || Math.abs(high) * 0.05 || 1
  const y = (value: number) => top + (1 - (value - (low - pad)) / (high - low + 2 * pad)) * (height - top - bottom)
  const x = (index: number) => (points.length === 1 ? (left + width - right) / 2 : left + (index * (width - left - right)) / (points.length - 1))
  const best = points.find((point) => point.personalBest)
  const description = `${points.map((point) => `${point.dateText}: ${point.display}${point.personalBest ? ' (personal best)' : ''}`).join('; ')}. ${betterWhen === 'lower' ? 'Lower' : 'Higher'} is better.`
  const path = points.map((point, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(point.value).toFixed(1)}`).join(' ')
  return (
    <figure className="card p-4">
      <figcaption id={`${id}-title`} className="font-bold text-ink">
        {title}
        {unit && <span className="font-normal text-muted"> ({unit})</span>}
      </figcaption>
      <svg role="img" aria-labelledby={`${id}-title ${id}-desc`} viewBox={`0 0 ${width} ${height}`} className="mt-2 w-full" preserveAspectRatio="xMidYMid meet">
        <desc id={`${id}-desc`}>{description}</desc>
        <line x1={left} x2={width - right} y1={height - bottom} y2={height - bottom} stroke="#cbd5e1" />
        <line x1={left} x2={left} y1={top} y2={height - bottom} stroke="#cbd5e1" />
        <text x={left - 6} y={y(high) + 4} textAnchor="end" fontSize="10" fill="#334155">
          {formatTick(high)}
        </text>
        {high !== low && (
          <text x={left - 6} y={y(low) + 4} textAnchor="end" fontSize="10" fill="#334155">
            {formatTick(low)}
          </text>
        )}
        {points.length > 1 && <path d={path} fill="none" stroke="#0b5f75" strokeWidth="2.5" strokeLinejoin="round" />}
        {points.map((point, index) => (
          <g key={`${point.date}-${index}`}>
            <circle cx={x(index)} cy={y(point.value)} r="4" fill="#0b5f75" />
            <text x={x(index)} y={height - bottom + 14} textAnchor="middle" fontSize="9" fill="#334155">
              {point.dateLabel}
            </text>
          </g>
        ))}
        {best && (
          <g>
            <circle cx={x(points.indexOf(best))} cy={y(best.value)} r="8" fill="none" stroke="#b45309" strokeWidth="2.5" />
            <text x={x(points.indexOf(best))} y={Math.max(10, y(best.value) - 11)} textAnchor="middle" fontSize="10" fontWeight="bold" fill="#92400e">
              PB
            </text>
          </g>
        )}
      </svg>
      <table className="mt-3 w-full text-left text-sm">
        <caption className="sr-only">{title}, figures</caption>
        <thead>
          <tr className="text-muted">
            <th scope="col" className="py-1 pr-3 font-semibold">
              Date
            </th>
            <th scope="col" className="py-1 font-semibold">
              {title}
            </th>
          </tr>
        </thead>
        <tbody>
          {points.map((point, index) => (
            <tr key={`${point.date}-${index}`} className="border-t border-slate-200">
              <th scope="row" className="py-1 pr-3 font-medium text-ink">
                {point.dateText}
              </th>
              <td className="py-1 text-ink">
                {point.display}
                {point.personalBest && <strong className="ml-2 rounded bg-amber-100 px-1.5 text-amber-900">Personal best</strong>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}

function formatTick(value: number) {
  return Math.round(value * 100) / 100 + ''
}
