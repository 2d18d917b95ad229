import { and, eq, gt, isNotNull, isNull, lte, or, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { DomainError } from '~/lib/domain-error'
import { addHours } from '~/lib/lab-time'

// What every waitlist (a camp batch's, an analysis day's) asks of a place on it: the address
// confirmed through the e-mailed link within a day, and only so many places per client network.

/**
 * An entry nobody confirmed within this time lapses: an address nobody reads (or a made-up one)
 * holds no place for long, and cannot block its swimmer or its network.
 */
export const WAITLIST_CONFIRM_HOURS = 24

/** How many places (waiting or offered) one client network may hold at once on one kind of waitlist. */
export const WAITLIST_PLACES_PER_NETWORK = 3

/** The time by which an entry made at `createdAt` must be confirmed. */
export const confirmByOf = (createdAt: Date) => addHours(createdAt, WAITLIST_CONFIRM_HOURS)

/** Refused past WAITLIST_PLACES_PER_NETWORK: `which` names the waitlists ("camp waitlists"). */
export class WaitlistPlacesLimitError extends DomainError {
  constructor(which: string) {
    super('rate_limited', `Your internet connection already holds ${WAITLIST_PLACES_PER_NETWORK} places on our ${which}, the most we allow. Please try again once one of them has ended.`)
  }
}

type WaitlistColumns = { status: PgColumn; confirmedAt: PgColumn; createdAt: PgColumn }

/** The states of a waitlist's entries, as conditions on its table's columns. */
export function waitlistStates({ status, confirmedAt, createdAt }: WaitlistColumns) {
  const deadline = (now: Date) => addHours(now, -WAITLIST_CONFIRM_HOURS)
  return {
    /** In line: waiting, with the address confirmed. */
    queued: (): SQL => and(eq(status, 'waiting'), isNotNull(confirmedAt))!,
    /** Holding a place: offered, queued, or joined recently and not confirmed yet. */
    holdsPlace: (now: Date): SQL => or(eq(status, 'offered'), and(eq(status, 'waiting'), or(isNotNull(confirmedAt), gt(createdAt, deadline(now)))))!,
    /** Still waiting for the address to be confirmed, in time. */
    confirmable: (now: Date): SQL => and(eq(status, 'waiting'), isNull(confirmedAt), gt(createdAt, deadline(now)))!,
    /** Never confirmed, and too late now. */
    lapsedUnconfirmed: (now: Date): SQL => and(eq(status, 'waiting'), isNull(confirmedAt), lte(createdAt, deadline(now)))!,
  }
}
