// How many swimmers an analysis day can take, as staff see it before they publish: each kit films one
// swimmer per slot. Plain arithmetic, shared by the server and the staff's form as they type.
import { formatCount } from '~/lib/money'
import { ANALYSIS_DAY_MAX_DATES } from './analysis-day-schemas'
import { datesBetween, toMinutes } from './time-slots'

type Shape = { firstDate: string; lastDate: string; startTime: string; endTime: string; slotMinutes: number; rigs: number }

export type Capacity = { dates: number; slotsPerDate: number; perDate: number; total: number; sentence: string }

/** "8 h", "7 h 30 min", "45 min". */
function hoursText(minutes: number) {
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  if (hours === 0) return `${rest} min`
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`
}

const plural = (count: number, one: string, many = `${one}s`) => `${formatCount(count)} ${count === 1 ? one : many}`

/** "1 rig × 8 h ÷ 20-minute slots = 24 swimmers", with "× 2 dates" when it spans more than one. */
export function capacityOf({ firstDate, lastDate, startTime, endTime, slotMinutes, rigs }: Shape): Capacity {
  const minutes = Math.max(0, toMinutes(endTime) - toMinutes(startTime))
  const slotsPerDate = slotMinutes > 0 ? Math.floor(minutes / slotMinutes) : 0
  const dates = lastDate >= firstDate ? datesBetween(firstDate, lastDate).length : 0
  const perDate = rigs * slotsPerDate
  const total = perDate * dates
  const across = dates > 1 ? ` × ${plural(dates, 'date')}` : ''
  return { dates, slotsPerDate, perDate, total, sentence: `${plural(rigs, 'rig')} × ${hoursText(minutes)} ÷ ${slotMinutes}-minute slots${across} = ${plural(total, 'swimmer')}` }
}

/** What the staff's form holds as it is typed: any field may be empty or half typed. */
type Typed = { [Field in keyof Shape]?: string | undefined }

const DATE = /^\d{4}-\d{2}-\d{2}$/
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/
const WHOLE = /^\s*\d{1,3}\s*$/

/**
 * The capacity of the day the form describes, or null while it does not describe one yet (a field
 * empty or half typed, the last date before the first, more than a week of dates, the hours
 * backwards): the sentence the form shows under its numbers as staff type.
 */
export function capacityOfTyped({ firstDate = '', lastDate = '', startTime = '', endTime = '', slotMinutes = '', rigs = '' }: Typed): Capacity | null {
  if (!DATE.test(firstDate) || !DATE.test(lastDate) || !CLOCK.test(startTime) || !CLOCK.test(endTime) || !WHOLE.test(slotMinutes) || !WHOLE.test(rigs)) return null
  const days = (Date.parse(`${lastDate}T00:00Z`) - Date.parse(`${firstDate}T00:00Z`)) / 86_400_000
  if (!(days >= 0 && days < ANALYSIS_DAY_MAX_DATES) || endTime <= startTime) return null
  const [minutes, kits] = [Number(slotMinutes), Number(rigs)]
  if (minutes < 5 || kits < 1) return null
  return capacityOf({ firstDate, lastDate, startTime, endTime, slotMinutes: minutes, rigs: kits })
}
