import { href } from 'react-router'

/** Where the camp banner's close button posts (`routes/resources/banner.close.ts`). */
export const BANNER_CLOSE_PATH = href('/banner/close')

/**
 * Pages that never show the camp banner: paying and its results, the camp line, accounts and
 * signing in, a customer's own bookings, and the admin console. A parent in the middle of a task
 * there needs the whole screen, not an advertisement. Each entry covers the pages beneath it too.
 */
const WITHOUT_BANNER = [
  '/booking',
  '/book-slot',
  '/slot-payment',
  '/slot-payment-status',
  '/payment-status',
  '/onboarding',
  '/my-bookings',
  '/bookings',
  '/login',
  '/registration',
  '/verify-email',
  '/forgot-password',
  '/admin',
  // Analyses: a coach's link shows the results only.
  '/shared',
]

/** Whether the page at `pathname` shows the camp banner (when it is switched on and the visitor has not closed it). */
export function showsBanner(pathname: string) {
  const path = pathname.toLowerCase().replace(/\/+$/, '') || '/'
  return !WITHOUT_BANNER.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
}
