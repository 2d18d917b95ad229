import { eq, sql } from 'drizzle-orm'
import { config } from '~/config.server'
import { bookings, catalogueItems, swimmers, users } from '~/db/schema'
import { refundPolicyIn, sessionLocationIn } from '~/modules/site/site.server'
import { formatRupees } from '~/lib/money'
import { firstNameOf } from '~/lib/person-name'
import type { Executor } from '~/db/client.server'
import { GUEST_BOOKING_LINK, privateLinkUrl } from '~/lib/private-links.server'
import { calendarAttachment, calendarFile } from '~/modules/mail/ics.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter, type DetailRow } from '~/modules/mail/templates.server'
import { refundedBy, type CompletedRefund, type PaidOutcome, type Payable, type PaymentTerms, type UnpaidBecause } from '~/modules/payments/payable-contract.server'
import { daysAndVenues, homeVenueNamed } from './bookings.server'
import { seatsStillFree } from './holds.server'
import { setStatus } from '~/modules/statuses/status.server'
import { promoDetailRows } from '~/modules/promotions/uses.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'
import { SINGLE_SERVICES } from './fields'
import { analysisNameOf, bookingDayLines, IMPORTANT_INFORMATION, mapLinkOf, SESSION_PRODUCT_CODE, venueDetails, venueLine, venueOnWhatsApp } from './texts'
import { analysisDayLink, bookSlotLink, publicBookingLink } from '~/lib/links'
import { href } from 'react-router'

/**
 * A payment for the booking completed. Runs inside the payment's transaction, with the booking
 * locked: confirms it while its hold stands; after the hold ran out, confirms it only if its seats
 * are still free; otherwise (seats gone, already paid, cancelled) the money must go back.
 */
async function fulfilPaidBooking(tx: Executor, bookingId: number, now: Date): Promise<PaidOutcome> {
  const [booking] = await tx
    .select({ status: bookings.status, holdExpiresAt: bookings.holdExpiresAt })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .for('update')
  if (!booking) return { result: 'refund', reason: 'The booking no longer exists.' }
  if (booking.status === 'confirmed') return { result: 'refund', reason: 'This booking had already been paid for: a second payment is refunded.' }
  if (booking.status === 'cancelled' || booking.status === 'refund_pending' || booking.status === 'refunded') {
    return { result: 'refund', reason: 'The booking had been cancelled before the payment arrived.' }
  }
  const holdStands = booking.status === 'pending' && booking.holdExpiresAt !== null && booking.holdExpiresAt > now
  if (!holdStands && !(await seatsStillFree(tx, bookingId, now))) {
    await setStatus(tx, bookings, 'refund_pending', eq(bookings.id, bookingId), { holdExpiresAt: null, updatedAt: now })
    await enqueueEmail(await latePaymentEmail(tx, bookingId), { bookingId }, tx, now)
    await tellLatePaymentOnWhatsApp(tx, bookingId, now)
    return { result: 'refund', reason: 'The payment arrived after the seat hold had expired and the time slot was taken.' }
  }
  await setStatus(tx, bookings, 'confirmed', eq(bookings.id, bookingId), { confirmedAt: now, holdExpiresAt: null, updatedAt: now })
  await enqueueEmail(await confirmationEmail(tx, bookingId, now), { bookingId }, tx, now)
  await tellConfirmedOnWhatsApp(tx, bookingId, now)
  return { result: 'confirmed', late: !holdStands }
}

/**
 * Every payment for the booking failed: the hold is released at once, so the slot can be chosen
 * again, and the customer is told by e-mail (and on WhatsApp) where to try again, only when it was
 * released now: a repeated report of the failure finds it released already.
 */
async function releaseUnpaidBooking(tx: Executor, bookingId: number, now: Date, why: UnpaidBecause) {
  const released = await setStatus(tx, bookings, 'payment_failed', eq(bookings.id, bookingId), { holdExpiresAt: null, updatedAt: now }).returning({ id: bookings.id })
  if (!released.length || why !== 'payment_failed') return
  await enqueueEmail(await paymentFailedEmail(tx, bookingId), { bookingId }, tx, now)
  await tellPaymentFailedOnWhatsApp(tx, bookingId, now)
}

/** The booking's price and hold, locked for a payment to start; null unless it is pending with time left to pay. */
async function bookingTerms(tx: Executor, bookingId: number, now: Date): Promise<PaymentTerms | null> {
  const [booking] = await tx
    .select({
      status: bookings.status,
      holdExpiresAt: bookings.holdExpiresAt,
      amountPaise: bookings.amountPaise,
      promoDiscountPaise: bookings.promoDiscountPaise,
      productCode: bookings.productCode,
      userId: bookings.userId,
      name: bookings.customerName,
      email: bookings.customerEmail,
      phone: bookings.customerPhone,
      reference: bookings.reference,
    })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .for('update')
  if (!booking || booking.status !== 'pending' || !booking.holdExpiresAt || booking.holdExpiresAt <= now) return null
  return {
    amountPaise: booking.amountPaise,
    holdExpiresAt: booking.holdExpiresAt,
    customer: { name: booking.name, email: booking.email, phone: booking.phone },
    reference: booking.reference,
    lines: [{ id: bookingId, pricePaise: booking.amountPaise + booking.promoDiscountPaise }],
    promoProduct: booking.productCode === SESSION_PRODUCT_CODE ? 'three_day' : 'single',
    accountId: booking.userId,
  }
}

export const bookingPayable: Payable = {
  orderPrefix: 'SLOT',
  termsForPayment: bookingTerms,
  paid: fulfilPaidBooking,
  unpaid: releaseUnpaidBooking,
  refunded: bookingRefunded,
}

/** A refund of one of the booking's payments completed. */
async function bookingRefunded(tx: Executor, bookingId: number, refund: CompletedRefund, now: Date) {
  const [booking] = await tx.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, bookingId)).for('update')
  // A refund of a duplicate payment leaves a confirmed booking as it is.
  if (booking?.status === 'refund_pending' || booking?.status === 'cancelled') {
    await setStatus(tx, bookings, 'refunded', eq(bookings.id, bookingId), { updatedAt: now })
  }
  await enqueueEmail(await refundCompletedEmail(tx, bookingId, refund), { bookingId }, tx, now)
  await notifyOnWhatsApp(
    'refund_completed',
    async () => {
      const mail = await bookingForMail(tx, bookingId)
      return { phone: await bookingWhatsAppNumber(tx, mail), parameters: [formatRupees(refund.amountPaise), paidFor(mail), mail.reference, refundedHow(refund.how)], names: [mail.swimmerName], about: { bookingId } }
    },
    tx,
    now,
  )
}

type BookingForMail = Awaited<ReturnType<typeof bookingForMail>>

export async function bookingForMail(executor: Executor, bookingId: number) {
  const [booking] = await executor
    .select({
      id: bookings.id,
      reference: bookings.reference,
      // The swimmer's profile names them as the family keeps it; a swimmer without one, as booked.
      swimmerName: sql<string>`coalesce(${swimmers.name}, ${bookings.swimmerName})`,
      customerName: bookings.customerName,
      customerEmail: bookings.customerEmail,
      customerPhone: bookings.customerPhone,
      userId: bookings.userId,
      swimmerId: bookings.swimmerId,
      productCode: bookings.productCode,
      amountPaise: bookings.amountPaise,
      startTime: bookings.startTime,
      endTime: bookings.endTime,
      calendarSequence: bookings.calendarSequence,
      productName: catalogueItems.name,
    })
    .from(bookings)
    .innerJoin(catalogueItems, eq(catalogueItems.code, bookings.productCode))
    .leftJoin(swimmers, eq(swimmers.id, bookings.swimmerId))
    .where(eq(bookings.id, bookingId))
  if (!booking) throw new Error(`Booking ${bookingId} not found`)
  // The days and the venue in the query that reads the days; a booking without days is at the lab.
  const { days, venue } = (await daysAndVenues([bookingId], executor)).get(bookingId) ?? { days: [], venue: homeVenueNamed(await sessionLocationIn(executor)) }
  const title = booking.productName
  return { ...booking, days, title, venue }
}

/**
 * Where the booking takes place, as its e-mails list it: the lab's session location, or a venue away
 * with its address and, when it has one, a link to its map.
 */
export function venueRows(booking: Pick<BookingForMail, 'venue'>, label?: string): DetailRow[] {
  return venueDetails(booking.venue, label).map(({ term, value, href }) => [term, value, href])
}

/** Who swims, as every e-mail about a booking names them ("Swimmer: Asha Rao", the account holder or their child). */
export function swimmerRow(booking: Pick<BookingForMail, 'swimmerName'>): [string, string] {
  return ['Swimmer', booking.swimmerName]
}

/**
 * Who swims as an e-mail to the one who booked speaks of them: "you" when they swim themselves (the
 * same name), else the swimmer's first name ("We look forward to seeing Kavya in the pool").
 */
export function swimmerAddressed(booking: Pick<BookingForMail, 'swimmerName' | 'customerName'>) {
  return booking.swimmerName.trim().toLowerCase() === booking.customerName.trim().toLowerCase() ? 'you' : firstNameOf(booking.swimmerName)
}

export function dayRows(booking: BookingForMail): Array<[string, string]> {
  return bookingDayLines(booking.days).map(({ label, value }) => [label, value])
}

/** Where a customer finds the booking: My Bookings with an account, else their private link. */
export async function bookingLink(executor: Executor, booking: Pick<BookingForMail, 'userId' | 'reference'>) {
  if (booking.userId) return { label: 'View my bookings', url: `${config().SITE_URL}${href('/my-bookings')}` }
  return { label: 'View your booking', url: await privateLinkUrl(GUEST_BOOKING_LINK, booking.reference, executor) }
}

/** The booking's days as calendar events, one per day, each with a UID that stays with its day number. */
export function sessionEvents(booking: BookingForMail) {
  const map = mapLinkOf(booking.venue)
  return booking.days.map((day) => ({
    uid: `booking-${booking.reference}-day-${day.dayNumber}@swimlab`,
    date: day.date,
    start: day.start,
    end: day.end,
    summary: `${booking.days.length > 1 ? `${booking.title} (Day ${day.dayNumber} of ${booking.days.length})` : booking.title}: ${booking.swimmerName}`,
    location: venueLine(booking.venue),
    url: map,
    description: `Swimmer: ${booking.swimmerName}. Booking ${booking.reference}. ${IMPORTANT_INFORMATION.join(' ')}${map ? ` Map: ${map}` : ''}`,
  }))
}

export async function confirmationEmail(executor: Executor, bookingId: number, now: Date) {
  const booking = await bookingForMail(executor, bookingId)
  const ics = calendarFile(sessionEvents(booking), { now, sequence: booking.calendarSequence })
  return letter({
    to: booking.customerEmail,
    subject: `Booking confirmed: ${booking.title} (${booking.reference})`,
    name: booking.customerName,
    paragraphs: [`Your ${booking.title.toLowerCase()} is booked and paid. We look forward to seeing ${swimmerAddressed(booking)} in the pool.`],
    details: [['Booking ID', booking.reference], swimmerRow(booking), ...dayRows(booking), ...venueRows(booking), ...(await promoDetailRows(executor, { bookingId })), ['Amount paid', formatRupees(booking.amountPaise)]],
    list: { title: 'Before you come', items: IMPORTANT_INFORMATION },
    action: await bookingLink(executor, booking),
    closing: booking.days.length > 1 ? 'The attached calendar file adds every day of your session to your calendar.' : 'The attached calendar file adds your session to your calendar.',
    attachments: [calendarAttachment(ics, `${booking.reference}.ics`)],
  })
}

async function latePaymentEmail(executor: Executor, bookingId: number) {
  const booking = await bookingForMail(executor, bookingId)
  const refundPolicy = await refundPolicyIn(executor)
  return letter({
    to: booking.customerEmail,
    subject: `Your payment is being refunded (${booking.reference})`,
    name: booking.customerName,
    paragraphs: [
      `Your payment of ${formatRupees(booking.amountPaise)} reached us after the ${config().SEAT_HOLD_MINUTES}-minute hold on your time slot had ended, and in the meantime the slot was booked by someone else. We are sorry: we could not confirm this booking.`,
      `The full amount is being refunded ${refundPolicy}. You do not need to do anything. You are welcome to choose another time slot.`,
    ],
    details: [['Booking ID', booking.reference], swimmerRow(booking), ...dayRows(booking)],
    action: booking.userId ? { label: 'Choose another time slot', url: `${config().SITE_URL}${href('/book-slot')}` } : undefined,
  })
}

async function paymentFailedEmail(executor: Executor, bookingId: number) {
  const booking = await bookingForMail(executor, bookingId)
  return letter({
    to: booking.customerEmail,
    subject: `Payment failed: ${booking.title} (${booking.reference})`,
    name: booking.customerName,
    paragraphs: [
      `Your payment of ${formatRupees(booking.amountPaise)} for ${paidFor(booking)} did not go through, so the booking is not confirmed and the time slot is no longer held for you.`,
      'You can choose a time and pay again with the link below. If you have booked again already, please ignore this e-mail.',
    ],
    details: [['Booking ID', booking.reference], swimmerRow(booking), ...dayRows(booking)],
    action: { label: 'Try Again', url: bookAgainUrl(booking) },
  })
}

async function refundCompletedEmail(executor: Executor, bookingId: number, { amountPaise, how, creditNote }: CompletedRefund) {
  const booking = await bookingForMail(executor, bookingId)
  return letter({
    attachments: creditNote ? [creditNote] : undefined,
    to: booking.customerEmail,
    subject: `Refund completed (${booking.reference})`,
    name: booking.customerName,
    paragraphs: [`Your refund of ${formatRupees(amountPaise)} for booking ${booking.reference} ${refundedBy(how)}`],
    details: [['Booking ID', booking.reference], swimmerRow(booking), ['Refunded', formatRupees(amountPaise)]],
  })
}

/**
 * The number a booking's WhatsApp messages go to: the account holder's for a booking of an account,
 * the one a guest gave with the booking otherwise. Whether it may be messaged is notifyOnWhatsApp's to check.
 */
export async function bookingWhatsAppNumber(executor: Executor, booking: Pick<BookingForMail, 'userId' | 'customerPhone'>) {
  if (booking.userId === null) return booking.customerPhone
  const [account] = await executor.select({ phone: users.phone }).from(users).where(eq(users.id, booking.userId))
  return account?.phone ?? null
}

/** The booking's days as one line: "Day 1: Monday, 7 December 2026, 7:00 AM - 9:00 AM; Day 2: …", or the one day. */
export function sessionDaysLine(booking: Pick<BookingForMail, 'days'>) {
  return bookingDayLines(booking.days)
    .map(({ label, value }) => (booking.days.length > 1 ? `${label}: ${value}` : value))
    .join('; ')
}

/** What a booking's payment is for, in a message: "3-Day Analysis Session for Aarav Sharma". */
export function paidFor(booking: Pick<BookingForMail, 'title' | 'swimmerName'>) {
  return `${booking.title} for ${booking.swimmerName}`
}

/** Whose analysis a results message speaks of, by the swimmer's first name: "Aarav's biomechanical analysis". */
export function analysisOfBooking(booking: Pick<BookingForMail, 'swimmerName' | 'productCode' | 'productName'>) {
  return { swimmer: firstNameOf(booking.swimmerName), analysis: analysisNameOf(booking), text: `${firstNameOf(booking.swimmerName)}'s ${analysisNameOf(booking)}` }
}

/** How a completed refund came back, as the refund messages say it. */
export function refundedHow(how: CompletedRefund['how']) {
  return how === 'gateway'
    ? 'our payment provider has paid it back, and depending on your bank it can take a few days to show in your account'
    : 'our team has repaid you directly, not through the payment provider; if it has not reached you, please contact us'
}

/** The booking confirmation on WhatsApp, beside its e-mail (a paid booking, or one staff made). */
export async function tellConfirmedOnWhatsApp(tx: Executor, bookingId: number, now: Date) {
  await notifyOnWhatsApp(
    'booking_confirmed',
    async () => {
      const booking = await bookingForMail(tx, bookingId)
      return { phone: await bookingWhatsAppNumber(tx, booking), parameters: [booking.customerName, booking.title, booking.swimmerName, sessionDaysLine(booking), venueOnWhatsApp(booking.venue), booking.reference], names: [booking.customerName, booking.swimmerName], about: { bookingId } }
    },
    tx,
    now,
  )
}

async function tellLatePaymentOnWhatsApp(tx: Executor, bookingId: number, now: Date) {
  await notifyOnWhatsApp(
    'refund_started',
    async () => {
      const booking = await bookingForMail(tx, bookingId)
      const reason = `your payment reached us after the ${config().SEAT_HOLD_MINUTES}-minute hold on the time slot had ended, and meanwhile the slot was booked by someone else`
      return { phone: await bookingWhatsAppNumber(tx, booking), parameters: [paidFor(booking), booking.reference, reason, formatRupees(booking.amountPaise), await refundPolicyIn(tx)], names: [booking.swimmerName], about: { bookingId } }
    },
    tx,
    now,
  )
}

/**
 * Where a customer whose payment failed books again: the hold is gone, so it is the booking page
 * itself. A 3-day session is booked signed in, on /book-slot, opened at its first day (and for its
 * swimmer); a single session on /booking, with the service chosen.
 */
export function bookAgainUrl(booking: Pick<BookingForMail, 'productCode' | 'days' | 'swimmerId'>) {
  const analysisDayId = booking.days[0]?.analysisDayId
  if (analysisDayId) return `${config().SITE_URL}${analysisDayLink(analysisDayId)}`
  const single = SINGLE_SERVICES.find((service) => service.productCode === booking.productCode)
  if (single) return `${config().SITE_URL}${publicBookingLink({ service: single.value })}`
  const query = new URLSearchParams()
  if (booking.days[0]) query.set('date', booking.days[0].date)
  if (booking.swimmerId !== null) query.set('swimmer', String(booking.swimmerId))
  return `${config().SITE_URL}${bookSlotLink(query)}`
}

async function tellPaymentFailedOnWhatsApp(tx: Executor, bookingId: number, now: Date) {
  await notifyOnWhatsApp(
    'payment_failed',
    async () => {
      const booking = await bookingForMail(tx, bookingId)
      return { phone: await bookingWhatsAppNumber(tx, booking), parameters: [formatRupees(booking.amountPaise), paidFor(booking), booking.reference, bookAgainUrl(booking)], names: [booking.swimmerName], about: { bookingId } }
    },
    tx,
    now,
  )
}
