import { formatTimeRange } from '~/lib/lab-time'
import { attributes, escapeHtml, useFocusKept } from './markup'
import { useFollowSiteLinks } from './site-links'

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

/**
 * A date's time slots with their states; the chosen one is marked for assistive technology. The
 * slots are written as markup (a day's list is some fifty elements, a fair share of a booking
 * page's render); its links are followed in the page by the list's one handler, as React Router's
 * links are, and its buttons submit the form they sit in.
 */
export function TimeSlotPicker({ slots, chosen, choose }: { slots: PickableSlot[]; chosen: string | null; choose: Choose }) {
  const items = slots.map((slot) => `<li>${slotItem(slot, chosen === slot.start, choose)}</li>`).join('')
  // The time chosen keeps the focus when the list is written anew.
  const focus = useFocusKept<HTMLUListElement>(items, 'hrefFor' in choose ? 'href' : 'value')
  const onClick = useFollowSiteLinks({ preventScrollReset: true })

  return <ul {...focus} className="mt-4 grid gap-2 sm:grid-cols-2" onClick={onClick} dangerouslySetInnerHTML={{ __html: items }} />
}

/** One time, as React wrote it: a plain row when it cannot be chosen, else its link or button. */
function slotItem(slot: PickableSlot, isChosen: boolean, choose: Choose) {
  const label = escapeHtml(formatTimeRange(slot.start, slot.end))
  const badge =
    slot.state === 'not_available' && slot.reason
      ? `<span class="text-sm">${escapeHtml(slot.reason)}</span>`
      : `<span class="rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATE_STYLES[slot.state]}">${STATE_LABELS[slot.state]}</span>`
  if (slot.state !== 'available') {
    return `<div class="flex min-h-12 flex-wrap items-center justify-between gap-x-2 gap-y-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-slate-700"><span>${label}</span>${badge}</div>`
  }
  const choice = `flex min-h-12 items-center justify-between gap-2 rounded-lg border-2 px-3 py-2 font-semibold ${isChosen ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 text-ink hover:border-brand-600'}`
  if ('hrefFor' in choose) {
    const mark = isChosen ? '<span class="text-xs font-semibold">Selected</span>' : badge
    return `<a${attributes({ 'aria-current': isChosen ? 'true' : undefined, class: choice, href: choose.hrefFor(slot.start) })} data-discover="true"><span>${label}</span>${mark}</a>`
  }
  const detail = choose.detailFor?.(slot.start)
  const detailLine = detail ? `<span class="block text-sm font-normal text-muted">${escapeHtml(detail)}</span>` : ''
  return `<button${attributes({ type: 'submit', value: slot.start, class: `${choice} w-full text-left`, name: choose.name })}><span>${label}${detailLine}</span>${badge}</button>`
}
