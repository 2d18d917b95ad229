import { ANALYSIS_DAY_HOST_LINK, INVALID_LINK, isLinkKey } from '~/lib/private-links.server'
import { DomainError } from '~/lib/domain-error'
import type { Holder } from '~/modules/holders/holders.server'
import type { AnalysisDayBookingInput } from './analysis-day-schemas'
import { analysisDaySeat } from './analysis-days.server'
import { holdSession, SlotUnavailableError } from './holds.server'
import { holdForDetails } from './public-booking.server'

/** A host's link whose key does not check out. */
export class InvalidHostLinkError extends DomainError {
  constructor() {
    super('not_found', INVALID_LINK)
  }
}

/** Whether `key` is the host's key of analysis day `dayId` (false when none is given; refused when a wrong one is). */
export async function hostLinkOpens(dayId: number, key: string | null) {
  if (key === null) return false
  if (!(await isLinkKey(ANALYSIS_DAY_HOST_LINK, dayId, key))) throw new InvalidHostLinkError()
  return true
}

/**
 * Holds the slot the form names of analysis day `dayId` for `holder`, through the one engine of
 * holds (its line, its locks, its limits per visitor), at the day's price. Before the public release
 * only the host's link books, and only as many seats as the host keeps.
 */
export async function holdAnalysisDaySlot(dayId: number, details: AnalysisDayBookingInput, holder: Holder, { hostKey = null, now = new Date() }: { hostKey?: string | null; now?: Date } = {}) {
  const host = await hostLinkOpens(dayId, hostKey)
  const { day, seat } = await analysisDaySeat(dayId, { host, now })
  const [date, start] = details.slot.split('|') as [string, string]
  const slot = day.dates.find((candidate) => candidate.date === date)?.slots.find((candidate) => candidate.start === start)
  if (!slot || slot.state === 'not_available') throw new SlotUnavailableError(undefined, 'slot')
  const held = await holdForDetails(details, holder, now, (booking) => holdSession({ ...booking, productCode: day.productCode, date, start, analysisDay: seat }))
  return { ...held, day, date, start }
}
