import { useId } from 'react'

// Small charts of an analysis's figures, drawn on the server as SVG (nothing needs JavaScript).
// The figures themselves are always in a table or text next to them: the line chart is an image with
// a text equivalent, the band bar is hidden from screen readers as its words follow it. Colours are
// attributes, not styles: the site's CSP allows no inline styles.

type BandMark = { level: string; value: number; display: string }

/** The size of the charts' words, in the units of their viewBox: drawn at no less than 12 px on a 360 px phone. */
const LABEL_SIZE = 12

/** About how wide a label of the charts is drawn, in the same units (a figure's digits and a few letters). */
const labelWidth = (label: string) => label.length * LABEL_SIZE * 0.56

/**
 * Where a figure stands among the reference levels, on a line from the weakest level (left) to the
 * strongest (right), whichever way "better" runs for the figure: the line is filled up to the
 * swimmer's dot, which carries the figure, and each level is a tick with its value under it. It
 * says nothing a screen reader would not hear from the words beside it, so it is hidden from one.
 * Drawn 240 units wide and never narrower on screen (the tile holding it is wider on any phone), so
 * its labels stay readable; a label that would cover the one before it goes on a second line.
 */
export function BandBar({ value, display, betterWhen, bands }: { value: number; display: string; betterWhen: 'higher' | 'lower'; bands: BandMark[] }) {
  const width = 240
  const track = 28
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
  const labels = placeLabels(
    bands.map((band) => ({ key: band.level, at: x(band.value), text: band.display })),
    width,
  )
  const height = labels.some((label) => label.row === 1) ? 74 : 56
  const dot = x(value)
  const half = labelWidth(display) / 2 + 2
  return (
    <svg aria-hidden="true" focusable="false" viewBox={`0 0 ${width} ${height}`} width={width} height={height} className="h-auto w-full max-w-sm min-w-60" preserveAspectRatio="xMinYMid meet">
      <line x1="8" x2={width - 8} y1={track} y2={track} stroke="#e2e8f0" strokeWidth="6" strokeLinecap="round" />
      <line x1="8" x2={dot} y1={track} y2={track} stroke="#0e7490" strokeWidth="6" strokeLinecap="round" />
      {bands.map((band) => (
        <line key={band.level} x1={x(band.value)} x2={x(band.value)} y1={track - 9} y2={track + 9} stroke="#334155" strokeWidth="2" />
      ))}
      {labels.map((label) => (
        <text key={label.key} x={label.x} y={label.row === 0 ? track + 24 : track + 42} textAnchor="middle" fontSize={LABEL_SIZE} fill="#334155">
          {label.text}
        </text>
      ))}
      <text x={Math.min(Math.max(dot, half), width - half)} y={LABEL_SIZE} textAnchor="middle" fontSize={LABEL_SIZE} fontWeight="bold" fill="#0b5f75">
        {display}
      </text>
      <circle cx={dot} cy={track} r="7" fill="#0b5f75" stroke="#ffffff" strokeWidth="2" />
    </svg>
  )
}

/**
 * Labels centred under their marks, kept inside the chart's width, each on the first of two lines
 * where it does not cover the label before it.
 */
function placeLabels<T extends { key: string; at: number; text: string }>(marks: T[], width: number) {
  const ends = [-Infinity, -Infinity]
  return [...marks]
    .sort((a, b) => a.at - b.at)
    .map((mark) => {
      const half = labelWidth(mark.text) / 2
      const x = Math.min(Math.max(mark.at, half), width - half)
      const row = x - half >= ends[0]! + 4 ? 0 : 1
      ends[row] = x + half
      return { ...mark, x, row }
    })
}

/** A point: its date in full (the table) and short (under the chart), and its figure. */
export type ChartPoint = { date: string; dateText: string; dateLabel: string; value: number; display: string; personalBest: boolean }

/**
 * A figure over time as a line, oldest on the left, the personal best ringed and marked "PB". It is
 * an image with a title and a description; the same figures follow as a table.
 */
export function LineChart({ title, unit, points, betterWhen }: { title: string; unit: string; points: ChartPoint[]; betterWhen: 'higher' | 'lower' }) {
  const id = useId()
  // Narrow enough that its labels are drawn at 12 px or more on a phone, and no wider than max-w-sm.
  const width = 280
  const height = 170
  const left = 52
  const right = 30
  const top = 18
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
  // As many dates under the line as fit side by side, the first and the last always; the table has them all.
  const fit = Math.max(2, Math.floor((width - left - right) / (labelWidth(points[0]?.dateLabel ?? '') + 8)) + 1)
  const dated = new Set(points.length <= fit ? points.map((_, index) => index) : Array.from({ length: fit }, (_, step) => Math.round((step * (points.length - 1)) / (fit - 1))))
  return (
    <figure className="card p-4">
      <figcaption id={`${id}-title`} className="font-bold text-ink">
        {title}
        {unit && <span className="font-normal text-muted"> ({unit})</span>}
      </figcaption>
      <svg role="img" aria-labelledby={`${id}-title ${id}-desc`} viewBox={`0 0 ${width} ${height}`} className="mt-2 w-full max-w-sm" preserveAspectRatio="xMidYMid meet">
        <desc id={`${id}-desc`}>{description}</desc>
        <line x1={left} x2={width - right} y1={height - bottom} y2={height - bottom} stroke="#cbd5e1" />
        <line x1={left} x2={left} y1={top} y2={height - bottom} stroke="#cbd5e1" />
        <text x={left - 6} y={y(high) + 4} textAnchor="end" fontSize={LABEL_SIZE} fill="#334155">
          {formatTick(high)}
        </text>
        {high !== low && (
          <text x={left - 6} y={y(low) + 4} textAnchor="end" fontSize={LABEL_SIZE} fill="#334155">
            {formatTick(low)}
          </text>
        )}
        {points.length > 1 && <path d={path} fill="none" stroke="#0b5f75" strokeWidth="2.5" strokeLinejoin="round" />}
        {points.map((point, index) => (
          <g key={`${point.date}-${index}`}>
            <circle cx={x(index)} cy={y(point.value)} r="4" fill="#0b5f75" />
            {dated.has(index) && (
              <text x={x(index)} y={height - bottom + 18} textAnchor="middle" fontSize={LABEL_SIZE} fill="#334155">
                {point.dateLabel}
              </text>
            )}
          </g>
        ))}
        {best && (
          <g>
            <circle cx={x(points.indexOf(best))} cy={y(best.value)} r="8" fill="none" stroke="#b45309" strokeWidth="2.5" />
            <text x={x(points.indexOf(best))} y={Math.max(LABEL_SIZE, y(best.value) - 12)} textAnchor="middle" fontSize={LABEL_SIZE} fontWeight="bold" fill="#92400e">
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
