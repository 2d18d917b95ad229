import { index, route, type RouteConfig } from '@react-router/dev/routes'

export default [
  // Marketing pages, readable by everyone; the home page sends a signed-in visitor on to booking.
  index('routes/marketing/home.tsx'),
  route('about', 'routes/marketing/about.tsx'),
  route('services', 'routes/marketing/services.tsx'),
  route('how-it-works', 'routes/marketing/how-it-works.tsx'),
  route('pricing', 'routes/marketing/pricing.tsx'),
  route('contact', 'routes/marketing/contact.tsx'),
  // What "Book a Session" leads to: the products with their prices and durations, each with the way to book it.
  route('book', 'routes/marketing/book.tsx'),
  // "See what you get": the results page filled with the sample the lab publishes.
  route('sample-analysis', 'routes/marketing/sample-analysis.tsx'),
  // Accounts: guest-only pages, the signed-in pages they lead to, and the admin console.
  route('registration', 'routes/account/registration.tsx'),
  route('register', 'routes/account/register.ts'),
  route('verify-email', 'routes/account/verify-email.tsx'),
  route('login', 'routes/account/login.tsx'),
  route('forgot-password', 'routes/account/forgot-password.tsx'),
  route('logout', 'routes/account/logout.ts'),
  route('book-slot', 'routes/booking/book-slot.tsx'),
  route('slot-payment', 'routes/booking/slot-payment.tsx'),
  route('slot-payment-status', 'routes/booking/slot-payment-status.tsx'),
  route('slot-payment-status/check', 'routes/booking/slot-payment-status.check.ts'),
  route('my-bookings', 'routes/account/my-bookings.tsx'),
  route('swimmers', 'routes/account/swimmers.tsx'),
  route('swimmers/new', 'routes/account/swimmers.new.tsx'),
  route('swimmers/:id/edit', 'routes/account/swimmers.$id.edit.tsx'),
  // A parent's consent for a swimmer under 18: the e-mailed link (no account) and the link to withdraw it, and the account's page for a swimmer's consent.
  route('consent/:token', 'routes/account/consent.$token.tsx'),
  route('consent/withdraw/:id', 'routes/account/consent.withdraw.$id.tsx'),
  route('swimmers/:id/consent', 'routes/account/swimmers.$id.consent.tsx'),
  // A testimonial: the e-mailed link where the person (or their parent) agrees or declines (no account), and the link to withdraw it.
  route('testimonials/:token', 'routes/testimonials/testimonials.$token.tsx'),
  route('testimonials/withdraw/:id', 'routes/testimonials/testimonials.withdraw.$id.tsx'),
  // A person's rights over their data: download it, correct it, delete a swimmer or the account.
  route('account/data', 'routes/account/account.data.tsx'),
  route('account/data/export', 'routes/account/account.data.export.ts'),
  route('account/data/delete', 'routes/account/account.data.delete.tsx'),
  route('admin', 'routes/admin/layout.tsx', [
    index('routes/admin/index.tsx'),
    route('availability', 'routes/admin/availability.tsx'),
    route('availability/:windowId', 'routes/admin/window.tsx'),
    // Where the lab works (its home and the venues it takes its kit to), and its camera kits.
    route('venues', 'routes/admin/venues.tsx'),
    route('venues/:venueId', 'routes/admin/venue.tsx'),
    route('venues/:venueId/day/:date', 'routes/admin/day-sheet.tsx'),
    route('kits', 'routes/admin/kits.tsx'),
    // Analysis days: the kit at a venue away from the lab, its slots, its host's link and its public release.
    route('analysis-days', 'routes/admin/analysis-days.tsx'),
    route('analysis-days/:dayId', 'routes/admin/analysis-day.tsx'),
    route('bookings', 'routes/admin/bookings.tsx'),
    route('bookings/new', 'routes/admin/booking-new.tsx'),
    route('bookings.csv', 'routes/admin/bookings.csv.ts'),
    route('bookings/:reference', 'routes/admin/booking.tsx'),
    // An analysis's video clips: upload (tus, at /uploads/clips), titles, angles, chapters, posters.
    route('bookings/:reference/analysis/clips', 'routes/admin/analysis-clips.tsx'),
    route('camps', 'routes/admin/camps.tsx'),
    route('camps/:code', 'routes/admin/camp.tsx'),
    route('camps/:code/registrations.csv', 'routes/admin/camp-registrations-csv.ts'),
    route('promo-codes', 'routes/admin/promo-codes.tsx'),
    route('promo-codes.csv', 'routes/admin/promo-codes.csv.ts'),
    route('promo-codes/:id', 'routes/admin/promo-code.tsx'),
    route('customers', 'routes/admin/customers.tsx'),
    route('customers/:id', 'routes/admin/customer.tsx'),
    route('settings', 'routes/admin/settings.tsx'),
    // The media library: the lab's photos and video loops for the public pages.
    route('media', 'routes/admin/media.tsx'),
    // The partners and venues the home and about pages show, with their logos from the media library.
    route('partners', 'routes/admin/partners.tsx'),
    // Testimonials: the words of swimmers, parents and coaches, asked for and shown once they agree.
    route('testimonials', 'routes/admin/testimonials.tsx'),
    // Every message the site sends, e-mail and WhatsApp (the old mailbox address leads there).
    route('messages', 'routes/admin/messages.tsx'),
    route('mail', 'routes/admin/mail.ts'),
    route('audit', 'routes/admin/audit.tsx'),
    // Analyses: staff record and publish a booking's analysis, and keep the reference bands results are shown against.
    route('bookings/:reference/analysis', 'routes/admin/analysis.tsx'),
    route('reference-bands', 'routes/admin/reference-bands.tsx'),
    // The public sample analysis: the anonymised copies, their texts, and which one is published.
    route('sample-analysis', 'routes/admin/sample-analysis.tsx'),
  ]),
  // Analysis days away from the lab: every one to come, by city, and each one's page, where its slots are booked.
  route('analysis-days', 'routes/booking/analysis-days.tsx'),
  route('analysis-days/:dayId', 'routes/booking/analysis-day.tsx'),
  // A booking's place in the line of bookings (a private link): its turn, then a seat to pay for or another slot to choose.
  route('analysis-days/line', 'routes/booking/analysis-day.line.tsx'),
  // The waitlist of a sold-out analysis day: joining it, keeping the place through the e-mailed link, and the slot offered when one frees up.
  route('analysis-days/:dayId/waitlist', 'routes/booking/analysis-day.waitlist.tsx'),
  route('analysis-days/waitlist/place', 'routes/booking/analysis-day.waitlist-place.tsx'),
  route('analysis-days/waitlist/offer', 'routes/booking/analysis-day.waitlist-offer.tsx'),
  // Being told when the lab comes to a city: the e-mailed links that confirm the address and that stop the alerts (each a button).
  route('city-alerts/:token', 'routes/booking/city-alerts.$token.tsx'),
  route('city-alerts/stop/:token', 'routes/booking/city-alerts.stop.$token.tsx'),
  // The public booking of single sessions (no account needed), and a guest's link to their booking.
  route('booking', 'routes/booking/booking.tsx'),
  route('booking/times', 'routes/booking/booking.times.ts'),
  route('booking/check', 'routes/booking/booking.check.ts'),
  route('booking/view', 'routes/booking/booking.view.tsx'),
  // Camps: registration (anyone, no account), confirming a waitlist place, a waitlist offer, and the payment result.
  route('onboarding', 'routes/camps/camp-registration.tsx'),
  route('onboarding/line', 'routes/camps/camp-registration.line.tsx'),
  route('onboarding/waitlist', 'routes/camps/camp-registration.waitlist.tsx'),
  route('onboarding/offer', 'routes/camps/camp-registration.offer.tsx'),
  // The price of a camp order as the parent chooses, for the camp forms with JavaScript.
  route('onboarding/quote', 'routes/camps/camp-registration.quote.ts'),
  route('payment-status', 'routes/camps/payment-status.tsx'),
  route('payment-status/check', 'routes/camps/payment-status.check.ts'),
  // After the booking: changing it, its receipt, its report.
  route('bookings/:reference/reschedule', 'routes/booking/bookings.$reference.reschedule.tsx'),
  route('bookings/:reference/cancel', 'routes/booking/bookings.$reference.cancel.tsx'),
  route('camp-registrations/:reference/cancel', 'routes/camps/camp-registrations.$reference.cancel.tsx'),
  route('receipts/:orderId', 'routes/booking/receipts.$orderId.ts'),
  route('credit-notes/:refundId', 'routes/booking/credit-notes.$refundId.ts'),
  route('reports/files/:fileId', 'routes/results/reports.files.$fileId.ts'),
  // An analysis's clips: the video (with byte ranges) and its poster, for those who may see the analysis.
  route('analyses/clips/:clipId/video', 'routes/results/analyses.clips.$clipId.video.ts'),
  route('analyses/clips/:clipId/poster', 'routes/results/analyses.clips.$clipId.poster.ts'),
  route('terms', 'routes/marketing/terms.tsx'),
  route('privacy-policy', 'routes/marketing/privacy-policy.tsx'),
  route('refund', 'routes/marketing/refund.tsx'),
  // Closing the camp banner for the rest of the visit.
  route('banner/close', 'routes/resources/banner.close.ts'),
  route('sitemap.xml', 'routes/resources/sitemap.xml.ts'),
  route('robots.txt', 'routes/resources/robots.txt.ts'),
  // The media library's public photos and video loops, by their content-hashed names.
  route('media/:name', 'routes/resources/media.$name.ts'),
  // Analyses: the family's results, a swimmer's progress and two analyses compared, and the links a family shares with a coach.
  route('analyses', 'routes/results/analyses.tsx'),
  route('analyses/:id', 'routes/results/analyses.$id.tsx'),
  route('analyses/:id/report-files/:fileId', 'routes/results/analyses.$id.report-files.$fileId.ts'),
  route('analyses/clips/:clipId/chapters.vtt', 'routes/results/analyses.clips.$clipId.chapters.vtt.ts'),
  route('swimmers/:id/progress', 'routes/results/swimmers.$id.progress.tsx'),
  route('swimmers/:id/compare', 'routes/results/swimmers.$id.compare.tsx'),
  route('shared/:token', 'routes/results/shared.$token.tsx'),
  route('shared/:token/analyses/:id', 'routes/results/shared.$token.analyses.$id.tsx'),
  route('shared/:token/progress', 'routes/results/shared.$token.progress.tsx'),
  route('shared/:token/compare', 'routes/results/shared.$token.compare.tsx'),
  route('*', 'routes/marketing/not-found.tsx'),
] satisfies RouteConfig
