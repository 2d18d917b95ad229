import type { NextFunction, Request, Response } from 'express'
import type { OutgoingHttpHeaders } from 'node:http'
import { analysisDayLink } from '~/lib/links'
import { ANALYSIS_DAY_LINE_LINK, isLinkKey } from '~/lib/private-links.server'
import { dayLinePlace } from '~/modules/booking/analysis-day-line.server'
import { quietOr } from '~/modules/holders/arrivals.server'

/** How long the page of a place waits for this instance's rush of arrivals to pass. */
const QUIET_WAIT_MS = 20_000

/**
 * The page of a place in the line of analysis day bookings. In a release's rush it is read only once
 * this instance has taken in the parents still arriving (or after 20 s): their submissions come
 * first. A place whose day turned out full is then sent to the day's page (which says so, offers
 * its waitlist, and is kept in memory) with a 303, before React Router: that is how most places of
 * a rush end. Every other place (waiting, a seat, a slot taken, refused, a link that does not check
 * out) is React Router's page.
 */
export function dayLinePlaces(headers: OutgoingHttpHeaders) {
  return async (request: Request, response: Response, next: NextFunction) => {
    try {
      await quietOr(Date.now() + QUIET_WAIT_MS)
      const { place, key } = request.query
      if (typeof place !== 'string' || typeof key !== 'string' || !/^\d{1,9}$/.test(place) || !(await isLinkKey(ANALYSIS_DAY_LINE_LINK, place, key))) return next()
      const settled = await dayLinePlace(Number(place))
      if (settled?.outcome !== 'full') return next()
      response.writeHead(303, { ...headers, Location: analysisDayLink(settled.analysisDayId, settled.hostKey ?? undefined), 'Cache-Control': 'no-store', 'Content-Length': 0 })
      response.end()
    } catch (error) {
      next(error)
    }
  }
}
