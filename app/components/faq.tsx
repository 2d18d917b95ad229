import type { ReactNode } from 'react'
import { ChevronDownIcon } from './control-icons'

export type FaqItem = { question: string; answer: ReactNode }

/**
 * Questions as native disclosures: readable and keyboard-operable without JavaScript, and the
 * shared `name` makes the browser keep only one open at a time.
 */
export function Faq({ name, items }: { name: string; items: FaqItem[] }) {
  return (
    <div className="card divide-y divide-slate-200 overflow-hidden shadow-sm">
      {items.map((item) => (
        <details key={item.question} name={name} className="group">
          <summary className="flex min-h-14 cursor-pointer items-center justify-between gap-4 px-5 py-4 text-left font-semibold text-ink transition-colors select-none hover:bg-brand-50 focus-visible:-outline-offset-3 group-open:text-brand-800 sm:px-6">
            <span>{item.question}</span>
            <ChevronDownIcon className="h-5 w-5 shrink-0 text-brand-700 transition-transform duration-200 group-open:rotate-180 motion-reduce:transition-none" />
          </summary>
          <div className="space-y-3 px-5 pb-5 leading-relaxed text-muted sm:px-6">{item.answer}</div>
        </details>
      ))}
    </div>
  )
}
