import type { ServerBuild } from 'react-router'
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '~/db/outage.server'
import { logger } from '~/lib/logger.server'

export const UNAVAILABLE_TITLE = 'Service temporarily unavailable'
export const UNAVAILABLE_MESSAGE = 'The site cannot reach its booking system for a moment. Please try again in a minute.'

/**
 * The build with every loader and action answering 503 while the database is unreachable. A
 * thrown Response is React Router's own way to say "this status": a page renders the site's error
 * page with it (root ErrorBoundary), a JSON endpoint returns it as it is. Route modules stay
 * unaware; anything other than an outage is rethrown untouched.
 */
export function answeringOutagesWith503(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      if (!route) return [id, route]
      const { loader, action } = route.module
      const module = { ...route.module, ...(loader ? { loader: guarded(loader) } : {}), ...(action ? { action: guarded(action) } : {}) }
      return [id, { ...route, module }]
    }),
  )
  return { ...build, routes }
}

function guarded<Args extends unknown[], Result>(handler: (...args: Args) => Result) {
  return async (...args: Args) => {
    try {
      return await handler(...args)
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        logger().warn({ err: error }, 'database unavailable: answering 503')
        throw unavailableResponse()
      }
      throw error
    }
  }
}

function unavailableResponse() {
  return Response.json({ error: UNAVAILABLE_TITLE, message: UNAVAILABLE_MESSAGE }, { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' } })
}
