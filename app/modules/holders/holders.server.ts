import { createHash } from 'node:crypto'
import { lockKeys } from '~/db/advisory-locks.server'
import { and, eq, gt, isNotNull, or, sql } from 'drizzle-orm'
import { unionAll } from 'drizzle-orm/pg-core'
import { bookings, campRegistrations } from '~/db/schema'
import { formatLabClockTime } from '~/lib/lab-time'
import type { Executor } from '~/db/client.server'
import { DomainError } from '~/lib/domain-error'
import { setStatus } from '~/modules/statuses/status.server'
import { enforce, type RateLimitRule } from '~/modules/rate-limit/rate-limit.server'
import { campSeatFreed } from '~/modules/statuses/camp-seat-freed.server'

/**
 * Whoever asks to hold a seat (a session's or a camp's) before paying for it. Seats held and never
 * paid for are lost to everyone else, so what one visitor may hold is bounded however many e-mail
 * addresses they type:
 * - one unpaid hold per browser and per account: a new hold releases the earlier one;
 * - one unpaid hold per e-mail address: a hold made elsewhere for the same address is not
 *   released by a stranger who types it, so the new one is refused until that one is paid or ends
 *   (a signed-in owner of the address, who has proved it, releases it instead);
 * - at most MAX_UNPAID_HOLDS_PER_NETWORK unpaid holds per client network (IPv4 address or IPv6
 *   /64), whatever the addresses and browsers, so hoarding takes many networks, not a script;
 * - and attempts, each of which may create an order at the payment gateway, are rate-limited per
 *   network and per e-mail address.
 * Seats offered from a camp's waitlist are held by the lab, not the visitor, and do not count.
 */
export type Holder = {
  /** The signed-in account, whose e-mail address is verified. */
  userId: number | null
  email: string
  /** clientNetwork() of the client's address. */
  network: string
  /** The SHA-256 of the browser's holder cookie; null when it sent none. */
  browser: string | null
}

/** Several people may share one public address (a family, an office, a mobile carrier), so a few holds each. */
export const MAX_UNPAID_HOLDS_PER_NETWORK = 3

/** How often one network and one e-mail address may try to hold a seat or start a payment. */
export const HOLD_ATTEMPT_LIMITS = {
  perNetwork: { limit: 30, windowSeconds: 10 * 60 },
  perEmail: { limit: 10, windowSeconds: 10 * 60 },
} satisfies Record<string, RateLimitRule>

/** An unpaid hold for the same e-mail address, made in another browser, is still running. */
export class UnpaidHoldExistsError extends DomainError {
  constructor(readonly endsAt: Date) {
    super('conflict', `A booking for this e-mail address is already waiting for payment. Please complete that payment, or try again after ${formatLabClockTime(endsAt)}, when its hold ends.`)
  }
}

/** The client's network already holds as many unpaid seats as it may. */
export class TooManyUnpaidHoldsError extends DomainError {
  constructor(readonly endsAt: Date) {
    super('conflict', `Too many bookings from your network are waiting for payment. Please complete one of them, or try again after ${formatLabClockTime(endsAt)}.`)
  }
}

/** The counter of attempts to hold under an address (erased with the address's proven owner). */
export const holdAttemptsKey = (email: string) => `hold:email:${email.toLowerCase()}`

/** Counts an attempt to hold or pay; throws RateLimitedError past HOLD_ATTEMPT_LIMITS. */
export function limitHoldAttempts(holder: Pick<Holder, 'network' | 'email'>, now = new Date(), executor?: Executor) {
  return enforce(
    [
      { key: `hold:network:${holder.network}`, rule: HOLD_ATTEMPT_LIMITS.perNetwork },
      { key: holdAttemptsKey(holder.email), rule: HOLD_ATTEMPT_LIMITS.perEmail },
    ],
    now,
    executor,
  )
}

/**
 * Makes room for one new unpaid hold of `holder`, inside the transaction that then inserts it:
 * releases the holder's earlier unpaid holds, and throws if the address or the network may not hold
 * another. Takes a transaction-scoped lock per account, address, browser and network first, so
 * parallel requests of one holder (on any number of instances) are decided one after the other.
 */
export async function makeRoomForHold(tx: Executor, holder: Holder, now: Date) {
  const email = holder.email.toLowerCase()
  const keys = [`email:${email}`, `network:${holder.network}`]
  if (holder.userId !== null) keys.push(`user:${holder.userId}`)
  if (holder.browser) keys.push(`browser:${holder.browser}`)
  await lockKeys(tx, keys.map((key) => `unpaid-hold:${key}`))

  if (await releaseHolds(tx, holder, now)) await campSeatFreed(tx)

  const others = await unpaidHolds(tx, { email, network: holder.network }, now)
  const sameEmail = others.filter((hold) => hold.email === email)
  if (sameEmail.length > 0) throw new UnpaidHoldExistsError(earliest(sameEmail))
  const sameNetwork = others.filter((hold) => hold.network === holder.network)
  if (sameNetwork.length >= MAX_UNPAID_HOLDS_PER_NETWORK) throw new TooManyUnpaidHoldsError(earliest(sameNetwork))
}

/** The columns that record who made a hold, for the row being inserted. */
export function holderColumns(holder: Holder) {
  return { holderNetwork: holder.network, holderBrowser: holder.browser }
}

/** The SHA-256 of a browser's holder token, as stored: the token itself is never kept. */
export function browserFingerprint(token: string) {
  return createHash('sha256').update(token).digest('base64url')
}

/** A visitor's hold has a network; seats held by staff or offered from a waitlist have none. */
const visitorBooking = and(eq(bookings.status, 'pending'), isNotNull(bookings.holderNetwork))
const visitorRegistration = and(eq(campRegistrations.status, 'pending'), isNotNull(campRegistrations.holderNetwork))

/** A holder as the owner of bookings: each value null where it owns none that way. */
export type BookingOwner = { userId: number | null; email: string | null; browser: string | null }

/**
 * The holder's own bookings are those of the signed-in account, those for its address (which it
 * has proved), and those made in this browser. A new hold releases those of them that are unpaid.
 */
export function ownerOf(holder: Holder): BookingOwner {
  return { userId: holder.userId, email: holder.userId !== null ? holder.email.toLowerCase() : null, browser: holder.browser }
}

/** The bookings `owner` owns, for the database (a null value matches no booking). */
export function ownBookings(owner: BookingOwner) {
  return or(sql`${bookings.userId} = ${owner.userId}`, sql`lower(${bookings.customerEmail}) = ${owner.email}`, sql`${bookings.holderBrowser} = ${owner.browser}`)
}

/** Whether `owner` owns a booking already read: the same rule as ownBookings. */
export function ownsBooking(owner: BookingOwner, booking: { userId: number | null; customerEmail: string; holderBrowser: string | null }) {
  return (
    (owner.userId !== null && booking.userId === owner.userId) ||
    (owner.email !== null && booking.customerEmail.toLowerCase() === owner.email) ||
    (owner.browser !== null && booking.holderBrowser === owner.browser)
  )
}

/**
 * Releases the holder's own unpaid holds: those of this browser, and of the signed-in account (which
 * has proved its address, so holds made for that address elsewhere are its own too). Returns
 * whether a camp seat was freed.
 */
async function releaseHolds(tx: Executor, holder: Holder, now: Date) {
  const email = holder.email.toLowerCase()
  const signedIn = holder.userId !== null
  await setStatus(tx, bookings, 'expired', ownBookings(ownerOf(holder)), { updatedAt: now })
  const registrationOwner = or(signedIn ? eq(campRegistrations.email, email) : undefined, holder.browser ? eq(campRegistrations.holderBrowser, holder.browser) : undefined)
  if (!registrationOwner) return false
  const released = await setStatus(tx, campRegistrations, 'expired', and(visitorRegistration, registrationOwner), { updatedAt: now }).returning({ id: campRegistrations.id })
  return released.length > 0
}

type UnpaidHold = { email: string; network: string | null; endsAt: Date }

/** Visitors' running unpaid holds, of every product, for an e-mail address or from a network. */
async function unpaidHolds(tx: Executor, { email, network }: { email: string; network: string }, now: Date): Promise<UnpaidHold[]> {
  const fromBookings = tx
    .select({ email: sql<string>`lower(${bookings.customerEmail})`, network: bookings.holderNetwork, endsAt: bookings.holdExpiresAt })
    .from(bookings)
    .where(and(visitorBooking, gt(bookings.holdExpiresAt, now), or(sql`lower(${bookings.customerEmail}) = ${email}`, eq(bookings.holderNetwork, network))))
  const fromRegistrations = tx
    .select({ email: campRegistrations.email, network: campRegistrations.holderNetwork, endsAt: campRegistrations.holdExpiresAt })
    .from(campRegistrations)
    .where(and(visitorRegistration, gt(campRegistrations.holdExpiresAt, now), or(eq(campRegistrations.email, email), eq(campRegistrations.holderNetwork, network))))
  // Both in one statement: it runs while the holder's locks are held.
  const holds = await unionAll(fromBookings, fromRegistrations)
  return holds.map((hold) => ({ email: hold.email.toLowerCase(), network: hold.network, endsAt: hold.endsAt! }))
}

function earliest(holds: UnpaidHold[]) {
  return new Date(Math.min(...holds.map((hold) => hold.endsAt.getTime())))
}
