import { FIGURE_NAMES, figureText, type FigureCounts } from '~/modules/site/figures'

/**
 * The lab's numbers, counted from its records, each shown only once it reaches the threshold staff
 * set (`figures` holds just those). Nothing at all when none does: no number is ever typed in.
 */
export function FiguresStrip({ figures }: { figures: Partial<FigureCounts> }) {
  const shown = FIGURE_NAMES.filter((name) => figures[name] !== undefined)
  if (shown.length === 0) return null
  return (
    <section aria-labelledby="figures-heading" className="border-b border-brand-100 bg-white py-10">
      <div className="container-page">
        <h2 id="figures-heading" className="sr-only">
          The lab in numbers
        </h2>
        <ul className="flex flex-wrap justify-center gap-x-16 gap-y-6 text-center">
          {shown.map((name) => {
            const [count, label] = figureText(name, figures[name]!)
            return (
              <li key={name}>
                <span className="block text-4xl font-extrabold tracking-tight text-brand-800">{count}</span> <span className="block text-sm font-semibold tracking-wide text-muted uppercase">{label}</span>
              </li>
            )
          })}
        </ul>
      </div>
    </section>
  )
}
