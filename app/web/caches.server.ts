import type { Database } from '~/db/client.server'
import { trustNotificationsOf } from '~/lib/kept-cache.server'
import { forgetSessionsOf } from '~/modules/accounts/sessions.server'
import { forgetAnalysisDays } from '~/modules/booking/analysis-days.server'
import { forgetAvailability } from '~/modules/booking/availability.server'
import { forgetSwimmerChoices } from '~/modules/booking/swimmer-choice.server'

/** The channels the database announces changes on (see drizzle/0009). */
export const ACCOUNT_CHANNEL = 'account_changed'
export const AVAILABILITY_CHANNEL = 'availability_changed'

/**
 * Keeps signed-in users and availability in memory from now on, each instance dropping its copies
 * when the database announces a change, so a change made through any instance (or straight in SQL)
 * shows on every one at once. Returns the function that stops it (and forgets everything kept).
 */
export async function startCaches(database: Database) {
  const unsubscribe = await Promise.all([database.listen(ACCOUNT_CHANNEL, forgetSessionsOf), database.listen(AVAILABILITY_CHANNEL, forgetBookingPages)])
  // Only once both subscriptions are in place: a change before that would go unheard.
  trustNotificationsOf(database)
  return async () => {
    trustNotificationsOf(undefined)
    forgetSessionsOf('')
    forgetBookingPages('')
    // Nothing kept is trusted any more, so shutting down need not wait for the database to unsubscribe.
    void Promise.allSettled(unsubscribe.map((stop) => stop()))
  }
}

/** What the booking pages keep: seats, windows and the calendar, analysis days, and each account's swimmers. */
function forgetBookingPages(table: string) {
  forgetAvailability(table)
  forgetAnalysisDays(table)
  forgetSwimmerChoices(table)
}
