import { config } from '~/config.server'
import { href } from 'react-router'

/** Customer and staff areas stay out of search results; everything public is crawlable. */
const PRIVATE_PATHS = [href('/admin'), href('/my-bookings'), href('/book-slot'), href('/slot-payment'), href('/slot-payment-status'), href('/payment-status'), href('/login'), href('/registration'), href('/forgot-password')]

export function loader() {
  const body = ['User-agent: *', 'Allow: /', ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`), '', `Sitemap: ${config().SITE_URL}${href('/sitemap.xml')}`, ''].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}
