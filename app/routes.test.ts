import { describe, expect, it } from 'vitest'
import routeConfig from './routes'

// Every address the site answers, as app/routes.ts lays them out: the full path of each route (a
// layout's children under its path, an index route marked), in the order they are listed. Moving or
// renaming a route's file changes none of these; a list that differs is an address changed.

type ConfigEntry = { path?: string; index?: boolean; children?: ConfigEntry[] }

/** Each route's full path, parents first, an index route written `<its parent's path> (index)`. */
function addresses(entries: ConfigEntry[], parentPath = ''): string[] {
  return entries.flatMap((entry) => {
    const path = entry.path === undefined ? parentPath : `${parentPath}/${entry.path}`
    const own = entry.index ? `${path || '/'} (index)` : path
    return [own, ...addresses(entry.children ?? [], path)]
  })
}

const SITE_ADDRESSES = [
  '/ (index)',
  '/about',
  '/services',
  '/how-it-works',
  '/pricing',
  '/contact',
  '/book',
  '/sample-analysis',
  '/registration',
  '/register',
  '/verify-email',
  '/login',
  '/forgot-password',
  '/logout',
  '/book-slot',
  '/slot-payment',
  '/slot-payment-status',
  '/slot-payment-status/check',
  '/my-bookings',
  '/swimmers',
  '/swimmers/new',
  '/swimmers/:id/edit',
  '/consent/:token',
  '/consent/withdraw/:id',
  '/swimmers/:id/consent',
  '/testimonials/:token',
  '/testimonials/withdraw/:id',
  '/account/data',
  '/account/data/export',
  '/account/data/delete',
  '/admin',
  '/admin (index)',
  '/admin/availability',
  '/admin/availability/:windowId',
  '/admin/venues',
  '/admin/venues/:venueId',
  '/admin/venues/:venueId/day/:date',
  '/admin/kits',
  '/admin/analysis-days',
  '/admin/analysis-days/:dayId',
  '/admin/bookings',
  '/admin/bookings/new',
  '/admin/bookings.csv',
  '/admin/bookings/:reference',
  '/admin/bookings/:reference/analysis/clips',
  '/admin/camps',
  '/admin/camps/:code',
  '/admin/camps/:code/registrations.csv',
  '/admin/promo-codes',
  '/admin/promo-codes.csv',
  '/admin/promo-codes/:id',
  '/admin/customers',
  '/admin/customers/:id',
  '/admin/settings',
  '/admin/media',
  '/admin/partners',
  '/admin/testimonials',
  '/admin/messages',
  '/admin/mail',
  '/admin/audit',
  '/admin/bookings/:reference/analysis',
  '/admin/reference-bands',
  '/admin/sample-analysis',
  '/analysis-days',
  '/analysis-days/:dayId',
  '/analysis-days/line',
  '/analysis-days/:dayId/waitlist',
  '/analysis-days/waitlist/place',
  '/analysis-days/waitlist/offer',
  '/city-alerts/:token',
  '/city-alerts/stop/:token',
  '/booking',
  '/booking/times',
  '/booking/check',
  '/booking/view',
  '/onboarding',
  '/onboarding/line',
  '/onboarding/waitlist',
  '/onboarding/offer',
  '/onboarding/quote',
  '/payment-status',
  '/payment-status/check',
  '/bookings/:reference/reschedule',
  '/bookings/:reference/cancel',
  '/camp-registrations/:reference/cancel',
  '/receipts/:orderId',
  '/credit-notes/:refundId',
  '/reports/files/:fileId',
  '/analyses/clips/:clipId/video',
  '/analyses/clips/:clipId/poster',
  '/terms',
  '/privacy-policy',
  '/refund',
  '/banner/close',
  '/sitemap.xml',
  '/robots.txt',
  '/media/:name',
  '/analyses',
  '/analyses/:id',
  '/analyses/:id/report-files/:fileId',
  '/analyses/clips/:clipId/chapters.vtt',
  '/swimmers/:id/progress',
  '/swimmers/:id/compare',
  '/shared/:token',
  '/shared/:token/analyses/:id',
  '/shared/:token/progress',
  '/shared/:token/compare',
  '/*',
]

describe('the routes of app/routes.ts', () => {
  it('answer the same addresses, in the same order', () => {
    expect(addresses(routeConfig as ConfigEntry[])).toEqual(SITE_ADDRESSES)
  })
})
