import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { knownSoldOut } from '~/modules/booking/analysis-days.server'
import { arrived } from '~/modules/holders/arrivals.server'
import { ANALYSIS_DAY_PATH } from '~/web/public-pages'

/**
 * A booking sent (without JavaScript) from an analysis day's public page that this instance knows
 * is sold out (from the day it keeps in memory): answered at once with a 303 back to the day's page,
 * which says so and is kept in memory too, before Express and React Router see the request. In a
 * release's rush that is what most of a thousand parents get. The page's own action gives the same
 * answer whenever this one does not (a host's link, nothing kept, a day not yet released).
 * Returns whether it answered.
 */
export function soldOutDays(headers: OutgoingHttpHeaders) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? ''
    if (request.method !== 'POST' || !ANALYSIS_DAY_PATH.test(path) || !knownSoldOut(Number(path.slice(path.lastIndexOf('/') + 1)))) return false
    // The form's body is left unread: Node reads and drops it before the connection's next request.
    answerSoldOut(response, path, headers)
    return true
  }
}

/** The answer to a booking for a sold-out day: back to the day's page (`path`), which says so. */
export function answerSoldOut(response: ServerResponse, path: string, headers: OutgoingHttpHeaders) {
  // Parents still arriving: the pages of places in line wait for them to pass.
  arrived()
  response.writeHead(303, { ...headers, Location: path, 'Cache-Control': 'no-store', 'Content-Length': 0 })
  response.end()
}
