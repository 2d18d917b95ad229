import { Link, useNavigate } from 'react-router'
import { DAYS_OF_WEEK, daysBetween, formatMonthTitle, formatWeekdayDate, isoWeekday } from '~/lib/lab-time'
import { attributes, escapeHtml, useFocusKept } from './markup'
import { linkOfPlainClick } from './site-links'

type CalendarDate = { date: string; open: boolean }

/** Monday-first weeks of the month, padded with empty cells. */
function weeksOf(days: CalendarDate[]): Array<Array<CalendarDate | null>> {
  if (days.length === 0) return []
  const cells: Array<CalendarDate | null> = [...Array(isoWeekday(days[0]!.date) - 1).fill(null), ...days]
  while (cells.length % 7) cells.push(null)
  const weeks = []
  for (let index = 0; index < cells.length; index += 7) weeks.push(cells.slice(index, index + 7))
  return weeks
}

/**
 * The date-picking card of the pages that choose a session's dates: the month's calendar, whose
 * links keep the shown month and the chosen date in the page's query (built by `query`).
 */
export function MonthCalendarCard({
  month,
  previousMonth,
  nextMonth,
  days,
  selected,
  today,
  query,
}: {
  month: string
  previousMonth: string | null
  nextMonth: string | null
  days: CalendarDate[]
  selected: string | null
  today: string
  query: (values: Record<string, string | null | undefined>) => string
}) {
  return (
    <div className="card p-4 shadow-sm sm:p-6">
      <MonthCalendar
        month={month}
        days={days}
        selected={selected}
        today={today}
        hrefFor={(day) => query({ month, date: day })}
        previousHref={previousMonth ? query({ month: previousMonth, date: selected }) : null}
        nextHref={nextMonth ? query({ month: nextMonth, date: selected }) : null}
      />
    </div>
  )
}

/**
 * A month of dates as a table of links: each open date is a link that selects it (so the calendar
 * works without JavaScript); past dates and dates without availability are not links. With
 * JavaScript, the arrow keys, Home and End move between the open dates.
 */
function MonthCalendar({
  month,
  days,
  selected,
  today,
  hrefFor,
  previousHref,
  nextHref,
}: {
  month: string
  days: CalendarDate[]
  selected: string | null
  today: string
  hrefFor: (date: string) => string
  previousHref: string | null
  nextHref: string | null
}) {
  const title = formatMonthTitle(month)
  const titleId = `calendar-${month}`
  const navigate = useNavigate()
  const weeks = weekRows(days, selected, today, hrefFor)
  // The date chosen keeps the focus when the weeks are written anew.
  const focus = useFocusKept<HTMLTableElement>(weeks, 'data-date')

  /**
   * A date is a plain link, followed here in the page like a React Router link: one handler for
   * the whole month rather than a link component per date, which cost a fifth of the page's render.
   */
  function onClick(event: React.MouseEvent<HTMLTableElement>) {
    const link = linkOfPlainClick(event, 'a[data-date]')
    if (!link) return
    event.preventDefault()
    navigate(link.getAttribute('href')!, { preventScrollReset: true })
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLTableElement>) {
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }
    const target = event.target as HTMLElement
    const current = target.closest<HTMLElement>('[data-date]')?.dataset.date
    if (!current) return
    const links = Array.from(event.currentTarget.querySelectorAll<HTMLAnchorElement>('a[data-date]'))
    let next: HTMLAnchorElement | undefined
    if (event.key in moves) {
      const step = moves[event.key]!
      const ordered = step > 0 ? links : [...links].reverse()
      next = ordered.find((link) => {
        const distance = daysBetween(current, link.dataset.date!)
        return Math.sign(distance) === Math.sign(step) && (Math.abs(step) === 1 || Math.abs(distance) >= 7)
      })
    } else if (event.key === 'Home') next = links[0]
    else if (event.key === 'End') next = links.at(-1)
    if (next) {
      event.preventDefault()
      next.focus()
    }
  }

  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <MonthLink href={previousHref} label="Previous month" direction="previous" />
        <h2 id={titleId} className="text-lg font-bold text-ink" aria-live="polite">
          {title}
        </h2>
        <MonthLink href={nextHref} label="Next month" direction="next" />
      </div>
      <table
        {...focus}
        className="mt-4 w-full table-fixed border-collapse text-center"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
        onClick={onClick}
      >
        <thead dangerouslySetInnerHTML={WEEKDAY_HEADINGS} />
        <tbody dangerouslySetInnerHTML={{ __html: weeks }} />
      </table>
      <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm border border-brand-600 bg-brand-50" /> Dates you can book
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm bg-brand-700" /> Selected
        </span>
      </p>
    </div>
  )
}

/** The weekdays' headings, the same for every month. */
const WEEKDAY_HEADINGS = {
  __html: `<tr>${DAYS_OF_WEEK.map(({ short, name }) => `<th scope="col" class="pb-2 text-xs font-semibold text-muted uppercase"><abbr title="${name}" class="no-underline">${short}</abbr></th>`).join('')}</tr>`,
}

/**
 * The month's weeks as markup: a calendar is a hundred elements, and written as one string it costs
 * a fraction of rendering them (its links are followed by the table's one handler either way).
 */
function weekRows(days: CalendarDate[], selected: string | null, today: string, hrefFor: (date: string) => string) {
  return weeksOf(days)
    .map((week) => `<tr>${week.map((day) => (day ? `<td class="p-0.5">${dateCell(day, day.date === selected, day.date === today, day.open ? hrefFor(day.date) : '')}</td>` : '<td></td>')).join('')}</tr>`)
    .join('')
}

function dateCell(day: CalendarDate, selected: boolean, today: boolean, href: string) {
  const dayNumber = Number(day.date.slice(8))
  const label = escapeHtml(`${formatWeekdayDate(day.date)}${today ? ', today' : ''}`)
  const base = 'flex aspect-square min-h-10 w-full items-center justify-center rounded-lg text-sm'
  if (!day.open) {
    // The comment is where React separates two pieces of text, written alike.
    return `<span aria-disabled="true" class="${base} text-slate-500 ${today ? 'ring-1 ring-slate-400' : ''}"><span aria-hidden="true">${dayNumber}</span><span class="sr-only">${label}<!-- -->, not available</span></span>`
  }
  const className = `${base} font-semibold ${selected ? 'bg-brand-700 text-white' : 'border border-brand-600 bg-brand-50 text-brand-800 hover:bg-brand-100'} ${today && !selected ? 'ring-2 ring-accent-500' : ''}`
  return `<a${attributes({ href, 'data-date': day.date })} aria-label="${label}"${attributes({ 'aria-current': selected ? 'date' : undefined, class: className })}>${dayNumber}</a>`
}

function MonthLink({ href, label, direction }: { href: string | null; label: string; direction: 'previous' | 'next' }) {
  const arrow = (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
      <path d={direction === 'previous' ? 'M15 6l-6 6 6 6' : 'M9 6l6 6-6 6'} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
  const className = 'inline-flex h-11 w-11 items-center justify-center rounded-lg'
  if (!href) {
    return (
      <span aria-disabled="true" className={`${className} text-slate-300`}>
        {arrow}
        <span className="sr-only">{label} (not available)</span>
      </span>
    )
  }
  return (
    <Link to={href} preventScrollReset aria-label={label} className={`${className} text-brand-700 hover:bg-brand-50`}>
      {arrow}
    </Link>
  )
}
