import { and, eq, isNull } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { guardianConsents } from '~/db/schema'
import { formatLabDateTime } from '~/lib/lab-time'
import { recordAudit } from '~/modules/audit/audit.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { ConsentNotTheAccountsError, consentIsTheAccounts, NoConsentToWithdrawError, type AccountActing } from './consent.server'
import { cancelFutureBookings } from './future-bookings.server'
import type { Swimmer } from './swimmers.server'

/**
 * Withdraws the parent's consent for a child of the account: from now the swimmer cannot be booked,
 * their future sessions and camp places are cancelled under the refund policy (a full refund 24
 * hours or more before the start, none after), and the account is e-mailed what was done.
 */
export async function withdrawConsent({ account, swimmer, now = new Date() }: { account: AccountActing; swimmer: Swimmer; now?: Date }) {
  if (!consentIsTheAccounts(swimmer)) throw new ConsentNotTheAccountsError()
  const person = { id: account.id, email: account.email }
  await db().transaction(async (tx) => {
    const withdrawn = await tx
      .update(guardianConsents)
      .set({ withdrawnAt: now })
      .where(and(eq(guardianConsents.swimmerId, swimmer.id), isNull(guardianConsents.withdrawnAt)))
      .returning({ id: guardianConsents.id })
    if (withdrawn.length === 0) throw new NoConsentToWithdrawError()
    await recordAudit(tx, person, { action: 'consent.withdraw', entityType: 'swimmer', entityId: swimmer.id, summary: `Parent's consent for ${swimmer.name} withdrawn`, after: { consentIds: withdrawn.map((row) => row.id) } }, now)
  })
  // Consent is withdrawn first, so nothing new is booked for the swimmer while these are cancelled.
  const cancelled = await cancelFutureBookings({ accountId: account.id, email: account.email, swimmerId: swimmer.id }, { person, reason: `Parent's consent for ${swimmer.name} was withdrawn.`, now })
  await enqueueEmail(
    letter({
      to: account.email,
      subject: `Consent withdrawn for ${swimmer.name}`,
      name: account.name,
      paragraphs: [
        `You have withdrawn your consent for ${swimmer.name}. We will not book anything for ${swimmer.name} until you give it again on the swimmer's consent page.`,
        cancelled.length > 0 ? 'We have cancelled their sessions and camp places still to come: those 24 hours or more away are refunded in full, the others are not. You will get an e-mail about each.' : `${swimmer.name} had no sessions or camp places to come.`,
      ],
      ...(cancelled.length > 0 ? { list: { title: 'Cancelled', items: cancelled.map((booking) => `${booking.title}, ${formatLabDateTime(booking.startsAt)} (${booking.reference}): ${booking.refundable ? 'refunded in full' : 'no refund'}`) } } : {}),
    }),
    db(),
    now,
  )
  return cancelled
}

