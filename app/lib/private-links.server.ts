import { createHmac, timingSafeEqual } from 'node:crypto'
import { config } from '~/config.server'
import type { Executor } from '~/db/client.server'
import { instanceSecret } from '~/db/secrets.server'
import {
  analysisDayLink,
  analysisDayOfferLink,
  analysisDayLineLink,
  analysisDayWaitlistPlaceLink,
  bookingViewLink,
  campLineLink,
  campOfferLink,
  campPaymentStatusLink,
  cancelLink,
  consentWithdrawalLink,
  creditNoteLink,
  publicBookingLink,
  receiptLink,
  reportFileLink,
  rescheduleLink,
  testimonialWithdrawalLink,
  waitlistConfirmationLink,
} from './links'

/**
 * Private links: addresses that open something without an account (a guest's booking, a camp
 * payment's status, a receipt …) because they carry a key only this site can make. The key is an
 * HMAC of the link's purpose and subject under this installation's secret, so nothing is stored,
 * and a key made for one kind of link opens no other. Links already e-mailed must keep working:
 * never change a kind's purpose or what it signs.
 */

/** What a page opened by a private link says when the key or what it points to does not check out. */
export const INVALID_LINK = 'This link is not valid.'

/**
 * The headers of a page a private link opens whose form acts (a consent, a withdrawal, a host's
 * booking, an alert's button): kept by no cache, and its address, key included, never sent to
 * another site. `same-origin` rather than `no-referrer`: under the latter a browser names the origin
 * of the page's own posts "null", and a form sent without JavaScript would be refused as another site's.
 */
export const PRIVATE_FORM_PAGE_HEADERS = { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'same-origin' } as const

/** One kind of private link. */
type PrivateLink<Subject> = {
  /** Signed along with the subject. */
  purpose: string
  /** What the key vouches for, as text. */
  signs: (subject: Subject) => string
  /** The link's path and query, carrying `key`; `sign` makes another kind's key, for a link that carries two. */
  address: (subject: Subject, key: string, sign: Sign) => string
}

type Sign = <Subject>(kind: PrivateLink<Subject>, subject: Subject) => string

/** A row's id: a number, or its digits as read from a link (signed as text, so "007" is not 7). */
type RowId = number | string

/** A link whose key signs one id or reference. */
function keyedBy<Subject extends string | number>(purpose: string, address: (subject: Subject, key: string) => string): PrivateLink<Subject> {
  return { purpose, signs: String, address }
}

/** A guest's booking: its details, report, receipt, and the way to change or cancel it. */
export const GUEST_BOOKING_LINK = keyedBy<string>('guest-booking', (reference, key) => bookingViewLink(reference, key))

/** The result of a guest's payment for a single session: the gateway sends the customer back here. */
export const BOOKING_STATUS_LINK = keyedBy<string>('booking-status', (orderId, key) => publicBookingLink({ step: '3', orderId, key }))

/** An analysis day's host club: booking its kept seats before the public release. */
export const ANALYSIS_DAY_HOST_LINK = keyedBy<RowId>('analysis-day-host', (day, key) => analysisDayLink(day, key))

/** Keeps a place on an analysis day's waitlist, by the entry's id. */
export const ANALYSIS_DAY_WAITLIST_LINK = keyedBy<RowId>('analysis-day-waitlist', (entry, key) => analysisDayWaitlistPlaceLink(entry, key))

/** A slot of an analysis day offered from its waitlist: its price and the way to pay, by the booking holding it. */
export const ANALYSIS_DAY_OFFER_LINK = keyedBy<string>('analysis-day-offer', (reference, key) => analysisDayOfferLink(reference, key))

/** The result of a camp payment, by its order id. */
export const CAMP_STATUS_LINK = keyedBy<string>('camp-status', (orderId, key) => campPaymentStatusLink(orderId, key))

/** The receipt (or refund note) of a completed payment, by its order id. */
export const RECEIPT_LINK = keyedBy<string>('receipt', (orderId, key) => receiptLink(orderId, { key }))

/** The credit note (or refund note) of a completed refund, by the refund's id. */
export const CREDIT_NOTE_LINK = keyedBy<string>('credit-note', (refundId, key) => creditNoteLink(refundId, { key }))

/** A file of a booking's report, by the file's id. */
export const REPORT_FILE_LINK = keyedBy<RowId>('report-file', (fileId, key) => reportFileLink(fileId, { key }))

/** A parent's place in the line for camp seats, by the place's id. */
export const CAMP_LINE_LINK = keyedBy<RowId>('camp-line', (place, key) => campLineLink(place, key))

/** A parent's place in the line of bookings for analysis days, by the place's id. */
export const ANALYSIS_DAY_LINE_LINK = keyedBy<RowId>('analysis-day-line', (place, key) => analysisDayLineLink(place, key))

/** Confirms a place on a camp's waitlist, by the entry's id. */
export const WAITLIST_CONFIRMATION_LINK = keyedBy<RowId>('camp-waitlist', (entry, key) => waitlistConfirmationLink(entry, key))

/** A camp seat held for a parent (from the form, or offered from the waitlist): its price and the way to pay, by the registration holding it (a group's first). */
export const WAITLIST_OFFER_LINK = keyedBy<string>('camp-offer', (reference, key) => campOfferLink(reference, key))

/** Lets a parent who agreed through a consent link withdraw that consent, by the consent's id. */
export const CONSENT_WITHDRAWAL_LINK = keyedBy<RowId>('consent-withdrawal', (consent, key) => consentWithdrawalLink(consent, key))

/** Lets the person who agreed to a testimonial (or their parent) take it off the site, by the testimonial's id. */
export const TESTIMONIAL_WITHDRAWAL_LINK = keyedBy<RowId>('testimonial-withdrawal', (testimonial, key) => testimonialWithdrawalLink(testimonial, key))

/** A guest's booking as it is now (`calendarSequence`), and the end of the link's time in seconds since 1970. */
type CancellationSubject = { reference: string; until: number; calendarSequence: number }

/**
 * Confirms a guest's cancellation, e-mailed to the booking's own mailbox. The key covers the
 * booking's calendar sequence, which every reschedule and the cancellation bump: once the booking
 * has changed (or been cancelled through this link) the link is dead. It carries the guest's
 * booking key too, and its own key as `confirm`.
 */
export const CANCEL_CONFIRMATION_LINK: PrivateLink<CancellationSubject> = {
  purpose: 'guest-cancel-confirmation',
  signs: ({ reference, until, calendarSequence }) => `${reference}:${until}:${calendarSequence}`,
  address: ({ reference, until }, key, sign) =>
    cancelLink(reference, { key: sign(GUEST_BOOKING_LINK, reference), until: String(until), confirm: key }),
}

/** A guest's booking as it is now, the end of the link's time, and the new first day and start the link moves it to. */
type RescheduleSubject = CancellationSubject & { date: string; time: string }

/**
 * Confirms moving a guest's booking to one new date and time, e-mailed to the booking's own mailbox.
 * Like the cancellation's, the key covers the calendar sequence, so the link dies once the booking
 * changes; it covers the new date and time too, so it moves the booking nowhere else.
 */
export const RESCHEDULE_CONFIRMATION_LINK: PrivateLink<RescheduleSubject> = {
  purpose: 'guest-reschedule-confirmation',
  signs: ({ reference, until, calendarSequence, date, time }) => `${reference}:${until}:${calendarSequence}:${date}:${time}`,
  address: ({ reference, until, date, time }, key, sign) =>
    rescheduleLink(reference, { key: sign(GUEST_BOOKING_LINK, reference), date, time, until: String(until), confirm: key }),
}

async function signer(executor?: Executor): Promise<Sign> {
  const secret = await instanceSecret('link_keys', executor)
  return (kind, subject) => createHmac('sha256', secret).update(`${kind.purpose}:${kind.signs(subject)}`).digest('base64url').slice(0, 32)
}

/**
 * Makes links without waiting: fetch it before a transaction and use it inside (on PGlite's single
 * connection, a query outside the open transaction would wait for it forever), or for many links.
 * `path` for pages of this site, `url` (absolute) for e-mails and the gateway's way back.
 */
export async function privateLinks(executor?: Executor) {
  const sign = await signer(executor)
  const path = <Subject>(kind: PrivateLink<Subject>, subject: Subject) => kind.address(subject, sign(kind, subject), sign)
  return { path, url: <Subject>(kind: PrivateLink<Subject>, subject: Subject) => `${config().SITE_URL}${path(kind, subject)}` }
}

export type PrivateLinks = Awaited<ReturnType<typeof privateLinks>>

export async function privateLinkPath<Subject>(kind: PrivateLink<Subject>, subject: Subject) {
  return (await privateLinks()).path(kind, subject)
}

export async function privateLinkUrl<Subject>(kind: PrivateLink<Subject>, subject: Subject, executor?: Executor) {
  return (await privateLinks(executor)).url(kind, subject)
}

/** Whether `given` is the key of `kind`'s link to `subject`, compared in constant time. */
export async function isLinkKey<Subject>(kind: PrivateLink<Subject>, subject: Subject, given: string | null | undefined): Promise<boolean> {
  if (!given) return false
  const expected = Buffer.from((await signer())(kind, subject))
  const actual = Buffer.from(given)
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}
