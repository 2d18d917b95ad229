import { href } from 'react-router'

/**
 * The site's own addresses. Every path is made by React Router's `href()` from a path listed in
 * app/routes.ts, so renaming a route breaks the type check wherever a link still names the old path.
 *
 * The rule: a fixed path without parameters or query is written `href('/pricing')` where it is used;
 * a path with parameters or a query gets a function here, which fills the parameters with `href()`
 * and writes the query with URLSearchParams. A link for e-mail is `${SITE_URL}` followed by one of these.
 * Values put into a path are encoded with encodeURIComponent (references and codes are plain
 * letters, digits and hyphens, so this changes none of today's addresses).
 */

type Query = ConstructorParameters<typeof URLSearchParams>[0]

/** A path with its query, or the bare path when the query is empty. */
function withQuery(path: string, query: Query) {
  const search = new URLSearchParams(query)
  return search.size ? `${path}?${search}` : path
}

const encoded = (value: string | number) => encodeURIComponent(String(value))

// Accounts

export { loginLink } from './login-link'

/** The page for the e-mailed code that finishes registering, with the address (and the code, from the e-mail) filled in. */
export const verifyEmailLink = (query: { email: string; code?: string }) => withQuery(href('/verify-email'), query)

/** The password reset: step 2 for an address (with the code, from the e-mail), or `done` once reset. */
export const forgotPasswordLink = (query: { email: string; code?: string } | { done: '1' }) => withQuery(href('/forgot-password'), query)

// Booking an analysis

/** The public booking of a single session: a step (`2`, or `3` with its order), a service chosen, a payment's outcome. */
export const publicBookingLink = (query: Record<string, string>) => withQuery(href('/booking'), query)

/** The open start times of a day, for the public booking's form. */
export const bookingTimesLink = (date: string) => withQuery(href('/booking/times'), { date })

/** Whether a single session's payment has settled, for its status page. */
export const bookingCheckLink = (orderId: string, key: string) => withQuery(href('/booking/check'), { orderId, key })

/** A guest's booking page, opened by its key. */
export const bookingViewLink = (reference: string, key: string) => withQuery(href('/booking/view'), { ref: reference, key })

/** An analysis day's public page; with `host`, the host's private link to book before the public release. */
export const analysisDayLink = (dayId: number | string, host?: string) => withQuery(href('/analysis-days/:dayId', { dayId: String(dayId) }), host ? { host } : {})

/** Joining the waitlist of a sold-out analysis day. */
export const analysisDayWaitlistLink = (dayId: number | string) => href('/analysis-days/:dayId/waitlist', { dayId: String(dayId) })

/** Keeping a place on an analysis day's waitlist, by the entry's id. */
/** A parent's place in the line of bookings for analysis days. */
export const analysisDayLineLink = (place: number | string, key: string) => withQuery(href('/analysis-days/line'), { place: String(place), key })

export const analysisDayWaitlistPlaceLink = (entry: number | string, key: string) => withQuery(href('/analysis-days/waitlist/place'), { entry: String(entry), key })

/** A slot of an analysis day offered from its waitlist: the price and the way to pay, by the booking holding it. */
export const analysisDayOfferLink = (booking: string, key: string) => withQuery(href('/analysis-days/waitlist/offer'), { booking, key })

/** The page where an address asking to hear when the lab comes to a city is confirmed (a button), opened from the e-mailed link. */
export const cityAlertConfirmLink = (token: string) => href('/city-alerts/:token', { token })

/** The page where an alert's e-mail stops the alerts for its city (a button). */
export const cityAlertStopLink = (token: string) => href('/city-alerts/stop/:token', { token })

/** The 3-day session's booking, at a day and for a swimmer when given (in the order given). */
export const bookSlotLink = (query: Record<string, string> | URLSearchParams = {}) => withQuery(href('/book-slot'), query)

/** Paying for a held booking. */
export const slotPaymentLink = (bookingId: number | string) => withQuery(href('/slot-payment'), { booking: String(bookingId) })

/** Where the gateway sends a customer back after paying for a 3-day session, with anything else the page is told. */
export const slotPaymentStatusLink = (orderId: string, extra: Record<string, string> = {}) => withQuery(href('/slot-payment-status'), { orderId, ...extra })

/** Whether a 3-day session's payment has settled, for its status page. */
export const slotPaymentCheckLink = (orderId: string) => withQuery(href('/slot-payment-status/check'), { orderId })

/** A customer's bookings, for one swimmer when given. */
export const myBookingsLink = (swimmerId: number | null) => (swimmerId === null ? href('/my-bookings') : withQuery(href('/my-bookings'), { swimmer: String(swimmerId) }))

/** Moving a booking to another time. */
export const rescheduleLink = (reference: string, query: Query = {}) => withQuery(href('/bookings/:reference/reschedule', { reference: encoded(reference) }), query)

/** Cancelling a booking. */
export const cancelLink = (reference: string, query: Query = {}) => withQuery(href('/bookings/:reference/cancel', { reference: encoded(reference) }), query)

/** Cancelling a camp registration. */
export const campCancelLink = (reference: string) => href('/camp-registrations/:reference/cancel', { reference: encoded(reference) })

// Payments' papers

/** The receipt of a paid order. */
export const receiptLink = (orderId: string, query: Query = {}) => withQuery(href('/receipts/:orderId', { orderId: encoded(orderId) }), query)

/** The credit note of a refund. */
export const creditNoteLink = (refundId: string, query: Query = {}) => withQuery(href('/credit-notes/:refundId', { refundId: encoded(refundId) }), query)

/** A file of a booking's report. */
export const reportFileLink = (fileId: number | string, query: Query = {}) => withQuery(href('/reports/files/:fileId', { fileId: String(fileId) }), query)

// Camps

/** Camp registration, with the parent's e-mail and phone filled in when given. */
export const campRegistrationLink = (parent?: { email: string; phone: string }) =>
  parent ? withQuery(href('/onboarding'), { email: parent.email, phone: parent.phone }) : href('/onboarding')

/** A parent's place in the line for camp seats. */
export const campLineLink = (place: number | string, key: string) => withQuery(href('/onboarding/line'), { place: String(place), key })

/** Confirming a place on a camp's waitlist. */
export const waitlistConfirmationLink = (entry: number | string, key: string) => withQuery(href('/onboarding/waitlist'), { entry: String(entry), key })

/** A camp seat held for a parent, by the registration holding it. */
export const campOfferLink = (registration: string, key: string) => withQuery(href('/onboarding/offer'), { registration, key })

/** A camp payment's result page, with anything else the page is told. */
export const campPaymentStatusLink = (orderId: string, key: string, extra: Record<string, string> = {}) => withQuery(href('/payment-status'), { orderId, key, ...extra })

/** Whether a camp payment has settled, for its status page. */
export const campPaymentCheckLink = (orderId: string, key: string) => withQuery(href('/payment-status/check'), { orderId, key })

// Swimmers and consent

/** A parent's consent page, opened from the e-mailed request. */
export const parentConsentLink = (token: string) => href('/consent/:token', { token })

/** Withdrawing a consent given through a consent link. */
export const consentWithdrawalLink = (consent: number | string, key: string) => withQuery(href('/consent/withdraw/:id', { id: String(consent) }), { key })

// Testimonials

/** The page where a person (or their parent) sees a testimonial as the site would show it, and answers. */
export const testimonialAgreementLink = (token: string) => href('/testimonials/:token', { token })

/** Withdrawing an agreed testimonial, from the e-mail that confirmed the agreement. */
export const testimonialWithdrawalLink = (testimonial: number | string, key: string) => withQuery(href('/testimonials/withdraw/:id', { id: String(testimonial) }), { key })

/** A swimmer's consent, as the account sees it. */
export const swimmerConsentLink = (swimmerId: number | string) => href('/swimmers/:id/consent', { id: String(swimmerId) })

/** Editing a swimmer. */
export const swimmerEditLink = (swimmerId: number | string) => href('/swimmers/:id/edit', { id: String(swimmerId) })

/** Deleting one swimmer's data. */
export const dataDeletionLink = (swimmerId: number | string) => withQuery(href('/account/data/delete'), { swimmer: String(swimmerId) })

// Analyses

/** An analysis's results page. */
export const analysisLink = (analysisId: number | string, query = '') => `${href('/analyses/:id', { id: String(analysisId) })}${query}`

/** A file of an analysis's report, as the analysis's page was opened (`query` is its share query or empty). */
export const analysisReportFileLink = (analysisId: number | string, fileId: number | string, query = '') =>
  `${href('/analyses/:id/report-files/:fileId', { id: String(analysisId), fileId: String(fileId) })}${query}`

/** A swimmer's progress across analyses. */
export const swimmerProgressLink = (swimmerId: number | string, query = '') => `${href('/swimmers/:id/progress', { id: String(swimmerId) })}${query}`

/** An analysis clip's files, carrying a coach's token (`query`, "" or "?share=…") when there is one. */
export const clipLinks = (clipId: number | string, query = '') => ({
  video: `${href('/analyses/clips/:clipId/video', { clipId: String(clipId) })}${query}`,
  poster: `${href('/analyses/clips/:clipId/poster', { clipId: String(clipId) })}${query}`,
  chapters: `${href('/analyses/clips/:clipId/chapters.vtt', { clipId: String(clipId) })}${query}`,
})

/** The analyses a family shared with a coach. */
export const sharedLink = (token: string) => href('/shared/:token', { token })

/** One analysis, as shared with a coach. */
export const sharedAnalysisLink = (token: string, analysisId: number | string) => href('/shared/:token/analyses/:id', { token, id: String(analysisId) })

/** A swimmer's progress, as shared with a coach. */
export const sharedProgressLink = (token: string) => href('/shared/:token/progress', { token })

// Staff

/** A booking in the admin console. */
export const adminBookingLink = (reference: string) => href('/admin/bookings/:reference', { reference: encoded(reference) })

/** A booking's analysis, recorded by staff. */
export const adminAnalysisLink = (reference: string) => href('/admin/bookings/:reference/analysis', { reference: encoded(reference) })

/** A booking's analysis clips. */
export const adminClipsLink = (reference: string) => href('/admin/bookings/:reference/analysis/clips', { reference: encoded(reference) })

/** The bookings' CSV, filtered as the list is. */
export const adminBookingsCsvLink = (query: Query) => withQuery(href('/admin/bookings.csv'), query)

/** A camp in the admin console. */
export const adminCampLink = (code: string) => href('/admin/camps/:code', { code: encoded(code) })

/** A camp's registrations as CSV. */
export const adminCampRegistrationsCsvLink = (code: string) => href('/admin/camps/:code/registrations.csv', { code: encoded(code) })

/** A customer in the admin console. */
export const adminCustomerLink = (customerId: number | string) => href('/admin/customers/:id', { id: String(customerId) })

/** The messages sent to one address. */
export const adminMessagesLink = (to: string) => withQuery(href('/admin/messages'), { to })

/** A promo code in the admin console. */
export const adminPromoCodeLink = (promoCodeId: number | string) => href('/admin/promo-codes/:id', { id: String(promoCodeId) })

/** One day's opening hours. */
export const adminWindowLink = (windowId: number | string) => href('/admin/availability/:windowId', { windowId: String(windowId) })

/** The availability calendar at a month (`YYYY-MM`), of a venue other than the lab's home when given. */
export const adminAvailabilityLink = ({ month, venue }: { month?: string; venue?: number | null }) =>
  withQuery(href('/admin/availability'), { ...(month && { month }), ...(venue && { venue: String(venue) }) })

/** An analysis day in the admin console. */
export const adminAnalysisDayLink = (dayId: number | string) => href('/admin/analysis-days/:dayId', { dayId: String(dayId) })

/** A venue in the admin console: its details, opening hours, staff and kits. */
export const adminVenueLink = (venueId: number | string) => href('/admin/venues/:venueId', { venueId: String(venueId) })

/** Everyone coming to a venue on a date (yyyy-mm-dd), for the staff at the poolside. */
export const adminDaySheetLink = (venueId: number | string, date: string) => href('/admin/venues/:venueId/day/:date', { venueId: String(venueId), date })
