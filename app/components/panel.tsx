import type { ReactNode } from 'react'

/**
 * One part of a staff page that edits many things (an analysis, the site's settings): a card with
 * its heading, an optional lead, then its forms. `id` is the anchor a saved form comes back to.
 */
export function Panel({ id, title, lead, spacing = 'mt-6', children }: { id: string; title: string; lead?: string; spacing?: 'mt-6' | 'mt-8'; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className={`card ${spacing} p-4 sm:p-6`}>
      <h2 id={`${id}-heading`} className="text-xl font-bold text-ink">
        {title}
      </h2>
      {lead && <p className="mt-1 text-sm text-muted">{lead}</p>}
      <div className="mt-4">{children}</div>
    </section>
  )
}
