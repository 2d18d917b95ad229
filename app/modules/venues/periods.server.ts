import { sql } from 'drizzle-orm'
import { DomainError } from '~/lib/domain-error'
import { addMinutes, formatLabDateTime, labInstant } from '~/lib/lab-time'

// When a kit or a person is at a venue: the time there, and the range they are away for, which adds
// the travel (and a kit's set-up and packing) on either side. The database compares ranges `[)`:
// a kit back at the lab at 6 PM can leave again at 6 PM.

export type Period = { startsAt: Date; endsAt: Date }

/** A period typed as dates and times in the lab's time; refused once it has ended. */
export function periodFrom(input: { fromDate: string; fromTime: string; toDate: string; toTime: string }, now: Date): Period {
  const period = { startsAt: labInstant(input.fromDate, input.fromTime), endsAt: labInstant(input.toDate, input.toTime) }
  if (period.endsAt <= now) throw new DomainError('invalid', 'This time has already passed: choose one to come', 'toDate')
  return period
}

/** The range away: `before` minutes ahead of the start, `after` minutes after the end. */
export function awayRange({ startsAt, endsAt }: Period, before: number, after = before): Period {
  return { startsAt: addMinutes(startsAt, -before), endsAt: addMinutes(endsAt, after) }
}

/** A range as PostgreSQL's tstzrange, `[)`. */
export const rangeSql = ({ startsAt, endsAt }: Period) => sql`tstzrange(${startsAt.toISOString()}::timestamptz, ${endsAt.toISOString()}::timestamptz, '[)')`

/** "6:00 AM IST on 12 December 2026 to 8:00 PM IST on 13 December 2026". */
export const describePeriod = ({ startsAt, endsAt }: Period) => `${formatLabDateTime(startsAt)} to ${formatLabDateTime(endsAt)}`
