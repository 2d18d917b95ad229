import { eq, inArray, or, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { bookings, campRegistrations, payments, receipts, users } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { formatPhone } from '~/lib/phone'
import { CODE_REFUSED, consumeCode, issueCode } from '~/modules/accounts/codes.server'
import { limitsFor } from '~/modules/rate-limit/limits.server'
import { verifyPassword } from '~/modules/accounts/passwords.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { enforce } from '~/modules/rate-limit/rate-limit.server'
import { futureBookingsOf } from '~/modules/future-bookings/future-bookings.server'
import { swimmerOf } from '~/modules/swimmers/swimmers.server'
import { whatsappEnabled } from '~/modules/whatsapp/config.server'
import { optInToWhatsApp, requestWhatsAppMessages } from '~/modules/whatsapp/consent.server'
import { accountErasedEmail, deletionCodeEmail } from './emails.server'
import { eraseAccount, eraseSwimmer, NotTheirSwimmerError } from './erasure.server'

export const WRONG_PASSWORD = 'That password is not right. Please try again, or ask for a code by e-mail instead.'

/** What deleting a swimmer (or, without one, the whole account) will do, for the page to list before it is confirmed. */
export async function deletionPlan(account: { id: number; email: string }, swimmerId: number | null, now = new Date()) {
  let swimmerName: string | null = null
  if (swimmerId !== null) {
    const swimmer = await swimmerOf(account.id, swimmerId)
    if (!swimmer || swimmer.isAccountHolder) throw new NotTheirSwimmerError()
    swimmerName = swimmer.name
  }
  const scope = { accountId: account.id, email: account.email, ...(swimmerId !== null ? { swimmerId } : {}) }
  const future = await futureBookingsOf(scope, now)
  const email = account.email.toLowerCase()
  const owned = swimmerId !== null
    ? or(inArray(payments.bookingId, db().select({ id: bookings.id }).from(bookings).where(eq(bookings.swimmerId, swimmerId))), inArray(payments.campRegistrationId, db().select({ id: campRegistrations.id }).from(campRegistrations).where(eq(campRegistrations.swimmerId, swimmerId))))
    : or(
        inArray(payments.bookingId, db().select({ id: bookings.id }).from(bookings).where(or(eq(bookings.userId, account.id), sql`lower(${bookings.customerEmail}) = ${email}`))),
        inArray(payments.campRegistrationId, db().select({ id: campRegistrations.id }).from(campRegistrations).where(or(eq(campRegistrations.accountId, account.id), sql`lower(${campRegistrations.email}) = ${email}`))),
      )
  const [invoices] = await db().select({ count: sql<number>`count(*)::int` }).from(receipts).innerJoin(payments, eq(payments.id, receipts.paymentId)).where(owned)
  return { swimmerName, future, invoices: invoices?.count ?? 0 }
}

/** E-mails a code that confirms a deletion instead of the password. Throws RateLimitedError. */
export async function sendDeletionCode({ accountId, ip, now = new Date() }: { accountId: number; ip: string; now?: Date }) {
  const [account] = await db().select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.id, accountId))
  if (!account) throw new DomainError('not_found', 'No such account')
  await enforce(limitsFor('codeSending', { ip, email: account.email }), now)
  await db().transaction(async (tx) => {
    const { code, expiresAt } = await issueCode(tx, account.id, 'delete_account', now)
    await enqueueEmail(deletionCodeEmail({ to: account.email, name: account.name, code, expiresAt }), { accountId: account.id }, tx, now)
  })
}

export type Confirmation = { password?: string; code?: string }

/**
 * Checks that the person deleting is the account holder: the account's password, or the code
 * e-mailed to it (single use). Attempts count against the same limits as signing in and entering
 * codes. Throws a DomainError next to the field that was wrong, or RateLimitedError.
 */
async function confirmHolder(accountId: number, { password, code }: Confirmation, ip: string, now: Date) {
  const [account] = await db().select({ email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.id, accountId))
  if (!account) throw new DomainError('not_found', 'No such account')
  if (code) {
    await enforce(limitsFor('codeEntry', { ip, email: account.email }), now)
    const check = await db().transaction((tx) => consumeCode(tx, accountId, 'delete_account', code, now))
    if (check.status !== 'ok') throw new DomainError('invalid', CODE_REFUSED, 'code')
    return
  }
  await enforce(limitsFor('signIn', { ip, email: account.email }), now)
  if (!password || !(await verifyPassword(account.passwordHash, password))) throw new DomainError('invalid', WRONG_PASSWORD, 'password')
}

/** Deletes the whole account once its holder has confirmed it; the last e-mail says it is done. */
export async function deleteAccount({ accountId, confirmation, ip, now = new Date() }: { accountId: number; confirmation: Confirmation; ip: string; now?: Date }) {
  await confirmHolder(accountId, confirmation, ip, now)
  return eraseAccount(accountId, { reason: 'The account holder deleted the account.', now, farewell: ({ email, cancelled }) => accountErasedEmail({ to: email, cancelled }) })
}

/** Deletes one swimmer of the account (not the holder's own profile) once the holder has confirmed it. */
export async function deleteSwimmer({ accountId, swimmerId, confirmation, ip, now = new Date() }: { accountId: number; swimmerId: number; confirmation: Confirmation; ip: string; now?: Date }) {
  const swimmer = await swimmerOf(accountId, swimmerId)
  if (!swimmer || swimmer.isAccountHolder) throw new NotTheirSwimmerError()
  await confirmHolder(accountId, confirmation, ip, now)
  return eraseSwimmer(accountId, swimmerId, { reason: 'The account holder deleted the swimmer profile.', now })
}

/**
 * Corrects the account holder's own details (the address is changed only by writing to the lab).
 * Another number is not proven the account's until its owner enters the code sent to it. A ticked
 * WhatsApp box (shown only while the site sends WhatsApp messages) turns messages on for a number
 * the holder proved theirs, and otherwise asks the number's owner to confirm; an unticked one
 * changes nothing.
 */
export async function updateProfile(
  accountId: number,
  { name, phone, currentLocation, whatsappOptIn = false }: { name: string; phone: string; currentLocation: string; whatsappOptIn?: boolean },
  now = new Date(),
) {
  await db().transaction(async (tx) => {
    const [saved] = await tx
      .update(users)
      .set({ name, phone, currentLocation, phoneVerifiedAt: sql`CASE WHEN ${users.phone} = ${phone} THEN ${users.phoneVerifiedAt} END`, updatedAt: now })
      .where(eq(users.id, accountId))
      .returning({ provenAt: users.phoneVerifiedAt })
    if (!whatsappOptIn || !whatsappEnabled()) return
    if (saved?.provenAt) await optInToWhatsApp({ phone, source: 'account' }, tx, now)
    else await requestWhatsAppMessages({ phone, source: 'account' }, tx, now)
  })
}

/** The account holder's own details, as the correction form shows them. */
export async function profileOf(accountId: number) {
  const [row] = await db().select({ name: users.name, phone: users.phone, currentLocation: users.currentLocation }).from(users).where(eq(users.id, accountId))
  return row ? { name: row.name, phone: row.phone ? formatPhone(row.phone) : '', currentLocation: row.currentLocation ?? '' } : null
}
