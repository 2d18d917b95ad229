import { and, eq } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { bookingDays, bookings, campRegistrations, camps, remindersSent } from '~/db/schema'
import { sessionLocationIn } from '~/modules/site/site.server'
import { addDays, formatLongDate, formatTimeRange, formatWeekdayDate, labDateParts } from '~/lib/lab-time'
import { bookingForMail, bookingWhatsAppNumber, swimmerAddressed, swimmerRow, venueRows } from '~/modules/booking/fulfilment.server'
import { IMPORTANT_INFORMATION, venueOnWhatsApp } from '~/modules/booking/texts'
import { batchLine, batchTimes, registrationDetails } from '~/modules/camps/fulfilment.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'

/** Reminders for tomorrow go out from this time today (Bangalore), not in the middle of the night. */
const REMINDER_SEND_FROM = '09:00'

/**
 * Sends the reminders due: for every session day and every camp that begins tomorrow (in
 * Bangalore), to each confirmed customer, once. Each reminder is claimed by inserting its row in
 * reminders_sent in the same transaction as its e-mail (and its WhatsApp message: before Day 1 of a
 * session, and before a camp); the primary key lets exactly one instance win, however many run this
 * at the same moment.
 */
export async function sendDueReminders(now = new Date()) {
  const { date: today, time } = labDateParts(now)
  if (time < REMINDER_SEND_FROM) return 0
  const tomorrow = addDays(today, 1)
  const sessions = await db()
    .select({ bookingId: bookingDays.bookingId, dayNumber: bookingDays.dayNumber })
    .from(bookingDays)
    .innerJoin(bookings, eq(bookings.id, bookingDays.bookingId))
    .where(and(eq(bookingDays.date, tomorrow), eq(bookings.status, 'confirmed')))
  const campers = await db()
    .select({ registrationId: campRegistrations.id })
    .from(campRegistrations)
    .innerJoin(camps, eq(camps.id, campRegistrations.campId))
    .where(and(eq(camps.startsOn, tomorrow), eq(campRegistrations.status, 'confirmed')))

  let sent = 0
  for (const session of sessions) {
    if (await claimAndSend('session', session.bookingId, tomorrow, now, (tx) => sessionReminder(tx, session.bookingId, session.dayNumber, now))) sent += 1
  }
  for (const camper of campers) {
    if (await claimAndSend('camp', camper.registrationId, tomorrow, now, (tx) => campReminder(tx, camper.registrationId, now))) sent += 1
  }
  return sent
}

async function claimAndSend(kind: 'session' | 'camp', targetId: number, onDate: string, now: Date, compose: (tx: Executor) => Promise<Parameters<typeof enqueueEmail>[0]>) {
  return db().transaction(async (tx) => {
    const [claimed] = await tx.insert(remindersSent).values({ kind, targetId, onDate, sentAt: now }).onConflictDoNothing().returning({ targetId: remindersSent.targetId })
    if (!claimed) return false
    await enqueueEmail(await compose(tx), kind === 'session' ? { bookingId: targetId } : { campRegistrationId: targetId }, tx, now)
    return true
  })
}

async function sessionReminder(tx: Executor, bookingId: number, dayNumber: number, now: Date) {
  const booking = await bookingForMail(tx, bookingId)
  const day = booking.days.find((candidate) => candidate.dayNumber === dayNumber)!
  // On WhatsApp only the first day is announced: the days after follow on from it, and the e-mail reminds of each.
  if (dayNumber === 1) {
    const when = `${formatWeekdayDate(day.date)}, ${formatTimeRange(day.start, day.end)}`
    await notifyOnWhatsApp(
      'session_reminder',
      async () => ({ phone: await bookingWhatsAppNumber(tx, booking), parameters: [booking.customerName, booking.title.toLowerCase(), booking.swimmerName, booking.reference, when, venueOnWhatsApp(booking.venue)], names: [booking.customerName, booking.swimmerName], about: { bookingId } }),
      tx,
      now,
    )
  }
  const which = booking.days.length > 1 ? `Day ${day.dayNumber} of your ${booking.title.toLowerCase()}` : `Your ${booking.title.toLowerCase()}`
  return letter({
    to: booking.customerEmail,
    subject: `Reminder: ${which} is tomorrow, ${formatTimeRange(day.start, day.end)}`,
    name: booking.customerName,
    paragraphs: [`${which} is tomorrow. We look forward to seeing ${swimmerAddressed(booking)} in the pool!`],
    details: [
      swimmerRow(booking),
      ['When', `${formatWeekdayDate(day.date)}, ${formatTimeRange(day.start, day.end)}`],
      ...venueRows(booking, 'Where'),
      ['Booking ID', booking.reference],
    ],
    list: { title: 'Please remember', items: IMPORTANT_INFORMATION },
  })
}

async function campReminder(tx: Executor, registrationId: number, now: Date) {
  const mail = await registrationDetails(tx, registrationId)
  const location = await sessionLocationIn(tx)
  await notifyOnWhatsApp('camp_reminder', { phone: mail.phone, parameters: [mail.campName, formatLongDate(mail.startsOn), mail.swimmerName, mail.reference, batchLine(mail), mail.venue || location], names: [mail.swimmerName], about: { campRegistrationId: registrationId } }, tx, now)
  return letter({
    to: mail.email,
    subject: `Reminder: ${mail.campName} starts tomorrow`,
    name: mail.swimmerName,
    paragraphs: [`${mail.campName} starts tomorrow, ${formatLongDate(mail.startsOn)}, and runs until ${formatLongDate(mail.endsOn)}. We look forward to seeing ${mail.swimmerName}!`],
    details: [
      ['Batch', `${mail.batchName}: ${batchTimes(mail.timeRanges)}, every day`],
      ['Where', mail.venue || location],
      ['Registration ID', mail.reference],
    ],
    list: { title: 'Please bring', items: ['Swimming gear and a towel', 'A water bottle', 'Arrive 15 minutes before your batch'] },
  })
}
