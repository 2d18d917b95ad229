import { Link } from 'react-router'
import { formatTimeRange } from '~/lib/lab-time'

/** A time slot with its state, and why it cannot be booked when that needs saying. */
type PickableSlot = { start: string; end: string; state: 'available' | 'full' | 'booked' | 'not_available'; reason?: string }

const STATE_LABELS = { available: 'Available', full: 'Full', booked: 'Booked', not_available: 'Not Available' } as const
const STATE_STYLES = {
  available: 'bg-emerald-100 text-emerald-900',
  full: 'bg-amber-100 text-amber-900',
  booked: 'bg-brand-100 text-brand-900',
  not_available: 'bg-slate-200 text-slate-700',
} as const

/**
 * A date's time slots with their states; each available one is a link that chooses it (so it
 * works without JavaScript), the chosen one marked for assistive technology.
 */
export function TimeSlotPicker({ slots, chosen, hrefFor }: { slots: PickableSlot[]; chosen: string | null; hrefFor: (start: string) => string }) {
  return (
    <ul className="mt-4 grid gap-2 sm:grid-cols-2">
      {slots.map((slot) => {
        const label = formatTimeRange(slot.start, slot.end)
        const isChosen = chosen === slot.start
        const badge =
          slot.state === 'not_available' && slot.reason ? (
            <span className="text-sm">{slot.reason}</span>
          ) : (
            <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATE_STYLES[slot.state]}`}>{STATE_LABELS[slot.state]}</span>
          )
        return (
          <li key={slot.start}>
            {slot.state === 'available' ? (
              <Link
                to={hrefFor(slot.start)}
                preventScrollReset
                aria-current={isChosen ? 'true' : undefined}
                className={`flex min-h-12 items-center justify-between gap-2 rounded-lg border-2 px-3 py-2 font-semibold ${isChosen ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 text-ink hover:border-brand-600'}`}
              >
                <span>{label}</span>
                {isChosen ? <span className="text-xs font-semibold">Selected</span> : badge}
              </Link>
            ) : (
              <div className="flex min-h-12 flex-wrap items-center justify-between gap-x-2 gap-y-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-slate-700">
                <span>{label}</span>
                {badge}
              </div>
            )}
          </li>
        )
      })}
    </ul>
  )
}
