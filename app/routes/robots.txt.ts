import { config } from '~/config.server'

/** Customer and staff areas stay out of search results; everything public is crawlable. */
const PRIVATE_PATHS = ['/admin', '/my-bookings', '/book-slot', '/slot-payment', '/slot-payment-status', '/payment-status', '/login', '/registration', '/forgot-password']

export function loader() {
  const body = ['User-agent: *', 'Allow: /', ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`), '', `Sitemap: ${config().SITE_URL}/sitemap.xml`, ''].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}
