import { index, layout, route, type RouteConfig } from '@react-router/dev/routes'

export default [
  // Marketing pages share one layout route, whose loader applies their common access rule.
  layout('routes/marketing-layout.tsx', [
    index('routes/home.tsx'),
    route('about', 'routes/about.tsx'),
    route('services', 'routes/services.tsx'),
    route('how-it-works', 'routes/how-it-works.tsx'),
    route('pricing', 'routes/pricing.tsx'),
    route('contact', 'routes/contact.tsx'),
  ]),
  // Accounts: guest-only pages, the signed-in pages they lead to, and the admin console.
  route('registration', 'routes/registration.tsx'),
  route('register', 'routes/register.ts'),
  route('verify-email', 'routes/verify-email.tsx'),
  route('login', 'routes/login.tsx'),
  route('forgot-password', 'routes/forgot-password.tsx'),
  route('logout', 'routes/logout.ts'),
  route('book-slot', 'routes/book-slot.tsx'),
  route('slot-payment', 'routes/slot-payment.tsx'),
  route('slot-payment-status', 'routes/slot-payment-status.tsx'),
  route('slot-payment-status/check', 'routes/slot-payment-status.check.ts'),
  route('my-bookings', 'routes/my-bookings.tsx'),
  route('admin', 'routes/admin/layout.tsx', [
    index('routes/admin/index.tsx'),
    route('bookings', 'routes/admin/bookings.tsx'),
    route('bookings/:reference', 'routes/admin/booking.tsx'),
    route('customers', 'routes/admin/customers.tsx'),
    route('customers/:id', 'routes/admin/customer.tsx'),
    route('settings', 'routes/admin/settings.tsx'),
    route('mail', 'routes/admin/mail.tsx'),
    route('audit', 'routes/admin/audit.tsx'),
  ]),
  // The public booking of single sessions (no account needed), and a guest's link to their booking.
  route('booking', 'routes/booking.tsx'),
  route('booking/times', 'routes/booking.times.ts'),
  route('booking/check', 'routes/booking.check.ts'),
  route('booking/view', 'routes/booking.view.tsx'),
  // Camps: registration (anyone, no account), a waitlist offer, and the payment result.
  route('onboarding', 'routes/onboarding.tsx'),
  route('onboarding/offer', 'routes/onboarding.offer.tsx'),
  route('payment-status', 'routes/payment-status.tsx'),
  route('payment-status/check', 'routes/payment-status.check.ts'),
  // After the booking: changing it, its receipt, its report.
  route('bookings/:reference/reschedule', 'routes/bookings.$reference.reschedule.tsx'),
  route('bookings/:reference/cancel', 'routes/bookings.$reference.cancel.tsx'),
  route('receipts/:orderId', 'routes/receipts.$orderId.ts'),
  route('reports/files/:fileId', 'routes/reports.files.$fileId.ts'),
  route('terms', 'routes/terms.tsx'),
  route('privacy-policy', 'routes/privacy-policy.tsx'),
  route('refund', 'routes/refund.tsx'),
  route('sitemap.xml', 'routes/sitemap.xml.ts'),
  route('robots.txt', 'routes/robots.txt.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
