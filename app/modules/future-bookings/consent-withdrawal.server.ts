import { and, eq, isNull } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { guardianConsents, swimmers, users } from '~/db/schema'
import { formatLabDateTime } from '~/lib/lab-time'
import { CONSENT_WITHDRAWAL_LINK, isLinkKey } from '~/lib/private-links.server'
import { rowId } from '~/lib/row-id'
import { PRODUCT_NAME } from '~/lib/seo'
import { recordAudit, type PersonActing } from '~/modules/audit/audit.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { ConsentNotTheAccountsError, consentIsTheAccounts, NoConsentToWithdrawError, type AccountActing } from '~/modules/swimmers/consent.server'
import { cancelFutureBookings, futureBookingsOf, type FutureBooking } from './future-bookings.server'
import { firstNameOf } from '~/lib/person-name'
import type { Swimmer } from '~/modules/swimmers/swimmers.server'

/**
 * Withdraws the parent's consent for a child of the account: from now the swimmer cannot be booked,
 * their future sessions and camp places are cancelled under the refund policy (a full refund 24
 * hours or more before the start, none after), and the account is e-mailed what was done.
 */
export async function withdrawConsent({ account, swimmer, now = new Date() }: { account: AccountActing; swimmer: Swimmer; now?: Date }) {
  if (!consentIsTheAccounts(swimmer)) throw new ConsentNotTheAccountsError()
  const person = { id: account.id, email: account.email }
  const withdrawn = await markWithdrawn(person, { id: swimmer.id, name: swimmer.name }, now)
  if (!withdrawn) throw new NoConsentToWithdrawError()
  const cancelled = await cancelFutureBookings({ accountId: account.id, email: account.email, swimmerId: swimmer.id }, { person, reason: `Parent's consent for ${swimmer.name} was withdrawn.`, now })
  await enqueueEmail(
    letter({
      to: account.email,
      subject: `Consent withdrawn for ${swimmer.name}`,
      name: account.name,
      paragraphs: [`You have withdrawn your consent for ${swimmer.name}. We will not book anything for ${swimmer.name} until you give it again on the swimmer's consent page.`, cancelledParagraph(swimmer.name, cancelled)],
      ...cancelledList(cancelled),
    }),
    { swimmerId: swimmer.id },
    db(),
    now,
  )
  return cancelled
}

/**
 * Marks the swimmer's consent in force withdrawn and records who did it; false when none was in
 * force. Consent is withdrawn before anything is cancelled, so nothing new is booked for the swimmer
 * meanwhile.
 */
async function markWithdrawn(person: PersonActing, swimmer: { id: number; name: string }, now: Date) {
  return db().transaction(async (tx) => {
    const withdrawn = await tx
      .update(guardianConsents)
      .set({ withdrawnAt: now })
      .where(and(eq(guardianConsents.swimmerId, swimmer.id), isNull(guardianConsents.withdrawnAt)))
      .returning({ id: guardianConsents.id })
    if (withdrawn.length === 0) return false
    await recordAudit(tx, person, { action: 'consent.withdraw', entityType: 'swimmer', entityId: swimmer.id, summary: "Parent's consent for {swimmer} withdrawn", personal: { swimmer: swimmer.name }, about: { swimmerId: swimmer.id }, after: { consentIds: withdrawn.map((row) => row.id) } }, now)
    return true
  })
}

function cancelledParagraph(swimmerName: string, cancelled: FutureBooking[]) {
  return cancelled.length > 0
    ? 'We have cancelled their sessions and camp places still to come: those 24 hours or more away are refunded in full, the others are not. You will get an e-mail about each.'
    : `${swimmerName} had no sessions or camp places to come.`
}

function cancelledList(cancelled: FutureBooking[]) {
  if (cancelled.length === 0) return {}
  return { list: { title: 'Cancelled', items: cancelled.map((booking) => `${booking.title}, ${formatLabDateTime(booking.startsAt)} (${booking.reference}): ${booking.refundable ? 'refunded in full' : 'no refund'}`) } }
}

/**
 * A swimmer under 18 who holds their own account had consent from their parent through the e-mailed
 * link; the parent withdraws it through the link in the e-mail that confirmed it (they have no
 * account). The link's key signs the consent's id, so it opens that consent only, for as long as
 * the swimmer's profile exists.
 */
async function consentOfLink(consentId: string, key: string | null) {
  const id = rowId(consentId)
  if (id === null || !(await isLinkKey(CONSENT_WITHDRAWAL_LINK, consentId, key))) return null
  const [row] = await db()
    .select({
      consentId: guardianConsents.id,
      guardianEmail: guardianConsents.guardianEmail,
      givenAt: guardianConsents.givenAt,
      withdrawnAt: guardianConsents.withdrawnAt,
      swimmerId: swimmers.id,
      swimmerName: swimmers.name,
      accountId: users.id,
      accountName: users.name,
      accountEmail: users.email,
    })
    .from(guardianConsents)
    .innerJoin(swimmers, eq(swimmers.id, guardianConsents.swimmerId))
    .innerJoin(users, eq(users.id, swimmers.accountId))
    .where(and(eq(guardianConsents.id, id), eq(guardianConsents.method, 'consent_link')))
  return row ?? null
}

/**
 * What the parent's withdrawal page shows: the swimmer's first name, when consent was given and,
 * while it is in force, what withdrawing would cancel. Null for a link that does not check out.
 */
export async function consentWithdrawalView(consentId: string, key: string | null, now = new Date()) {
  const consent = await consentOfLink(consentId, key)
  if (!consent) return null
  const scope = { accountId: consent.accountId, email: consent.accountEmail, swimmerId: consent.swimmerId }
  return {
    swimmerFirstName: firstNameOf(consent.swimmerName),
    givenAt: consent.givenAt,
    withdrawnAt: consent.withdrawnAt,
    future: consent.withdrawnAt ? [] : await futureBookingsOf(scope, now),
  }
}

/**
 * The parent withdraws, through their link, the consent they gave: the swimmer cannot be booked,
 * their future sessions and camp places are cancelled under the refund policy, and both the swimmer
 * and the parent are told. Null for a link that does not check out; 'already' when it was withdrawn
 * before (nothing changes).
 */
export async function withdrawConsentByLink(consentId: string, key: string | null, now = new Date()): Promise<'withdrawn' | 'already' | null> {
  const consent = await consentOfLink(consentId, key)
  if (!consent) return null
  if (consent.withdrawnAt) return 'already'
  const person = { id: null, email: consent.guardianEmail }
  const swimmer = { id: consent.swimmerId, name: consent.swimmerName }
  if (!(await markWithdrawn(person, swimmer, now))) return 'already'
  const cancelled = await cancelFutureBookings({ accountId: consent.accountId, email: consent.accountEmail, swimmerId: consent.swimmerId }, { person, reason: `Parent's consent for ${swimmer.name} was withdrawn.`, now })
  const firstName = firstNameOf(swimmer.name)
  await enqueueEmail(
    letter({
      to: consent.accountEmail,
      subject: `Your parent has withdrawn their consent at ${PRODUCT_NAME}`,
      name: consent.accountName,
      paragraphs: [
        'Your parent or guardian has withdrawn their consent, so we will not book anything for you. If you want to swim with us again, you can ask them for their consent again from your account.',
        cancelled.length > 0
          ? 'We have cancelled your sessions and camp places still to come: those 24 hours or more away are refunded in full, the others are not. You will get an e-mail about each.'
          : 'You had no sessions or camp places to come.',
      ],
      ...cancelledList(cancelled),
    }),
    { swimmerId: swimmer.id },
    db(),
    now,
  )
  await enqueueEmail(
    letter({
      to: consent.guardianEmail,
      subject: `Consent withdrawn for ${firstName}`,
      name: 'parent or guardian',
      paragraphs: [
        `You have withdrawn your consent for ${firstName}. We will not book anything for them unless you agree again.`,
        cancelled.length > 0
          ? `We have cancelled ${firstName}'s sessions and camp places still to come: those 24 hours or more away are refunded in full to the payment they came from, the others are not.`
          : `${firstName} had no sessions or camp places to come.`,
      ],
      ...cancelledList(cancelled),
    }),
    { swimmerId: swimmer.id },
    db(),
    now,
  )
  return 'withdrawn'
}
