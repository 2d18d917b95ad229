import { sql } from 'drizzle-orm'
import { config } from '~/config.server'
import { db } from '~/db/client.server'
import { formatLongDate, labDateParts } from '~/lib/lab-time'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { notifyOnWhatsApp } from '~/modules/whatsapp/notify.server'
import { firstNameOf } from '~/lib/person-name'
import { bookSlotLink } from '~/lib/links'

/** Invitations go out from this time of the day they are due (Bangalore), not in the middle of the night. */
const INVITE_FROM = '09:00'

/** How many analyses one run claims at a time. */
const BATCH = 50

/**
 * Invites swimmers back for their next analysis: for each published analysis whose next analysis is
 * due (its day has come in Bangalore) and who has not been invited yet, e-mails the swimmer's
 * account (and sends its number a WhatsApp message) once with a link that books for that swimmer, and records the invitation. A swimmer who
 * already has a later confirmed booking is not asked (the analysis is looked at again next time, in
 * case that booking is cancelled); one with a later published analysis never will be, and the older
 * analysis is settled without an e-mail. Rows are claimed FOR UPDATE SKIP LOCKED, so instances
 * running this at the same moment never both send.
 */
export async function inviteBackForNextAnalysis(now = new Date()) {
  const { date: today, time } = labDateParts(now)
  if (time < INVITE_FROM) return 0
  let sent = 0
  for (;;) {
    const outcome = await db().transaction(async (tx) => {
      const { rows } = await tx.execute<{ id: number; swimmer_id: number; swimmer_name: string; email: string; phone: string | null; account_name: string; last_analysed_on: string; later_analysis: boolean }>(sql`
        SELECT a.id, a.swimmer_id, s.name AS swimmer_name, u.email, u.phone, u.name AS account_name, first_day.date::text AS last_analysed_on,
          EXISTS (
            SELECT 1 FROM analyses later
            JOIN booking_days later_day ON later_day.booking_id = later.booking_id AND later_day.day_number = 1
            WHERE later.swimmer_id = a.swimmer_id AND later.id <> a.id AND later.published_at IS NOT NULL
              AND (later_day.date, later.id) > (first_day.date, a.id)
          ) AS later_analysis
        FROM analyses a
        JOIN booking_days first_day ON first_day.booking_id = a.booking_id AND first_day.day_number = 1
        JOIN swimmers s ON s.id = a.swimmer_id
        JOIN users u ON u.id = s.account_id
        WHERE a.published_at IS NOT NULL AND a.invited_back_at IS NULL AND a.next_analysis_on <= ${today}
          AND u.disabled_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM bookings b2 WHERE b2.swimmer_id = a.swimmer_id AND b2.id <> a.booking_id AND b2.status = 'confirmed'
            AND EXISTS (SELECT 1 FROM booking_days d2 WHERE d2.booking_id = b2.id AND d2.day_number = 1 AND d2.date > first_day.date))
        ORDER BY a.next_analysis_on, a.id
        LIMIT ${BATCH}
        FOR UPDATE OF a SKIP LOCKED`)
      for (const row of rows) {
        await tx.execute(sql`UPDATE analyses SET invited_back_at = ${now.toISOString()}::timestamptz WHERE id = ${row.id}`)
        if (row.later_analysis) continue
        const first = firstNameOf(row.swimmer_name)
        const bookingUrl = `${config().SITE_URL}${bookSlotLink({ swimmer: String(row.swimmer_id) })}`
        await enqueueEmail(
          letter({
            to: row.email,
            subject: `Time for ${first}'s next analysis`,
            name: row.account_name,
            paragraphs: [
              `It is time for ${first}'s next swimming analysis. Analysed again, ${first} can see what the training since the last one has changed, figure by figure.`,
              `Choose a date and time for ${first} on the booking page.`,
            ],
            action: { label: `Book ${first}'s next analysis`, url: bookingUrl },
          }),
          { swimmerId: row.swimmer_id },
          tx,
          now,
        )
        await notifyOnWhatsApp('next_analysis_due', { phone: row.phone, parameters: [row.account_name, first, formatLongDate(row.last_analysed_on), bookingUrl], names: [row.account_name, first], about: { swimmerId: row.swimmer_id } }, tx, now)
        sent += 1
      }
      return rows.length
    })
    if (outcome < BATCH) return sent
  }
}
