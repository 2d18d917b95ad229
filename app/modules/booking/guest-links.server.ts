import { eq, max } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { bookingDays, bookings } from '~/db/schema'
import { addDays, addMinutes, formatLabTime, fromUnixSeconds, labInstant, toUnixSeconds } from '~/lib/lab-time'
import { DomainError } from '~/lib/domain-error'
import { CANCEL_CONFIRMATION_LINK, isLinkKey, privateLinkUrl, RESCHEDULE_CONFIRMATION_LINK } from '~/lib/private-links.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { clientNetwork } from '~/modules/rate-limit/client-network'
import { enforce, type RateLimitRule } from '~/modules/rate-limit/rate-limit.server'
import { hasStarted, openWindows, planSession, SESSION_SEARCH_DAYS } from './availability.server'
import { assertMayMoveTo, cancelBooking, changeDeadline, NotChangeableError, rescheduleBooking, TooLateToChangeError } from './changes.server'
import { bookingForMail, dayRows, swimmerRow } from './fulfilment.server'
import { SlotUnavailableError } from './holds.server'
import { bookingDayLines } from './texts'

/**
 * A guest's private link works until this many days after the last session day (for the report,
 * the receipt, a refund's progress), or, for a booking never confirmed, this many days after it was
 * made. After that the booking is in My Bookings of an account verified for the same address.
 */
const GUEST_LINK_DAYS_AFTER_SESSION = 90
const UNCONFIRMED_GUEST_LINK_DAYS = 30

/** How long an e-mailed link that confirms a cancellation or a new time works. */
export const CONFIRMATION_LINK_MINUTES = 30

/** How often a confirmation (to cancel or to move) may be e-mailed: per booking (its mailbox), and per client address. */
const CONFIRMATION_LINK_LIMITS = {
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

export class ConfirmationLinkInvalidError extends DomainError {
  constructor() {
    super('invalid', 'This confirmation link has expired or has already been used. You can ask for a new one below.')
  }
}

/** The confirmation carried by an e-mailed link: its end (seconds since 1970) and its key. */
type ConfirmationLink = { until: number; confirm: string }

/** The same for a new time: the first day and start it moves the booking to, as the link names them. */
type RescheduleLink = ConfirmationLink & { date: string; time: string }

/** Reads a cancellation link's parameters from a URL's query; null when there are none (or not in that form). */
export function cancellationLinkOf(params: URLSearchParams): ConfirmationLink | null {
  const until = params.get('until')
  const confirm = params.get('confirm')
  if (!until || !confirm || !/^\d{1,12}$/.test(until)) return null
  return { until: Number(until), confirm }
}

/** Reads a new time's confirmation link from a URL's query (the date and time the page shows); null when it carries none. */
export function rescheduleLinkOf(params: URLSearchParams): RescheduleLink | null {
  const link = cancellationLinkOf(params)
  const date = params.get('date')
  const time = params.get('time')
  if (!link || !date || !time) return null
  return { ...link, date, time }
}

type BookingAsItIs = { reference: string; calendarSequence: number }

/** Whether `link` is one this site e-mailed to cancel the booking as it is now, and still within its time. */
export async function cancellationLinkValid(booking: BookingAsItIs, link: ConfirmationLink, now = new Date()) {
  if (now >= fromUnixSeconds(link.until)) return false
  return isLinkKey(CANCEL_CONFIRMATION_LINK, { reference: booking.reference, until: link.until, calendarSequence: booking.calendarSequence }, link.confirm)
}

/** Whether `link` is one this site e-mailed to move the booking as it is now to the date and time it names, and still within its time. */
export async function rescheduleLinkValid(booking: BookingAsItIs, link: RescheduleLink, now = new Date()) {
  if (now >= fromUnixSeconds(link.until)) return false
  return isLinkKey(RESCHEDULE_CONFIRMATION_LINK, { reference: booking.reference, until: link.until, calendarSequence: booking.calendarSequence, date: link.date, time: link.time }, link.confirm)
}

/** Counts a confirmation e-mailed about the booking, to cancel it or to move it; throws RateLimitedError past the limits. */
function limitConfirmations(bookingId: number, ip: string, now: Date) {
  return enforce(
    [
      { key: `change-confirmation:booking:${bookingId}`, rule: CONFIRMATION_LINK_LIMITS.perBooking },
      { key: `change-confirmation:network:${clientNetwork(ip)}`, rule: CONFIRMATION_LINK_LIMITS.perIp },
    ],
    now,
  )
}

/** The booking as its e-mails show it, refused when a customer may no longer change it. */
async function changeableBooking(bookingId: number, now: Date) {
  const [state] = await db().select({ status: bookings.status }).from(bookings).where(eq(bookings.id, bookingId))
  const mail = await bookingForMail(db(), bookingId)
  const firstDay = mail.days[0]
  if (state?.status !== 'confirmed' || !firstDay) throw new NotChangeableError()
  if (now >= changeDeadline(firstDay.date, firstDay.start)) throw new TooLateToChangeError()
  return mail
}

/** The sentence every confirmation e-mail ends its instructions with. */
const IF_NOT_YOU = 'If you did not ask for this, ignore this e-mail: your booking stays as it is.'

/**
 * Someone holding the guest's private link asks to cancel: the booking's own mailbox gets a link,
 * valid for 30 minutes, that confirms it. Limited per booking and per client address.
 */
export async function sendCancellationLink({ bookingId, ip, now = new Date() }: { bookingId: number; ip: string; now?: Date }) {
  await limitConfirmations(bookingId, ip, now)
  const mail = await changeableBooking(bookingId, now)
  const until = toUnixSeconds(addMinutes(now, CONFIRMATION_LINK_MINUTES))
  await enqueueEmail(
    letter({
      to: mail.customerEmail,
      subject: `Confirm the cancellation: ${mail.title} (${mail.reference})`,
      name: mail.customerName,
      paragraphs: [
        `Someone with the link to your booking asked to cancel it. To cancel, open the link below and press "Cancel my booking". It works until ${formatLabTime(fromUnixSeconds(until))} (${CONFIRMATION_LINK_MINUTES} minutes) and only once.`,
        IF_NOT_YOU,
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
export async function cancelThroughLink({ bookingId, link, now = new Date() }: { bookingId: number; link: ConfirmationLink; now?: Date }) {
  const booking = await bookingAsItIs(bookingId)
  if (!booking || !(await cancellationLinkValid(booking, link, now))) throw new ConfirmationLinkInvalidError()
  await cancelBooking({ bookingId, now, calendarSequence: booking.calendarSequence })
}

/**
 * Someone holding the guest's private link asks to move the booking to `date` at `start`: the
 * booking's own mailbox gets a link, valid for 30 minutes, that confirms that move and no other.
 * Nothing is sent for a time the booking could not be moved to now; the seats are checked again
 * when the link is used. Limited with the cancellation's links, per booking and per client address.
 */
export async function sendRescheduleLink({ bookingId, date, start, ip, now = new Date() }: { bookingId: number; date: string; start: string; ip: string; now?: Date }) {
  await limitConfirmations(bookingId, ip, now)
  const mail = await changeableBooking(bookingId, now)
  assertMayMoveTo(mail.days, { date, start }, now, { customer: true })
  const plan = planSession(await openWindows(date, addDays(date, SESSION_SEARCH_DAYS)), date, start, mail.days.length)
  if (!plan || hasStarted(date, start, now)) throw new SlotUnavailableError()
  const until = toUnixSeconds(addMinutes(now, CONFIRMATION_LINK_MINUTES))
  const newDays = bookingDayLines(plan).map(({ label, value }): [string, string] => [`New ${label.toLowerCase()}`, value])
  await enqueueEmail(
    letter({
      to: mail.customerEmail,
      subject: `Confirm the new time: ${mail.title} (${mail.reference})`,
      name: mail.customerName,
      paragraphs: [
        `Someone with the link to your booking asked to move it to the time below. To move it, open the link below and press "Move my booking". It works until ${formatLabTime(fromUnixSeconds(until))} (${CONFIRMATION_LINK_MINUTES} minutes) and only once.`,
        IF_NOT_YOU,
      ],
      details: [['Booking ID', mail.reference], swimmerRow(mail), ...dayRows(mail), ...newDays],
      action: { label: 'Confirm the new time', url: await privateLinkUrl(RESCHEDULE_CONFIRMATION_LINK, { reference: mail.reference, until, calendarSequence: mail.calendarSequence, date, time: start }) },
    }),
    { bookingId },
    db(),
    now,
  )
}

/**
 * Moves the booking to the date and time an e-mailed confirmation link names. The key is checked
 * against the booking's sequence again under the booking's lock, so two uses at once move it once.
 */
export async function rescheduleThroughLink({ bookingId, link, now = new Date() }: { bookingId: number; link: RescheduleLink; now?: Date }) {
  const booking = await bookingAsItIs(bookingId)
  if (!booking || !(await rescheduleLinkValid(booking, link, now))) throw new ConfirmationLinkInvalidError()
  await rescheduleBooking({ bookingId, date: link.date, start: link.time, now, calendarSequence: booking.calendarSequence })
}

async function bookingAsItIs(bookingId: number): Promise<BookingAsItIs | undefined> {
  const [booking] = await db().select({ reference: bookings.reference, calendarSequence: bookings.calendarSequence }).from(bookings).where(eq(bookings.id, bookingId))
  return booking
}
