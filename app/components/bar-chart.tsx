import { useId } from 'react'

type Bar = { label: string; value: number; display: string }

/**
 * A horizontal bar chart drawn as SVG. It is an image with a title and a description for screen
 * readers; the exact figures are also in a table next to it, for everyone.
 */
export function BarChart({ title, description, bars }: { title: string; description: string; bars: Bar[] }) {
  const id = useId()
  const max = Math.max(1, ...bars.map((bar) => Math.abs(bar.value)))
  const rowHeight = 28
  // Room for the longest label (about 6.6 units a character at this size), within reason.
  const labelWidth = Math.min(300, Math.max(80, Math.ceil(Math.max(...bars.map((bar) => bar.label.length)) * 6.6) + 12))
  const width = 640
  const height = bars.length * rowHeight + 8
  return (
    <figure className="card p-4">
      <figcaption id={`${id}-title`} className="font-bold text-ink">
        {title}
      </figcaption>
      <svg role="img" aria-labelledby={`${id}-title ${id}-desc`} viewBox={`0 0 ${width} ${height}`} className="mt-3 w-full" preserveAspectRatio="xMinYMin meet">
        <desc id={`${id}-desc`}>{description}</desc>
        {bars.map((bar, index) => {
          const barWidth = ((width - labelWidth - 90) * Math.max(0, bar.value)) / max
          const y = index * rowHeight + 4
          return (
            <g key={bar.label}>
              <text x={labelWidth - 8} y={y + 15} textAnchor="end" fontSize="12" fill="#0b1f33">
                {bar.label}
              </text>
              <rect x={labelWidth} y={y} width={barWidth} height={rowHeight - 8} rx="3" fill="#0b5f75" />
              <text x={labelWidth + barWidth + 6} y={y + 15} fontSize="12" fill="#0b1f33">
                {bar.display}
              </text>
            </g>
          )
        })}
      </svg>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-semibold text-brand-700">Show the figures as a table</summary>
        <table className="mt-2 w-full text-left">
          <caption className="sr-only">{title}</caption>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.label} className="border-t border-slate-200">
                <th scope="row" className="py-1 pr-3 font-medium text-ink">
                  {bar.label}
                </th>
                <td className="py-1 text-right text-ink">{bar.display}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
