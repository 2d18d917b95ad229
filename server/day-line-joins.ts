import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import type { OutgoingHttpHeaders } from 'node:http'
import { ANALYSIS_DAY_LINE_LINK, privateLinkPath } from '~/lib/private-links.server'
import { rowId } from '~/lib/row-id'
import { joinDayLine } from '~/modules/booking/analysis-day-line.server'
import { bookable, publicAnalysisDay } from '~/modules/booking/analysis-days.server'
import { arriving, inARush } from '~/modules/holders/arrivals.server'
import { readDayBooking } from '~/web/booking/day-line.server'
import { holderOf } from '~/web/holders/holder.server'
import { answerSoldOut } from './sold-out-days'

/** A booking form is a few hundred bytes; anything longer is the page's to answer. */
const MAX_FORM_BYTES = 16 * 1024
const URLENCODED = /^\s*application\/x-www-form-urlencoded\s*(;|$)/i

/**
 * A booking sent from an analysis day's public page while this instance is in a rush of them (a
 * release): read, checked and put in the day's line here, answered with a 303 to the place's page,
 * without React Router, which would give the same answer at several times the cost. Only the plain
 * case is taken: a guest's complete form for a released day with seats left. Anything else (a
 * signed-in parent, the host's link, a form to send back with its messages, a refusal) goes on to
 * the page's own action with the body read here (`response.locals.body`).
 */
export function dayLineJoins({ headers, sessionCookie }: { headers: OutgoingHttpHeaders; sessionCookie: string }) {
  return async (request: ExpressRequest, response: ExpressResponse, next: NextFunction) => {
    try {
      const dayId = rowId(String(request.params.dayId))
      const length = Number(request.get('Content-Length'))
      if (!inARush() || !dayId || Object.keys(request.query).length > 0 || hasCookie(request, sessionCookie)) return next()
      if (!URLENCODED.test(request.get('Content-Type') ?? '') || !(length > 0 && length <= MAX_FORM_BYTES)) return next()
      const day = await publicAnalysisDay(dayId)
      if (!day || day.opensLater) return next()
      // Sold out since its turn came (it was not known then): the answer the page's action gives.
      if (!bookable(day)) return answerSoldOut(response, request.path, headers)
      const body = await bodyOf(request)
      response.locals.body = body
      const form = new Request(new URL(request.originalUrl, 'http://site'), { method: 'POST', headers: { 'Content-Type': request.get('Content-Type')!, Cookie: request.get('Cookie') ?? '' }, body: new Uint8Array(body) })
      const read = await readDayBooking(form, day, { host: false, intent: 'book' }).catch(() => null)
      if (!read?.details) return next()
      const { holder, setCookie } = await holderOf(form, { cspNonce: String(response.locals.cspNonce ?? ''), requestId: String(response.locals.requestId ?? ''), clientIp: request.ip ?? request.socket.remoteAddress ?? '' }, { userId: null, email: read.details.email })
      const details = read.details
      const location = await arriving(async () => privateLinkPath(ANALYSIS_DAY_LINE_LINK, (await joinDayLine({ dayId, details, holder, promoCode: read.promoCode })).id)).catch(() => null)
      // Refused (a network past its limit of places): the page says so.
      if (!location) return next()
      response.writeHead(303, { ...headers, Location: location, 'Cache-Control': 'no-store', ...(setCookie && { 'Set-Cookie': setCookie }), 'Content-Length': 0 })
      response.end()
    } catch (error) {
      next(error)
    }
  }
}

function hasCookie(request: ExpressRequest, name: string) {
  return (request.get('Cookie') ?? '').split(';').some((pair) => pair.trim().startsWith(`${name}=`))
}

/** The whole body of a request that said how long it is (at most MAX_FORM_BYTES; Node's parser delivers no more). */
function bodyOf(request: ExpressRequest) {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.once('end', () => resolve(Buffer.concat(chunks)))
    request.once('error', reject)
    // A client gone before its body came: nothing to answer.
    request.once('close', () => {
      if (!request.complete) reject(new Error('the request closed before its body came'))
    })
  })
}
