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
 * How an available time is chosen: a link that chooses it (`hrefFor`), or a submit button of the
 * form the picker sits in, sending the time as `name` (one tap holds the seats). Both work without JavaScript.
 */
type Choose = { hrefFor: (start: string) => string } | { name: string; detailFor?: (start: string) => string | null }

/** A date's time slots with their states; the chosen one is marked for assistive technology. */
export function TimeSlotPicker({ slots, chosen, choose }: { slots: PickableSlot[]; chosen: string | null; choose: Choose }) {
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
        const choice = `flex min-h-12 items-center justify-between gap-2 rounded-lg border-2 px-3 py-2 font-semibold ${isChosen ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 text-ink hover:border-brand-600'}`
        const detail = 'detailFor' in choose ? choose.detailFor?.(slot.start) : null
        return (
          <li key={slot.start}>
            {slot.state !== 'available' ? (
              <div className="flex min-h-12 flex-wrap items-center justify-between gap-x-2 gap-y-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-slate-700">
                <span>{label}</span>
                {badge}
              </div>
            ) : 'hrefFor' in choose ? (
              <Link to={choose.hrefFor(slot.start)} preventScrollReset aria-current={isChosen ? 'true' : undefined} className={choice}>
                <span>{label}</span>
                {isChosen ? <span className="text-xs font-semibold">Selected</span> : badge}
              </Link>
            ) : (
              <button type="submit" name={choose.name} value={slot.start} className={`${choice} w-full text-left`}>
                <span>
                  {label}
                  {detail && <span className="block text-sm font-normal text-muted">{detail}</span>}
                </span>
                {badge}
              </button>
            )}
          </li>
        )
      })}
    </ul>
  )
}
