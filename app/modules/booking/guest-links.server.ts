import { eq, max } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { bookingDays, bookings } from '~/db/schema'
import { addDays, addMinutes, formatLabTime, fromUnixSeconds, labInstant, toUnixSeconds } from '~/lib/lab-time'
import { DomainError } from '~/lib/domain-error'
import { CANCEL_CONFIRMATION_LINK, isLinkKey, privateLinkUrl } from '~/lib/private-links.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { clientNetwork } from '~/modules/rate-limit/client-network'
import { enforce, type RateLimitRule } from '~/modules/rate-limit/rate-limit.server'
import { cancelBooking, changeDeadline, NotChangeableError, TooLateToChangeError } from './changes.server'
import { bookingForMail, dayRows, swimmerRow } from './fulfilment.server'

/**
 * A guest's private link works until this many days after the last session day (for the report,
 * the receipt, a refund's progress), or, for a booking never confirmed, this many days after it was
 * made. After that the booking is in My Bookings of an account verified for the same address.
 */
const GUEST_LINK_DAYS_AFTER_SESSION = 90
const UNCONFIRMED_GUEST_LINK_DAYS = 30

/** How long an e-mailed link that confirms a cancellation works. */
export const CANCEL_CONFIRMATION_MINUTES = 30

/** How often a confirmation may be e-mailed: per booking (its mailbox), and per client address. */
const CANCEL_CONFIRMATION_LIMITS = {
  perBooking: { limit: 3, windowSeconds: 60 * 60 },
  perIp: { limit: 10, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>

type GuestLinkBooking = { confirmedAt: Date | null; createdAt: Date; days: Array<{ date: string }> }

/** The moment a guest's private link to `booking` stops working (the start of the day after its last day, Bangalore). */
export function guestLinkEnd(booking: GuestLinkBooking): Date {
  const unconfirmedEnd = addDays(booking.createdAt, UNCONFIRMED_GUEST_LINK_DAYS)
  const lastDay = booking.days.map((day) => day.date).sort().at(-1)
  if (!booking.confirmedAt || !lastDay) return unconfirmedEnd
  const sessionEnd = labInstant(addDays(lastDay, GUEST_LINK_DAYS_AFTER_SESSION + 1))
  return sessionEnd > unconfirmedEnd ? sessionEnd : unconfirmedEnd
}

export function guestLinkOpen(booking: GuestLinkBooking, now = new Date()) {
  return now < guestLinkEnd(booking)
}

/** The same for a booking known by id (for the receipt and report files the guest's page links to). */
export async function guestLinkOpenFor(bookingId: number, now = new Date()) {
  const [booking] = await db()
    .select({ confirmedAt: bookings.confirmedAt, createdAt: bookings.createdAt, lastDay: max(bookingDays.date) })
    .from(bookings)
    .leftJoin(bookingDays, eq(bookingDays.bookingId, bookings.id))
    .where(eq(bookings.id, bookingId))
    .groupBy(bookings.id)
  if (!booking) return false
  return guestLinkOpen({ ...booking, days: booking.lastDay ? [{ date: booking.lastDay }] : [] }, now)
}

export class CancellationLinkInvalidError extends DomainError {
  constructor() {
    super('invalid', 'This confirmation link has expired or has already been used. You can ask for a new one below.')
  }
}

/** The confirmation carried by an e-mailed cancellation link: its end (seconds since 1970) and its key. */
type CancellationLink = { until: number; confirm: string }

/** Reads a cancellation link's parameters from a URL's query; null when there are none (or not in that form). */
export function cancellationLinkOf(params: URLSearchParams): CancellationLink | null {
  const until = params.get('until')
  const confirm = params.get('confirm')
  if (!until || !confirm || !/^\d{1,12}$/.test(until)) return null
  return { until: Number(until), confirm }
}

/** Whether `link` is one this site e-mailed for the booking as it is now, and still within its time. */
export async function cancellationLinkValid(booking: { reference: string; calendarSequence: number }, link: CancellationLink, now = new Date()) {
  if (now >= fromUnixSeconds(link.until)) return false
  return isLinkKey(CANCEL_CONFIRMATION_LINK, { reference: booking.reference, until: link.until, calendarSequence: booking.calendarSequence }, link.confirm)
}

/**
 * Someone holding the guest's private link asks to cancel: the booking's own mailbox gets a link,
 * valid for 30 minutes, that confirms it. Limited per booking and per client address.
 */
export async function sendCancellationLink({ bookingId, ip, now = new Date() }: { bookingId: number; ip: string; now?: Date }) {
  await enforce(
    [
      { key: `cancel-confirmation:booking:${bookingId}`, rule: CANCEL_CONFIRMATION_LIMITS.perBooking },
      { key: `cancel-confirmation:network:${clientNetwork(ip)}`, rule: CANCEL_CONFIRMATION_LIMITS.perIp },
    ],
    now,
  )
  const [state] = await db().select({ status: bookings.status }).from(bookings).where(eq(bookings.id, bookingId))
  const mail = await bookingForMail(db(), bookingId)
  const firstDay = mail.days[0]
  if (state?.status !== 'confirmed' || !firstDay) throw new NotChangeableError()
  if (now >= changeDeadline(firstDay.date, firstDay.start)) throw new TooLateToChangeError()
  const until = toUnixSeconds(addMinutes(now, CANCEL_CONFIRMATION_MINUTES))
  await enqueueEmail(
    letter({
      to: mail.customerEmail,
      subject: `Confirm the cancellation: ${mail.title} (${mail.reference})`,
      name: mail.customerName,
      paragraphs: [
        `Someone with the link to your booking asked to cancel it. To cancel, open the link below and press "Cancel my booking". It works until ${formatLabTime(fromUnixSeconds(until))} (${CANCEL_CONFIRMATION_MINUTES} minutes) and only once.`,
        'If you did not ask for this, ignore this e-mail: your booking stays as it is.',
      ],
      details: [['Booking ID', mail.reference], swimmerRow(mail), ...dayRows(mail)],
      action: { label: 'Confirm the cancellation', url: await privateLinkUrl(CANCEL_CONFIRMATION_LINK, { reference: mail.reference, until, calendarSequence: mail.calendarSequence }) },
    }),
    { bookingId },
    db(),
    now,
  )
}

/**
 * Cancels (with its refund) through an e-mailed confirmation link. The key is checked against the
 * booking's sequence again under the booking's lock, so two uses at once cancel once.
 */
export async function cancelThroughLink({ bookingId, link, now = new Date() }: { bookingId: number; link: CancellationLink; now?: Date }) {
  const [booking] = await db().select({ reference: bookings.reference, calendarSequence: bookings.calendarSequence }).from(bookings).where(eq(bookings.id, bookingId))
  if (!booking || !(await cancellationLinkValid(booking, link, now))) throw new CancellationLinkInvalidError()
  await cancelBooking({ bookingId, now, calendarSequence: booking.calendarSequence })
}
