// How many swimmers an analysis day can take, as staff see it before they publish: each kit films one
// swimmer per slot. Plain arithmetic, shared by the server and the staff's form as they type.
import { formatCount } from '~/lib/money'
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
