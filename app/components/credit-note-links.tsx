/** A refund's credit note as a page lists it: its number, date and amount, and where to download it. */
export type CreditNoteLink = { number: string; date: string; amount: string; url: string }

/** The credit notes of what was refunded, each a download link; nothing when there are none. */
export function CreditNoteLinks({ notes, className = '' }: { notes: CreditNoteLink[]; className?: string }) {
  if (notes.length === 0) return null
  return (
    <ul className={`space-y-1 text-sm ${className}`}>
      {notes.map((note) => (
        <li key={note.number}>
          <a href={note.url} className="link" download>
            Credit note {note.number}
          </a>{' '}
          <span className="text-muted">{`(${note.amount} refunded, ${note.date})`}</span>
        </li>
      ))}
    </ul>
  )
}
