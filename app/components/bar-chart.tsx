type Bar = { label: string; value: number; display: string }

/**
 * A horizontal bar chart: each bar's label and figure are text, at the page's own size on any
 * screen; only the bars are drawn (SVG, its width a percentage: the site's CSP allows no inline
 * styles). On a phone the bar goes under its label, beside it on a wider screen.
 */
export function BarChart({ title, bars }: { title: string; bars: Bar[] }) {
  const max = Math.max(1, ...bars.map((bar) => Math.abs(bar.value)))
  return (
    <figure className="card p-4">
      <figcaption className="font-bold text-ink">
        {title}
      </figcaption>
      <ul className="mt-3 space-y-2 text-sm">
        {bars.map((bar) => (
          <li key={bar.label} className="grid grid-cols-[1fr_auto] items-center gap-x-3 sm:grid-cols-[minmax(0,12rem)_1fr_auto]">
            <span className="text-ink">{bar.label}</span>
            <svg aria-hidden="true" className="order-last col-span-2 h-4 w-full sm:order-none sm:col-span-1" focusable="false">
              <rect width={`${(100 * Math.max(0, bar.value)) / max}%`} height="100%" rx="3" fill="#0b5f75" />
            </svg>
            <span className="font-semibold text-ink tabular-nums">{bar.display}</span>
          </li>
        ))}
      </ul>
    </figure>
  )
}
