import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { nothingLeftToBook } from '~/modules/booking/analysis-days.server'
import { ANALYSIS_DAY_PATH } from '~/web/public-pages'

/**
 * A booking sent (without JavaScript) from an analysis day's public page once nothing is left to
 * book: answered at once with a 303 back to the day's page, which says so and is kept in memory,
 * before Express and React Router see the request. In a release's rush that is what most of a
 * thousand parents get, and the day's seats are read from memory too (`publicAnalysisDay`). The
 * page's own action gives the same answer whenever this one does not (a host's link, a day not yet
 * released, a read that failed).
 */
export function soldOutDays(headers: OutgoingHttpHeaders) {
  /**
   * Null for any other request; else resolves true when it answered, false (the request untouched)
   * when the page's action is to answer.
   */
  return (request: IncomingMessage, response: ServerResponse): Promise<boolean> | null => {
    const path = request.url ?? ''
    if (request.method !== 'POST' || !ANALYSIS_DAY_PATH.test(path)) return null
    return answer(path, response)
  }

  async function answer(path: string, response: ServerResponse) {
    try {
      if (!(await nothingLeftToBook(Number(path.slice(path.lastIndexOf('/') + 1))))) return false
    } catch {
      return false
    }
    // The form's body is left unread: Node reads and drops it before the connection's next request.
    response.writeHead(303, { ...headers, Location: path, 'Cache-Control': 'no-store', 'Content-Length': 0 })
    response.end()
    return true
  }
}
