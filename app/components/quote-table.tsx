import type { QuoteRow } from '~/modules/payments/quote'

/** An order's price as rows that add up (see quoteRows), the last one its total. */
export function QuoteTable({ title, rows }: { title: string; rows: QuoteRow[] }) {
  const total = rows.at(-1)
  return (
    <section aria-label={title} className="rounded-lg bg-slate-50 p-4 text-ink" data-testid="quote">
      <h2 className="text-base font-semibold">{title}</h2>
      <dl className="mt-2 space-y-1">
        {rows.slice(0, -1).map((row) => (
          <div key={row.term} className="flex justify-between gap-4">
            <dt>{row.term}</dt>
            <dd className="shrink-0 tabular-nums">{row.value}</dd>
          </div>
        ))}
        {total && (
          <div className="mt-2 flex justify-between gap-4 border-t border-slate-300 pt-2 font-semibold">
            <dt>{total.term}</dt>
            <dd className="shrink-0 tabular-nums">{total.value}</dd>
          </div>
        )}
      </dl>
    </section>
  )
}
