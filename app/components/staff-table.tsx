import type { ReactNode } from 'react'

/** A column's heading: its text, read only by screen readers when `hidden`, and right-aligned for amounts. */
export type StaffColumn = string | { label: string; align?: 'right'; hidden?: true }

/**
 * A staff page's table that scrolls sideways on a phone: a caption for screen readers, a row of
 * column headings, then the page's rows. A table on its own has a tinted heading row; one `inset`
 * in a card's padding has a plain one and no outer padding in its first and last columns.
 */
export function StaffTable({
  caption,
  columns,
  inset = false,
  className,
  children,
}: {
  caption: ReactNode
  columns: StaffColumn[]
  inset?: boolean
  /** The wrapper's frame and margin, such as "card mt-3". */
  className?: string
  children: ReactNode
}) {
  return (
    <div className={className ? `${className} relative overflow-x-auto` : 'relative overflow-x-auto'}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className={inset ? 'text-muted' : 'bg-slate-50 text-muted'}>
          <tr>
            {columns.map((column, index) => {
              const { label, align, hidden }: Exclude<StaffColumn, string> = typeof column === 'string' ? { label: column } : column
              return (
                <th key={label} scope="col" className={`${headingPadding(index, columns.length, inset)}${align === 'right' ? ' text-right' : ''}`}>
                  {hidden ? <span className="sr-only">{label}</span> : label}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

function headingPadding(index: number, count: number, inset: boolean) {
  if (inset && index === 0) return 'py-2 pr-3'
  if (inset && index === count - 1) return 'py-2 pl-3'
  return 'px-3 py-2'
}
