// The testimonials' limits, for the server and for the staff page that tells them.

/** How long a request's link may be answered. */
export const TESTIMONIAL_REQUEST_DAYS = 14
/** Requests e-mailed for one testimonial in one lab day, however they are sent (asked, edited, sent again). */
export const MAX_SENDS_PER_DAY = 3
/** The most the public pages show. */
export const MAX_SHOWN = 6
